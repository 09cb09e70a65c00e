// @ts-check
//! 赛事成绩 (an event's standings, standings.html): the events, one event's NS and EW rankings
//! (双冠军), every board's results once the event is finished, the printable page and the CSV;
//! and a pair's own corner: sit down with a player token from the seating card, see the table's
//! results, confirm them (NS record, EW check) or call the referee. The director's console
//! (director.js) reuses the words, the server calls and the tables here.
//!
//! Everything shown is the server's (docs/tournaments.md): the page computes no score.

import { h, replace } from './dom.js';
import { ApiError, request } from './api.js';
import { settings, set, onChange, setTicket, pairToken, setPairToken } from './settings.js';
import { seatNames } from './seats.js';

/** @typedef {Record<string, { zh: string, en: string }>} Words */

/** Words of the event pages: Chinese first, English a switch (the lobby's setting). @type {Words} */
export const WORDS = {
  brand: { zh: '牌局', en: 'Paiju' },
  events: { zh: '赛事', en: 'Events' },
  standings: { zh: '成绩榜', en: 'Standings' },
  language: { zh: 'English', en: '中文' },
  language_label: { zh: '切换到英文', en: 'Switch to Chinese' },
  refresh: { zh: '刷新', en: 'Refresh' },
  no_events: { zh: '现在没有比赛。', en: 'No events yet.' },
  open: { zh: '查看', en: 'Open' },
  round_of: { zh: '第 {r} 轮 / 共 {n} 轮', en: 'Round {r} of {n}' },
  state_registering: { zh: '报名中', en: 'Registering' },
  state_running: { zh: '进行中', en: 'In play' },
  state_finished: { zh: '已结束', en: 'Finished' },
  final: { zh: '最终成绩', en: 'Final results' },
  through: { zh: '截至第 {r} 轮（已结束的轮次）', en: 'Through round {r} (closed rounds)' },
  through_live: { zh: '截至第 {r} 轮（含进行中的牌）', en: 'Through round {r} (live, boards in play included)' },
  none_yet: { zh: '还没有结束的轮次。', en: 'No round closed yet.' },
  ns: { zh: '南北方向', en: 'North–South' },
  ew: { zh: '东西方向', en: 'East–West' },
  NS: { zh: '南北', en: 'NS' },
  EW: { zh: '东西', en: 'EW' },
  place: { zh: '名次', en: 'Place' },
  pair: { zh: '对号', en: 'Pair' },
  players: { zh: '选手', en: 'Players' },
  organisation: { zh: '单位', en: 'Organisation' },
  mp: { zh: '比赛分', en: 'Match points' },
  deducted: { zh: '罚分', en: 'Deducted' },
  prize: { zh: '获奖', en: 'Prize' },
  computer: { zh: '电脑', en: 'Computer' },
  travellers: { zh: '每副成绩', en: 'Travellers' },
  board_n: { zh: '第 {n} 副', en: 'Board {n}' },
  board_no: { zh: '牌号', en: 'Board' },
  table_state: { zh: '牌桌', en: 'Table' },
  defenders: { zh: '闲家得分', en: "Defenders' points" },
  ns_mp: { zh: '南北比赛分', en: 'NS MP' },
  ew_mp: { zh: '东西比赛分', en: 'EW MP' },
  adjusted: { zh: '（调整）', en: ' (adjusted)' },
  timeouts_of: { zh: '{seat} 超时 {n} 次', en: '{seat}: {n} timeouts' },
  auto_moves_of: { zh: '{seat} 托管 {n} 步', en: '{seat}: 托管 {n} moves' },
  artificial: { zh: '人为分 {ns} / {ew}', en: 'Artificial {ns} / {ew}' },
  commitment: { zh: '种子承诺（SHA-256）', en: 'Seed commitment (SHA-256)' },
  seed: { zh: '种子', en: 'Seed' },
  seed_hidden: { zh: '种子在最后一副牌打完、各轮结束后公布。', en: 'The seed is revealed once the last board is played and every round closed.' },
  seed_hidden_gouji: { zh: '种子在最后一局打完、各轮结束后公布。', en: 'The seed is revealed once the last game is played and every round closed.' },
  print_results: { zh: '打印成绩（A4）', en: 'Print results (A4)' },
  csv: { zh: '下载成绩表（CSV）', en: 'Download results (CSV)' },
  my_pair: { zh: '选手入座', en: 'Players: sit down' },
  my_pair_hint: { zh: '输入座位卡上您自己的选手凭证（例如 ab3d-7kfm-q2xw）。', en: 'Type your own player token from your seating card (e.g. ab3d-7kfm-q2xw).' },
  pair_token: { zh: '选手凭证', en: 'Player token' },
  sit: { zh: '入座打牌', en: 'Sit down and play' },
  my_results: { zh: '本桌成绩', en: 'My table’s results' },
  confirm_ok: { zh: '成绩无误，确认', en: 'Results are right: confirm' },
  dispute: { zh: '有异议，请裁判', en: 'Dispute: call the referee' },
  note: { zh: '异议说明', en: 'What is wrong' },
  confirmed: { zh: '已确认', en: 'Confirmed' },
  disqualified: { zh: '取消资格', en: 'Disqualified' },
  not_confirmed: { zh: '未确认', en: 'Not confirmed' },
  disputed: { zh: '已报告裁判：{note}', en: 'Referee called: {note}' },
  sent_ok: { zh: '已确认成绩，谢谢。', en: 'Results confirmed. Thank you.' },
  sent_dispute: { zh: '已报告裁判，请稍候。', en: 'The referee has been called; please wait.' },
  table_n: { zh: '第 {n} 桌', en: 'Table {n}' },
  you_are: { zh: '{dir} 第 {n} 对：{names}', en: '{dir} pair {n}: {names}' },
  you_are_team: { zh: '第 {n} 队：{names}', en: 'Team {n}: {names}' },
  vs: { zh: '南北 {ns} 对 东西 {ew}', en: 'NS {ns} v EW {ew}' },
  waiting: { zh: '等待入座', en: 'Waiting' },
  playing: { zh: '进行中', en: 'In play' },
  over: { zh: '已打完', en: 'Played' },
  closed: { zh: '已关闭', en: 'Closed' },
  not_open: { zh: '未开', en: 'Not open' },
  step: { zh: '第 {n} 步', en: 'step {n}' },
  settled: { zh: '已定成绩', en: 'Settled' },
  phantom: { zh: '空位（半桌，轮空）', en: 'phantom (half table: sit-out)' },
  forfeits: { zh: '迟到弃权：{dirs}', en: 'Forfeited for lateness: {dirs}' },
  seat_N: { zh: '北', en: 'North' },
  seat_E: { zh: '东', en: 'East' },
  seat_S: { zh: '南', en: 'South' },
  seat_W: { zh: '西', en: 'West' },
  declarer_col: { zh: '庄家', en: 'Declarer' },
  declared_us: { zh: '本对坐庄', en: 'we declared' },
  declared_them: { zh: '对方坐庄', en: 'they declared' },
  for_us: { zh: '对本对', en: 'For us' },
  for_us_hint: { zh: '本对坐庄时，闲家得分越少对本对越好；对方坐庄时越多越好。每一副都和打同一副牌的其他桌比较，比出比赛分。', en: 'When we declare, the fewer points the defenders take the better for us; when they declare, the more. Each board is compared with the other tables that played it, for match points.' },
  board_mp: { zh: '比赛分 {mp}', en: '{mp} match points' },
  board_mp_of: { zh: '比赛分 {mp} / {top}', en: '{mp} of {top} match points' },
  clock_left: { zh: '本轮剩余 {t}', en: 'Round time left {t}' },
  clock_over: { zh: '本轮已超时 {t}：未打完的牌由裁判长处理', en: 'Round over time by {t}: the director rules on unplayed boards' },
};

