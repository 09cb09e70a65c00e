// @ts-check
//! 80分 table: the hand in the engine's order (trumps together, then the side suits), the
//! two-step play, the trick with who is winning, the finished trick left on the felt with its
//! winner and points, the last trick, the defenders' points and point cards, 扣底, a failed throw
//! shown to everyone with the opponents' choice, the board result (my side, what it means, the
//! session's running score, 下一副), and the review of its tricks. Which cards can be played
//! (dimming the others) and a suggested play (提示) come from the view when the engine sends
//! them; otherwise every card is tappable and the engine's refusal tells.
//!
//! `shengjiUI` keeps what the player is doing and what the announcements told; drawing is split
//! in named steps: `topInfo`, `felt`, `dock` (`statusLine`, `handView`, `actionButtons`),
//! `overlay` (`choiceDialog`, `reviewDialog`, `resultDialog`).

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { suitRuns, cardsText, SUIT_SYMBOL, SUIT_ZH, SUIT_EN } from './cards.js';
import { cardFace, cardRow, nameplate, refusalBox, clockEl, dialog } from './ui.js';
import { seatNames } from './seats.js';
import { shengjiModel, shengjiActions, failedThrow, seatIndex } from './shengji-model.js';

/** @typedef {import('./table.js').TableCtx} TableCtx */
/** @typedef {import('./shengji-model.js').ShengjiModel} ShengjiModel */
/** @typedef {import('./shengji-model.js').Trick} Trick */
/** @typedef {import('./shengji-model.js').FailedThrow} FailedThrow */

/** How long a finished trick stays on the felt at least, even if the next lead comes sooner. */
export const FINISHED_TRICK_MS = 2000;

/** Seats on screen: me at the bottom (position 0), 下家 on the right, partner on top. */
export function seatAt(/** @type {number} */ me, /** @type {number} */ pos) {
  return (me + 4 - pos) % 4;
}

/**
 * Where a seat sits as seen from mine, in the words players use (display only: play passes to
 * the right, so the right-hand seat is 下家): 对家 across, 下家 right, 上家 left.
 * @param {number} me @param {number} s @returns {'partner' | 'next_seat' | 'prev_seat' | null}
 */
export function relation(me, s) {
  const pos = (me - s + 4) % 4;
  return pos === 2 ? 'partner' : pos === 1 ? 'next_seat' : pos === 3 ? 'prev_seat' : null;
}

/**
 * What the UI keeps between renders.
 * @typedef {object} ShengjiState
 * @property {Set<number>} selected  indices into the hand the player has tapped
 * @property {string} handKey  the hand the selection refers to (a changed hand clears it)
 * @property {boolean} showLast
 * @property {boolean} showPoints
 * @property {number | null} review  the trick index being reviewed, or null
 * @property {boolean} resultClosed
 * @property {Trick[]} tricks  the board's finished tricks (for the review)
 * @property {Trick | null} current  the trick being played, from the announcements
 * @property {{ trick: Trick, at: number } | null} finished  the trick just won, left on the felt
 * @property {FailedThrow | null} failed
 * @property {{ points: number, multiplier: number, gain: number } | null} capture
 * @property {number} penalties
 * @property {ReturnType<typeof setTimeout> | null} timer  redraws when the finished trick's time is up
 */

/** @returns {import('./table.js').GameUI} */
export function shengjiUI() {
  /** @type {ShengjiState} */
  const st = {
    selected: new Set(),
    handKey: '',
    showLast: false,
    showPoints: false,
    review: null,
    resultClosed: false,
    tricks: [],
    current: null,
    finished: null,
    failed: null,
    capture: null,
    penalties: 0,
    timer: null,
  };
  return {
    clearSelection() {
      st.selected = new Set();
    },
    describe: describeShengji,
    onEvent: (ev, _msg, ctx) => noteEvent(st, ev, ctx),
    onSnapshot() {
      st.current = null;
      st.finished = null;
    },
    render: (ctx) => renderShengji(st, ctx),
    result: (ctx) => sessionResult(ctx),
  };
}

