// @ts-check
//! 80分 table: the hand in the engine's order (split where the suit changes), the two-step play,
//! the trick with who is winning, the last trick, the defenders' points, 扣底, a failed throw
//! shown to everyone with the opponents' choice, the board result, and the review of its tricks.
//! Which cards can be played (dimming the others) and a suggested play (提示) come from the view
//! when the engine sends them; otherwise every card is tappable and the engine's refusal tells.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { suitRuns, cardsText, SUIT_SYMBOL } from './cards.js';
import { cardFace, cardRow, nameplate, refusalBox, clockEl, dialog } from './ui.js';
import { seatNames } from './seats.js';
import { shengjiModel, shengjiActions, failedThrow, seatIndex } from './shengji-model.js';
import { dw } from './desk.js';

/** @typedef {import('./table.js').TableCtx} TableCtx */
/** @typedef {import('./shengji-model.js').ShengjiModel} ShengjiModel */
/** @typedef {import('./shengji-model.js').Trick} Trick */
/** @typedef {import('./shengji-model.js').FailedThrow} FailedThrow */

/** Seats on screen: me at the bottom (position 0), 下家 on the right, partner on top. */
export function seatAt(/** @type {number} */ me, /** @type {number} */ pos) {
  return (me + 4 - pos) % 4;
}