/** The current language. */
export function lang() {
  return settings().lang === 'en' ? 'en' : 'zh';
}

/**
 * A word of `dict` in the current language, `{name}` placeholders filled.
 * @param {Words} dict @param {string} key @param {Record<string, string | number>} [params]
 */
export function wordIn(dict, key, params = {}) {
  const entry = dict[key] ?? WORDS[key];
  const text = entry ? entry[lang()] : key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ''));
}

/** A word of the event pages. @param {string} key @param {Record<string, string | number>} [params] */
export function w(key, params = {}) {
  return wordIn(WORDS, key, params);
}

/** A server refusal (or any error) in the current language. @param {unknown} e */
export function problemText(e) {
  if (e instanceof ApiError) {
    const p = e.problem;
    return (lang() === 'en' ? p.en || p.zh : p.zh || p.en) ?? p.code;
  }
  return String(e);
}

/**
 * One call of the events API: JSON in and out; a refusal throws an `ApiError` with the
 * server's problem. `bearer`: the director's token.
 * @param {string} method @param {string} path @param {unknown} [body] @param {string} [bearer]
 * @returns {Promise<any>}
 */
export function eventCall(method, path, body, bearer) {
  return request(method, path, { body, bearer });
}

/** The event id of the page's address (`?e=ID`). */
export function eventId() {
  const id = new URLSearchParams(location.search).get('e');
  return id && /^[A-Za-z0-9_-]+$/.test(id) ? id : null;
}