/**
 * What one announcement tells beyond the view. Called before the view is replaced: a trick
 * joined mid-way (after a reload) starts from the plays the old view showed.
 * @param {ShengjiState} st @param {any} ev @param {TableCtx} ctx
 */
function noteEvent(st, ev, ctx) {
  switch (ev.type) {
    case 'played':
      if (!ev.lead && !st.current) {
        const shown = shengjiModel(ctx.model.view).trick;
        if (shown && shown.number === ev.trick) st.current = { ...shown, plays: [...shown.plays], winner: null };
      }
      if (ev.lead || !st.current) st.current = { number: ev.trick, leader: seatIndex(ev.seat), plays: [], winner: null, points: 0 };
      st.current.plays.push({ seat: seatIndex(ev.seat), cards: ev.cards ?? [] });
      break;
    case 'throw_failed':
      st.failed = failedThrow(ev);
      st.penalties += ev.penalty ?? 0;
      break;
    case 'trick_won':
      if (st.current && st.current.number === ev.trick) {
        const done = { ...st.current, winner: seatIndex(ev.winner), points: ev.points ?? 0 };
        remember(st, done);
        // Left on the felt with its winner and points until the next lead (at least 2 s).
        st.finished = { trick: done, at: performance.now() };
      }
      st.current = null;
      st.failed = null;
      break;
    case 'kitty_captured':
      st.capture = { points: ev.points ?? 0, multiplier: ev.multiplier ?? 1, gain: ev.gain ?? 0 };
      break;
    case 'penalty':
      st.penalties += Math.abs(ev.delta ?? ev.points ?? 0);
      break;
  }
}

/** Adds a finished trick the page did not see being played (after a reload). @param {ShengjiState} st @param {Trick | null} x */
function remember(st, x) {
  if (x && !st.tricks.some((y) => y.number === x.number)) st.tricks = [...st.tricks, x].sort((a, b) => a.number - b.number);
}

/**
 * Everything the drawing steps share, worked out once per render.
 * @typedef {object} Scene
 * @property {TableCtx} ctx
 * @property {ShengjiModel} m
 * @property {number} me
 * @property {boolean} isSeat
 * @property {(s: number) => string} nameOf
 * @property {string[]} hand
 * @property {string[]} chosen
 * @property {boolean} myTurn
 * @property {boolean} burying
 * @property {boolean} over
 * @property {number | null} clockMs
 * @property {string[] | null} hint
 * @property {() => void} send
 * @property {(s: number) => string[]} tagsOf
 */

/** @param {ShengjiState} st @param {TableCtx} ctx */
function renderShengji(st, ctx) {
  const m = shengjiModel(ctx.model.view);
  remember(st, m.lastTrick);
  // After a reload the board's whole history comes with the view once the board is over.
  for (const x of m.tricks) remember(st, x);
  const s = scene(st, ctx, m);
  return { info: topInfo(s), felt: felt(st, s), dock: dock(st, s), overlay: overlay(st, s) };
}

