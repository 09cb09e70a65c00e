// @ts-check
//! 够级 table: six seats with my 对头 and 联邦 marked; the hand grouped by printed rank with
//! counts, in the engine's order; a set built from the groups (starting from the size of the set
//! on the table) and sent as it is (the engine's refusal says what is wrong with it); 过, 让, 烧
//! and the burn prompt as the engine's view allows; 问牌 (answered to me alone); cards left; the
//! trick just won left on the felt; the finishing order with names, my team, the session's score
//! and 下一局.
//!
//! `goujiUI` keeps what the player is building and what the announcements told; drawing is split
//! in named steps: `topInfo`, `felt` (`seatPlate`, `centre`), `dock` (`statusLine`, `builder`,
//! `groupButtons`, `actionButtons`), `resultDialog`.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { rankGroups, rankLabel, cardsText } from './cards.js';
import { cardRow, cardsLeft, nameplate, refusalBox, clockEl, dialog } from './ui.js';
import { seatNames } from './seats.js';
import { goujiModel, goujiActions, opposite, sameTeam, seatIndex } from './gouji-model.js';

/** @typedef {import('./gouji-model.js').GoujiModel} GoujiModel */
/** @typedef {import('./table.js').TableCtx} TableCtx */

/** How long the trick just won stays in the middle at least, even if the next lead comes sooner. */
const FINISHED_TRICK_MS = 2000;

/** Seats on screen: me at the bottom (0), then counter-clockwise: 下家 bottom-right, … */
export function seatAt(/** @type {number} */ me, /** @type {number} */ pos) {
  return (me + pos) % 6;
}

/**
 * What the UI keeps between renders.
 * @typedef {object} GoujiState
 * @property {Map<string, number>} chosen  how many cards of each printed rank are in the set being built
 * @property {string} handKey
 * @property {string | null} countNote  the last 问牌 answer, shown until the next trick
 * @property {Map<number, string[]>} played  the sets each seat played in this trick (报牌)
 * @property {{ winner: number, cards: string[], takeover: boolean, at: number } | null} finished  the trick just won
 * @property {boolean} resultClosed
 * @property {ReturnType<typeof setTimeout> | null} timer
 */

/** @returns {import('./table.js').GameUI} */
export function goujiUI() {
  /** @type {GoujiState} */
  const st = { chosen: new Map(), handKey: '', countNote: null, played: new Map(), finished: null, resultClosed: false, timer: null };
  return {
    clearSelection() {
      st.chosen = new Map();
    },
    describe: describeGouji,
    onSnapshot() {
      st.played = new Map();
      st.finished = null;
    },
    onAnswer(events) {
      // 问牌: the answer comes to the asker alone (`answer`), never to the table.
      for (const ev of events) {
        if (ev.type !== 'count_answered') continue;
        const who = seatNames('gouji')[seatIndex(ev.about)];
        const a = ev.answer ?? {};
        st.countNote = a.kind === 'exact' ? t('count_answer', { who, n: a.n }) : t('count_more', { who, n: a.n ?? '' });
      }
    },
    onEvent: (ev) => noteEvent(st, ev),
    render: (ctx) => renderGouji(st, ctx),
    result: (ctx) => sessionResult(ctx),
  };
}

/** @param {GoujiState} st @param {any} ev */
function noteEvent(st, ev) {
  if (ev.type === 'led') st.played = new Map();
  if (ev.type === 'led' || ev.type === 'beat' || ev.type === 'burned') st.played.set(seatIndex(ev.seat), ev.cards ?? []);
  if (ev.type === 'trick_won') {
    const winner = seatIndex(ev.winner);
    st.finished = { winner, cards: st.played.get(winner) ?? [], takeover: !!ev.takeover, at: performance.now() };
    st.countNote = null;
    st.played = new Map();
  }
}