/**
 * The bar at the top of the event pages: the brand (back to the lobby), the page's title, the
 * language switch.
 * @param {string} title
 */
export function header(title) {
  const s = settings();
  return h(
    'header',
    { class: 'topbar' },
    h('a', { href: './', class: 'brand' }, w('brand')),
    h('span', { class: 'title' }, title),
    h('button', {
      id: 'lang',
      lang: s.lang === 'zh' ? 'en' : 'zh',
      title: w('language_label'),
      'on:click': () => set('lang', s.lang === 'zh' ? 'en' : 'zh'),
    }, w('language')),
  );
}

/** An error box (hidden until shown). */
export function errorBox() {
  const box = h('p', { class: 'error-text', role: 'alert', hidden: true });
  return {
    box,
    /** @param {unknown} e */
    show(e) {
      replace(box, problemText(e));
      box.hidden = false;
    },
    hide() {
      box.hidden = true;
    },
  };
}

/** A pair's players, or 电脑 for a computer pair. @param {any} pair */
export function playerNames(pair) {
  if (pair.bot && (!pair.names || pair.names.length === 0)) return w('computer');
  return (pair.names ?? []).join(' / ');
}

/** @param {string} state */
export function stateWord(state) {
  return w(`state_${state}`);
}

/**
 * The box a wide table scrolls in on a phone: a named region that takes the keyboard's focus, so
 * it can be scrolled without a mouse.
 * @param {string} name
 */
