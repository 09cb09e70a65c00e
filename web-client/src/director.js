// @ts-check
//! 裁判长控制台 (the director's console, director.html): the director's token (remembered on this
//! device until 忘记; `director.html#token=…`, the director's link, gives it in one tap), the events, a new event with its entries pasted one pair a line, the seating and
//! movement cards to print, starting and closing rounds, every table's state and results,
//! adjusted and artificial results, deductions, the seed revealed at the end, the results to
//! print or download; for a 够级 team event the teams pasted one a line, the draw, every match
//! and game, team deductions and the team ranking (gouji-event.js). Every call is the events API (docs/tournaments.md) with
//! `Authorization: Bearer <director token>`; the console decides nothing itself.

import { h, replace } from './dom.js';
import {
  clockLine, eventCall, errorBox, header, lang, playerNames, rankingTable, roundClock, runPage, seedFacts,
  stateWord, tableResults, travellers, wordIn,
} from './standings.js';
import { g, gameResults, parseTeams, stageView, teamList, teamRanking } from './gouji-event.js';
import { seatNames } from './seats.js';

/** The console's own words (the event pages' words are shared). @type {import('./standings.js').Words} */
const WORDS = {
  console: { zh: '裁判长控制台', en: 'Director’s console' },
  token: { zh: '裁判长凭证', en: 'Director token' },
  token_hint: { zh: '服务器启动时设的 --director-token；打开一次裁判长链接（director.html#token=…）也行。这台设备会记住它，直到按「忘记」。', en: 'The --director-token the server was started with; or open the director’s link (director.html#token=…) once. This device remembers it until you press Forget.' },
  use_token: { zh: '使用此凭证', en: 'Use this token' },
  token_set: { zh: '已输入凭证', en: 'Token entered' },
  token_kept: { zh: '这台设备记着裁判长凭证（…{tail}）。在别人也用的设备上，用完请按「忘记」。', en: 'This device remembers the director’s token (…{tail}). On a shared device, press Forget when done.' },
  forget_token: { zh: '忘记凭证', en: 'Forget the token' },
  registered_h: { zh: '已登记 {n} 对', en: '{n} pairs registered' },
  registered_teams_h: { zh: '已登记 {n} 队', en: '{n} teams registered' },
  add_entries: { zh: '添加报名', en: 'Add the entries' },
  replace_entries: { zh: '替换全部报名', en: 'Replace all the entries' },
  add_hint: { zh: '「添加报名」把上面写的加进已登记的名单，谁也不会被删；「替换全部报名」用上面写的换掉整个名单（会先问您）。', en: '“Add the entries” adds what you wrote to those registered, removing nobody; “Replace all the entries” puts what you wrote in place of the whole list (it asks first).' },
  added_kept: { zh: '已添加 {k} 个，占了电脑的位置。已登记的选手凭证不变：只需打印新加的座位卡。', en: '{k} added, in computers\' places. The registered players keep their tokens: print only the new cards.' },
  replace_sure: { zh: '替换后，下面这些不再参赛：{lost}\n已经打印的座位卡都不能再用，登记后请重新打印。\n确定替换整个名单吗？', en: 'After replacing, these no longer play: {lost}\nThe seating cards printed so far stop working; print them again afterwards.\nReplace the whole list?' },
  replace_sure_none: { zh: '已经打印的座位卡都不能再用，登记后请重新打印。确定替换整个名单吗？', en: 'The seating cards printed so far stop working; print them again afterwards. Replace the whole list?' },
  nothing_to_add: { zh: '请您先在上面写要添加的报名（每行一个）。', en: 'First write the entries to add above (one a line).' },
  events_h: { zh: '比赛', en: 'Events' },
  create_h: { zh: '新建比赛', en: 'New event' },
  name: { zh: '比赛名称', en: 'Event name' },
  tables: { zh: '桌数', en: 'Tables' },
  rounds: { zh: '轮数', en: 'Rounds' },
  boards_per_round: { zh: '每轮副数', en: 'Boards a round' },
  board_minutes: { zh: '每副分钟', en: 'Minutes a board' },
  movement: { zh: '移位方式', en: 'Movement' },
  plain: { zh: '普通（单数桌）', en: 'Plain (odd tables)' },
  skip: { zh: '跳位（双数桌）', en: 'Skip (even tables)' },
  relay: { zh: '接力桌（双数桌）', en: 'Relay (even tables)' },
  level: { zh: '定级', en: 'Fixed level' },
  trump: { zh: '定主', en: 'Fixed trump' },
  not_fixed: { zh: '不定（按种子发）', en: 'Not fixed (from the seed)' },
  no_trump: { zh: '无主', en: 'No trump' },
  entries: { zh: '报名：每行一对「选手甲 选手乙 / 单位」，先南北 1、2、3…，再东西 1、2、3…；写「电脑」的一行由电脑代打', en: 'Entries: one pair a line, "Player A Player B / Organisation": NS 1, 2, 3… then EW 1, 2, 3…; a line "电脑" is a computer pair' },
  fill_bots: { zh: '不够的对由电脑补齐（练习赛）', en: 'Computers fill the missing pairs (practice)' },
  create: { zh: '建立比赛', en: 'Create the event' },
  register_h: { zh: '报名', en: 'Entries' },
  register: { zh: '登记报名', en: 'Register the entries' },
  start_round: { zh: '开始第 {r} 轮', en: 'Start round {r}' },
  close_round: { zh: '结束第 {r} 轮', en: 'Close round {r}' },
  force: { zh: '强制结束（有未确认或异议）', en: 'Force (unconfirmed or disputed)' },
  reveal: { zh: '公布种子，结束比赛', en: 'Reveal the seed, finish the event' },
  reveal_sure: { zh: '公布种子后成绩就不能再改了。确定吗？', en: 'Once the seed is revealed no result can change. Sure?' },
  print_cards: { zh: '打印座位卡和移位卡', en: 'Print seating and movement cards' },
  card_title: { zh: '{dir} 第 {n} 对', en: '{dir} pair {n}' },
  join_at: { zh: '入座：打开 {url}，输入您自己的选手凭证（每位选手一张卡，只坐自己的座位）', en: 'To sit down: open {url} and type your own player token (a card a player; each sits in their own seat)' },
  player_token: { zh: '选手凭证', en: 'Player token' },
  seat_NS1: { zh: '北', en: 'North' },
  seat_NS2: { zh: '南', en: 'South' },
  seat_EW1: { zh: '东', en: 'East' },
  seat_EW2: { zh: '西', en: 'West' },
  card_seat: { zh: '{seat}：{name}', en: '{seat}: {name}' },
  card_player: { zh: '第 {n} 位选手：{name}', en: 'Player {n}: {name}' },
  movement_h: { zh: '移位卡', en: 'Movement cards' },
  round_h: { zh: '第 {r} 轮', en: 'Round {r}' },
  bye_stand: { zh: '接力桌上的牌：{boards}', en: 'Boards on the bye stand: {boards}' },
  adjust_h: { zh: '调整成绩', en: 'Adjust a result' },
  kind: { zh: '调整方式', en: 'Kind' },
  kind_points: { zh: '给闲家得分', en: "Assign defenders' points" },
  kind_artificial: { zh: '给人为分', en: 'Artificial scores' },
  round: { zh: '轮', en: 'Round' },
  table: { zh: '桌', en: 'Table' },
  board: { zh: '副', en: 'Board' },
  ns_score: { zh: '南北人为分', en: 'NS artificial' },
  ew_score: { zh: '东西人为分', en: 'EW artificial' },
  reason: { zh: '理由', en: 'Reason' },
  submit_adjust: { zh: '登记调整', en: 'Record the adjustment' },
  effect_sure: { zh: '登记后，成绩表会这样变：\n{lines}\n\n确定登记吗？', en: 'Recorded, this changes the standings so:\n{lines}\n\nRecord it?' },
  effect_none: { zh: '（名次和分数都不变）', en: '(no place and no score changes)' },
  effect_team: { zh: '{who}：{p0} 分 {r0} → {p1} 分 {r1}', en: '{who}: {p0} points {r0} → {p1} points {r1}' },
  effect_pair: { zh: '{who}：{p0} 比赛分 {r0} → {p1} 比赛分 {r1}', en: '{who}: {p0} MP {r0} → {p1} MP {r1}' },
  effect_place: { zh: '第 {n} 名', en: 'place {n}' },
  effect_no_place: { zh: '无名次', en: 'no place' },
  deduct_h: { zh: '罚分（每次 0.5 比赛分）', en: 'Deduction (0.5 match points each)' },
  direction: { zh: '方向', en: 'Direction' },
  pair_no: { zh: '对号', en: 'Pair' },
  mp_off: { zh: '扣比赛分', en: 'Match points off' },
  submit_deduct: { zh: '登记罚分', en: 'Record the deduction' },
  done: { zh: '已登记。', en: 'Recorded.' },
  standings_link: { zh: '成绩榜（公开）', en: 'Standings (public)' },
  live_h: { zh: '即时成绩（裁判长可见）', en: 'Live standings (director)' },
  all_events: { zh: '全部比赛', en: 'All events' },
  log: { zh: '记录 {n} 条 · 链头 {hash}', en: '{n} log entries · head {hash}' },
  pairs_h: { zh: '参赛对', en: 'Pairs' },
  finish_early: { zh: '提前结束比赛（公布种子）', en: 'Finish early (reveal the seed)' },
  finish_early_sure: { zh: '只打了 {r} 轮（原定 {n} 轮）就结束比赛？名次按已打的轮次排定，种子公布后成绩不能再改。', en: 'Finish after {r} of {n} rounds? The ranking counts the rounds played; once the seed is revealed no result can change.' },
  kind_other: { zh: '其他违规', en: 'Other offence' },
  kind_signalling: { zh: '传递非法信息（第二次即取消资格）', en: 'Illegal signalling (the second disqualifies)' },
  offence: { zh: '违规类别', en: 'Offence' },
  dq_h: { zh: '取消比赛资格', en: 'Disqualify a pair' },
  dq_submit: { zh: '取消资格', en: 'Disqualify' },
  dq_sure: { zh: '确定取消{dir}第 {n} 对的比赛资格吗？已赛成绩有效，以后不能再入座。', en: 'Disqualify {dir} pair {n}? Its results so far stand; it plays no more boards.' },
  over_time: { zh: '超时', en: 'Over time' },
  late_forfeit: { zh: '判迟到弃权：{dir}第 {n} 对', en: 'Rule late, forfeit: {dir} pair {n}' },
  late_sure: { zh: '{dir}第 {n} 对本轮开始 10 分钟后仍未入座：判该轮弃权（该对 A-，对手 A+）？', en: '{dir} pair {n} is not seated 10 minutes after the start: forfeit the round (A- for it, A+ for its opponents)?' },
  late_reason: { zh: '迟到超过10分钟', en: 'More than 10 minutes late' },
  seated: { zh: '已入座', en: 'Seated' },
  card_qr_alt: { zh: '用手机扫这个二维码，直接进入本对页面', en: 'Scan this QR code with a phone to open your pair’s page' },
  second_device: { zh: '另一台设备打开同一座位', en: 'A second device on a seat' },
  second_replace: { zh: '接替（旧设备断开）', en: 'Takes over (the old one is disconnected)' },
  second_refuse: { zh: '拒绝（先关掉旧设备）', en: 'Refused (close the old one first)' },
  auto_play: { zh: '允许托管（每步托管都记在成绩旁）', en: 'Allow 托管 (auto-play; every such move is shown by the result)' },
  timeouts_counted: { zh: '超时累计', en: 'Timeouts count over' },
  timeouts_round: { zh: '每轮（同桌的几副）', en: 'Each round (the boards at one table)' },
  timeouts_competition: { zh: '整场比赛', en: 'The whole event' },
  conduct_h: { zh: '连接记录', en: 'Connections' },
  conduct_terms: { zh: '另一台设备：{second} · 托管：{auto}', en: 'A second device: {second} · 托管: {auto}' },
  term_replace: { zh: '接替', en: 'takes over' },
  term_refuse: { zh: '拒绝', en: 'refused' },
  term_allowed: { zh: '允许', en: 'allowed' },
  term_off: { zh: '不允许', en: 'not allowed' },
  shared_address: { zh: '同一地址', en: 'Same address' },
  shared_device: { zh: '同一台设备', en: 'Same device' },
  shared_line: { zh: '{what}：第{r}轮第{t}桌 {who}', en: '{what}: round {r}, table {t}: {who}' },
  shared_hint: { zh: '这只是线索，不是判定：住在一起的搭档也会用同一个地址。', en: 'Evidence, not a verdict: partners who live together share an address.' },
  no_visits: { zh: '还没有人连接过比赛的座位。', en: 'Nobody has connected to a seat yet.' },
  visits_caption: { zh: '每次连接（最早的在前）', en: 'Every connection (oldest first)' },
  v_slot: { zh: '副/局', en: 'Board/game' },
  v_seat: { zh: '座位', en: 'Seat' },
  v_player: { zh: '选手', en: 'Player' },
  v_time: { zh: '时间', en: 'Time' },
  v_what: { zh: '情况', en: 'What' },
  v_address: { zh: '地址标记', en: 'Address mark' },
  v_device: { zh: '设备标记', en: 'Device mark' },
  visit_opened: { zh: '打开', en: 'opened' },
  visit_replaced: { zh: '打开，接替另一台设备', en: 'opened, taking over from another device' },
  visit_refused: { zh: '拒绝（座位在另一台设备上）', en: 'refused (the seat is on another device)' },
  visit_closed: { zh: '断开', en: 'closed' },
  warnings_h: { zh: '请注意', en: 'Please note' },
  fp_h: { zh: '公平竞赛分析', en: 'Fair-play analysis' },
  fp_hint: { zh: '比完之后，看看有没有哪一对打得像看得见同伴的牌。只是给裁判参考的数字，不是判决（违规与判罚 第10条：由裁判决定）。', en: 'After the session: does any pair play as if it saw its partner’s cards? A figure for the referee, never a verdict: the referee decides.' },
  fp_start: { zh: '开始分析', en: 'Start the analysis' },
  fp_resume: { zh: '接着分析', en: 'Resume the analysis' },
  fp_stop: { zh: '停止', en: 'Stop' },
  fp_again: { zh: '重新读取', en: 'Read again' },
  fp_running: { zh: '正在分析：{done} / {total} 副牌（不影响比赛）', en: 'Analysing: {done} of {total} boards (play is not slowed)' },
  fp_stopped: { zh: '已停止：分析了 {done} / {total} 副牌，再按会接着分析。', en: 'Stopped at {done} of {total} boards; press again to go on.' },
  fp_failed: { zh: '分析没有完成：{why}', en: 'The analysis did not finish: {why}' },
  fp_done: { zh: '分析了 {n} 副牌、{d} 个决定；数字 ≥ {t} 的对标红，请裁判查看。', en: '{n} boards, {d} decisions analysed; pairs at {t} or more are marked for the referee.' },
  fp_pair: { zh: '对', en: 'Pair' },
  fp_decisions: { zh: '决定数', en: 'Decisions' },
  fp_figure: { zh: '可疑度', en: 'Figure' },
  fp_look: { zh: '⚑ 请裁判查看', en: '⚑ Referee, please look' },
  fp_drivers: { zh: '最要紧的决定', en: 'The decisions behind it' },
  fp_driver: { zh: '第{r}轮 第{b}副 #{seq}：{own}% → {seen}%', en: 'round {r} board {b} #{seq}: {own}% → {seen}%' },
  fp_driver_hint: { zh: '每一步：只凭自己看到的，这步是最好的机会 → 看得见同伴的牌时的机会。', en: 'Each play: its chance of being the best on the pair’s own view → with the partner’s hand known.' },
  fp_computer: { zh: '电脑', en: 'computer' },
  fp_none: { zh: '还没有分析。', en: 'Not analysed yet.' },
  // 够级: teams, games, teammates.
  fp_hint_g: { zh: '比完之后，看看有没有哪一队打得像看得见队友的牌。只是给裁判参考的数字，不是判决（由裁判决定）。', en: 'After the session: does any team play as if it saw its teammates’ cards? A figure for the referee, never a verdict: the referee decides.' },
  fp_running_g: { zh: '正在分析：{done} / {total} 局（不影响比赛）', en: 'Analysing: {done} of {total} games (play is not slowed)' },
  fp_stopped_g: { zh: '已停止：分析了 {done} / {total} 局，再按会接着分析。', en: 'Stopped at {done} of {total} games; press again to go on.' },
  fp_done_g: { zh: '分析了 {n} 局、{d} 个决定；数字 ≥ {t} 的队标红，请裁判查看。', en: '{n} games, {d} decisions analysed; teams at {t} or more are marked for the referee.' },
  fp_pair_g: { zh: '队', en: 'Team' },
  fp_driver_g: { zh: '第{r}轮 第{b}局 #{seq}：{own}% → {seen}%', en: 'round {r} game {b} #{seq}: {own}% → {seen}%' },
  fp_driver_hint_g: { zh: '每一步：只凭自己看到的，这步是最好的机会 → 看得见队友的牌时的机会。', en: 'Each move: its chance of being the best on the player’s own view → with the teammates’ hands known.' },
};