/**
 * Everything the drawing steps share, worked out once per render.
 * @typedef {object} Scene
 * @property {TableCtx} ctx
 * @property {GoujiModel} m
 * @property {number} me
 * @property {boolean} isSeat
 * @property {(s: number) => string} nameOf
 * @property {string[]} names
 * @property {{ rank: string, cards: string[], count: number }[]} groups
 * @property {string[]} cards  the set being built
 * @property {boolean} myTurn
 * @property {boolean} offer  I am asked whether to burn
 * @property {boolean} responding
 * @property {boolean} cannotBeat
 * @property {boolean} jokerNote
 * @property {boolean} canSend
 * @property {() => void} send
 * @property {number | null} clockMs
 * @property {(s: number) => string[]} tagsOf
 */

/** @param {GoujiState} st @param {TableCtx} ctx */
function renderGouji(st, ctx) {
  const s = scene(st, ctx, goujiModel(ctx.model.view));
  return { info: topInfo(s), felt: felt(st, s), dock: dock(st, s), overlay: resultDialog(st, s) };
}

/** @param {GoujiState} st @param {TableCtx} ctx @param {GoujiModel} m @returns {Scene} */
function scene(st, ctx, m) {
  const me = ctx.model.seat ?? 0;
  const isSeat = ctx.model.role === 'seat';
  const names = seatNames('gouji');
  const nameOf = (/** @type {number} */ s) => ctx.model.seats[s]?.name ?? names[s];
  // The hand as the engine orders it, grouped by printed rank (suits do not matter in 够级).
  const hand = m.hand ?? [];
  const groups = rankGroups(hand);
  const key = hand.join(',');
  if (key !== st.handKey) {
    st.chosen = new Map();
    st.handKey = key;
  }
  const myTurn = ctx.model.myTurn;
  const offer = isSeat && (m.burnOffer || m.prompt === 'burn_offer') && m.turn === me && myTurn;
  const cards = groups.flatMap((g) => g.cards.slice(0, st.chosen.get(g.rank) ?? 0));
  // What the engine's prompt says of this turn: whether the seat may beat the top set at all
  // (else only 过), and whether a lead needs a joker. Nothing else is judged here.
  const responding = myTurn && m.prompt === 'respond' && m.turn === me;
  const cannotBeat = responding && !m.mayBeat;
  const canSend = myTurn && cards.length > 0 && !cannotBeat;
  const tagsOf = (/** @type {number} */ s) => {
    const seatInfo = ctx.model.seats[s];
    const tags = [`seat-name|${names[s]}`];
    if (isSeat && s === opposite(me)) tags.push('opposite|' + t('opposite'));
    if (isSeat && s !== me && sameTeam(s, me)) tags.push('team|' + t('team'));
    const place = m.places[s];
    if (place !== null && place !== undefined) tags.push('placed|' + t(`place_${place + 1}`));
    if (m.opened[s]) tags.push('|' + t('opened'));
    if (m.marked[s]) tags.push('opposite|' + t('marked'));
    if (m.burning[s]) tags.push('opposite|' + t('burning'));
    if (m.status[s] === 'failed') tags.push('opposite|' + t('burn_failed'));
    // A computer only by the protocol's flag: a person may be called anything.
    if (seatInfo?.bot) tags.push('bot|' + t('bot'));
    if (seatInfo && !seatInfo.bot && !seatInfo.name) tags.push('offline|' + t('empty_seat'));
    if (seatInfo && !seatInfo.bot && seatInfo.name && !seatInfo.connected) tags.push('offline|' + t('offline'));
    if (seatInfo?.auto) tags.push('offline|' + t('auto_play'));
    return tags;
  };
  return {
    ctx,
    m,
    me,
    isSeat,
    nameOf,
    names,
    groups,
    cards,
    myTurn,
    offer,
    responding,
    cannotBeat,
    jokerNote: myTurn && m.prompt === 'lead' && m.turn === me && m.jokerRequired,
    canSend,
    send: () => {
      if (canSend) ctx.act(offer ? goujiActions.burn(cards) : goujiActions.play(cards));
    },
    clockMs: ctx.model.clock ? ctx.model.clock.deadline - performance.now() : null,
    tagsOf,
  };
}