export function scrollBox(name) {
  return { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': name };
}

/**
 * A ranking's columns: the place, who, the score first (what a phone shows without scrolling),
 * then the columns that say something here (an organisation, a deduction: left out when no line
 * has one).
 * @template T
 * @param {any[]} lines @param {[string, (l: any) => T, boolean?][]} columns  [heading, cell, optional]
 */
export function rankingColumns(lines, columns) {
  return columns.filter(([, cell, optional]) => !optional || lines.some((l) => { const v = cell(l); return v !== '' && v !== null && v !== undefined && v !== 0; }));
}

/**
 * One direction's ranking as a table.
 * @param {'NS' | 'EW'} dir @param {any[]} lines
 */
export function rankingTable(dir, lines) {
  const columns = rankingColumns(lines, [
    [w('place'), (l) => l.place ?? (l.disqualified ? w('disqualified') : '—')],
    [w('pair'), (l) => l.number],
    [w('players'), (l) => playerNames(l)],
    [w('mp'), (l) => l.mp],
    [w('organisation'), (l) => l.organisation ?? '', true],
    [w('deducted'), (l) => l.deducted ?? '', true],
  ]);
  return h(
    'div',
    scrollBox(w(dir === 'NS' ? 'ns' : 'ew')),
    h(
      'table',
      { class: 'results', 'data-ranking': dir },
      h('caption', {}, w(dir === 'NS' ? 'ns' : 'ew')),
      h('thead', {}, h('tr', {}, columns.map(([k]) => h('th', { scope: 'col' }, k)))),
      h(
        'tbody',
        {},
        lines.map((l) =>
          h('tr', { class: l.prize ? 'prize' : '' }, columns.map(([k, cell]) => h('td', k === w('players') ? { class: 'names' } : {}, cell(l)))),
        ),
      ),
    ),
  );
}

/** One result's outcome: points (adjusted marked) or artificial scores. @param {any} r */
function outcome(r) {
  if (r.defenders !== undefined && r.defenders !== null) return `${r.defenders}${r.adjusted ? w('adjusted') : ''}`;
  if (r.artificial) return w('artificial', { ns: r.artificial.ns ?? '—', ew: r.artificial.ew ?? '—' });
  return '';
}

/**
 * What the clock and 托管 did for each seat on a board (or 够级 game), beside its result: a
 * referee reads 「北 超时 2 次」 or 「南 托管 3 步」 as evidence of a player away from the table.
 * Seats with none are left out; nothing at all when no seat has any.
 * @param {{ timeouts?: number[], auto_moves?: number[] }} counts  by seat, in seat order
 * @param {string} game
 */
export function conductMarks(counts, game) {
  const names = seatNames(game);
  /** @param {number[] | undefined} list @param {string} key @param {string} kind */
  const marks = (list, key, kind) => (list ?? []).flatMap((n, seat) => (n > 0 ? [h('span', { class: 'conduct-mark', [`data-${kind}`]: `${names[seat] ?? seat}:${n}` }, w(key, { seat: names[seat] ?? String(seat), n }))] : []));
  const all = [...marks(counts.timeouts, 'timeouts_of', 'timeouts'), ...marks(counts.auto_moves, 'auto_moves_of', 'auto-moves')];
  return all.length ? h('div', { class: 'conduct-marks' }, all) : null;
}

/** Every board's results and match points (the travellers). @param {any[]} boards */
export function travellers(boards) {
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'travellers-h' },
    h('h2', { id: 'travellers-h' }, w('travellers')),
    boards.map((b) =>
      h(
        'div',
        scrollBox(w('board_n', { n: b.board })),
        h(
          'table',
          { class: 'results', 'data-board': b.board },
          h('caption', {}, w('board_n', { n: b.board })),
          h('thead', {}, h('tr', {}, ['NS', 'EW', 'defenders', 'ns_mp', 'ew_mp'].map((k) => h('th', { scope: 'col' }, w(k))))),
          h(
            'tbody',
            {},
            b.results.map((/** @type {any} */ r) =>
              h('tr', {}, h('td', {}, r.ns ?? '—'), h('td', {}, r.ew ?? '—'), h('td', {}, outcome(r)), h('td', {}, r.ns_mp ?? '—'), h('td', {}, r.ew_mp ?? '—')),
            ),
          ),
        ),
      ),
    ),
  );
}

/** A table's state in words. @param {any} board */
export function boardState(board) {
  // Settled by the director (an adjustment, a forfeit, a sit-out): its table, if any, no longer counts.
  if (board.done && board.state !== 'over') return w('settled');
  if (!board.table_id) return w('not_open');
  const state = board.state ?? 'closed';
  const word = w(state);
  return state === 'playing' && board.seq ? `${word} · ${w('step', { n: board.seq })}` : word;
}

/** The seats of a direction. */
const SEATS_OF = { NS: ['N', 'S'], EW: ['E', 'W'] };

/**
 * One board from a pair's side: who declared it (the result's `declarer`), and what it counts for
 * the pair — the defenders' points for the defending pair, the same taken away for the declaring
 * pair (the event's raw score, docs/tournaments.md; shown as the table's result shows it, not
 * judged) — with its match points when the server gives them (`mp`, `top`).
 * @param {any} b @param {'NS' | 'EW'} mine
 */
function forPair(b, mine) {
  const r = b.result;
  const declarer = r?.declarer;
  const ours = declarer ? SEATS_OF[mine].includes(declarer) : null;
  const cells = [
    h('td', { 'data-declarer': declarer ?? '' }, declarer ? `${w(`seat_${declarer}`)}（${w(ours ? 'declared_us' : 'declared_them')}）` : ''),
    h('td', { 'data-for-us': r && typeof r.defenders === 'number' ? String(ours ? -r.defenders : r.defenders) : '' },
      r && typeof r.defenders === 'number' ? signedPoints(ours ? -r.defenders : r.defenders) : '',
      typeof b.mp === 'number' ? h('div', { 'data-mp': String(b.mp) }, w(typeof b.top === 'number' ? 'board_mp_of' : 'board_mp', { mp: b.mp, top: b.top ?? '' })) : null,
    ),
  ];
  return cells;
}