/** A console word. @param {string} key @param {Record<string, string | number>} [params] */
function d(key, params = {}) {
  return wordIn(WORDS, key, params);
}

const TOKEN_KEY = 'paiju.director';

/**
 * The director's token on this device: opened as `director.html#token=…` (the director's link)
 * it is taken from the address, remembered and wiped from it (so it is not left in the history
 * or a screenshot); a token kept for the tab by an older console moves to the device.
 */
function token() {
  const m = location.hash.match(/^#token=([^&]+)/);
  if (m) {
    setToken(decodeURIComponent(m[1]).trim());
    history.replaceState(null, '', location.pathname + location.search);
  }
  try {
    const old = sessionStorage.getItem(TOKEN_KEY);
    if (old && !localStorage.getItem(TOKEN_KEY)) localStorage.setItem(TOKEN_KEY, old);
    sessionStorage.removeItem(TOKEN_KEY);
    return localStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Remembers the token on this device; an empty one forgets it. @param {string} t */
function setToken(t) {
  try {
    if (t) localStorage.setItem(TOKEN_KEY, t);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // A private window without storage: the token must be typed on each page.
  }
}

/** A director's call. @param {string} method @param {string} path @param {unknown} [body] */
function call(method, path, body) {
  return eventCall(method, path, body, token() || undefined);
}

/** A labelled field. @param {string} id @param {string} label @param {HTMLElement} control */
function field(id, label, control) {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

/** @param {number} value @param {number} min @param {number} [max] @param {number} [step] */
function number(value, min, max, step) {
  return h('input', { type: 'number', value, min, max, step: step ?? 1, inputmode: 'decimal' });
}

/** @param {[string, string][]} options */
function select(options) {
  return h('select', {}, options.map(([value, label]) => h('option', { value }, label)));
}

/**
 * The pasted entries: one pair a line, the computer pairs, the missing ones filled when asked.
 * @param {string} text @param {number} tables @param {boolean} fill
 */
export function parseEntries(text, tables, fill) {
  /** @type {{ names: string[], organisation?: string, bot?: boolean }[]} */
  const entries = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line === '电脑') {
      entries.push({ names: [], bot: true });
      continue;
    }
    const [who, org] = line.split(/[/|｜／]/);
    const names = who.trim().split(/[\s,，、]+/).filter(Boolean);
    entries.push(org && org.trim() ? { names, organisation: org.trim() } : { names });
  }
  while (fill && entries.length < 2 * tables) entries.push({ names: [], bot: true });
  return entries;
}

/** @typedef {{ names: string[], organisation?: string, bot?: boolean, team?: string }} Entry */

/** A registered pair (`PairInfo`) as the entry that registers it again. @param {any} p @returns {Entry} */
function pairEntry(p) {
  return { names: p.names ?? [], ...(p.organisation ? { organisation: p.organisation } : {}), ...(p.bot ? { bot: true } : {}) };
}

/** A registered 够级 team (`TeamInfo`) as the entry that registers it again, its name kept. @param {any} t @returns {Entry} */
function teamEntry(t) {
  return { names: t.names ?? [], team: t.name, ...(t.organisation ? { organisation: t.organisation } : {}), ...(t.bot ? { bot: true } : {}) };
}

/** Which registered entries of people a new list leaves out (their indices). @param {Entry[]} before @param {Entry[]} next */
export function dropped(before, next) {
  const key = (/** @type {Entry} */ e) => JSON.stringify([e.names, e.organisation ?? '', e.team ?? '']);
  const kept = new Set(next.map(key));
  return before.flatMap((e, i) => (e.names.length && !kept.has(key(e)) ? [i] : []));
}

/**
 * What a step would change in the standings, in lines a director reads before saving it: the
 * server's own preview (`?preview=true`: the standings the step would make, nothing logged)
 * compared with the standings now, one line per team or pair whose points or place move.
 * @param {any} before @param {any} after @returns {string}
 */
export function standingsEffect(before, after) {
  const place = (/** @type {any} */ l) => (l?.place ? d('effect_place', { n: l.place }) : d('effect_no_place'));
  /** @type {string[]} */
  const lines = [];
  if (after.gouji) {
    const was = new Map((before.gouji?.teams ?? []).map((/** @type {any} */ t) => [t.number, t]));
    for (const t of after.gouji.teams) {
      const o = was.get(t.number);
      if (o && o.points === t.points && o.place === t.place) continue;
      lines.push(d('effect_team', { who: t.name, p0: o?.points ?? 0, r0: place(o), p1: t.points, r1: place(t) }));
    }
  } else {
    for (const dir of ['NS', 'EW']) {
      const was = new Map((before.ranking?.[dir] ?? []).map((/** @type {any} */ l) => [l.number, l]));
      for (const l of after.ranking?.[dir] ?? []) {
        const o = was.get(l.number);
        if (o && o.mp === l.mp && o.place === l.place) continue;
        const who = `${wordIn(WORDS, dir)} ${l.number}${l.names?.length ? ' ' + playerNames(l) : ''}`;
        lines.push(d('effect_pair', { who, p0: o?.mp ?? 0, r0: place(o), p1: l.mp, r1: place(l) }));
      }
    }
  }
  return lines.length ? lines.join('\n') : d('effect_none');
}

/** The token panel: the token remembered on this device, 忘记 to forget it. @param {() => void} redraw */
function tokenPanel(redraw) {
  const kept = token();
  const input = h('input', { type: 'password', autocomplete: 'off', value: kept });
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'token-h' },
    h('h2', { id: 'token-h' }, d('token')),
    kept ? h('p', { class: 'ok-text', id: 'token-kept' }, d('token_kept', { tail: kept.slice(-4) })) : h('p', { class: 'hint' }, d('token_hint')),
    h('div', { class: 'inline' },
      field('director-token', d('token'), input),
      h('button', { id: 'use-token', 'on:click': () => { setToken(input.value.trim()); redraw(); } }, d('use_token')),
      kept ? h('button', { class: 'danger', id: 'forget-token', 'on:click': () => { setToken(''); redraw(); } }, d('forget_token')) : null,
    ),
  );
}

