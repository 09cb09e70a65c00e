// @ts-check
//! Words on the page: Chinese first, English a switch. The server's rule messages arrive in both
//! languages and are shown as they come; everything else is here.

import { settings } from './settings.js';

/** @type {Record<string, { zh: string, en: string }>} */
const WORDS = {
  title: { zh: '牌局', en: 'Paiju' },
  tagline: { zh: '80分 与 够级 · 网上牌桌', en: '80 Points and Gouji · card tables online' },
  language: { zh: 'English', en: '中文' },
  language_label: { zh: '切换到英文', en: 'Switch to Chinese' },
  settings: { zh: '设置', en: 'Settings' },
  four_colour: { zh: '四色花色', en: 'Four-colour suits' },
  sound: { zh: '轮到我时响铃', en: 'Sound on my turn' },
  your_name: { zh: '您的名字', en: 'Your name' },
  name_placeholder: { zh: '例如：王阿姨', en: 'e.g. Auntie Wang' },
  tables: { zh: '牌桌', en: 'Tables' },
  no_tables: { zh: '现在没有牌桌。请开一张新桌。', en: 'No tables yet. Open a new one.' },
  refresh: { zh: '刷新', en: 'Refresh' },
  create_table: { zh: '开新桌', en: 'Open a table' },
  game: { zh: '游戏', en: 'Game' },
  shengji: { zh: '80分', en: '80 Points' },
  gouji: { zh: '够级', en: 'Gouji' },
  humans: { zh: '几位真人玩？（其余座位由电脑补上）', en: 'How many people? (Computers take the other seats)' },
  humans_n: { zh: '{n} 人', en: '{n}' },
  create: { zh: '开桌', en: 'Open' },
  join_by_code: { zh: '用桌号加入', en: 'Join by table code' },
  code: { zh: '桌号', en: 'Table code' },
  join: { zh: '加入', en: 'Join' },
  watch: { zh: '观战', en: 'Watch' },
  sit: { zh: '坐下', en: 'Sit' },
  free_seats: { zh: '空位', en: 'Free seats' },
  spectators: { zh: '观众', en: 'Watching' },
  back_to_lobby: { zh: '回大厅', en: 'Lobby' },
  invite: { zh: '邀请朋友', en: 'Invite friends' },
  invite_text: { zh: '把这个链接发给朋友，或告诉他们桌号：', en: 'Send this link to friends, or tell them the table code:' },
  copy_link: { zh: '复制链接', en: 'Copy link' },
  copied: { zh: '已复制', en: 'Copied' },
  choose_seat: { zh: '请选一个座位', en: 'Choose a seat' },
  bot: { zh: '电脑', en: 'Computer' },
  empty_seat: { zh: '空位', en: 'Empty' },
  need_name: { zh: '请先写上您的名字', en: 'Please enter your name first' },
  // Connection.
  connecting: { zh: '正在连接…', en: 'Connecting…' },
  reconnecting: { zh: '正在重新连接…', en: 'Reconnecting…' },
  rebuilding: { zh: '牌桌正在恢复，马上回来…', en: 'The table is being restored; back in a moment…' },
  // Notices: moves the player did not make, told in plain words until dismissed.
  notices_ok: { zh: '知道了', en: 'Got it' },
  you: { zh: '您', en: 'you' },
  did_move: { zh: '走了一步', en: 'made a move' },
  note_clock: { zh: '时间到，系统替{who}{what}', en: 'Time ran out: {what} for {who}' },
  note_auto: { zh: '托管：系统替{who}{what}', en: 'Auto-play: {what} for {who}' },
  note_referee: { zh: '裁判对{who}：{what}', en: 'Referee, for {who}: {what}' },
  note_reason: { zh: '理由：{reason}', en: 'Reason: {reason}' },
  note_moved: { zh: '{who}{what}', en: '{who}: {what}' },
  note_away: { zh: '您离线时：{items}', en: 'While you were away: {items}' },
  note_away_lost: { zh: '您离线时牌局继续了，从您手里出去的牌：{cards}', en: 'While you were away the game went on; cards that left your hand: {cards}' },
  note_away_moved: { zh: '您离线时牌局继续了', en: 'While you were away the game went on' },
  note_not_sent: { zh: '您刚才那步没有送出，请重新选牌', en: 'your last move was not sent; please choose again' },
  sentence_gap: { zh: '。', en: '. ' },
  list_gap: { zh: '；', en: '; ' },
  paren: { zh: '（{x}）', en: ' ({x})' },
  // What a move did, for the notices.
  did_play: { zh: '出了{cards}', en: 'played {cards}' },
  did_bury: { zh: '扣了 {n} 张底牌', en: 'buried {n} cards' },
  did_choose_single: { zh: '选了出单张', en: 'chose the single' },
  did_choose_pair: { zh: '选了出对子', en: 'chose the pair' },
  did_warning: { zh: '警告一次', en: 'a warning' },
  did_penalty: { zh: '罚 {n} 分', en: 'a penalty of {n} points' },
  did_end_board: { zh: '本副判为结束', en: 'the board was ended' },
  did_beat: { zh: '管上{cards}', en: 'beat with {cards}' },
  did_burn: { zh: '烧了{cards}', en: 'burned with {cards}' },
  did_pass: { zh: '过牌', en: 'passed' },
  did_yield: { zh: '让牌', en: 'yielded' },
  did_decline: { zh: '不烧', en: 'declined to burn' },
  did_ruling: { zh: '{ruling}（{offence}）', en: '{ruling} ({offence})' },
  ruling_warning: { zh: '警告', en: 'a warning' },
  ruling_deduction: { zh: '扣 {n} 分', en: 'a deduction of {n} points' },
  ruling_forfeit: { zh: '判负', en: 'a forfeit' },
  offence_signals: { zh: '打暗号', en: 'signals' },
  offence_peeking_folded: { zh: '偷看扣下的牌', en: 'peeking at folded cards' },
  offence_leaving_seat: { zh: '离开座位', en: 'leaving the seat' },
  offence_wrong_card_count: { zh: '报错张数', en: 'a wrong card count' },
  offence_wrong_count_answer: { zh: '问牌答错', en: 'a wrong answer to 问牌' },
  offence_cheating: { zh: '作弊', en: 'cheating' },
  offence_refusing_referee: { zh: '不服从裁判', en: 'refusing the referee' },
  offence_other: { zh: '其他犯规', en: 'another offence' },
  // Playing.
  play: { zh: '出牌', en: 'Play' },
  clear: { zh: '重选', en: 'Clear' },
  your_turn: { zh: '轮到您出牌', en: 'Your turn' },
  waiting_for: { zh: '等待 {name}', en: 'Waiting for {name}' },
  seconds: { zh: '{n} 秒', en: '{n} s' },
  selected: { zh: '已选 {n} 张', en: '{n} selected' },
  select_cards: { zh: '点牌选中，再按「出牌」', en: 'Tap cards to select, then press Play' },
  last_trick: { zh: '上一轮', en: 'Last trick' },
  hide_last_trick: { zh: '收起上一轮', en: 'Hide last trick' },
  current_trick: { zh: '本轮', en: 'This trick' },
  winning: { zh: '最大', en: 'winning' },
  leader: { zh: '首家', en: 'led' },
  hand: { zh: '我的牌', en: 'My hand' },
  cards_left: { zh: '剩 {n} 张', en: '{n} left' },
  offline: { zh: '掉线', en: 'offline' },
  auto_play: { zh: '托管', en: 'auto' },
  spectating: { zh: '您在观战', en: 'You are watching' },
  // 80分.
  board: { zh: '第 {n} 副', en: 'Board {n}' },
  level: { zh: '打 {r}', en: 'Level {r}' },
  trump: { zh: '主', en: 'Trump' },
  no_trump: { zh: '无主', en: 'No trump' },
  jokers: { zh: '王', en: 'Jokers' },
  declarer: { zh: '庄家', en: 'Declarer' },
  defenders_points: { zh: '闲家得分', en: "Defenders' points" },
  penalties: { zh: '罚分', en: 'Penalties' },
  bury: { zh: '扣底', en: 'Bury' },
  bury_prompt: { zh: '请选 {n} 张牌扣底', en: 'Choose {n} cards to bury' },
  bury_prompt_any: { zh: '请选牌扣底', en: 'Choose the cards to bury' },
  hint: { zh: '提示', en: 'Hint' },
  kitty: { zh: '底牌', en: 'Kitty' },
  throw_failed: { zh: '甩牌失败', en: 'Throw failed' },
  attempted: { zh: '想甩', en: 'Attempted' },
  blocked_by: { zh: '被 {who} 挡住', en: 'Blocked by {who}' },
  penalty_points: { zh: '罚 {n} 分', en: 'Penalty {n} points' },
  forced_unit: { zh: '改出', en: 'Must play instead' },
  choose_forced: { zh: '请您指定对方改出哪一手', en: 'Choose what the thrower must play' },
  choose_single: { zh: '出单张', en: 'The single' },
  choose_pair: { zh: '出对子/拖拉机', en: 'The pair / tractor' },
  board_result: { zh: '本副结果', en: 'Board result' },
  kitty_capture: { zh: '抠底 ×{m}', en: 'Kitty capture ×{m}' },
  result_points: { zh: '闲家共得 {n} 分', en: 'Defenders took {n} points' },
  review: { zh: '复盘', en: 'Review' },
  trick_n: { zh: '第 {n} 轮', en: 'Trick {n}' },
  prev: { zh: '上一步', en: 'Previous' },
  next: { zh: '下一步', en: 'Next' },
  close: { zh: '关闭', en: 'Close' },
  // 够级.
  game_n: { zh: '第 {n} 局', en: 'Game {n}' },
  opposite: { zh: '对头', en: 'Opposite' },
  team: { zh: '联邦', en: 'Team' },
  team_a: { zh: 'A 队', en: 'Team A' },
  team_b: { zh: 'B 队', en: 'Team B' },
  pass: { zh: '过', en: 'Pass' },
  yield: { zh: '让', en: 'Yield' },
  burn: { zh: '烧', en: 'Burn' },
  no_burn: { zh: '不烧', en: "Don't burn" },
  burn_prompt: { zh: '要烧 {who} 的级牌吗？', en: "Burn {who}'s gouji set?" },
  burning: { zh: '烧牌中', en: 'burning' },
  ask_count: { zh: '问牌', en: 'Ask count' },
  count_answer: { zh: '{who} 还有 {n} 张', en: '{who} has {n} cards' },
  count_more: { zh: '{who} 多于 {n} 张', en: '{who} has more than {n}' },
  set_builder: { zh: '要出的牌', en: 'Set to play' },
  set_empty: { zh: '点上面的牌组选牌', en: 'Tap a group above to choose cards' },
  gouji_set: { zh: '够级！', en: 'Gouji set!' },
  prompt_cannot_beat: { zh: '现在不能管这手牌，只能过', en: 'You cannot beat this set now; pass' },
  prompt_joker: { zh: '烧牌中，出的牌要带王（最后一套除外）', en: 'While burning, a set you lead needs a joker (except your last)' },
  burn_failed: { zh: '烧牌失误', en: 'failed burn' },
  top_set: { zh: '桌上', en: 'On the table' },
  opened: { zh: '开点', en: 'opened' },
  marked: { zh: '点', en: 'marked' },
  finishing_order: { zh: '出完顺序', en: 'Finishing order' },
  scores: { zh: '比分', en: 'Scores' },
  game_result: { zh: '本局结果', en: 'Game result' },
  place_1: { zh: '头科', en: '1st' },
  place_2: { zh: '二科', en: '2nd' },
  place_3: { zh: '三科', en: '3rd' },
  place_4: { zh: '四科', en: '4th' },
  place_5: { zh: '二落', en: '5th' },
  place_6: { zh: '大落', en: 'Last' },
  four_free: { zh: '四户乱缠', en: 'Four-way free play' },
  more: { zh: '多一张', en: 'One more' },
  less: { zh: '少一张', en: 'One less' },
};

/** The current language. */
export function lang() {
  return settings().lang;
}

/**
 * A word in the current language, with `{name}` placeholders filled.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const w = WORDS[key];
  const text = w ? w[lang()] : key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

/**
 * Picks the message of the current language out of a server message with both.
 * @param {{ zh?: string, en?: string } | undefined | null} m
 */
export function pick(m) {
  if (!m) return '';
  return (lang() === 'en' ? m.en || m.zh : m.zh || m.en) ?? '';
}