/** @param {ShengjiState} st @param {TableCtx} ctx @param {ShengjiModel} m @returns {Scene} */
function scene(st, ctx, m) {
  const me = ctx.model.seat ?? 2;
  const isSeat = ctx.model.role === 'seat';
  const names = seatNames('shengji');
  const nameOf = (/** @type {number} */ s) => ctx.model.seats[s]?.name ?? names[s];
  // The hand in the engine's order (its display order), never re-sorted here.
  const hand = m.hand ?? [];
  const key = hand.join(',');
  if (key !== st.handKey) {
    st.selected = new Set();
    st.handKey = key;
  }
  const chosen = [...st.selected].sort((a, b) => a - b).map((i) => hand[i]);
  const myTurn = ctx.model.myTurn;
  const burying = m.phase === 'bury' && myTurn;
  const send = () => {
    if (!chosen.length) return;
    ctx.act(burying ? shengjiActions.bury(chosen) : shengjiActions.play(chosen));
  };
  const tagsOf = (/** @type {number} */ s) => {
    const info = ctx.model.seats[s];
    const tags = [];
    // Who is who, as seen from my seat (对家 is my partner).
    const rel = isSeat && s !== me ? relation(me, s) : null;
    if (rel) tags.push((rel === 'partner' ? 'team|' : 'rel|') + t(rel));
    if (s === m.declarer) tags.push('declarer|' + t('declarer'));
    // A computer only by the protocol's flag: a person may be called anything.
    if (info?.bot) tags.push('bot|' + t('bot'));
    if (info && !info.bot && !info.name) tags.push('offline|' + t('empty_seat'));
    if (info && !info.bot && info.name && !info.connected) tags.push('offline|' + t('offline'));
    if (info?.auto) tags.push('offline|' + t('auto_play'));
    return tags;
  };
  return {
    ctx,
    m,
    me,
    isSeat,
    nameOf,
    hand,
    chosen,
    myTurn,
    burying,
    over: ctx.model.tableState === 'over' || m.phase === 'over',
    clockMs: ctx.model.clock ? ctx.model.clock.deadline - performance.now() : null,
    hint: myTurn && m.hint ? m.hint : null,
    send,
    tagsOf,
  };
}

/** The top bar's facts. @param {Scene} s */
function topInfo({ ctx, m, nameOf }) {
  const seconds = m.playSeconds;
  return [
    // Folded away on a short screen (style.css `.minor`): the plates say who declares.
    h('span', { class: 'minor' }, t('board', { n: m.board || ctx.model.board })),
    h('span', { class: 'minor' }, `${t('declarer')} `, h('b', {}, nameOf(m.declarer))),
    h('span', { 'data-defender-points': String(m.defenderPoints) }, `${t('defenders_points')} `, h('b', {}, String(m.defenderPoints))),
    m.pointsLeft !== null ? h('span', { class: 'minor', 'data-points-left': String(m.pointsLeft) }, t('points_left', { n: m.pointsLeft })) : null,
    seconds ? h('span', { class: 'wide-only', 'data-play-seconds': String(seconds) }, t('clock_each', { n: seconds })) : null,
  ].filter((x) => x !== null);
}

/** The level and trump, large, in the trump suit's colour, near the hand. @param {ShengjiModel} m */
function trumpBadge(m) {
  const suit = m.trump;
  const suitText = suit ? `${SUIT_SYMBOL[suit]} ${(lang() === 'en' ? SUIT_EN : SUIT_ZH)[suit]}` : t('no_trump');
  const colour = suit === 'H' || suit === 'D' ? 'red' : 'black';
  return h(
    'span',
    { class: `trump-badge ${colour}`, id: 'trump-badge', 'data-trump': suit ?? 'none' },
    h('span', {}, t('level', { r: m.level })),
    h('span', { class: 'sep', 'aria-hidden': 'true' }, '·'),
    // The suit's name gives way on a phone held sideways (style.css); its symbol stays.
    h('span', {}, `${t('trump')} `, h('b', {}, suit ? [SUIT_SYMBOL[suit], h('span', { class: 'suit-name' }, ` ${(lang() === 'en' ? SUIT_EN : SUIT_ZH)[suit]}`)] : suitText)),
  );
}