/** @param {Scene} s */
function topInfo({ m }) {
  return [
    m.game ? h('span', { class: 'minor' }, t('game_n', { n: m.game })) : null,
    m.score ? h('span', { 'data-score': `${m.score.a}:${m.score.b}` }, `${t('scores')} `, h('b', {}, `A ${m.score.a} : ${m.score.b} B`)) : null,
    m.freePlay ? h('span', { class: 'chip' }, t('four_free')) : null,
    m.playSeconds ? h('span', { class: 'wide-only', 'data-play-seconds': String(m.playSeconds) }, t('clock_each', { n: m.playSeconds })) : null,
  ].filter((x) => x !== null);
}

/** Six seats and the middle. @param {GoujiState} st @param {Scene} s */
function felt(st, s) {
  const positions = s.isSeat ? [1, 2, 3, 4, 5] : [0, 1, 2, 3, 4, 5];
  return h(
    'section',
    { class: 'felt six' + (s.isSeat ? '' : ' watch'), tabindex: 0, 'aria-label': t('current_trick') },
    positions.map((pos) => seatPlate(st, s, pos)),
    centre(st, s),
  );
}

/** One seat: its plate, cards left, and what it did in this trick. @param {GoujiState} st @param {Scene} s @param {number} pos */
function seatPlate(st, { ctx, m, me, nameOf, tagsOf, clockMs }, pos) {
  const seat = seatAt(me, pos);
  const turn = ctx.model.toAct.includes(seat) && ctx.model.tableState === 'playing';
  const count = m.counts[seat];
  const said = m.passed[seat] ? 'pass' : m.yielded[seat] ? 'yield' : st.played.get(seat) ?? null;
  return h(
    'div',
    { class: 'seat', style: `grid-area:p${pos}`, 'data-seat': String(seat) },
    nameplate({ name: nameOf(seat), tags: tagsOf(seat), count: null, turn, clockMs: turn && seat !== me ? clockMs : null, key: String(seat), botLevel: ctx.model.botLevel }),
    count ? h('span', { class: 'count', 'data-count': String(count.n) }, count.exact ? cardsLeft(count.n) : t('count_more', { who: '', n: count.n }).trim()) : null,
    // What the seat did in this trick; the top set itself is shown in the middle.
    h('span', { class: 'said' }, said === 'pass' ? t('pass') : said === 'yield' ? t('yield') : Array.isArray(said) && m.top?.seat !== seat ? cardRow(said) : ''),
  );
}

/**
 * The middle: the top set, or the trick just won (its winner and last set) until the next lead,
 * and at least FINISHED_TRICK_MS; the 问牌 answer.
 * @param {GoujiState} st @param {Scene} s
 */
function centre(st, { ctx, m, nameOf }) {
  let top = null;
  const f = st.finished;
  // Until the next lead, and at least FINISHED_TRICK_MS — unless I must answer that lead now.
  const holding = f && (!m.top || (performance.now() - f.at < FINISHED_TRICK_MS && !ctx.model.myTurn));
  if (f && holding) {
    if (m.top && !st.timer) {
      st.timer = setTimeout(() => {
        st.timer = null;
        ctx.rerender();
      }, FINISHED_TRICK_MS - (performance.now() - f.at) + 20);
    }
    top = h('div', { class: 'play winning finished', id: 'finished-trick', role: 'status', 'data-winner': String(f.winner) },
      h('span', { class: 'who' }, t('trick_taken', { who: nameOf(f.winner) })),
      f.cards.length ? cardRow(f.cards) : null,
      h('span', { class: 'win-tag' }, f.takeover ? t('takeover') : t('won_tag')),
    );
  } else {
    if (f && m.top) st.finished = null;
    if (m.top) {
      top = h('div', { class: 'play winning', id: 'top-set', 'data-gouji': String(m.top.gouji) },
        h('span', { class: 'who' }, `${t('top_set')} · ${nameOf(m.top.seat)}`),
        cardRow(m.top.cards),
        m.top.gouji ? h('span', { class: 'win-tag' }, t('gouji_set')) : null,
      );
    }
  }
  return h('div', { class: 'trick' }, top, st.countNote ? h('div', { class: 'notice', id: 'count-note' }, st.countNote) : null);
}