/** @returns {import('./table.js').GameUI} */
export function shengjiUI() {
  /** Indices into the sorted hand that the player has tapped. @type {Set<number>} */
  let selected = new Set();
  /** The hand the selection refers to (a changed hand clears it). */
  let handKey = '';
  /** Open panels. */
  let showLast = false;
  /** Review position: null when closed, else the trick index. @type {number | null} */
  let review = null;
  /** The result dialog was closed by the player. */
  let resultClosed = false;
  // What the announcements tell beyond the view: the board's tricks (for the review), a failed
  // throw (shown to everyone until the trick is won), the kitty capture and the penalties.
  /** @type {Trick[]} */
  let tricks = [];
  /** @type {Trick | null} */
  let current = null;
  /** @type {FailedThrow | null} */
  let failed = null;
  /** @type {{ points: number, multiplier: number, gain: number } | null} */
  let capture = null;
  let penalties = 0;

  /** Adds a finished trick the page did not see being played (after a reload). @param {Trick | null} t */
  const remember = (t) => {
    if (t && !tricks.some((x) => x.number === t.number)) tricks = [...tricks, t].sort((a, b) => a.number - b.number);
  };

  return {
    clearSelection() {
      selected = new Set();
    },
    describe: describeShengji,
    onEvent(ev) {
      switch (ev.type) {
        case 'played':
          if (ev.lead || !current) current = { number: ev.trick, leader: seatIndex(ev.seat), plays: [], winner: null, points: 0 };
          current.plays.push({ seat: seatIndex(ev.seat), cards: ev.cards ?? [] });
          break;
        case 'throw_failed':
          failed = failedThrow(ev);
          penalties += ev.penalty ?? 0;
          break;
        case 'trick_won':
          if (current && current.number === ev.trick) remember({ ...current, winner: seatIndex(ev.winner), points: ev.points ?? 0 });
          current = null;
          failed = null;
          break;
        case 'kitty_captured':
          capture = { points: ev.points ?? 0, multiplier: ev.multiplier ?? 1, gain: ev.gain ?? 0 };
          break;
        case 'penalty':
          penalties += Math.abs(ev.delta ?? ev.points ?? 0);
          break;
      }
    },
    onSnapshot() {
      current = null;
    },
    render(ctx) {
      const m = shengjiModel(ctx.model.view);
      remember(m.lastTrick);
      // After a reload the board's whole history comes with the view once the board is over.
      for (const t of m.tricks) remember(t);
      const me = ctx.model.seat ?? 2;
      const names = seatNames('shengji');
      const nameOf = (/** @type {number} */ s) => ctx.model.seats[s]?.name ?? names[s];
      // The hand in the engine's order (its display order), never re-sorted here.
      const hand = m.hand ?? [];
      const key = hand.join(',');
      if (key !== handKey) {
        selected = new Set();
        handKey = key;
      }
      const chosen = [...selected].sort((a, b) => a - b).map((i) => hand[i]);
      const myTurn = ctx.model.myTurn;
      const burying = m.phase === 'bury' && myTurn;
      const clockMs = ctx.model.clock ? ctx.model.clock.deadline - performance.now() : null;
      const act = shengjiActions;

      const send = () => {
        if (!chosen.length) return;
        ctx.act(burying ? act.bury(chosen) : act.play(chosen));
      };
      // The engine's suggested play, when it sends one: 提示 selects it (the player still presses 出牌).
      const hint = myTurn && m.hint ? m.hint : null;
      const selectHint = () => {
        if (!hint) return;
        /** @type {Set<number>} */
        const pick = new Set();
        for (const c of hint) {
          const i = hand.findIndex((x, j) => x === c && !pick.has(j));
          if (i >= 0) pick.add(i);
        }
        selected = pick;
        ctx.rerender();
      };

      // ---- Top bar facts.
      const trumpText = m.trump ? `${SUIT_SYMBOL[m.trump]}` : t('no_trump');
      const info = [
        h('span', {}, t('board', { n: m.board || ctx.model.board })),
        h('span', {}, t('level', { r: m.level })),
        h('span', {}, `${t('trump')} `, h('b', { 'data-trump': m.trump ?? 'none' }, trumpText)),
        h('span', {}, `${t('declarer')} `, h('b', {}, nameOf(m.declarer))),
        h('span', { 'data-defender-points': String(m.defenderPoints) }, `${t('defenders_points')} `, h('b', {}, String(m.defenderPoints))),
      ];

      // ---- The felt: four seats around the trick.
      const tagsOf = (/** @type {number} */ s) => {
        const info = ctx.model.seats[s];
        const tags = [];
        if (s === m.declarer) tags.push('declarer|' + t('declarer'));
        // A computer only by the protocol's flag: a person may be called 「机器人」 too.
        if (info?.bot) tags.push('bot|' + t('bot'));
        if (info && !info.bot && !info.name) tags.push('offline|' + t('empty_seat'));
        if (info && !info.bot && info.name && !info.connected) tags.push('offline|' + t('offline'));
        if (info?.auto) tags.push('offline|' + t('auto_play'));
        return tags;
      };
      // A player's own seat is the dock at the bottom; a spectator sees all four plates.
      const positions = ctx.model.role === 'seat' ? [1, 2, 3] : [0, 1, 2, 3];
      const plates = positions.map((pos) => {
        const s = seatAt(me, pos);
        const tags = tagsOf(s);
        const turn = ctx.model.toAct.includes(s) && ctx.model.tableState === 'playing';
        return h(
          'div',
          { class: 'seat', style: `grid-area:p${pos}`, 'data-seat': String(s) },
          nameplate({ name: nameOf(s), tags, count: m.counts[s] ?? null, turn, clockMs: turn && s !== me ? clockMs : null, key: String(s) }),
        );
      });
      const trick = trickView(m.trick, me, nameOf);
      const notes = [];
      if (failed) notes.push(failedThrowNote(failed, nameOf));
      const felt = h('section', { class: 'felt four' + (ctx.model.role === 'seat' ? '' : ' watch'), tabindex: 0, 'aria-label': t('current_trick') }, plates, h('div', { class: 'trick' }, trick, h('div', { class: 'mid' }, notes)));

      // ---- The dock: whose turn, the refusal, my hand, the buttons.
      const status = [];
      if (ctx.model.role === 'seat') status.push(h('span', { class: 'me' }, nameOf(me), tagsOf(me).map((x) => h('span', { class: 'tag ' + x.split('|')[0] }, x.split('|')[1]))));
      const over = ctx.model.tableState === 'over' || m.phase === 'over';
      if (over) status.push(h('span', {}, t('board_result')));
      else if (burying) status.push(h('span', {}, hint ? t('bury_prompt', { n: hint.length }) : t('bury_prompt_any')));
      else if (myTurn) status.push(h('span', {}, t('your_turn')));
      else {
        const who = ctx.model.toAct.map(nameOf).join('、');
        if (who) status.push(h('span', {}, t('waiting_for', { name: who })));
      }
      if (myTurn && clockMs !== null) status.push(clockEl(clockMs));
      if (ctx.model.role === 'seat' && hand.length) status.push(h('span', { class: 'hint' }, chosen.length ? t('selected', { n: chosen.length }) : t('select_cards')));

      // Cards the engine says are part of no legal play now are dimmed (still tappable: the
      // engine's refusal explains). Without `playable` in the view nothing is dimmed.
      const playable = myTurn && m.phase === 'play' ? m.playable : null;
      const groups = suitRuns(hand).map((run) =>
        h(
          'div',
          { class: 'group', role: 'group', 'aria-label': run.key === 'J' ? t('jokers') : SUIT_SYMBOL[/** @type {'S'} */ (run.key)] },
          run.cards.map(({ code, index: i }) =>
            cardFace(code, {
              selected: selected.has(i),
              dim: playable !== null && !playable.has(code),
              key: `h${i}`,
              onClick: () => {
                if (selected.has(i)) selected.delete(i);
                else selected.add(i);
                ctx.rerender();
              },
            }),
          ),
        ),
      );

      const canSend = myTurn && chosen.length > 0 && m.phase !== 'choose';
      // The selection, shown again beside the button: tapping it is the other way to play.
      const preview = canSend
        ? h('button', { class: 'selection', id: 'selection', 'on:click': send }, h('span', {}, `${burying ? t('bury') : t('play')}:`), cardRow(chosen))
        : null;
      const actions = h(
        'div',
        { class: 'actions' },
        preview,
        ctx.model.role === 'seat' && m.phase !== 'over'
          ? h('button', { class: 'primary', id: 'play', disabled: !canSend, 'on:click': send }, burying ? t('bury') : t('play'))
          : null,
        ctx.model.role === 'seat' && chosen.length ? h('button', { id: 'clear', 'on:click': () => { selected = new Set(); ctx.rerender(); } }, t('clear')) : null,
        hint ? h('button', { id: 'hint', 'on:click': selectHint }, t('hint')) : null,
        m.lastTrick ? h('button', { id: 'last-trick', 'aria-expanded': String(showLast), 'on:click': () => { showLast = !showLast; ctx.rerender(); } }, showLast ? t('hide_last_trick') : t('last_trick')) : null,
        tricks.length && over ? h('button', { id: 'review', 'on:click': () => { review = 0; ctx.rerender(); } }, t('review')) : null,
      );
      const dock = h(
        'section',
        { class: 'dock', 'aria-label': t('hand') },
        h('div', { class: 'status' + (myTurn ? ' my-turn' : ''), role: 'status', 'aria-live': 'polite' }, status),
        refusalBox(ctx.model.refusal),
        ctx.notices(),
        showLast && m.lastTrick ? h('div', { class: 'notice', id: 'last-trick-panel' }, h('h3', {}, t('last_trick')), trickList(m.lastTrick, nameOf)) : null,
        hand.length ? h('div', { class: 'hand', id: 'hand', 'data-count': String(hand.length) }, groups) : null,
        actions,
      );

      // ---- Overlays: the opponents' choice, the result, the review.
      /** @type {HTMLElement | null} */
      let overlay = null;
      if (m.choice && ctx.model.role === 'seat' && m.choice.chooser === me && myTurn) {
        overlay = dialog(
          t('choose_forced'),
          failed ? failedThrowNote(failed, nameOf) : null,
          h('div', { class: 'actions' },
            h('button', { class: 'primary', 'data-choose': 'single', 'on:click': () => ctx.act(act.choose('single')) }, t('choose_single'), ' ', cardRow(m.choice.single)),
            h('button', { class: 'primary', 'data-choose': 'pair', 'on:click': () => ctx.act(act.choose('pair')) }, t('choose_pair'), ' ', cardRow(m.choice.pair)),
          ),
        );
      } else if (review !== null && tricks.length) {
        const i = Math.min(review, tricks.length - 1);
        overlay = dialog(
          `${t('review')} · ${t('trick_n', { n: tricks[i].number })} / ${tricks.length}`,
          trickList(tricks[i], nameOf),
          h('div', { class: 'actions' },
            h('button', { id: 'review-prev', disabled: i === 0, 'on:click': () => { review = i - 1; ctx.rerender(); } }, t('prev')),
            h('button', { id: 'review-next', disabled: i === tricks.length - 1, 'on:click': () => { review = i + 1; ctx.rerender(); } }, t('next')),
            h('button', { id: 'review-close', 'on:click': () => { review = null; ctx.rerender(); } }, t('close')),
          ),
        );
      } else if (m.result !== null && !resultClosed) {
        overlay = dialog(
          t('board_result'),
          h('p', { id: 'result', style: 'font-size:30px;font-weight:800', 'data-result': String(m.result) }, t('result_points', { n: m.result })),
          h('table', {},
            capture ? h('tr', {}, h('th', {}, t('kitty_capture', { m: capture.multiplier })), h('td', {}, `${capture.points} × ${capture.multiplier} = ${capture.gain}`)) : null,
            penalties ? h('tr', {}, h('th', {}, t('penalties')), h('td', {}, String(penalties))) : null,
          ),
          m.kitty ? h('p', {}, `${t('kitty')}: `, cardRow(m.kitty)) : null,
          h('div', { class: 'actions' },
            tricks.length ? h('button', { id: 'result-review', 'on:click': () => { review = 0; resultClosed = true; ctx.rerender(); } }, t('review')) : null,
            // The whole board step by step, every hand (replay.js).
            h('button', { id: 'result-replay', 'on:click': () => { location.hash = `#/t/${ctx.model.id}/replay`; } }, dw('full_replay')),
            h('button', { id: 'result-close', 'on:click': () => { resultClosed = true; ctx.rerender(); } }, t('close')),
          ),
        );
      }
      return { felt, dock, info, overlay };
    },
  };
}