/** The felt: four seats around the trick (or the trick just won). @param {ShengjiState} st @param {Scene} s */
function felt(st, s) {
  const { ctx, m, me, isSeat, nameOf, tagsOf, clockMs } = s;
  // A player's own seat is the dock at the bottom; a spectator sees all four plates.
  const positions = isSeat ? [1, 2, 3] : [0, 1, 2, 3];
  const plates = positions.map((pos) => {
    const seat = seatAt(me, pos);
    const turn = ctx.model.toAct.includes(seat) && ctx.model.tableState === 'playing';
    return h(
      'div',
      { class: 'seat', style: `grid-area:p${pos}`, 'data-seat': String(seat) },
      nameplate({ name: nameOf(seat), tags: tagsOf(seat), count: m.counts[seat] ?? null, turn, clockMs: turn && seat !== me ? clockMs : null, key: String(seat), botLevel: ctx.model.botLevel }),
    );
  });
  const shown = shownTrick(st, s);
  const notes = [];
  if (st.failed) notes.push(failedThrowNote(st.failed, nameOf));
  const done = shown.finished && shown.trick && shown.trick.winner !== null ? shown.trick : null;
  return h(
    'section',
    {
      class: 'felt four' + (isSeat ? '' : ' watch'),
      tabindex: 0,
      'aria-label': done ? finishedText(done, nameOf) : t('current_trick'),
      id: done ? 'finished-trick' : undefined,
      'data-winner': done ? String(done.winner) : undefined,
      'data-points': done ? String(done.points) : undefined,
    },
    plates,
    h('div', { class: 'trick' }, trickView(shown.trick, me, nameOf, shown.finished), h('div', { class: 'mid' }, notes)),
  );
}

/**
 * Which trick is on the felt: the one being played, or the one just won while the next has not
 * started (and for at least FINISHED_TRICK_MS after it was won, so a quick lead by a computer
 * does not sweep it away before it is read — unless I must answer that lead now).
 * @param {ShengjiState} st @param {Scene} s @returns {{ trick: Trick | null, finished: boolean }}
 */
function shownTrick(st, { m, ctx, myTurn }) {
  const f = st.finished;
  if (f && !m.trick) return { trick: f.trick, finished: true };
  // When I must answer the new lead, I see it at once.
  if (f && m.trick && m.trick.number > f.trick.number && !myTurn) {
    const left = FINISHED_TRICK_MS - (performance.now() - f.at);
    if (left > 0) {
      if (!st.timer) {
        st.timer = setTimeout(() => {
          st.timer = null;
          ctx.rerender();
        }, left + 20);
      }
      return { trick: f.trick, finished: true };
    }
  }
  if (f && m.trick) st.finished = null;
  return { trick: m.trick, finished: false };
}

/** A finished trick in words: 「第 3 轮 · 东 赢了这一轮 · 得 20 分」. @param {Trick} trick @param {(s: number) => string} nameOf */
function finishedText(trick, nameOf) {
  return `${t('trick_n', { n: trick.number })} · ${t('trick_taken', { who: nameOf(/** @type {number} */ (trick.winner)) })} · ${trick.points ? t('trick_points', { n: trick.points }) : t('trick_no_points')}`;
}

/** The dock: whose turn, the refusal, notices, my hand, the buttons. @param {ShengjiState} st @param {Scene} s */
function dock(st, s) {
  const { ctx, m, myTurn, nameOf } = s;
  return h(
    'section',
    { class: 'dock', 'aria-label': t('hand') },
    h('div', { class: 'status' + (myTurn ? ' my-turn' : ''), role: 'status', 'aria-live': 'polite' }, statusLine(s)),
    // The engine's refusal and the notices: by the hand, or over the felt when the dock has no room (fit.js).
    h('div', { class: 'messages' }, refusalBox(ctx.model.refusal), ctx.notices()),
    ctx.autoPanel(),
    st.showLast && m.lastTrick ? h('div', { class: 'notice', id: 'last-trick-panel' }, h('h2', {}, t('last_trick')), trickList(m.lastTrick, nameOf)) : null,
    st.showPoints ? pointsPanel(m) : null,
    handView(st, s),
    actionButtons(st, s),
  );
}