/** The events, each a link to its console. */
function listPanel() {
  const err = errorBox();
  const list = h('ul', { class: 'table-list' });
  call('GET', '/api/events')
    .then((events) =>
      replace(
        list,
        events.length === 0
          ? h('li', {}, wordIn(WORDS, 'no_events'))
          : events.map((/** @type {any} */ e) =>
              h(
                'li',
                {},
                h('span', { class: 'desc' }, h('b', {}, e.name), ` · ${stateWord(e.state)} · ${wordIn(WORDS, 'round_of', { r: e.round, n: e.rounds })}`),
                h('a', { href: `director.html?e=${encodeURIComponent(e.id)}`, style: 'min-height:52px;display:inline-flex;align-items:center;padding:0 12px' }, wordIn(WORDS, 'open')),
              ),
            ),
      ),
    )
    .catch((e) => err.show(e));
  return h('section', { class: 'panel', 'aria-labelledby': 'events-h' }, h('h2', { id: 'events-h' }, d('events_h')), list, err.box);
}

/** The new-event form. */
function createPanel() {
  const err = errorBox();
  const name = h('input', { type: 'text', maxlength: 60, value: lang() === 'en' ? 'Practice session' : '练习赛' });
  const tables = number(3, 1, 500);
  const rounds = number(3, 1, 500);
  const boards = number(2, 1, 50);
  const minutes = number(12, 1, 120);
  const movement = select([['plain', d('plain')], ['skip', d('skip')], ['relay', d('relay')]]);
  const levels = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
  const level = select([['', d('not_fixed')], ...levels.map((l) => /** @type {[string, string]} */ ([l, l]))]);
  const trump = select([['', d('not_fixed')], ['S', '♠'], ['H', '♥'], ['D', '♦'], ['C', '♣'], ['NT', d('no_trump')]]);
  const entries = h('textarea', { rows: 6, style: 'width:100%' });
  const fill = h('input', { type: 'checkbox', id: 'fill-bots', checked: true });
  const game = select([['shengji', g('shengji_pairs')], ['gouji', g('gouji_teams')]]);
  const groups = number(2, 1, 100);
  const finalGames = number(3, 3, 30, 3);
  // One player, one seat (赛风): the terms the competition plays under, logged with it.
  const secondDevice = select([['replace', d('second_replace')], ['refuse', d('second_refuse')]]);
  const autoPlay = h('input', { type: 'checkbox', id: 'ev-auto-play' });
  const timeoutsCounted = select([['round', d('timeouts_round')], ['competition', d('timeouts_competition')]]);
  const fillLabel = h('span', {}, d('fill_bots'));
  const entriesLabel = h('label', { for: 'ev-entries' }, d('entries'));
  const shengjiOnly = h(
    'div',
    {},
    h('div', { class: 'inline' }, field('ev-tables', d('tables'), tables), field('ev-rounds', d('rounds'), rounds), field('ev-boards', d('boards_per_round'), boards), field('ev-minutes', d('board_minutes'), minutes)),
    h('div', { class: 'inline', style: 'margin-top:14px' }, field('ev-movement', d('movement'), movement), field('ev-level', d('level'), level), field('ev-trump', d('trump'), trump)),
    // 够级's clock keeps no count of timeouts: 80分 only.
    h('div', { class: 'inline', style: 'margin-top:14px' }, field('ev-timeouts', d('timeouts_counted'), timeoutsCounted)),
  );
  const goujiOnly = h('div', { class: 'inline', hidden: true }, field('ev-groups', g('groups'), groups), field('ev-final-games', g('final_games'), finalGames));
  const pick = () => {
    const gouji = game.value === 'gouji';
    shengjiOnly.hidden = gouji;
    goujiOnly.hidden = !gouji;
    replace(entriesLabel, gouji ? g('teams_entries') : d('entries'));
    replace(fillLabel, gouji ? g('fill_teams') : d('fill_bots'));
  };
  game.addEventListener('change', pick);
  const create = async () => {
    err.hide();
    const t = Number(tables.value);
    const conduct = { second_device: secondDevice.value, auto_play: autoPlay.checked };
    const body = game.value === 'gouji' ? {
      game: 'gouji',
      name: name.value,
      groups: Number(groups.value),
      final_games: Number(finalGames.value),
      entries: parseTeams(entries.value, fill.checked),
      ...conduct,
    } : {
      game: 'shengji',
      name: name.value,
      tables: t,
      rounds: Number(rounds.value),
      boards_per_round: Number(boards.value),
      movement: movement.value,
      board_minutes: Number(minutes.value),
      level: level.value || undefined,
      trump: trump.value || undefined,
      entries: parseEntries(entries.value, t, fill.checked),
      ...conduct,
      timeouts_counted: timeoutsCounted.value,
    };
    try {
      const ev = await call('POST', '/api/events', body);
      location.href = `director.html?e=${encodeURIComponent(ev.id)}`;
    } catch (e) {
      err.show(e);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'create-h' },
    h('h2', { id: 'create-h' }, d('create_h')),
    field('ev-game', g('game'), game),
    field('ev-name', d('name'), name),
    shengjiOnly,
    goujiOnly,
    (() => {
      entries.id = 'ev-entries';
      return h('div', { class: 'field' }, entriesLabel, entries);
    })(),
    h('label', { class: 'check', for: 'fill-bots' }, fill, fillLabel),
    h('div', { class: 'inline', style: 'margin-top:14px' }, field('ev-second-device', d('second_device'), secondDevice)),
    h('label', { class: 'check', for: 'ev-auto-play' }, autoPlay, h('span', {}, d('auto_play'))),
    h('div', { class: 'row', style: 'margin-top:14px' }, h('button', { class: 'primary', id: 'create-event', 'on:click': create }, d('create'))),
    err.box,
  );
}

