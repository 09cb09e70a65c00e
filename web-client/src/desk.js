// @ts-check
//! 裁判席 (the referee's desk) on the page: what the replay viewer (`replay.js`) and the
//! referee's table (`referee.js`) share — their words, the referee's token (kept for this tab
//! only), the desk's HTTP calls, and a table drawn with every hand showing.
//!
//! Everything drawn here is what the engine put in its referee view (`Viewer::Referee`: every
//! hand, in the engine's order) or announced in its events; nothing is judged on the page.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { suitRuns, rankGroups, rankLabel } from './cards.js';
import { cardRow, cardFace } from './ui.js';
import { seatNames } from './seats.js';
import { ApiError, request } from './api.js';

/** @typedef {import('./protocol').ShengjiView} ShengjiView */
/** @typedef {import('./protocol').GoujiView} GoujiView */
/** @typedef {import('./protocol').Problem} Problem */

/** @type {Record<string, { zh: string, en: string }>} */
const WORDS = {
  replay: { zh: '复盘', en: 'Replay' },
  full_replay: { zh: '全盘复盘', en: 'Full replay' },
  back_to_table: { zh: '回牌桌', en: 'Back to the table' },
  desk: { zh: '裁判席', en: 'Referee’s desk' },
  step_of: { zh: '第 {k} 步，共 {n} 步', en: 'Step {k} of {n}' },
  as_dealt: { zh: '发牌后，还没有人出牌', en: 'As dealt: nobody has played yet' },
  trick_now: { zh: '第 {n} 轮', en: 'Trick {n}' },
  start: { zh: '开头', en: 'Start' },
  end: { zh: '结尾', en: 'End' },
  prev_step: { zh: '上一步', en: 'Previous' },
  next_step: { zh: '下一步', en: 'Next' },
  prev_trick: { zh: '上一轮', en: 'Previous trick' },
  next_trick: { zh: '下一轮', en: 'Next trick' },
  prev_set: { zh: '上一套', en: 'Previous set' },
  next_set: { zh: '下一套', en: 'Next set' },
  step_slider: { zh: '跳到第几步', en: 'Go to step' },
  keys: { zh: '键盘：← → 一步；PageUp / PageDown 一轮{sets}；Home / End 开头、结尾', en: 'Keys: ← → a step; PageUp / PageDown a trick{sets}; Home / End start, end' },
  keys_sets: { zh: '；Shift + ← → 一套', en: '; Shift + ← → a set' },
  loading: { zh: '正在载入…', en: 'Loading…' },
  verdict_h: { zh: '引擎的判定', en: 'The engine’s verdict' },
  legal: { zh: '合法', en: 'Legal' },
  illegal: { zh: '不合法', en: 'Not legal' },
  context_h: { zh: '当时的情形', en: 'The position' },
  rules_h: { zh: '适用的规则', en: 'The rules that applied' },
  refused_h: { zh: '引擎会拒绝的其他做法', en: 'What the engine would have refused' },
  also_legal: { zh: '另外还有 {n} 种合法的做法，例如：', en: '{n} other legal actions, e.g.:' },
  happened_h: { zh: '这一步的结果', en: 'What this step did' },
  // How a rule applied, as `paiju explain` marks it (docs/referee.md).
  rule_bound: { zh: '✓ 约束', en: '✓ bound' },
  rule_kept: { zh: '✓ 满足', en: '✓ kept' },
  rule_void: { zh: '· 不适用', en: '· n/a' },
  rule_info: { zh: '· 说明', en: '· note' },
  actor_player: { zh: '本人', en: 'player' },
  actor_bot: { zh: '电脑', en: 'computer' },
  actor_clock: { zh: '计时器', en: 'clock' },
  actor_auto: { zh: '托管', en: 'auto-play' },
  actor_referee: { zh: '裁判', en: 'referee' },
  reason: { zh: '理由', en: 'Reason' },
  result_h: { zh: '结果', en: 'Result' },
  chain_ok: { zh: '核对：记录的哈希链完整，每一步都被引擎重新接受。', en: 'Checked: the log’s hash chain holds and the engine accepts every step again.' },
  defenders_tricks: { zh: '闲家得分 {n}（赢了 {k} 轮）', en: 'Defenders {n} points ({k} tricks)' },
  result_final: { zh: '裁判已确认成绩', en: 'finalised by the referee' },
  result_not_final: { zh: '成绩尚未由裁判确认', en: 'not yet finalised by the referee' },
  by_ruling: { zh: '本副由裁判判为结束', en: 'ended by a ruling' },
  deducted: { zh: '裁判扣分：A 队 {a}，B 队 {b}', en: 'Deductions: team A {a}, team B {b}' },
  outcome_sweep: { zh: '串三户', en: 'sweep' },
  outcome_forfeit: { zh: '判负', en: 'forfeit' },
  to_act: { zh: '轮到', en: 'to act' },
  trick_done: { zh: '这一轮结束', en: 'trick over' },
  timeouts: { zh: '超时 {n} 次', en: '{n} timeouts' },
  headless: { zh: '无头', en: 'no head' },
  kitty_h: { zh: '底牌', en: 'Kitty' },
  nothing_yet: { zh: '桌上还没有牌', en: 'Nothing on the table yet' },
  // The referee's pages.
  token_h: { zh: '裁判凭证', en: 'Referee token' },
  token_hint: { zh: '服务器启动时设的 --referee-token。只在这个标签页里记住，关掉就忘。', en: 'The --referee-token the server was started with. Kept in this tab only.' },
  use_token: { zh: '使用此凭证', en: 'Use this token' },
  forget_token: { zh: '忘记凭证', en: 'Forget the token' },
  token_set: { zh: '已输入裁判凭证。', en: 'Referee token entered.' },
  token_missing: { zh: '请您先输入裁判凭证。', en: 'Enter the referee token first.' },
  tables_h: { zh: '牌桌', en: 'Tables' },
  no_tables: { zh: '这台服务器上现在没有牌桌。', en: 'No tables on this server now.' },
  open_by_code: { zh: '用桌号打开', en: 'Open by table code' },
  officiate: { zh: '执裁', en: 'Officiate' },
  state_waiting: { zh: '等人', en: 'waiting' },
  state_playing: { zh: '进行中', en: 'playing' },
  state_over: { zh: '已结束', en: 'over' },
  state_closed: { zh: '已关闭', en: 'closed' },
  steps_n: { zh: '{n} 步', en: '{n} steps' },
  ruling_h: { zh: '判罚', en: 'Ruling' },
  ruling_seat: { zh: '对哪个座位', en: 'Against which seat' },
  ruling_kind: { zh: '判罚', en: 'Ruling' },
  penalty: { zh: '罚分', en: 'Penalty' },
  penalty_points: { zh: '罚几分（给对方）', en: 'Points (to the other side)' },
  deduction_points: { zh: '扣该队几分', en: 'Points off the team' },
  end_board: { zh: '判本副结束（违规方负）', en: 'End the board against this side' },
  finalize: { zh: '确认成绩（之后不再接受判罚）', en: 'Finalise the result (no more rulings)' },
  warning: { zh: '警告', en: 'Warning' },
  deduction_n: { zh: '扣 {n} 分', en: 'Deduct {n}' },
  forfeit: { zh: '判负', en: 'Forfeit' },
  offence: { zh: '犯规', en: 'Offence' },
  ruling_reason: { zh: '理由（选手都会看到）', en: 'Reason (every player sees it)' },
  ruling_submit: { zh: '判罚', en: 'Rule' },
  ruling_confirm: { zh: '确定：{what}。理由：{reason}', en: 'Confirm: {what}. Reason: {reason}' },
  confirm: { zh: '确定', en: 'Confirm' },
  cancel: { zh: '取消', en: 'Cancel' },
  ruled: { zh: '已记录为第 {seq} 条，选手都看到了。', en: 'Logged as entry {seq}; every player sees it.' },
  for_seat: { zh: '对{who}：{what}', en: '{what} for {who}' },
  review_h: { zh: '审查', en: 'Review' },
  review_reason: { zh: '审查理由（选手都会看到）', en: 'Why (every player sees it)' },
  review_on: { zh: '暂停比赛，进行审查', en: 'Stop the clocks and review' },
  review_off: { zh: '审查结束，继续比赛', en: 'End the review, play on' },
  under_review: { zh: '裁判正在审查本桌：{reason}。计时已暂停，请稍候。', en: 'The referee is reviewing this table: {reason}. The clocks are stopped; please wait.' },
  clock_stopped: { zh: '（暂停）', en: ' (stopped)' },
  recent_h: { zh: '最近的动作', en: 'Recent actions' },
  open_replay: { zh: '复盘（每一步、每家的牌）', en: 'Replay (every step, every hand)' },
  back_to_desk: { zh: '回裁判席', en: 'Referee’s desk' },
  role_not_referee: { zh: '凭证不是裁判的：请您在裁判席重新输入。', en: 'That is not the referee token: enter it again on the desk.' },
  // The fair-play question (`explain --all-seeing`, docs/referee.md), under a step's verdict.
  seeing_ask: { zh: '看得见所有牌会怎样？', en: 'What if every hand were seen?' },
  seeing_thinking: { zh: '引擎正在推演…', en: 'The engine is weighing the choices…' },
  seeing_none: { zh: '这一步没有可比的选择（不是出牌，或只有一种合法出法）。', en: 'Nothing to weigh here (not a play, or only one legal play).' },
  seeing_h_exact: { zh: '看得见所有牌（终局精确搜索）与只凭自己看到的', en: 'Every hand known (the endgame searched exactly) and the seat’s own view' },
  seeing_h_played: { zh: '看得见所有牌（按普通水平打完）与只凭自己看到的', en: 'Every hand known (played out at club level) and the seat’s own view' },
  seeing_choice: { zh: '出法', en: 'Choice' },
  seeing_all: { zh: '全知：闲家最终得分', en: 'All-seeing: the defenders end with' },
  seeing_all_team: { zh: '全知：本队最终得分', en: 'All-seeing: the seat’s team ends with' },
  seeing_own: { zh: '自己所见：平均', en: 'Own view: on average' },
  seeing_meaning: { zh: '只是给裁判参考的数字，不是判定：一次猜对说明不了什么。', en: 'A figure for the referee to weigh, not a verdict: one right guess means nothing.' },
};