/** @param {Scene} s */
function statusLine({ ctx, m, me, isSeat, nameOf, tagsOf, over, burying, myTurn, hint, clockMs, hand, chosen }) {
  const status = [];
  if (isSeat) status.push(h('span', { class: 'me' }, h('span', { class: 'me-name' }, nameOf(me)), tagsOf(me).map((x) => h('span', { class: 'tag ' + x.split('|')[0] }, x.split('|')[1]))));
  status.push(trumpBadge(m));
  if (over) status.push(h('span', {}, t('board_result')));
  else if (burying) status.push(h('span', { id: 'bury-prompt' }, hint ? t('bury_prompt', { n: hint.length }) : t('bury_prompt_any')));
  else if (myTurn) status.push(h('span', {}, t('your_turn')));
  else {
    const who = ctx.model.toAct.map(nameOf).join('、');
    if (who) status.push(h('span', {}, t('waiting_for', { name: who })));
  }
  if (myTurn && clockMs !== null) status.push(clockEl(clockMs));
  if (isSeat && hand.length && !burying) status.push(h('span', { class: 'hint' }, chosen.length ? t('selected', { n: chosen.length }) : t('select_cards')));
  if (isSeat && hand.length && burying && chosen.length) status.push(h('span', { class: 'hint' }, t('selected', { n: chosen.length })));
  return status;
}

/**
 * My hand: the trumps together first (the view says how many lead the display order), then
 * runs of one suit. Cards the engine says are part of no legal play now are dimmed (still
 * tappable: the engine's refusal explains); without `playable` in the view nothing is.
 * @param {ShengjiState} st @param {Scene} s
 */
function handView(st, { ctx, m, hand, myTurn }) {
  if (!hand.length) return null;
  const playable = myTurn && m.phase === 'play' ? m.playable : null;
  const trumps = m.handTrumps ?? 0;
  const runs = [
    ...(trumps ? [{ key: 'T', cards: hand.slice(0, trumps).map((code, index) => ({ code, index })) }] : []),
    ...suitRuns(hand.slice(trumps)).map((r) => ({ key: r.key, cards: r.cards.map((c) => ({ code: c.code, index: c.index + trumps })) })),
  ];
  const label = (/** @type {string} */ key) => (key === 'T' ? t('trumps') : key === 'J' ? t('jokers') : SUIT_SYMBOL[/** @type {'S'} */ (key)]);
  return h(
    'div',
    { class: 'hand', id: 'hand', 'data-count': String(hand.length) },
    runs.map((run) =>
      h(
        'div',
        { class: 'group', role: 'group', 'aria-label': label(run.key), 'data-group': run.key },
        run.cards.map(({ code, index: i }) =>
          cardFace(code, {
            selected: st.selected.has(i),
            dim: playable !== null && !playable.has(code),
            key: `h${i}`,
            onClick: () => {
              if (st.selected.has(i)) st.selected.delete(i);
              else st.selected.add(i);
              ctx.rerender();
            },
          }),
        ),
      ),
    ),
  );
}