/**
 * The current trick in the four positions, the winning play marked (the view's `winning`).
 * @param {Trick | null} trick @param {number} me @param {(s: number) => string} nameOf
 */
function trickView(trick, me, nameOf) {
  if (!trick) return [];
  return trick.plays.map((p) => {
    const pos = (me - p.seat + 4) % 4;
    const winning = trick.winner === p.seat;
    return h(
      'div',
      { class: 'play' + (winning ? ' winning' : ''), style: `grid-area:t${pos}`, 'data-play-seat': String(p.seat), 'data-winning': winning ? 'true' : undefined },
      h('span', { class: 'who' }, nameOf(p.seat), p.seat === trick.leader ? ` · ${t('leader')}` : ''),
      h('span', { class: 'cards' }, p.cards.map((c) => cardFace(c, { small: true }))),
      winning ? h('span', { class: 'win-tag' }, t('winning')) : null,
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
    h('h3', {}, `${t('throw_failed')} · ${nameOf(f.seat)}`),
    h('div', {}, `${t('attempted')}: `, cardRow(f.attempted)),
    f.blockers.length ? h('div', {}, t('blocked_by', { who: f.blockers.map(nameOf).join('、') })) : null,
    h('div', {}, t('penalty_points', { n: f.penalty })),
    f.forced ? h('div', {}, `${t('forced_unit')}: `, cardRow(f.forced)) : null,
  );
}

/**
 * What one move did, in words, for the notices: 「出了黑桃3」, 「扣了 8 张底牌」, and what it cost
 * after it: 「出了黑桃3（警告一次）」. A ruling alone: 「罚 40 分」.
 * @param {any[]} events  the engine's events of one stored action
 */
export function describeShengji(events) {
  const moves = [];
  const costs = [];
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
  if (!moves.length) return cost;
  return moves.join(t('list_gap')) + (cost ? t('paren', { x: cost }) : '');
}