/**
 * The printable seating cards — one per player, with that player's own token (it opens their
 * own seat and their pair's or team's page, never the partner's seat) — and movement cards.
 * @param {HTMLElement} area @param {string} id
 */
async function printCards(area, id) {
  const cards = await call('GET', `/api/events/${encodeURIComponent(id)}/cards`);
  const players = (/** @type {any} */ c) => /** @type {any[]} */ (c.players ?? []);
  // A player's QR code (`qr`: the address of an SVG of their own page link with their token),
  // fetched with the director's token before the page is printed.
  const all = [...(cards.pairs ?? []), ...(cards.teams ?? [])].flatMap(players).filter((p) => p.qr);
  const qrs = new Map(await Promise.all(all.map(async (p) => /** @type {[string, string]} */ ([p.qr, await qrUrl(p.qr)]))));
  const qr = (/** @type {any} */ p) => (qrs.get(p.qr) ? h('img', { class: 'card-qr', src: qrs.get(p.qr), alt: d('card_qr_alt'), width: 160, height: 160 }) : null);
  const token = (/** @type {any} */ p) => h('h3', {}, `${d('player_token')}：`, h('span', { class: 'mono', 'data-token': '' }, p.token));
  const url = `${location.origin}/pair.html?e=${encodeURIComponent(id)}`;
  if (cards.teams && cards.teams.length) {
    replace(
      area,
      cards.teams.flatMap((/** @type {any} */ c) =>
        players(c).map((p) =>
          h(
            'div',
            { class: 'card-print', 'data-team': c.number, 'data-player': p.number },
            h('h2', {}, g('card_team', { n: c.number, name: c.name })),
            h('p', { class: 'card-player' }, d('card_player', { n: p.number, name: p.name })),
            c.organisation ? h('p', {}, c.organisation) : null,
            token(p),
            qr(p),
            h('p', {}, d('join_at', { url })),
          ),
        ),
      ),
    );
    return;
  }
  replace(
    area,
    cards.pairs.flatMap((/** @type {any} */ c) =>
      players(c).map((p) =>
        h(
          'div',
          { class: 'card-print', 'data-pair': `${c.direction}${c.number}`, 'data-player': p.number },
          h('h2', {}, d('card_title', { dir: wordIn(WORDS, c.direction), n: c.number })),
          h('p', { class: 'card-player' }, d('card_seat', { seat: wordIn(WORDS, `seat_${c.direction}${p.number}`), name: p.name })),
          c.organisation ? h('p', {}, c.organisation) : null,
          token(p),
          qr(p),
          h('p', {}, d('join_at', { url })),
        ),
      ),
    ),
    h(
      'div',
      { class: 'movement' },
      h('h2', {}, d('movement_h')),
      cards.tables.map((/** @type {any} */ t) => h('div', { class: 'card-print' }, h('pre', {}, t.card))),
    ),
  );
}