/** 出牌 (or 扣底), 重选, 提示, 上一轮, 分牌, 复盘. @param {ShengjiState} st @param {Scene} s */
function actionButtons(st, { ctx, m, isSeat, myTurn, burying, chosen, hint, hand, over, send }) {
  const canSend = myTurn && chosen.length > 0 && m.phase !== 'choose';
  // The engine's suggested play, when it sends one: 提示 selects it (the player still presses 出牌).
  const selectHint = () => {
    if (!hint) return;
    /** @type {Set<number>} */
    const pick = new Set();
    for (const c of hint) {
      const i = hand.findIndex((x, j) => x === c && !pick.has(j));
      if (i >= 0) pick.add(i);
    }
    st.selected = pick;
    ctx.rerender();
  };
  const toggle = (/** @type {'showLast' | 'showPoints'} */ k) => () => {
    st[k] = !st[k];
    ctx.rerender();
  };
  // The selection, shown again beside the button: tapping it is the other way to play.
  const preview = canSend
    ? h('button', { class: 'selection', id: 'selection', 'on:click': send }, h('span', {}, `${burying ? t('bury') : t('play')}:`), cardRow(chosen))
    : null;
  return h(
    'div',
    { class: 'actions' },
    preview,
    isSeat && m.phase !== 'over' ? h('button', { class: 'primary', id: 'play', disabled: !canSend, 'on:click': send }, burying ? t('bury') : t('play')) : null,
    isSeat && chosen.length ? h('button', { id: 'clear', 'on:click': () => { st.selected = new Set(); ctx.rerender(); } }, t('clear')) : null,
    hint ? h('button', { id: 'hint', 'on:click': selectHint }, t('hint')) : null,
    m.lastTrick ? h('button', { id: 'last-trick', 'aria-expanded': String(st.showLast), 'on:click': toggle('showLast') }, st.showLast ? t('hide_last_trick') : t('last_trick')) : null,
    m.pointsLeft !== null ? h('button', { id: 'points', 'aria-expanded': String(st.showPoints), 'on:click': toggle('showPoints') }, st.showPoints ? t('hide_points') : t('show_points')) : null,
    st.tricks.length && over ? h('button', { id: 'review', 'on:click': () => { st.review = 0; ctx.rerender(); } }, t('review')) : null,
    isSeat && !over ? ctx.autoButton() : null,
    // The result closed: the way on (下一副, or the event's next seat) stays by the hand.
    isSeat && over && st.resultClosed ? ctx.nextButton() : null,
  );
}

/** The point cards the defenders took and the points still out (the view's). @param {ShengjiModel} m */
function pointsPanel(m) {
  return h(
    'div',
    { class: 'notice', id: 'points-panel' },
    h('h2', {}, `${t('points_taken')} · ${m.defenderPoints}`),
    m.pointCards.length ? cardRow(m.pointCards) : h('p', {}, t('none_yet')),
    m.pointsLeft !== null ? h('p', {}, t('points_left', { n: m.pointsLeft })) : null,
  );
}

/** The opponents' choice, the review, or the result. @param {ShengjiState} st @param {Scene} s */
function overlay(st, s) {
  const { ctx, m, me, isSeat, myTurn } = s;
  if (m.choice && isSeat && m.choice.chooser === me && myTurn) return choiceDialog(st, s);
  if (st.review !== null && st.tricks.length) return reviewDialog(st, s);
  if (m.result !== null && !st.resultClosed) return resultDialog(st, s);
  void ctx;
  return null;
}

/** @param {ShengjiState} st @param {Scene} s */
function choiceDialog(st, { ctx, m, nameOf }) {
  const choice = /** @type {NonNullable<ShengjiModel['choice']>} */ (m.choice);
  return dialog(
    t('choose_forced'),
    st.failed ? failedThrowNote(st.failed, nameOf) : null,
    h('div', { class: 'actions' },
      h('button', { class: 'primary', 'data-choose': 'single', 'on:click': () => ctx.act(shengjiActions.choose('single')) }, t('choose_single'), ' ', cardRow(choice.single)),
      h('button', { class: 'primary', 'data-choose': 'pair', 'on:click': () => ctx.act(shengjiActions.choose('pair')) }, t('choose_pair'), ' ', cardRow(choice.pair)),
    ),
  );
}

/** @param {ShengjiState} st @param {Scene} s */
function reviewDialog(st, { ctx, nameOf }) {
  const tricks = st.tricks;
  const i = Math.min(/** @type {number} */ (st.review), tricks.length - 1);
  const go = (/** @type {number | null} */ to) => () => {
    st.review = to;
    ctx.rerender();
  };
  // After a reload the page saw only the tricks since (the board's whole history comes once it is
  // over): say so, and where the others are.
  const partial = tricks[0].number !== 1 || tricks.some((x, k) => k > 0 && x.number !== tricks[k - 1].number + 1);
  return dialog(
    `${t('review')} · ${t('trick_n', { n: tricks[i].number })} / ${tricks.length}`,
    partial ? h('p', { class: 'hint', id: 'review-partial' }, t('review_partial', { from: tricks[0].number, to: tricks[tricks.length - 1].number })) : null,
    trickList(tricks[i], nameOf),
    h('div', { class: 'actions' },
      h('button', { id: 'review-prev', disabled: i === 0, 'on:click': go(i - 1) }, t('prev')),
      h('button', { id: 'review-next', disabled: i === tricks.length - 1, 'on:click': go(i + 1) }, t('next')),
      h('button', { id: 'review-close', 'on:click': go(null) }, t('close')),
    ),
  );
}