/** A desk word in the current language, falling back to the page's words. @param {string} key @param {Record<string, string | number>} [params] */
export function dw(key, params = {}) {
  const w = WORDS[key];
  if (!w) return t(key, params);
  return w[lang()].replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

// ---- The referee's token ---------------------------------------------------------------------

const TOKEN_KEY = 'paiju.referee';

/** The referee's token for this tab ('' when none). */
export function refereeToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Keeps (or, with '', forgets) the referee's token for this tab. @param {string} token */
export function setRefereeToken(token) {
  try {
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // A private window without storage: the token must be typed on each page.
  }
}

/**
 * A GET of the desk's endpoints (`/api/tables/{id}/replay`, `…/explain/{seq}`), with the
 * referee's token when this tab has one.
 * @param {string} path
 */
export function deskGet(path) {
  const token = refereeToken();
  return request('GET', path, token ? { bearer: token } : {});
}

// ---- Words about steps ---------------------------------------------------------------------------

/** Who made a logged move, in words: 「电脑」, 「计时器」, … @param {string} actor */
export function actorWord(actor) {
  return dw(`actor_${actor}`);
}

/** `mm:ss` since the table was made. @param {number} ms */
export function elapsed(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const mm = Math.floor(s / 60);
  return `${String(mm).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** A seat index from the engine's seat name (`"N"`, `"B2"`) or an index. @param {string} game @param {unknown} s */
export function seatOf(game, s) {
  if (typeof s === 'number') return s;
  const letters = game === 'gouji' ? ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'] : ['N', 'E', 'S', 'W'];
  const i = letters.indexOf(String(s).toUpperCase());
  return i < 0 ? 0 : i;
}

/**
 * A seat in words: its name at the table (`北`, `B2`) and its player's, when they differ.
 * @param {string} game @param {number} s @param {(s: number) => string} nameOf
 */
export function seatWho(game, s, nameOf) {
  const seat = seatNames(game)[s] ?? String(s);
  const name = nameOf(s);
  return name && name !== seat ? `${seat} ${name}` : seat;
}

/** The place words (头科 … 大落) by the engine's names. */
const PLACES = ['first', 'second', 'third', 'fourth', 'second_last', 'last'];
/** @param {string | null | undefined} p */
export function placeWord(p) {
  const i = PLACES.indexOf(String(p));
  return i < 0 ? '' : t(`place_${i + 1}`);
}

// ---- The table with every hand ---------------------------------------------------------------

/**
 * What a board drawing needs beside the view.
 * @typedef {object} BoardOpts
 * @property {(seat: number) => string} nameOf  the seat's player, in words
 * @property {(seat: number) => boolean} [bot]  a computer plays the seat (the protocol's flag)
 * @property {number[]} [toAct]  the seats to act now
 * @property {any[]} [events]  the events of the last step (80分: a trick just won is shown whole)
 * @property {Map<number, string[] | 'pass' | 'yield'>} [said]  够级: what each seat did in this trick (from the events)
 * @property {string} [label]  which board this is, when two are on one page: each seat's name starts with it
 */

/**
 * The whole table as the referee sees it, for either game.
 * @param {string} game @param {any} view  the engine's referee view @param {BoardOpts} o
 */
export function fullBoard(game, view, o) {
  return game === 'gouji' ? goujiBoard(/** @type {GoujiView} */ (view), o) : shengjiBoard(/** @type {ShengjiView} */ (view), o);
}

/**
 * A seat's plate: name, seat, tags.
 * @param {string} name @param {string} seat @param {string[]} tags  `class|text` @param {boolean} turn
 */
function plate(name, seat, tags, turn) {
  return h(
    'div',
    { class: 'nameplate' + (turn ? ' turn' : '') },
    h('span', { class: 'name' }, name, name === seat ? null : h('span', { class: 'desk-seatname' }, ` · ${seat}`)),
    tags.length
      ? h('span', { class: 'tags' }, tags.map((tag) => {
          const [cls, text] = tag.split('|');
          return h('span', { class: 'tag ' + cls }, text);
        }))
      : null,
  );
}

/** 80分: N on top, W left, E right, S at the bottom; the trick in the middle. @param {ShengjiView} v @param {BoardOpts} o */
function shengjiBoard(v, o) {
  const names = seatNames('shengji');
  const declarer = seatOf('shengji', v.declarer);
  const toAct = o.toAct ?? (v.to_act ? [seatOf('shengji', v.to_act)] : []);
  // The trick on the table: the one being played, or the one this step just finished.
  const wonNow = (o.events ?? []).some((e) => e?.type === 'trick_won');
  /** @type {{ plays: { seat: any, cards: string[] }[], winner: any, done: boolean } | null} */
  let trick = null;
  if (v.plays?.length) trick = { plays: v.plays, winner: v.winning ?? null, done: false };
  else if (wonNow && v.last_trick) trick = { plays: v.last_trick.plays, winner: v.last_trick.winner, done: true };
  const areas = ['n', 'e', 's', 'w'];
  const seats = [0, 1, 2, 3].map((s) => {
    const tags = [];
    if (s === declarer) tags.push('declarer|' + t('declarer'));
    if (o.bot?.(s)) tags.push('bot|' + t('bot'));
    if (toAct.includes(s)) tags.push('placed|' + dw('to_act'));
    const timeouts = v.timeouts?.[s] ?? 0;
    if (timeouts) tags.push('offline|' + dw('timeouts', { n: timeouts }));
    const hand = v.hands?.[s] ?? null;
    return h(
      'section',
      { class: 'desk-seat', style: `grid-area:${areas[s]}`, 'data-seat': String(s), 'aria-label': `${o.label ? `${o.label} · ` : ''}${names[s]} ${o.nameOf(s)}` },
      plate(o.nameOf(s), names[s], tags, toAct.includes(s)),
      hand
        ? h('div', { class: 'desk-hand', 'data-hand': String(s), 'data-count': String(hand.length) },
            suitRuns(hand).map((run) => h('span', { class: 'desk-run' }, run.cards.map((c) => cardFace(c.code, { small: true })))),
          )
        : h('span', { class: 'count' }, t('cards_left', { n: v.hand_sizes?.[s] ?? 0 })),
    );
  });
  const middle = h(
    'section',
    { class: 'desk-trick', style: 'grid-area:t', 'aria-label': o.label ? `${o.label} · ${t('current_trick')}` : t('current_trick') },
    h('h3', {}, dw('trick_now', { n: (trick?.done ? v.last_trick?.trick : v.trick) || 1 }), trick?.done ? ` · ${dw('trick_done')}` : ''),
    trick
      ? h('table', { class: 'desk-plays' },
          trick.plays.map((p) => {
            const s = seatOf('shengji', p.seat);
            const win = trick.winner !== null && seatOf('shengji', trick.winner) === s;
            return h('tr', { 'data-play-seat': String(s), 'data-winning': win ? 'true' : undefined },
              h('th', {}, seatWho('shengji', s, o.nameOf), win ? h('span', { class: 'win-tag' }, t('winning')) : null),
              h('td', {}, cardRow(p.cards)),
            );
          }),
        )
      : h('p', { class: 'hint' }, dw('nothing_yet')),
  );
  return h('div', { class: 'desk-board four' }, seats, middle);
}

/** 够级: six seats round the table, each hand as rank groups with counts; the top set in the middle. @param {GoujiView} v @param {BoardOpts} o */
function goujiBoard(v, o) {
  const names = seatNames('gouji');
  const turn = v.turn ? seatOf('gouji', v.turn) : null;
  const toAct = o.toAct ?? (turn === null ? [] : [turn]);
  const players = [...(v.players ?? [])].sort((a, b) => seatOf('gouji', a.seat) - seatOf('gouji', b.seat));
  const seats = players.map((p) => {
    const s = seatOf('gouji', p.seat);
    const tags = [];
    const place = placeWord(p.place);
    if (place) tags.push('placed|' + place);
    if (p.opened) tags.push('|' + t('opened'));
    if (p.marked) tags.push('opposite|' + t('marked'));
    if (p.burning) tags.push('opposite|' + t('burning'));
    if (p.status === 'failed') tags.push('opposite|' + t('burn_failed'));
    if (p.has_head === false && p.status === 'playing') tags.push('offline|' + dw('headless'));
    if (o.bot?.(s)) tags.push('bot|' + t('bot'));
    if (toAct.includes(s)) tags.push('placed|' + dw('to_act'));
    const hand = v.hands?.[s] ?? [];
    const said = o.said?.get(s) ?? (p.passed ? 'pass' : p.yielded ? 'yield' : null);
    return h(
      'section',
      { class: 'desk-seat', style: `grid-area:p${s}`, 'data-seat': String(s), 'aria-label': `${o.label ? `${o.label} · ` : ''}${names[s]} ${o.nameOf(s)}` },
      plate(o.nameOf(s), names[s], tags, toAct.includes(s)),
      h('div', { class: 'desk-groups', 'data-hand': String(s), 'data-count': String(hand.length) },
        rankGroups(hand).map((g) => h('span', { class: 'desk-group' + (g.rank === 'RJ' ? ' red' : '') }, rankLabel(g.rank, lang()), h('small', {}, `×${g.count}`))),
        hand.length ? null : h('span', { class: 'hint' }, t('cards_left', { n: 0 })),
      ),
      h('span', { class: 'said' }, said === 'pass' ? t('pass') : said === 'yield' ? t('yield') : Array.isArray(said) ? cardRow(said) : ''),
    );
  });
  const top = v.top;
  const middle = h(
    'section',
    { class: 'desk-trick', style: 'grid-area:t', 'aria-label': o.label ? `${o.label} · ${t('current_trick')}` : t('current_trick') },
    top
      ? h('div', { class: 'play winning', id: 'top-set', 'data-gouji': String(!!top.gouji) },
          h('span', { class: 'who' }, `${t('top_set')} · ${seatWho('gouji', seatOf('gouji', top.owner), o.nameOf)}`),
          cardRow(top.cards),
          top.gouji ? h('span', { class: 'win-tag' }, t('gouji_set')) : null,
        )
      : h('p', { class: 'hint' }, dw('nothing_yet')),
    v.free_play ? h('span', { class: 'chip' }, t('four_free')) : null,
  );
  return h('div', { class: 'desk-board six' }, seats, middle);
}

/**
 * 够级: what each seat did in the current trick, from the engine's events of the steps so far
 * (newest last): the sets played since the last lead, or 过 / 让.
 * @param {any[][]} eventsByStep
 */
export function goujiSaid(eventsByStep) {
  /** @type {Map<number, string[] | 'pass' | 'yield'>} */
  const said = new Map();
  for (const events of eventsByStep) {
    for (const ev of events) {
      if (ev.type === 'led' || ev.type === 'trick_won') said.clear();
      if (ev.type === 'led' || ev.type === 'beat' || ev.type === 'burned') said.set(seatOf('gouji', ev.seat), ev.cards ?? []);
      else if (ev.type === 'passed') said.set(seatOf('gouji', ev.seat), 'pass');
      else if (ev.type === 'yielded') said.set(seatOf('gouji', ev.seat), 'yield');
    }
  }
  return said;
}

/** The cards of an action, if it has any. @param {any} action */
export function actionCards(action) {
  return Array.isArray(action?.cards) ? /** @type {string[]} */ (action.cards) : [];
}

/** A server refusal, or any error, as a Problem. @param {unknown} e @returns {Problem} */
export function problemOf(e) {
  if (e instanceof ApiError) return e.problem;
  return { code: 'error', zh: String(e), en: String(e) };
}