/** @param {GoujiState} st @param {Scene} s */
function dock(st, s) {
  const { ctx, m, isSeat, myTurn } = s;
  const hand = m.hand ?? [];
  return h('section', { class: 'dock', 'aria-label': t('hand') },
    h('div', { class: 'status' + (myTurn ? ' my-turn' : ''), role: 'status', 'aria-live': 'polite' }, statusLine(s)),
    // The engine's refusal and the notices: by the hand, or over the felt when the dock has no room (fit.js).
    h('div', { class: 'messages' }, refusalBox(ctx.model.refusal), ctx.notices()),
    ctx.autoPanel(),
    isSeat && hand.length ? builder(st, s) : null,
    hand.length ? h('div', { class: 'groups', id: 'hand', 'data-count': String(hand.length) }, groupButtons(st, s)) : null,
    actionButtons(st, s),
  );
}

/** @param {Scene} s */
function statusLine({ ctx, m, me, isSeat, nameOf, tagsOf, myTurn, offer, clockMs }) {
  const status = [];
  if (isSeat) status.push(h('span', { class: 'me' }, h('span', { class: 'me-name' }, nameOf(me)), tagsOf(me).map((x) => h('span', { class: 'tag ' + x.split('|')[0] }, x.split('|')[1]))));
  if (m.over || ctx.model.tableState === 'over') status.push(h('span', {}, t('game_result')));
  else if (offer) status.push(h('span', {}, t('burn_prompt', { who: m.top ? nameOf(m.top.seat) : '' })));
  else if (myTurn) status.push(h('span', { id: 'your-turn' }, t('your_turn')));
  else {
    const who = ctx.model.toAct.map(nameOf).join('、');
    if (who) status.push(h('span', {}, t('waiting_for', { name: who })));
  }
  if (myTurn && clockMs !== null) status.push(clockEl(clockMs));
  // The rulebook's first minutes of a game have no clock (满10分钟后，每套牌的出牌时限为20秒): while
  // the server runs none, say so, so a player does not wait for one nor hurry.
  else if (!m.over && ctx.model.tableState === 'playing' && clockMs === null && m.freeMinutes) {
    status.push(h('span', { class: 'free-clock', id: 'free-clock' }, m.playSeconds ? t('free_clock', { n: m.freeMinutes, s: m.playSeconds }) : t('free_clock_only', { n: m.freeMinutes })));
  }
  return status;
}

/**
 * The hand's rank groups. A tap puts the group in the set — as many cards as the set on the table
 * has, when there is one and the group holds more (the usual answer; − and + change it) — or
 * takes it out.
 * @param {GoujiState} st @param {Scene} s
 */
function groupButtons(st, { ctx, m, groups, responding, offer }) {
  const size = (responding || offer) && m.top ? m.top.cards.length : null;
  return groups.map((g) => {
    const n = st.chosen.get(g.rank) ?? 0;
    const joker = g.rank === 'BJ' || g.rank === 'RJ';
    return h(
      'button',
      {
        class: 'group-btn' + (joker ? ' special joker' : '') + (g.rank === 'RJ' ? ' red' : ''),
        type: 'button',
        'aria-pressed': String(n > 0),
        'data-key': `g${g.rank}`,
        'data-rank': g.rank,
        'on:click': () => {
          if (n > 0) st.chosen.delete(g.rank);
          else st.chosen.set(g.rank, size && !joker ? Math.min(g.count, size) : g.count);
          ctx.rerender();
        },
      },
      h('span', { class: 'gr' }, rankLabel(g.rank, lang())),
      h('span', { class: 'gc' }, `×${g.count}`),
      n ? h('span', { class: 'gsel' }, `✓ ${n}`) : null,
    );
  });
}