/**
 * What the board was to my side, for the result and the session's running score: the side is
 * the view's (the declarer's seat and its partner); the value is the defenders' points for the
 * defenders and the same taken away for the declarer's side (docs/tournaments.md: 以多得分为原则,
 * the event's raw score): shown, not judged. Null for a spectator or before the end.
 * @param {TableCtx} ctx
 * @returns {{ side: 'declarer' | 'defenders', result: number, mine: number } | null}
 */
export function sessionResult(ctx) {
  const m = shengjiModel(ctx.model.view);
  const me = ctx.model.seat;
  if (m.result === null || me === null || ctx.model.role !== 'seat') return null;
  const declaring = me === m.declarer || me === (m.declarer + 2) % 4;
  return { side: declaring ? 'declarer' : 'defenders', result: m.result, mine: declaring ? -m.result : m.result };
}

/** The board's result: my side, whether it is good, what it means, the session, 下一副. @param {ShengjiState} st @param {Scene} s */
function resultDialog(st, { ctx, m, me, isSeat, nameOf }) {
  const mine = sessionResult(ctx);
  const partner = nameOf((me + 2) % 4);
  const close = () => {
    st.resultClosed = true;
    ctx.rerender();
  };
  return dialog(
    t('board_result'),
    h('p', { id: 'result', class: 'result-big', 'data-result': String(m.result) }, t('result_points', { n: /** @type {number} */ (m.result) })),
    mine
      ? h('div', { class: 'result-side', id: 'result-side', 'data-side': mine.side, 'data-mine': String(mine.mine) },
          h('p', {}, h('b', {}, t(mine.side === 'declarer' ? 'you_declarer_side' : 'you_defender_side', { partner }))),
          h('p', {}, t(mine.side === 'declarer' ? 'result_good_declarer' : 'result_good_defender'), ' ', h('b', {}, t('result_mine', { n: signed(mine.mine) }))),
          h('p', { class: 'meaning' }, t('result_meaning')),
        )
      : null,
    h('table', {},
      st.capture ? h('tr', {}, h('th', {}, t('kitty_capture', { m: st.capture.multiplier })), h('td', {}, `${st.capture.points} × ${st.capture.multiplier} = ${st.capture.gain}`)) : null,
      st.penalties ? h('tr', {}, h('th', {}, t('penalties')), h('td', {}, String(st.penalties))) : null,
    ),
    m.kitty ? h('p', {}, `${t('kitty')}: `, cardRow(m.kitty)) : null,
    isSeat ? ctx.session() : null,
    h('div', { class: 'actions' },
      isSeat ? ctx.nextButton() : null,
      st.tricks.length ? h('button', { id: 'result-review', 'on:click': () => { st.review = 0; st.resultClosed = true; ctx.rerender(); } }, t('review')) : null,
      // The whole board step by step, every hand (replay.js).
      ctx.replayButton(),
      h('button', { id: 'result-close', 'on:click': close }, t('close')),
    ),
  );
}

/** +85, −40. @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/**
 * A trick in the four positions: the winning play marked (the view's `winning`), or, for a
 * finished trick, the winner with 赢.
 * @param {Trick | null} trick @param {number} me @param {(s: number) => string} nameOf @param {boolean} finished
 */