/** +45, −45. @param {number} n */
function signedPoints(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/**
 * One table of a round: its boards, their states and results, the confirmations. With `mine`
 * (the pair's own page), each board says who declared it and what it counts for the pair.
 * @param {any} t @param {'NS' | 'EW'} [mine]
 */
export function tableResults(t, mine) {
  return h(
    'div',
    scrollBox(w('table_n', { n: t.table })),
    h(
      'table',
      { class: 'results', 'data-table': t.table },
      h('caption', {}, `${w('table_n', { n: t.table })} · ${w('vs', { ns: t.ns ?? w('phantom'), ew: t.ew ?? w('phantom') })}`),
      h('thead', {}, h('tr', {}, [...['board_no', 'table_state', 'defenders'], ...(mine ? ['declarer_col', 'for_us'] : [])].map((k) => h('th', { scope: 'col' }, w(k))))),
      h(
        'tbody',
        {},
        t.boards.map((/** @type {any} */ b) =>
          h('tr', { 'data-result-board': b.board }, h('td', {}, b.board), h('td', {}, boardState(b)), h('td', {}, h('span', { 'data-outcome': '' }, b.result ? outcome(b.result) : ''), b.result ? conductMarks(b.result, 'shengji') : null), mine ? forPair(b, mine) : null),
        ),
      ),
    ),
    mine && t.boards.some((/** @type {any} */ b) => b.result?.declarer) ? h('p', { class: 'hint' }, w('for_us_hint')) : null,
    h(
      'p',
      { class: 'hint' },
      `${w('NS')}：${t.ns_confirmed ? w('confirmed') : w('not_confirmed')} · ${w('EW')}：${t.ew_confirmed ? w('confirmed') : w('not_confirmed')}`,
      t.dispute ? h('span', { class: 'error-text', style: 'display:block;margin-top:6px' }, w('disputed', { note: t.dispute })) : null,
      t.forfeits && t.forfeits.length ? h('span', { class: 'error-text', style: 'display:block;margin-top:6px', 'data-forfeits': t.forfeits.join(' ') }, w('forfeits', { dirs: t.forfeits.map((/** @type {string} */ x) => w(x)).join('、') })) : null,
    ),
  );
}

/** Minutes and seconds, `m:ss`. @param {number} ms */
function minutes(ms) {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The round's clock from an event view: the time left, or how far over time (the server's
 * times, moved on by the time since the view was fetched). `null` when no round is being played
 * or its start was not logged.
 * @param {any} ev @param {number} fetchedAt `Date.now()` when the view arrived
 * @returns {{ over: boolean, text: string, elapsed: number } | null}
 */
export function roundClock(ev, fetchedAt) {
  if (!ev.round_started_ms || !ev.round_deadline_ms || ev.round <= ev.closed) return null;
  const now = ev.now_ms + (Date.now() - fetchedAt);
  const left = ev.round_deadline_ms - now;
  return {
    over: left < 0,
    text: left < 0 ? w('clock_over', { t: minutes(-left) }) : w('clock_left', { t: minutes(left) }),
    elapsed: now - ev.round_started_ms,
  };
}

/** The round clock as a line of the page (`data-clock`: `left` or `over`). @param {any} ev @param {number} fetchedAt */
export function clockLine(ev, fetchedAt) {
  const c = roundClock(ev, fetchedAt);
  if (!c) return null;
  return h('p', { class: c.over ? 'error-text clock' : 'clock', 'data-clock': c.over ? 'over' : 'left', style: 'font-size:24px;font-weight:800' }, c.text);
}

/** The seed's commitment, and the seed once revealed. @param {any} ev */
export function seedFacts(ev) {
  return h(
    'div',
    { class: 'facts' },
    h('span', {}, `${w('commitment')}：`, h('code', { 'data-commitment': '' }, ev.seed_commitment)),
    ev.seed ? h('span', {}, `${w('seed')}：`, h('code', { 'data-seed': '' }, ev.seed)) : h('span', { class: 'hint' }, w(ev.game === 'gouji' ? 'seed_hidden_gouji' : 'seed_hidden')),
  );
}

// --- the page ---------------------------------------------------------------------------------

/**
 * The pair's (or 够级 team's) corner: sit down, see the table's results, confirm or dispute: an
 * 80分 pair its table's record card, a 够级 team's captain the team's games so far
 * (「由队长或领队签字确认该局比赛结果」).
 * @param {string} id @param {() => string} game the event's game, once known
 */
function pairPanel(id, game) {
  const err = errorBox();
  const done = h('p', { class: 'ok-text', role: 'status', hidden: true });
  const input = h('input', { id: 'pair-token', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', value: pairToken(id) });
  const note = h('input', { id: 'dispute-note', type: 'text', maxlength: 200 });
  const mine = h('div', { 'aria-live': 'polite' });
  const token = () => {
    const t = input.value.trim();
    setPairToken(id, t);
    return t;
  };
  const sit = async () => {
    err.hide();
    try {
      const j = await eventCall('POST', `/api/events/${encodeURIComponent(id)}/join`, { token: token() });
      setTicket(j.table, { token: j.token, seat: j.seat, game: game(), event: id });
      location.href = `./#/t/${encodeURIComponent(j.table)}`;
    } catch (e) {
      err.show(e);
    }
  };
  const show = async () => {
    err.hide();
    try {
      const me = await eventCall('POST', `/api/events/${encodeURIComponent(id)}/pair`, { token: token() });
      replace(
        mine,
        h('p', {}, me.direction === 'team' ? w('you_are_team', { n: me.number, names: playerNames(me) }) : w('you_are', { dir: w(me.direction), n: me.number, names: playerNames(me) })),
        me.table ? tableResults(me.table) : null,
      );
    } catch (e) {
      err.show(e);
    }
  };
  /** @param {boolean} agree */
  const confirm = async (agree) => {
    err.hide();
    done.hidden = true;
    try {
      await eventCall('POST', `/api/events/${encodeURIComponent(id)}/confirm`, { token: token(), agree, note: agree ? undefined : note.value });
      replace(done, w(agree ? 'sent_ok' : 'sent_dispute'));
      done.hidden = false;
      await show();
    } catch (e) {
      err.show(e);
    }
  };
  const confirmBox = h(
    'div',
    {},
    h('div', { class: 'field', style: 'margin-top:14px' }, h('label', { for: 'dispute-note' }, w('note')), note),
    h('div', { class: 'row' }, h('button', { id: 'confirm', 'on:click': () => confirm(true) }, w('confirm_ok')), h('button', { class: 'danger', id: 'dispute', 'on:click': () => confirm(false) }, w('dispute'))),
  );
  const panel = h(
    'section',
    { class: 'panel', 'aria-labelledby': 'pair-h' },
    h('h2', { id: 'pair-h' }, w('my_pair')),
    h('p', { class: 'hint' }, w('my_pair_hint')),
    h('div', { class: 'field' }, h('label', { for: 'pair-token' }, w('pair_token')), input),
    h('div', { class: 'row' }, h('button', { class: 'primary', id: 'sit', 'on:click': sit }, w('sit')), h('button', { id: 'my-results', 'on:click': show }, w('my_results'))),
    mine,
    confirmBox,
    done,
    err.box,
  );
  return { panel };
}

/** The list of events. @param {HTMLElement} root */
async function renderList(root) {
  const err = errorBox();
  const list = h('ul', { class: 'table-list', 'aria-live': 'polite' });
  root.replaceChildren(
    header(w('events')),
    h('main', { class: 'event-page' }, h('section', { class: 'panel', 'aria-labelledby': 'events-h' }, h('h1', { id: 'events-h' }, w('events')), list, err.box)),
  );
  try {
    const events = await eventCall('GET', '/api/events');
    if (events.length === 0) replace(list, h('li', {}, w('no_events')));
    else {
      replace(
        list,
        events.map((/** @type {any} */ e) =>
          h(
            'li',
            {},
            h('span', { class: 'desc' }, h('b', {}, e.name), ` · ${stateWord(e.state)} · ${w('round_of', { r: e.round, n: e.rounds })}`),
            h('a', { class: 'button-link', href: `standings.html?e=${encodeURIComponent(e.id)}`, style: 'min-height:52px;display:inline-flex;align-items:center;padding:0 12px' }, w('open')),
          ),
        ),
      );
    }
  } catch (e) {
    err.show(e);
  }
}

/** @typedef {typeof import('./gouji-event.js')} Gouji */

/**
 * One event's standings, refreshed every 10 seconds. `gouji`: the 够级 parts (a team event's
 * ranking and games), given by the page.
 * @param {HTMLElement} root @param {string} id @param {Gouji} [gouji]
 */
function renderEvent(root, id, gouji) {
  const err = errorBox();
  const top = h('section', { class: 'panel', 'aria-labelledby': 'event-h' });
  const board = h('div', { 'aria-live': 'polite' });
  let game = 'shengji';
  const pair = pairPanel(id, () => game);
  const base = `/api/events/${encodeURIComponent(id)}`;
  const refresh = async () => {
    try {
      const [ev, st] = await Promise.all([eventCall('GET', base), eventCall('GET', `${base}/standings`)]);
      const fetchedAt = Date.now();
      game = ev.game;
      document.title = `${ev.name} · ${w('standings')}`;
      replace(
        top,
        h('h1', { id: 'event-h' }, ev.name),
        h(
          'div',
          { class: 'facts' },
          h('span', {}, h('b', {}, stateWord(ev.state))),
          ev.gouji ? h('span', {}, gouji ? gouji.g('gouji_teams') : ev.game) : h('span', {}, w('round_of', { r: ev.round, n: ev.rounds })),
          h('span', { 'data-through': st.through_round }, st.final ? w('final') : st.through_round ? w(st.live ? 'through_live' : 'through', { r: st.through_round }) : w('none_yet')),
        ),
        clockLine(ev, fetchedAt),
        seedFacts(ev),
        h(
          'div',
          { class: 'links', style: 'margin-top:12px' },
          h('a', { href: `${base}/results.html`, target: '_blank', rel: 'noopener' }, w('print_results')),
          h('a', { href: `${base}/results.csv?lang=${lang()}` }, w('csv')),
          h('button', { 'on:click': refresh }, w('refresh')),
        ),
      );
      if (st.gouji && gouji) {
        replace(
          board,
          h('section', { class: 'panel', 'aria-label': w('standings') }, gouji.teamRanking(st)),
          st.gouji.games ? gouji.gameResults(st.gouji.games) : null,
        );
      } else {
        replace(
          board,
          h('section', { class: 'panel', 'aria-label': w('standings') }, rankingTable('NS', st.ranking.NS), rankingTable('EW', st.ranking.EW)),
          st.boards ? travellers(st.boards) : null,
        );
      }
      err.hide();
    } catch (e) {
      err.show(e);
    }
  };
  root.replaceChildren(header(w('standings')), h('main', { class: 'event-page' }, top, err.box, board, pair.panel));
  refresh();
  return setInterval(refresh, 10_000);
}

/** Starts the standings page (standings.html); `gouji`: the 够级 parts. @param {Gouji} [gouji] */
export function main(gouji) {
  runPage((root, id) => {
    if (id) return renderEvent(root, id, gouji);
    renderList(root);
    return undefined;
  });
}

/**
 * Runs an event page: `render` draws it into #app for the event in the address (or none) and
 * may return its refresh timer; it is drawn again, the old timer stopped, when the language
 * changes or it asks (`draw`). The console, the standings and the pair's page start this way.
 * @param {(root: HTMLElement, id: string | null, draw: () => void) => ReturnType<typeof setInterval> | undefined} render
 */
export function runPage(render) {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;
  const draw = () => {
    clearInterval(timer);
    timer = undefined;
    document.documentElement.lang = lang() === 'en' ? 'en' : 'zh-CN';
    timer = render(root, eventId(), draw);
  };
  onChange((key) => key === 'lang' && draw());
  draw();
}