/** The set being built, part by part, with − and +. @param {GoujiState} st @param {Scene} s */
function builder(st, { ctx, groups, cards, canSend, send, offer, cannotBeat, jokerNote }) {
  const parts = groups.filter((g) => st.chosen.has(g.rank)).map((g) => {
    const n = st.chosen.get(g.rank) ?? 0;
    const label = rankLabel(g.rank, lang());
    const set = (/** @type {number} */ k) => () => {
      if (k <= 0) st.chosen.delete(g.rank);
      else st.chosen.set(g.rank, Math.min(g.count, k));
      ctx.rerender();
    };
    return h('span', { class: 'part', 'data-part': g.rank },
      h('button', { 'aria-label': `${t('less')} ${label}`, 'data-key': `less${g.rank}`, 'on:click': set(n - 1) }, '−'),
      `${label} ×${n}`,
      h('button', { 'aria-label': `${t('more')} ${label}`, 'data-key': `more${g.rank}`, disabled: n >= g.count, 'on:click': set(n + 1) }, '+'),
    );
  });
  return h('div', { class: 'builder', id: 'builder', 'aria-label': t('set_builder') },
    h('span', {}, `${t('set_builder')}:`),
    parts.length ? parts : h('span', { class: 'hint' }, t('set_empty')),
    cards.length ? h('button', { class: 'selection', id: 'selection', disabled: !canSend, 'on:click': send }, h('span', {}, `${offer ? t('burn') : t('play')}:`), cardRow(cards)) : null,
    cannotBeat ? h('span', { class: 'prompt-note', id: 'prompt-note', 'data-note': 'cannot_beat' }, t('prompt_cannot_beat')) : null,
    jokerNote ? h('span', { class: 'prompt-note', id: 'prompt-note', 'data-note': 'joker' }, t('prompt_joker')) : null,
  );
}

/** 出牌 (烧), 过 / 不烧, 让, 重选, 问牌, 托管. @param {GoujiState} st @param {Scene} s */
function actionButtons(st, { ctx, m, isSeat, myTurn, offer, responding, canSend, send, cards }) {
  if (!isSeat) return null;
  // The result closed: the way on (下一局, or the event's next seat) stays by the hand.
  if (m.over) return st.resultClosed ? h('div', { class: 'actions' }, ctx.nextButton()) : null;
  const act = goujiActions;
  return h('div', { class: 'actions' },
    h('button', { class: 'primary', id: 'play', disabled: !canSend, 'on:click': send }, offer ? t('burn') : t('play')),
    offer
      ? h('button', { id: 'decline', disabled: !myTurn, 'on:click': () => ctx.act(act.decline()) }, t('no_burn'))
      : h('button', { id: 'pass', disabled: !(responding && m.mayPass), 'on:click': () => ctx.act(act.pass()) }, t('pass')),
    offer ? null : h('button', { id: 'yield', disabled: !(responding && m.mayYield), 'on:click': () => ctx.act(act.yield()) }, t('yield')),
    cards.length ? h('button', { id: 'clear', 'on:click': () => { st.chosen = new Map(); ctx.rerender(); } }, t('clear')) : null,
    h('button', { id: 'ask', 'on:click': () => ctx.act(act.askCount()) }, t('ask_count')),
    ctx.autoButton(),
  );
}

/**
 * My team and its score in this game, for the result and the session's running score (the
 * score is the engine's; which team a seat is on is its name, A or B). Null for a spectator.
 * @param {TableCtx} ctx @returns {{ side: 'A' | 'B', result: number, mine: number } | null}
 */
export function sessionResult(ctx) {
  const m = goujiModel(ctx.model.view);
  const me = ctx.model.seat;
  if (!m.score || me === null || ctx.model.role !== 'seat') return null;
  const side = me % 2 === 0 ? 'A' : 'B';
  const mine = side === 'A' ? m.score.a : m.score.b;
  return { side, result: mine, mine };
}