function trickView(trick, me, nameOf, finished) {
  if (!trick) return [];
  return trick.plays.map((p) => {
    const pos = (me - p.seat + 4) % 4;
    const winning = trick.winner === p.seat;
    return h(
      'div',
      { class: 'play' + (winning ? ' winning' : '') + (finished ? ' finished' : ''), style: `grid-area:t${pos}`, 'data-pos': String(pos), 'data-play-seat': String(p.seat), 'data-winning': winning ? 'true' : undefined },
      h('span', { class: 'who' }, nameOf(p.seat), p.seat === trick.leader ? ` · ${t('leader')}` : ''),
      h('span', { class: 'cards' }, p.cards.map((c) => cardFace(c, { small: true }))),
      winning ? h('span', { class: 'win-tag' }, finished ? `${t('won_tag')} · ${trick.points ? t('trick_points', { n: trick.points }) : t('trick_no_points')}` : t('winning')) : null,
    );
  });
}

/** A trick as a list (last trick, review). @param {Trick} trick @param {(s: number) => string} nameOf */
function trickList(trick, nameOf) {
  return h(
    'table',
    {},
    trick.plays.map((p) =>
      h('tr', { 'data-winning': trick.winner === p.seat ? 'true' : undefined },
        h('th', {}, nameOf(p.seat), trick.winner === p.seat ? ` · ${t('winning')}` : ''),
        h('td', {}, cardRow(p.cards)),
      ),
    ),
  );
}

/** 甩牌失败: what was attempted, who could beat it, the penalty, what must be played. @param {FailedThrow} f @param {(s: number) => string} nameOf */
function failedThrowNote(f, nameOf) {
  return h(
    'div',
    { class: 'notice', id: 'failed-throw', role: 'status' },
    h('h2', {}, `${t('throw_failed')} · ${nameOf(f.seat)}`),
    h('div', {}, `${t('attempted')}: `, cardRow(f.attempted)),
    f.blockers.length ? h('div', {}, t('blocked_by', { who: f.blockers.map(nameOf).join('、') })) : null,
    h('div', {}, t('penalty_points', { n: f.penalty })),
    f.forced ? h('div', {}, `${t('forced_unit')}: `, cardRow(f.forced)) : null,
  );
}

/**
 * What one move did, in words, for the notices: 「出了黑桃3」, 「扣了 8 张底牌」, and what it cost
 * after it: 「出了黑桃3（警告一次）」. A ruling alone: 「罚 40 分」; a warning alone (the move
 * stays the player's): 「被警告一次…」. `move`: a card left a hand.
 * @param {any[]} events  the engine's events of one stored action
 * @returns {{ text: string, move: boolean }}
 */
export function describeShengji(events) {
  const moves = [];
  const costs = [];
  let warned = false;
  for (const ev of events) {
    switch (ev.type) {
      case 'played':
        moves.push(t('did_play', { cards: cardsText(ev.cards ?? [], lang()) }));
        break;
      case 'buried':
        moves.push(t('did_bury', { n: ev.count ?? ev.cards?.length ?? 0 }));
        break;
      case 'chosen':
        moves.push(t(ev.unit === 'pair' ? 'did_choose_pair' : 'did_choose_single'));
        break;
      case 'throw_failed':
        costs.push(`${t('throw_failed')} · ${t('did_penalty', { n: ev.penalty ?? 0 })}`);
        break;
      case 'warning':
        warned = true;
        costs.push(t('did_warning'));
        break;
      case 'penalty':
        costs.push(t('did_penalty', { n: Math.abs(ev.points ?? ev.delta ?? 0) }));
        break;
      case 'board_over':
        if (ev.by_ruling) costs.push(t('did_end_board'));
        break;
    }
  }
  const cost = costs.join(t('list_gap'));
  if (!moves.length) return { text: warned ? t('did_warning_only') : cost, move: false };
  return { text: moves.join(t('list_gap')) + (cost ? t('paren', { x: cost }) : ''), move: true };
}