/** A director-only image as an address the page can show (an `<img>` sends no token). @param {string} path */
async function qrUrl(path) {
  try {
    const res = await fetch(path, { headers: { authorization: `Bearer ${token()}` } });
    return res.ok ? URL.createObjectURL(await res.blob()) : '';
  } catch {
    return '';
  }
}

/** Opens a director-only document (the results page, the CSV) from the server. @param {string} path @param {string} type @param {string} [download] */
async function openDocument(path, type, download) {
  const res = await fetch(path, { headers: { authorization: `Bearer ${token()}` } });
  const blob = new Blob([await res.arrayBuffer()], { type });
  const href = URL.createObjectURL(blob);
  if (download) {
    const a = h('a', { href, download });
    document.body.appendChild(a);
    a.click();
    a.remove();
  } else {
    window.open(href, '_blank', 'noopener');
  }
}

/**
 * 连接记录: who held each seat from where (`view.conduct`, the director's only). The flags
 * first and large — partners (够级 teammates) at one table from one address or one device — then
 * every connection, oldest first. Marks are the server's keyed hashes: equal marks, same
 * address (or device); the address itself is never shown, nor known to the console.
 * @param {any} view
 */
function conductPanel(view) {
  const c = view.conduct;
  if (!c) return null;
  const game = view.gouji ? 'gouji' : 'shengji';
  const names = seatNames(game);
  const seatWord = (/** @type {number} */ seat, /** @type {string} */ fallback) => names[seat] ?? fallback;
  const shared = (c.shared ?? []).map((/** @type {any} */ x) =>
    h('p', { class: 'shared-line', 'data-shared': `${x.round}:${x.table}`, 'data-device': String(x.device) },
      d('shared_line', {
        what: d(x.device ? 'shared_device' : 'shared_address'),
        r: x.round,
        t: x.table,
        who: x.seats.map((/** @type {number} */ seat, /** @type {number} */ i) => `${seatWord(seat, String(seat))} ${x.players[i] ?? ''}`.trim()).join('、'),
      })));
  const visits = c.visits ?? [];
  const time = (/** @type {number} */ ms) => new Date(ms).toLocaleTimeString(lang() === 'en' ? 'en-GB' : 'zh-CN', { hour12: false });
  return h(
    'section',
    { class: 'panel', id: 'conduct', 'data-conduct': '', 'aria-labelledby': 'conduct-h' },
    h('h2', { id: 'conduct-h' }, d('conduct_h')),
    h('p', { 'data-terms': `${c.second_device}:${c.auto_play}` }, d('conduct_terms', { second: d(c.second_device === 'refuse' ? 'term_refuse' : 'term_replace'), auto: d(c.auto_play ? 'term_allowed' : 'term_off') })),
    shared.length ? h('div', { class: 'shared-lines', role: 'status' }, shared, h('p', { class: 'hint' }, d('shared_hint'))) : null,
    visits.length
      ? h('div', { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': d('visits_caption') },
          h('table', { class: 'results visits', id: 'visits', 'data-visits': '' },
            h('caption', {}, d('visits_caption')),
            h('thead', {}, h('tr', {}, [d('round'), d('table'), d('v_slot'), d('v_seat'), d('v_player'), d('v_time'), d('v_what'), d('v_address'), d('v_device')].map((x) => h('th', { scope: 'col' }, x)))),
            h('tbody', {}, visits.map((/** @type {any} */ v) =>
              h('tr', { 'data-visit': v.what, 'data-seat': String(v.seat) },
                h('td', {}, v.round), h('td', {}, v.table), h('td', {}, v.slot), h('td', {}, seatWord(v.seat, v.seat_name)), h('td', {}, v.player),
                h('td', {}, time(v.at_ms)), h('td', {}, d(`visit_${v.what}`)),
                h('td', { class: 'mono' }, v.address), h('td', { class: 'mono' }, v.device ?? '—')))),
          ))
      : h('p', { class: 'hint' }, d('no_visits')),
  );
}

/**
 * 公平竞赛分析 (the fair-play analysis, `GET/POST …/fairplay`): start, progress, stop and resume,
 * then the pairs (够级: the teams) by the figure, the marked ones first in red, each with the
 * decisions behind it as links into the replay.
 * @param {any} f the server's status @param {(run: boolean) => void} run @param {boolean} gouji
 */
function fairplayPanel(f, run, gouji) {
  /** The word for this game: a 够级 event's own where it has one. @param {string} key @param {Record<string, string | number>} [params] */
  const w = (key, params = {}) => d(gouji && `${key}_g` in WORDS ? `${key}_g` : key, params);
  const button = (/** @type {string} */ word, /** @type {boolean} */ go) =>
    h('button', { id: 'fairplay-run', 'data-run': String(go), 'on:click': () => run(go) }, d(word));
  /** @type {any[]} */
  let body = [];
  if (f.state === 'idle') body = [h('p', { class: 'hint' }, d('fp_none')), button('fp_start', true)];
  if (f.state === 'running') body = [h('p', { role: 'status', 'data-progress': `${f.done}/${f.total}` }, w('fp_running', { done: f.done, total: f.total })), button('fp_stop', false)];
  if (f.state === 'stopped') body = [h('p', { role: 'status', 'data-progress': `${f.done}/${f.total}` }, w('fp_stopped', { done: f.done, total: f.total })), button('fp_resume', true)];
  if (f.state === 'failed') body = [h('p', { class: 'error-text' }, d('fp_failed', { why: f.error ?? '' })), button('fp_start', true)];
  if (f.state === 'done' && f.report) {
    const r = f.report;
    const dir = (/** @type {string} */ x) => wordIn(WORDS, x);
    body = [
      h('p', { role: 'status' }, w('fp_done', { n: r.tables, d: r.decisions, t: r.threshold })),
      h('p', { class: 'hint' }, w('fp_driver_hint')),
      h('div', { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': d('fp_h') },
        h('table', { class: 'results', id: 'fairplay-pairs' },
          h('thead', {}, h('tr', {}, ['#', w('fp_pair'), d('fp_decisions'), d('fp_figure'), d('fp_drivers')].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, r.pairs.map((/** @type {any} */ p, /** @type {number} */ i) =>
            h('tr', { 'data-pair': p.team ? `team${p.number}` : `${p.direction}${p.number}`, 'data-flagged': String(p.flagged), class: p.flagged ? 'flagged' : '' },
              h('td', {}, String(i + 1)),
              h('td', {}, `${p.team ? p.team : `${dir(p.direction)} ${p.number}`} ${p.bot ? `（${d('fp_computer')}）` : (p.names ?? []).join(' / ')}`),
              h('td', {}, String(p.tally.decisions)),
              h('td', {}, h('b', {}, typeof p.z_partner === 'number' ? p.z_partner.toFixed(1) : '—'), p.flagged ? h('span', { class: 'flag' }, ` ${d('fp_look')}`) : null),
              h('td', {}, (p.drivers ?? []).map((/** @type {any} */ x) =>
                h('a', { href: `./#/t/${encodeURIComponent(x.table_id)}/replay/${x.seq}`, target: '_blank', rel: 'noopener', 'data-driver': `${x.table_id}:${x.seq}`, style: 'display:block' },
                  w('fp_driver', { r: x.round, b: x.board, seq: x.seq, own: Math.round(100 * x.evidence.expected), seen: Math.round(100 * x.evidence.with_partner) })))),
            )))),
      ),
      button('fp_again', true),
    ];
  }
  return h('section', { class: 'panel', id: 'fairplay', 'data-fairplay': f.state, 'aria-labelledby': 'fairplay-h' },
    h('h2', { id: 'fairplay-h' }, d('fp_h')),
    h('p', { class: 'hint' }, w('fp_hint')),
    body);
}

/** What the server says the director should know about the set-up (`view.warnings`). @param {any} view */
function warningsBox(view) {
  const list = view.warnings ?? [];
  if (!list.length) return null;
  return h('div', { class: 'warning-box', id: 'warnings', role: 'note' },
    h('h3', {}, d('warnings_h')),
    h('ul', {}, list.map((/** @type {any} */ p) => h('li', { 'data-warning': p.code }, (lang() === 'en' ? p.en || p.zh : p.zh || p.en) ?? p.code))));
}

/**
 * One event's console, refreshed every 3 seconds.
 * @param {HTMLElement} root @param {string} id @param {() => void} redraw
 */
function eventConsole(root, id, redraw) {
  const base = `/api/events/${encodeURIComponent(id)}`;
  const err = errorBox();
  const ok = h('p', { class: 'ok-text', id: 'act-done', role: 'status', hidden: true });
  const facts = h('section', { class: 'panel', 'aria-labelledby': 'event-h' }, h('h1', { id: 'event-h' }, d('console')));
  const schedule = h('div', { 'aria-live': 'polite' });
  const conduct = h('div');
  const fairplay = h('div');
  const live = h('div');
  const area = h('section', { id: 'print-area' });
  /** @type {any} */
  let view = null;

  /** @param {() => Promise<unknown>} f @param {string} [said] what to tell once done */
  const act = async (f, said = d('done')) => {
    err.hide();
    ok.hidden = true;
    try {
      await f();
      replace(ok, said);
      ok.hidden = false;
      await refresh();
    } catch (e) {
      err.show(e);
    }
  };

  /**
   * A step the standings follow (改判, an adjusted result, a deduction): previewed by the server
   * first, its effect shown in the confirm, sent only once the director agrees. A step the
   * server refuses is refused at the preview, in its words, and nothing is asked.
   * @param {string} path @param {unknown} body
   */
  const previewed = async (path, body) => {
    err.hide();
    ok.hidden = true;
    let effect;
    try {
      const [now, then] = await Promise.all([call('GET', `${base}/standings`), call('POST', `${path}?preview=true`, body)]);
      effect = standingsEffect(now, then);
    } catch (e) {
      err.show(e);
      return;
    }
    if (confirm(d('effect_sure', { lines: effect }))) act(() => call('POST', path, body));
  };

  const startBtn = h('button', { class: 'primary', id: 'start-round', 'on:click': () => act(() => call('POST', `${base}/rounds/${view.round + 1}/start`, {})) });
  const force = h('input', { type: 'checkbox', id: 'force-close' });
  const closeBtn = h('button', { id: 'close-round', 'on:click': () => act(() => call('POST', `${base}/rounds/${view.round}/close`, { force: force.checked })) });
  const revealBtn = h('button', {
    class: 'danger',
    id: 'reveal',
    'on:click': () => {
      if (confirm(d('reveal_sure'))) act(() => call('POST', `${base}/reveal`, {}));
    },
  }, d('reveal'));
  const earlyBtn = h('button', {
    class: 'danger',
    id: 'finish-early',
    'on:click': () => {
      if (confirm(d('finish_early_sure', { r: view.closed, n: view.rounds }))) act(() => call('POST', `${base}/reveal`, { early: true }));
    },
  }, d('finish_early'));
  const cardsBtn = h('button', {
    id: 'print-cards',
    'on:click': async () => {
      err.hide();
      try {
        await printCards(area, id);
        window.print();
      } catch (e) {
        err.show(e);
      }
    },
  }, d('print_cards'));

  // 报名 before round 1: adding to the registered list (a late pair) keeps everyone on it;
  // replacing the whole list asks first and names who would be dropped.
  const regText = h('textarea', { rows: 6, style: 'width:100%' });
  const regFill = h('input', { type: 'checkbox', id: 'reg-fill', checked: true });
  const registered = h('div', { id: 'registered', 'aria-live': 'polite' });
  /** The list as the server has it, as entries to register again. */
  const entriesNow = () => (view.gouji ? view.gouji.teams.map(teamEntry) : view.pairs.map(pairEntry));
  const typed = (/** @type {boolean} */ fill) => (view.gouji ? parseTeams(regText.value, fill) : parseEntries(regText.value, view.tables, fill));
  const addEntries = () => {
    err.hide();
    const added = typed(false);
    if (!added.length) return err.show(d('nothing_to_add'));
    // Once entries are registered the server adds late ones into computers' places, every
    // registered player keeping their token (`add_entries`); a first list is simply registered.
    if (view.add_entries === true) {
      act(async () => {
        await call('POST', `${base}/entries/add`, { entries: added });
        regText.value = '';
      }, d('added_kept', { k: added.length }));
      return;
    }
    act(async () => {
      await call('POST', `${base}/entries`, { entries: typed(regFill.checked) });
      regText.value = '';
    });
  };
  const replaceEntries = () => {
    err.hide();
    const next = typed(regFill.checked);
    const before = entriesNow();
    const lost = dropped(before, next).map((i) => entryName(before[i], i));
    if (before.length && !confirm(lost.length ? d('replace_sure', { lost: lost.join('、') }) : d('replace_sure_none'))) return;
    act(async () => {
      await call('POST', `${base}/entries`, { entries: next });
      regText.value = '';
    });
  };
  /** An entry in words: 「南北 1 王阿姨 / 李叔叔」, 「山亭1队（张三 / 李四 / 王五）」. @param {Entry} e @param {number} i */
  const entryName = (e, i) => {
    if (view.gouji) return `${e.team ?? ''}（${playerNames(e)}）`;
    const dir = i < view.tables ? 'NS' : 'EW';
    return `${wordIn(WORDS, dir)} ${dir === 'NS' ? i + 1 : i - view.tables + 1} ${playerNames(e)}`;
  };
  const register = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'register-h', hidden: true },
    h('h2', { id: 'register-h' }, d('register_h')),
    registered,
    field('reg-entries', d('entries'), regText),
    h('label', { class: 'check', for: 'reg-fill' }, regFill, d('fill_bots')),
    h('p', { class: 'hint' }, d('add_hint')),
    h('div', { class: 'row' },
      h('button', { class: 'primary', id: 'add-entries', 'on:click': addEntries }, d('add_entries')),
      h('button', { class: 'danger', id: 'replace-entries', 'on:click': replaceEntries }, d('replace_entries')),
    ),
  );
  /** The registered list, as the server has it (80分 pairs; 够级 teams are listed below). */
  const drawRegistered = () =>
    replace(
      registered,
      view.gouji
        ? h('p', { class: 'big', 'data-registered': view.gouji.teams.length }, d('registered_teams_h', { n: view.gouji.teams.length }))
        : [
            h('h3', { 'data-registered': view.pairs.length }, d('registered_h', { n: view.pairs.length })),
            view.pairs.length ? h('ol', {}, view.pairs.map((/** @type {any} */ p, /** @type {number} */ i) => h('li', { 'data-entry': `${p.direction}${p.number}` }, entryName(pairEntry(p), i), p.organisation ? ` · ${p.organisation}` : ''))) : null,
          ],
    );

  // 够级: a team deduction (扣该队4分) in the round being played.
  const tTeam = number(1, 1);
  const tPoints = number(4, 1, 100);
  const tReason = h('input', { type: 'text', maxlength: 200 });
  const teamDeduct = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'team-deduct-h', hidden: true },
    h('h2', { id: 'team-deduct-h' }, g('team_deduct_h')),
    h('div', { class: 'inline' }, field('tded-team', g('team_no'), tTeam), field('tded-points', g('points_off'), tPoints)),
    field('tded-reason', d('reason'), tReason),
    h('button', {
      id: 'submit-team-deduct',
      'on:click': () => previewed(`${base}/team-deductions`, { team: Number(tTeam.value), points: Number(tPoints.value), reason: tReason.value }),
    }, g('submit_team_deduct')),
  );

  // 够级: the director's ruling on a finished game of the round being played (改判).
  const rTable = number(1, 1);
  const rGame = number(1, 1);
  const rA = number(0, -100, 100);
  const rB = number(0, -100, 100);
  const rFirst = select([['a', g('a_short')], ['b', g('b_short')], ['', g('side_none')]]);
  const rLast = select([['b', g('b_short')], ['a', g('a_short')], ['ab', g('side_both')], ['', g('side_none')]]);
  const rReason = h('input', { type: 'text', maxlength: 200 });
  const ruleGame = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'rule-game-h', hidden: true },
    h('h2', { id: 'rule-game-h' }, g('rule_game_h')),
    h('div', { class: 'inline' }, field('rule-table', d('table'), rTable), field('rule-game', g('game_n'), rGame)),
    h('div', { class: 'inline' }, field('rule-a', g('a_points'), rA), field('rule-b', g('b_points'), rB), field('rule-first', g('first_side'), rFirst), field('rule-last', g('last_side'), rLast)),
    field('rule-reason', d('reason'), rReason),
    h('button', {
      id: 'submit-rule-game',
      'on:click': () => previewed(`${base}/games/adjust`, {
        table: Number(rTable.value),
        game: Number(rGame.value),
        result: { a: Number(rA.value), b: Number(rB.value), ...(rFirst.value ? { first: rFirst.value } : {}), last: rLast.value.split('').filter(Boolean) },
        reason: rReason.value,
      }),
    }, g('submit_rule_game')),
  );

  // 够级: the lot drawn in person for a knockout match its extra games left level (抽签); the
  // reason is asked in a dialog, since the console redraws its matches every few seconds.
  /** @param {number} table @param {string} winner */
  const drawLot = (table, winner) => {
    const reason = prompt(g('lot_reason', { team: winner }), g('lot_default'));
    if (reason === null) return;
    act(() => call('POST', `${base}/lot`, { table, winner, reason }));
  };

  // Adjusted and artificial results.
  const aRound = number(1, 1);
  const aTable = number(1, 1);
  const aBoard = number(1, 1);
  const aKind = select([['points', d('kind_points')], ['artificial', d('kind_artificial')]]);
  const aPoints = number(120, -1000, 1000, 5);
  const scores = /** @type {[string, string][]} */ ([['A+', 'A+ (60%)'], ['A', 'A (50%)'], ['A-', 'A- (40%)']]);
  const aNs = select(scores);
  const aEw = select(scores);
  aEw.value = 'A-';
  const aReason = h('input', { type: 'text', maxlength: 200 });
  const adjust = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'adjust-h' },
    h('h2', { id: 'adjust-h' }, d('adjust_h')),
    h('div', { class: 'inline' }, field('adj-round', d('round'), aRound), field('adj-table', d('table'), aTable), field('adj-board', d('board'), aBoard)),
    h('div', { class: 'inline', style: 'margin-top:14px' }, field('adj-kind', d('kind'), aKind), field('adj-points', wordIn(WORDS, 'defenders'), aPoints), field('adj-ns', d('ns_score'), aNs), field('adj-ew', d('ew_score'), aEw)),
    field('adj-reason', d('reason'), aReason),
    h('button', {
      id: 'submit-adjust',
      'on:click': () =>
        previewed(`${base}/adjust`, {
          round: Number(aRound.value),
          table: Number(aTable.value),
          board: Number(aBoard.value),
          ...(aKind.value === 'points' ? { defenders: Number(aPoints.value) } : { artificial: { ns: aNs.value, ew: aEw.value } }),
          reason: aReason.value,
        }),
    }, d('submit_adjust')),
  );

  // Deductions.
  const dDir = select([['NS', wordIn(WORDS, 'NS')], ['EW', wordIn(WORDS, 'EW')]]);
  const dPair = number(1, 1);
  const dMp = number(0.5, 0.5, 100, 0.5);
  const dReason = h('input', { type: 'text', maxlength: 200 });
  const dKind = select([['', d('kind_other')], ['signalling', d('kind_signalling')]]);
  const deduct = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'deduct-h' },
    h('h2', { id: 'deduct-h' }, d('deduct_h')),
    h('div', { class: 'inline' }, field('ded-dir', d('direction'), dDir), field('ded-pair', d('pair_no'), dPair), field('ded-mp', d('mp_off'), dMp)),
    field('ded-kind', d('offence'), dKind),
    field('ded-reason', d('reason'), dReason),
    h('button', {
      id: 'submit-deduct',
      'on:click': () => previewed(`${base}/deductions`, { direction: dDir.value, pair: Number(dPair.value), mp: Number(dMp.value), reason: dReason.value, kind: dKind.value || undefined }),
    }, d('submit_deduct')),
  );

  // Disqualification (seed 003: 被取消资格…其名次由后面的依次递补，已赛成绩有效), asked twice.
  const qDir = select([['NS', wordIn(WORDS, 'NS')], ['EW', wordIn(WORDS, 'EW')]]);
  const qPair = number(1, 1);
  const qReason = h('input', { type: 'text', maxlength: 200 });
  const disqualify = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'dq-h' },
    h('h2', { id: 'dq-h' }, d('dq_h')),
    h('div', { class: 'inline' }, field('dq-dir', d('direction'), qDir), field('dq-pair', d('pair_no'), qPair)),
    field('dq-reason', d('reason'), qReason),
    h('button', {
      class: 'danger',
      id: 'submit-dq',
      'on:click': () => {
        if (confirm(d('dq_sure', { dir: wordIn(WORDS, qDir.value), n: qPair.value }))) {
          act(() => call('POST', `${base}/disqualify`, { direction: qDir.value, pair: Number(qPair.value), reason: qReason.value }));
        }
      },
    }, d('dq_submit')),
  );

  const shengjiPanels = h('div', { class: 'console-grid' }, adjust, deduct, disqualify);

  /**
   * The round clock's word on one table of the round being played: over time while boards are
   * unplayed past the deadline; who is seated; a forfeit to rule for a pair not seated 10
   * minutes after the start (the server checks the times again).
   * @param {any} t @param {number} fetchedAt
   */
  const tableClock = (t, fetchedAt) => {
    const c = roundClock(view, fetchedAt);
    if (!c) return null;
    const unplayed = t.boards.some((/** @type {any} */ b) => !b.done);
    const pairOf = (/** @type {string} */ dir) => view.pairs.find((/** @type {any} */ p) => p.direction === dir && p.number === (dir === 'NS' ? t.ns : t.ew));
    /** @type {(HTMLElement | string | null)[]} */
    const parts = [];
    if (c.over && unplayed) parts.push(h('b', { class: 'error-text', 'data-over-time': t.table }, d('over_time')));
    for (const dir of ['NS', 'EW']) {
      const p = pairOf(dir);
      if (!p || p.bot) continue;
      const seated = dir === 'NS' ? t.ns_seated_ms : t.ew_seated_ms;
      const forfeited = (t.forfeits ?? []).includes(dir);
      // Late: not seated yet, or seated more than 10 minutes after the start.
      const late = !seated || seated - view.round_started_ms > 10 * 60 * 1000;
      if (seated) parts.push(h('span', {}, `${wordIn(WORDS, dir)} ${d('seated')}`));
      if (late && !forfeited && unplayed && c.elapsed > 10 * 60 * 1000) {
        parts.push(h('button', {
          class: 'danger',
          'data-late': `${dir}${p.number}`,
          'on:click': () => {
            if (confirm(d('late_sure', { dir: wordIn(WORDS, dir), n: p.number }))) {
              act(() => call('POST', `${base}/forfeit`, { direction: dir, pair: p.number, reason: d('late_reason') }));
            }
          },
        }, d('late_forfeit', { dir: wordIn(WORDS, dir), n: p.number })));
      }
    }
    return parts.length ? h('div', { class: 'row', 'data-table-clock': t.table }, parts) : null;
  };

  /** The standings, the printable results, the CSV, the other events. */
  const links = () =>
    h(
      'div',
      { class: 'links', style: 'margin-top:12px' },
      h('a', { href: `standings.html?e=${encodeURIComponent(id)}`, target: '_blank', rel: 'noopener' }, d('standings_link')),
      h('button', { 'on:click': () => openDocument(`${base}/results.html`, 'text/html') }, wordIn(WORDS, 'print_results')),
      h('button', { 'on:click': () => openDocument(`${base}/results.csv?lang=${lang()}`, 'text/csv', `event-${id}.csv`) }, wordIn(WORDS, 'csv')),
      h('a', { href: 'director.html' }, d('all_events')),
    );

  async function refresh() {
    /** When the view arrived: the clock counts on from the server's time then. */
    let fetchedAt = Date.now();
    try {
      view = await call('GET', base);
      fetchedAt = Date.now();
    } catch (e) {
      err.show(e);
      return;
    }
    document.title = `${view.name} · ${d('console')}`;
    replace(conduct, conductPanel(view));
    const playing = view.round > view.closed;
    if (view.gouji) {
      await refreshGouji(playing);
      return;
    }
    shengjiPanels.hidden = false;
    refreshFairplay();
    teamDeduct.hidden = true;
    ruleGame.hidden = true;
    replace(
      facts,
      h('h1', { id: 'event-h' }, view.name),
      h(
        'div',
        { class: 'facts' },
        h('span', {}, h('b', { 'data-state': view.state }, stateWord(view.state))),
        h('span', {}, wordIn(WORDS, 'round_of', { r: view.round, n: view.rounds })),
        h('span', {}, `${d('tables')} ${view.tables} · ${d('boards_per_round')} ${view.boards_per_round} · ${d(view.movement)}`),
        h('span', { class: 'mono' }, d('log', { n: view.log_len, hash: view.head_hash.slice(0, 16) })),
      ),
      warningsBox(view),
      clockLine(view, fetchedAt),
      seedFacts(view),
      h(
        'div',
        { class: 'controls', style: 'margin-top:12px' },
        startBtn,
        closeBtn,
        h('label', { class: 'check', for: 'force-close' }, force, d('force')),
        cardsBtn,
        revealBtn,
        earlyBtn,
      ),
      links(),
    );
    replace(startBtn, d('start_round', { r: view.round + 1 }));
    startBtn.disabled = playing || view.round >= view.rounds || view.state === 'finished' || view.pairs.length === 0;
    replace(closeBtn, d('close_round', { r: Math.max(view.round, 1) }));
    closeBtn.disabled = !playing;
    revealBtn.disabled = view.state === 'finished' || view.closed < view.rounds;
    // Finishing early: after a closed round, none being played, fewer than planned.
    earlyBtn.hidden = view.state === 'finished' || playing || view.closed === 0 || view.closed >= view.rounds;
    cardsBtn.disabled = view.pairs.length === 0;
    register.hidden = view.round > 0;
    if (!register.hidden) drawRegistered();
    // The round in play (or the last one) first and open; the others folded.
    const current = Math.max(view.round, 1);
    replace(
      schedule,
      view.schedule
        .slice()
        .sort((/** @type {any} */ a, /** @type {any} */ b) => (a.round === current ? -1 : b.round === current ? 1 : a.round - b.round))
        .map((/** @type {any} */ r) =>
          h(
            'details',
            { class: 'panel', open: r.round === current, 'data-round': r.round },
            h('summary', { style: 'font-size:24px;font-weight:800;min-height:48px;cursor:pointer' }, `${d('round_h', { r: r.round })} · ${wordIn(WORDS, r.state === 'closed' ? 'closed' : r.state === 'playing' ? 'playing' : 'waiting')}`),
            r.bye_stand ? h('p', { class: 'hint' }, d('bye_stand', { boards: r.bye_stand.join('、') })) : null,
            r.tables.map((/** @type {any} */ t) => (r.state === 'playing' ? h('div', {}, tableResults(t), tableClock(t, fetchedAt)) : tableResults(t))),
          ),
        ),
    );
    if (aRound.value === '1' && view.round > 1) aRound.value = String(view.round);
    try {
      const st = await call('GET', `${base}/standings`);
      replace(
        live,
        h('section', { class: 'panel', 'aria-labelledby': 'live-h' }, h('h2', { id: 'live-h' }, d('live_h')), rankingTable('NS', st.ranking.NS), rankingTable('EW', st.ranking.EW)),
        st.boards && st.boards.length ? travellers(st.boards) : null,
      );
    } catch (e) {
      err.show(e);
    }
  }

  /** The fair-play section (80分 pairs, 够级 teams), from the server's status; the director's only (none without a token). */
  async function refreshFairplay() {
    if (!token()) {
      replace(fairplay);
      return;
    }
    try {
      const f = await call('GET', `${base}/fairplay`);
      replace(fairplay, fairplayPanel(f, (go) => {
        call('POST', `${base}/fairplay`, { run: go }).then(refreshFairplay, (e) => err.show(e));
      }, Boolean(view.gouji)));
    } catch (e) {
      err.show(e);
    }
  }

  /** The console of a 够级 team event. @param {boolean} playing */
  async function refreshGouji(playing) {
    const gv = view.gouji;
    const finalClosed = gv.stages.some((/** @type {any} */ s) => s.kind === 'final' && s.state === 'closed');
    replace(
      facts,
      h('h1', { id: 'event-h' }, view.name),
      h(
        'div',
        { class: 'facts' },
        h('span', {}, h('b', { 'data-state': view.state }, stateWord(view.state))),
        h('span', {}, g('gouji_teams')),
        h('span', {}, wordIn(WORDS, 'round_of', { r: view.round, n: view.rounds })),
        h('span', {}, `${g('teams_h')} ${gv.teams.length} · ${g('final_games')} ${gv.final_games}`),
        gv.next ? h('span', { 'data-next': gv.next }, g(gv.next === 'final' ? 'next_final' : 'next_knockout')) : null,
        h('span', { class: 'mono' }, d('log', { n: view.log_len, hash: view.head_hash.slice(0, 16) })),
      ),
      warningsBox(view),
      seedFacts(view),
      h('div', { class: 'controls', style: 'margin-top:12px' }, startBtn, closeBtn, cardsBtn, revealBtn),
      links(),
    );
    replace(startBtn, d('start_round', { r: view.round + 1 }));
    startBtn.disabled = playing || !gv.next || view.state === 'finished' || gv.teams.length === 0;
    replace(closeBtn, d('close_round', { r: Math.max(view.round, 1) }));
    closeBtn.disabled = !playing;
    revealBtn.disabled = view.state === 'finished' || !finalClosed;
    replace(cardsBtn, g('print_team_cards'));
    cardsBtn.disabled = gv.teams.length === 0;
    register.hidden = view.round > 0;
    if (!register.hidden) drawRegistered();
    shengjiPanels.hidden = true;
    refreshFairplay();
    teamDeduct.hidden = !playing;
    ruleGame.hidden = !playing;
    replace(
      schedule,
      gv.teams.length ? h('section', { class: 'panel' }, teamList(gv.teams)) : null,
      gv.groups.length
        ? h('section', { class: 'panel', 'aria-labelledby': 'groups-h' }, h('h2', { id: 'groups-h' }, g('group_h')), h('ul', {}, gv.groups.map((/** @type {any} */ x) => h('li', {}, `${g('group', { name: x.name })}：${x.teams.join('、')}`))))
        : null,
      gv.stages.slice().reverse().map((/** @type {any} */ s) => stageView(s, drawLot)),
    );
    try {
      const st = await call('GET', `${base}/standings`);
      replace(
        live,
        h('section', { class: 'panel', 'aria-labelledby': 'live-h' }, h('h2', { id: 'live-h' }, d('live_h')), teamRanking(st)),
        st.gouji && st.gouji.games && st.gouji.games.length ? gameResults(st.gouji.games) : null,
      );
    } catch (e) {
      err.show(e);
    }
  }

  root.replaceChildren(
    header(d('console')),
    h(
      'main',
      { class: 'event-page' },
      tokenPanel(redraw),
      facts,
      ok,
      err.box,
      register,
      schedule,
      conduct,
      fairplay,
      shengjiPanels,
      teamDeduct,
      ruleGame,
      live,
    ),
    area,
  );
  refresh();
  return setInterval(refresh, 3000);
}

/** Starts the console (director.html). */
export function main() {
  runPage((root, id, draw) => {
    if (id) return eventConsole(root, id, draw);
    root.replaceChildren(
      header(d('console')),
      h('main', { class: 'event-page' }, h('h1', {}, d('console')), tokenPanel(draw), listPanel(), createPanel()),
    );
    return undefined;
  });
}