/** The game's result: the scores, my team and mates, 头科…大落 with names, the session, 下一局. @param {GoujiState} st @param {Scene} s */
function resultDialog(st, { ctx, m, me, isSeat, nameOf, names }) {
  if (!(m.over || ctx.model.tableState === 'over') || st.resultClosed) return null;
  const order = [0, 1, 2, 3, 4, 5].filter((s) => m.places[s] !== null).sort((a, b) => /** @type {number} */ (m.places[a]) - /** @type {number} */ (m.places[b]));
  const mine = sessionResult(ctx);
  const mates = [0, 1, 2, 3, 4, 5].filter((s) => s !== me && sameTeam(s, me)).map(nameOf).join('、');
  const other = mine && m.score ? (mine.side === 'A' ? m.score.b : m.score.a) : 0;
  const verdict = mine ? (mine.mine > other ? 'team_won' : mine.mine < other ? 'team_lost' : 'team_drew') : null;
  return dialog(
    t('game_result'),
    m.score ? h('p', { id: 'result', class: 'result-big', 'data-score': `${m.score.a}:${m.score.b}` }, `${t('team_a')} ${m.score.a} : ${m.score.b} ${t('team_b')}`) : null,
    mine && verdict
      ? h('div', { class: 'result-side', id: 'result-side', 'data-side': mine.side, 'data-verdict': verdict },
          h('p', {}, h('b', {}, t('you_team', { team: t(mine.side === 'A' ? 'team_a' : 'team_b'), mates })), ' · ', h('b', {}, t(verdict))),
          h('p', { class: 'meaning' }, t('gouji_meaning')),
        )
      : null,
    h('h3', {}, t('finishing_order')),
    h('table', { id: 'finishing-order' }, order.map((s) => h('tr', { 'data-seat': String(s), class: isSeat && sameTeam(s, me) ? 'mine' : undefined },
      h('th', {}, t(`place_${/** @type {number} */ (m.places[s]) + 1}`)),
      h('td', {}, `${nameOf(s)} (${names[s]})`, isSeat && s === me ? ` · ${t('you')}` : '', m.marked[s] ? ` · ${t('marked')}` : ''),
    ))),
    isSeat ? ctx.session() : null,
    h('div', { class: 'actions' },
      isSeat ? ctx.nextButton() : null,
      // The whole game step by step, every hand (replay.js).
      ctx.replayButton(),
      h('button', { id: 'result-close', 'on:click': () => { st.resultClosed = true; ctx.rerender(); } }, t('close')),
    ),
  );
}

/**
 * What one move did, in words, for the notices: 「出了黑桃4、红桃4」, 「过牌」, 「不烧」, and the
 * clock's warning (the move stays the player's for a few seconds).
 * @param {any[]} events  the engine's events of one stored action
 * @returns {{ text: string, move: boolean }}
 */
export function describeGouji(events) {
  const out = [];
  let move = false;
  for (const ev of events) {
    const cards = cardsText(ev.cards ?? [], lang());
    switch (ev.type) {
      case 'led':
        move = true;
        out.push(t('did_play', { cards }));
        break;
      case 'beat':
        move = true;
        out.push(t('did_beat', { cards }));
        break;
      case 'burned':
        move = true;
        out.push(t('did_burn', { cards }));
        break;
      case 'passed':
        move = true;
        out.push(t('did_pass'));
        break;
      case 'yielded':
        move = true;
        out.push(t('did_yield'));
        break;
      case 'burn_declined':
        move = true;
        out.push(t('did_decline'));
        break;
      case 'warned':
        out.push(t('did_warning_grace', { n: ev.grace_seconds ?? 0 }));
        break;
      case 'ruled':
        out.push(t('did_ruling', { ruling: t(`ruling_${ev.ruling}`, { n: ev.points ?? '' }), offence: t(`offence_${ev.offence}`) }));
        break;
    }
  }
  return { text: out.join(t('list_gap')), move };
}
