// @ts-check
//! 复盘 (the replay viewer, `#/t/CODE/replay`, `#/t/CODE/replay/N` at action N): a finished board
//! or game, or any table for the referee, step by step with every hand showing.
//!
//! Everything shown is the server's: the table's log replayed through the engine
//! (`GET /api/tables/{id}/replay`: every step with its actor, reason and events), the full state
//! after any action (`…/replay?at=N`: the engine's referee view, fetched when first shown and
//! kept), and why each action was legal (`…/explain/{seq}`: the engine's verdict, the rules that
//! bound the action and the alternatives it would have refused, in its own words). The page
//! only finds its way through the steps: where a trick or a set ends is where the engine
//! announced it (`trick_won`; 够级 `led`, `beat`, `burned`).
//!
//! Stepping: buttons (开头, 上一轮, 上一步, 下一步, 下一轮, 结尾; 够级 also 上一套, 下一套), a
//! slider, and the keyboard: ← →, PageUp / PageDown, Shift + ← → (够级 sets), Home / End.
//!
//! The viewer (`replayViewer`) draws into any element from a `ReplaySource`: the table's
//! endpoints on the replay page; on the practice page (practice.js) a set's own endpoints for a
//! board the player has played (`POST /api/practice/{id}/replay`, with `at`, and `…/explain`:
//! the engine's states and verdicts, as the referee's), two viewers side by side.

import { h } from './dom.js';
import { t, pick } from './i18n.js';
import { onChange, ticket } from './settings.js';
import { topbar, gameName } from './lobby.js';
import { cardRow } from './ui.js';
import { SUIT_SYMBOL } from './cards.js';
import { seatNames } from './seats.js';
import { describeShengji } from './shengji.js';
import { describeGouji } from './gouji.js';
import { dw, deskGet, refereeToken, fullBoard, goujiSaid, actorWord, elapsed, seatOf, seatWho, placeWord, actionCards, problemOf } from './desk.js';


/**
 * One logged action as the replay gives it (`paiju replay --json`'s `steps`).
 * @typedef {{ seq: number, seat: string, seat_index: number, actor: string, reason: string | null, time_ms: number, action: any, events: any[] }} Step
 * @typedef {{ seat: string, seat_index: number, name: string | null, bot: boolean }} ReplaySeat
 * @typedef {{ zh: string, en: string }} Words
 * @typedef {object} Replay  `GET /api/tables/{id}/replay`
 * @property {string} table
 * @property {string} game
 * @property {string} ruleset
 * @property {number} board
 * @property {number} created_ms
 * @property {ReplaySeat[]} seats
 * @property {Step[]} steps
 * @property {any} result
 * @property {boolean} ok
 * @property {{ kind: string, words: Words } | null} fault
 * @property {Words[]} notes
 * @typedef {{ rule: string, state: string, words: Words }} RuleLine
 * @typedef {{ seat: number, action: any, code: string, words: Words, told: Words }} Refusal
 * @typedef {object} Explained  `GET /api/tables/{id}/explain/{seq}`
 * @property {Words} told
 * @property {{ legal: boolean, words: Words }} verdict
 * @property {Words[]} context
 * @property {RuleLine[]} rules
 * @property {Refusal[]} refused
 * @property {number} also_legal
 * @property {Words[]} also_legal_examples
 * @property {Words[]} events
 */

/**
 * Where a replay comes from: the whole record (`replay`), the state after action k (`state`:
 * `{ view }`, the engine's referee view), and, where the server answers them, the engine's
 * verdict on a step (`explain`) and the all-seeing question (`seeing`).
 * @typedef {object} ReplaySource
 * @property {() => Promise<Replay>} replay
 * @property {(k: number, r: Replay) => Promise<any>} state
 * @property {((k: number) => Promise<Explained>) | null} explain
 * @property {((k: number) => Promise<any>) | null} seeing
 */

/**
 * A table's replay from the desk's endpoints (`GET /api/tables/{id}/replay`, `…?at=N`,
 * `…/explain/{seq}`), with the referee's token when this tab has one.
 * @param {string} id @returns {ReplaySource}
 */
export function tableSource(id) {
  const base = `/api/tables/${encodeURIComponent(id)}`;
  return {
    replay: () => deskGet(`${base}/replay`),
    state: (k) => deskGet(`${base}/replay?at=${k}`),
    explain: (k) => deskGet(`${base}/explain/${k}`),
    seeing: (k) => deskGet(`${base}/explain/${k}?all_seeing=true`),
  };
}

/**
 * The replay page (`#/t/CODE/replay`): the top bar, the viewer, its controls at the bottom of
 * the screen and the keyboard; the address follows the position.
 * @param {HTMLElement} root
 * @param {{ id: string, at: number | null, go: (hash: string) => void }} opts
 * @returns {() => void} closes the viewer
 */
export function openReplay(root, { id, at, go }) {
  const host = h('div', { class: 'replay-page' });
  root.replaceChildren(host);
  return replayViewer(host, {
    source: tableSource(id),
    at,
    keys: true,
    onPos: (pos) => history.replaceState(null, '', `#/t/${id}/replay/${pos}`),
    top: (replay) => {
      const info = [h('span', {}, h('b', {}, dw('replay')), ` · ${t('code')} `, h('b', { 'data-table-code': '' }, id))];
      if (replay) info.push(h('span', {}, gameName(replay.game)), h('span', {}, t(replay.game === 'gouji' ? 'game_n' : 'board', { n: replay.board })));
      // Back to the table as this browser knows it: its seat, or watching; the referee's desk too.
      const back = h('button', { id: 'back', 'data-key': 'back', 'on:click': () => go(ticket(id) ? `#/t/${id}` : `#/t/${id}/watch`) }, dw('back_to_table'));
      if (refereeToken()) info.push(h('button', { id: 'back-desk', 'data-key': 'back-desk', 'on:click': () => go(`#/referee/t/${id}`) }, dw('back_to_desk')));
      return topbar(back, ...info);
    },
  }).close;
}

/**
 * What a viewer is given.
 * @typedef {object} ViewerOpts
 * @property {ReplaySource} source
 * @property {number | null} at  the position to open at (0: as dealt)
 * @property {string} [idp]  a prefix for the ids in it, when two viewers share a page ('' on the replay page)
 * @property {boolean} [keys]  the keyboard steps it (one viewer a page)
 * @property {'h1' | 'h2' | 'h3'} [heading]  the step's heading (h1 on the replay page)
 * @property {(replay: Replay | null) => HTMLElement | null} [top]  drawn first in the host (the page's top bar)
 * @property {(pos: number) => void} [onPos]  the position changed
 * @property {string} [label]  beside another viewer: what this one shows (its controls are named by it; its body is no page's main)
 */

/**
 * A replay viewer in `host`: a finished board or game step by step, every hand showing. The
 * host gets `data-game` and `data-pos`; its children are redrawn on every step. `toTrick(n)`
 * goes to the end of the n-th trick the engine announced (0: as dealt; past the last: the end),
 * so that two viewers of one board can be moved together.
 * @param {HTMLElement} host @param {ViewerOpts} opts
 * @returns {{ close: () => void, toTrick: (n: number) => void }}
 */
export function replayViewer(host, { source, at, idp = '', keys = false, heading = 'h1', top, onPos, label }) {
  /** An id of this viewer. @param {string} x */
  const id = (x) => idp + x;
  /** @type {Replay | null} */
  let replay = null;
  /** @type {Problem | null} */
  let failure = null;
  let pos = at ?? 0;
  /** The position whose state is on the screen (the last one loaded while the next comes). */
  let shown = -1;
  /** The full state after action N, as fetched. @type {Map<number, any>} */
  const states = new Map();
  /** @type {Map<number, Promise<void>>} */
  const stateLoads = new Map();
  /** Step → the fair-play question's answer (`explain/{k}?all_seeing=true`), once asked. @type {Map<number, any>} */
  const seeing = new Map();
  /** Why action N was legal, as fetched (or the refusal to tell). @type {Map<number, Explained | { problem: Problem }>} */
  const explained = new Map();
  /** @type {Map<number, Promise<void>>} */
  const explainLoads = new Map();
  let explainTimer = /** @type {ReturnType<typeof setTimeout> | null} */ (null);
  let closed = false;

  /** Where tricks end (the engine's `trick_won`; 80分 the bury too), and 够级 sets are played. */
  let trickEnds = /** @type {number[]} */ ([]);
  let setSteps = /** @type {number[]} */ ([]);

  /** @param {number} k */
  function loadState(k) {
    if (!replay) return Promise.resolve();
    if (states.has(k) || stateLoads.has(k)) return stateLoads.get(k) ?? Promise.resolve();
    const p = source.state(k, replay)
      .then((s) => {
        states.set(k, s);
      })
      .catch((e) => {
        failure = problemOf(e);
      })
      .finally(() => {
        stateLoads.delete(k);
        if (!closed && (k === pos || failure)) render();
      });
    stateLoads.set(k, p);
    return p;
  }

  /** @param {number} k */
  function loadExplain(k) {
    const ask = source.explain;
    if (!ask || k < 1 || explained.has(k) || explainLoads.has(k)) return;
    const p = ask(k)
      .then((e) => {
        explained.set(k, e);
      })
      .catch((e) => {
        explained.set(k, { problem: problemOf(e) });
      })
      .finally(() => {
        explainLoads.delete(k);
        if (!closed && k === pos) render();
      });
    explainLoads.set(k, p);
  }

  /** Asks the engine to value step k's choices with every hand known and on the seat's own view. @param {number} k */
  function loadSeeing(k) {
    const ask = source.seeing;
    if (!ask || seeing.has(k)) return;
    seeing.set(k, { loading: true });
    render();
    ask(k)
      .then((e) => seeing.set(k, e.all_seeing ?? { none: true }))
      .catch((e) => seeing.set(k, { problem: problemOf(e) }))
      .finally(() => {
        if (!closed && k === pos) render();
      });
  }

  /** Goes to position k (the state after action k; 0: as dealt). @param {number} k */
  function goTo(k) {
    if (!replay) return;
    const n = replay.steps.length;
    pos = Math.max(0, Math.min(n, k));
    onPos?.(pos);
    const want = pos;
    loadState(want).then(() => {
      // The neighbours next, so stepping on is instant.
      if (closed || want !== pos) return;
      if (want + 1 <= n) loadState(want + 1);
      if (want - 1 >= 0) loadState(want - 1);
    });
    // The verdict once the reader stops on a step (not for every step flown past).
    if (explainTimer) clearTimeout(explainTimer);
    if (source.explain) explainTimer = setTimeout(() => loadExplain(want), 200);
    render();
  }

  /** @param {number[]} marks @param {number} k */
  const after = (marks, k) => marks.find((m) => m > k);
  /** @param {number[]} marks @param {number} k */
  const before = (marks, k) => [...marks].reverse().find((m) => m < k);

  const moves = {
    start: () => goTo(0),
    end: () => goTo(replay?.steps.length ?? 0),
    prev: () => goTo(pos - 1),
    next: () => goTo(pos + 1),
    prevTrick: () => goTo(before(trickEnds, pos) ?? 0),
    nextTrick: () => goTo(after(trickEnds, pos) ?? replay?.steps.length ?? 0),
    prevSet: () => goTo(before(setSteps, pos) ?? 0),
    nextSet: () => goTo(after(setSteps, pos) ?? replay?.steps.length ?? 0),
  };

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    if (!replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    const gouji = replay.game === 'gouji';
    /** @type {(() => void) | undefined} */
    let move;
    if (e.key === 'ArrowLeft') move = e.shiftKey && gouji ? moves.prevSet : moves.prev;
    else if (e.key === 'ArrowRight') move = e.shiftKey && gouji ? moves.nextSet : moves.next;
    else if (e.key === 'PageUp') move = moves.prevTrick;
    else if (e.key === 'PageDown') move = moves.nextTrick;
    else if (e.key === 'Home') move = moves.start;
    else if (e.key === 'End') move = moves.end;
    if (!move) return;
    e.preventDefault();
    move();
  }
  if (keys) document.addEventListener('keydown', onKey);
  const unsubscribe = onChange((key) => key !== 'name' && render());

  source.replay()
    .then((/** @type {Replay} */ r) => {
      replay = r;
      trickEnds = [];
      setSteps = [];
      r.steps.forEach((s, i) => {
        const types = s.events.map((e) => e?.type);
        if (types.includes('trick_won') || types.includes('buried')) trickEnds.push(i + 1);
        if (types.includes('led') || types.includes('beat') || types.includes('burned')) setSteps.push(i + 1);
      });
      goTo(Math.min(pos, r.steps.length));
    })
    .catch((e) => {
      failure = problemOf(e);
      render();
    });

  function render() {
    if (closed) return;
    const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
    host.dataset.game = replay?.game ?? '';
    host.dataset.pos = String(pos);
    const ctl = replay ? controls(replay) : null;
    // Beside another viewer the controls sit under the step they move (two bars stuck to the
    // bottom of the screen would cover both boards); on the replay page, at the bottom.
    host.replaceChildren(
      top?.(replay) ?? '',
      h(label ? 'div' : 'main', { class: 'replay-main' }, body(label ? ctl : null)),
      label ? '' : ctl ?? '',
    );
    if (focusKey) /** @type {HTMLElement | null} */ (host.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus();
  }

  /** @param {HTMLElement | null} ctl  the controls, under the step (beside another viewer) */
  function body(ctl) {
    if (failure && (!replay || !states.has(pos))) return h('p', { class: 'error-text', role: 'alert', id: id('replay-error') }, pick(failure));
    if (!replay) return h('p', { class: 'hint', style: 'padding:20px' }, dw('loading'));
    const r = replay;
    const n = r.steps.length;
    // The state after this step; while it comes, the last one shown, dimmed.
    const ready = states.has(pos);
    if (ready) shown = pos;
    const state = states.get(shown) ?? null;
    const step = pos > 0 ? r.steps[pos - 1] : null;
    const shownStep = shown > 0 ? r.steps[shown - 1] : null;
    const nameOf = (/** @type {number} */ s) => r.seats[s]?.name ?? seatNames(r.game)[s];
    // The trick this step belongs to: one more than the tricks the engine announced before it.
    const trickNo = 1 + r.steps.slice(0, Math.max(0, pos - 1)).filter((s) => s.events.some((e) => e?.type === 'trick_won')).length;
    const header = h(
      'section',
      { class: 'replay-step', id: id('step'), 'aria-live': 'polite' },
      h(heading, { class: 'step-of' }, dw('step_of', { k: pos, n }), step ? h('span', { class: 'hint' }, ` · ${dw('trick_now', { n: trickNo })}`) : null),
      step ? stepLine(r, step, nameOf) : h('p', { class: 'step-line' }, dw('as_dealt')),
    );
    const board = state
      ? fullBoard(r.game, state.view, {
          nameOf,
          bot: (s) => !!r.seats[s]?.bot,
          events: shownStep?.events ?? [],
          said: r.game === 'gouji' ? goujiSaid(r.steps.slice(0, shown).map((s) => s.events)) : undefined,
          label,
        })
      : h('p', { class: 'hint', style: 'padding:20px' }, dw('loading'));
    return [
      header,
      ctl,
      h('div', { class: 'replay-body' + (ready ? '' : ' loading'), 'aria-busy': String(!ready), 'data-shown': String(shown) },
        board,
        h('aside', { class: 'replay-side' },
          state ? facts(r, state.view) : null,
          step && source.explain ? verdictPanel(pos) : null,
          pos === n ? resultPanel(r, nameOf, idp) : null,
        ),
      ),
    ];
  }

  /** The engine's verdict on step k, with the rules and the refusals, in its words. @param {number} k */
  function verdictPanel(k) {
    const e = explained.get(k);
    if (!e) return h('section', { class: 'panel verdict', id: id('verdict'), 'aria-busy': 'true' }, h('h2', {}, dw('verdict_h')), h('p', { class: 'hint' }, dw('loading')));
    if ('problem' in e) return h('section', { class: 'panel verdict', id: id('verdict') }, h('h2', {}, dw('verdict_h')), h('p', { class: 'error-text' }, pick(e.problem)));
    return h(
      'section',
      { class: 'panel verdict', id: id('verdict'), 'data-legal': String(e.verdict.legal) },
      h('h2', {}, dw('verdict_h')),
      h('p', { class: 'verdict-line' + (e.verdict.legal ? ' legal' : ' illegal') }, h('b', {}, e.verdict.legal ? `✓ ${dw('legal')}` : `✗ ${dw('illegal')}`), ' · ', pick(e.told)),
      h('p', { class: 'hint' }, pick(e.verdict.words)),
      e.context.length ? [h('h3', {}, dw('context_h')), h('ul', {}, e.context.map((c) => h('li', {}, pick(c))))] : null,
      e.rules.length
        ? [h('h3', {}, dw('rules_h')), h('ul', { class: 'rules' }, e.rules.map((r) => h('li', { 'data-rule': r.rule, 'data-state': r.state }, h('b', {}, dw(['bound', 'kept', 'void'].includes(r.state) ? `rule_${r.state}` : 'rule_info')), ' ', pick(r.words))))]
        : null,
      e.refused.length
        ? [h('h3', {}, dw('refused_h')), h('ul', { class: 'refused' }, e.refused.map((x) => h('li', { 'data-code': x.code }, h('b', {}, `✗ ${pick(x.told)}`), ` → ${pick(x.words)}`)))]
        : null,
      e.also_legal ? h('p', {}, dw('also_legal', { n: e.also_legal }), ' ', e.also_legal_examples.map(pick).join(t('list_gap'))) : null,
      e.events.length ? [h('h3', {}, dw('happened_h')), h('ul', {}, e.events.map((x) => h('li', {}, pick(x))))] : null,
      replay && source.seeing ? seeingPart(k) : null,
    );
  }

  /** The fair-play question at step k: asked on a tap (it takes the engine a moment). @param {number} k */
  function seeingPart(k) {
    const a = seeing.get(k);
    if (!a) return h('button', { id: id('all-seeing'), 'on:click': () => loadSeeing(k) }, dw('seeing_ask'));
    if (a.loading) return h('p', { class: 'hint', 'aria-busy': 'true' }, dw('seeing_thinking'));
    if (a.problem) return h('p', { class: 'error-text' }, pick(a.problem));
    if (a.none) return h('p', { class: 'hint', 'data-all-seeing': 'none' }, dw('seeing_none'));
    return h(
      'div',
      { 'data-all-seeing': a.exact ? 'exact' : 'played-out' },
      h('h3', {}, dw(a.exact ? 'seeing_h_exact' : 'seeing_h_played')),
      h('p', { class: 'big', id: id('all-seeing-summary') }, pick(a.summary)),
      h('table', { class: 'results' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, dw('seeing_choice')), h('th', { scope: 'col' }, dw(a.points === 'team' ? 'seeing_all_team' : 'seeing_all')), h('th', { scope: 'col' }, dw('seeing_own')))),
        h('tbody', {}, a.choices.map((/** @type {any} */ c) =>
          h('tr', { 'data-made': String(c.made) }, h('td', {}, c.made ? `▶ ${pick(c.told)}` : pick(c.told)), h('td', {}, String(c.all_seeing)), h('td', {}, typeof c.own_view === 'number' ? c.own_view.toFixed(1) : '—')),
        )),
      ),
      h('p', { class: 'hint' }, dw('seeing_meaning')),
    );
  }

  /** @param {Replay} r */
  function controls(r) {
    const n = r.steps.length;
    const gouji = r.game === 'gouji';
    /** @param {string} key @param {string} label @param {() => void} f @param {boolean} off @param {string} [cls] */
    const btn = (key, label, f, off, cls) => h('button', { id: id(key), 'data-key': id(key), 'data-move': key, class: cls, disabled: off, 'on:click': f }, label);
    const slider = h('input', {
      type: 'range', id: id('step-slider'), min: 0, max: n, value: pos, 'aria-label': dw('step_slider'),
      'on:input': (/** @type {Event} */ ev) => goTo(Number(/** @type {HTMLInputElement} */ (ev.target).value)),
    });
    return h(
      'nav',
      { class: 'replay-controls', 'aria-label': label ? `${dw('replay')} · ${label}` : dw('replay') },
      h('div', { class: 'actions' },
        btn('first', dw('start'), moves.start, pos === 0),
        btn('prev-trick', `« ${dw('prev_trick')}`, moves.prevTrick, pos === 0),
        gouji ? btn('prev-set', dw('prev_set'), moves.prevSet, pos === 0) : null,
        btn('prev', `◀ ${dw('prev_step')}`, moves.prev, pos === 0, 'primary'),
        btn('next', `${dw('next_step')} ▶`, moves.next, pos === n, 'primary'),
        gouji ? btn('next-set', dw('next_set'), moves.nextSet, pos === n) : null,
        btn('next-trick', `${dw('next_trick')} »`, moves.nextTrick, pos === n),
        btn('last', dw('end'), moves.end, pos === n),
      ),
      h('div', { class: 'slider-row' }, slider, keys ? h('span', { class: 'hint' }, dw('keys', { sets: gouji ? dw('keys_sets') : '' })) : null),
    );
  }

  return {
    close: () => {
      closed = true;
      if (explainTimer) clearTimeout(explainTimer);
      if (keys) document.removeEventListener('keydown', onKey);
      unsubscribe();
    },
    toTrick: (n) => goTo(n <= 0 ? 0 : trickEnds[n - 1] ?? replay?.steps.length ?? 0),
  };
}

/** @typedef {import('./protocol').Problem} Problem */

/**
 * One step in a line: `#seq mm:ss`, who, whose hand (电脑, 计时器, 托管, 裁判), what it did, the
 * cards, and a referee's reason.
 * @param {Replay} r @param {Step} step @param {(s: number) => string} nameOf
 */
function stepLine(r, step, nameOf) {
  const s = step.seat_index;
  const what = (r.game === 'gouji' ? describeGouji : describeShengji)(step.events).text || step.action?.type || '';
  const cards = actionCards(step.action);
  return h(
    'div',
    { class: 'step-line', 'data-actor': step.actor, 'data-seq': String(step.seq) },
    h('span', { class: 'hint' }, `#${step.seq} · ${elapsed(step.time_ms - r.created_ms)}`),
    ' ',
    h('b', {}, seatWho(r.game, s, nameOf)),
    ' ',
    h('span', { class: 'tag' + (step.actor === 'referee' ? ' opposite' : step.actor === 'player' ? ' team' : ' offline') }, actorWord(step.actor)),
    ' ',
    h('span', {}, what),
    cards.length ? cardRow(cards) : null,
    step.reason ? h('p', { class: 'step-reason', 'data-reason': '' }, `${dw('reason')}：${step.reason}`) : null,
  );
}

/** The board's facts from the referee view: level, trump, declarer, points, kitty; 够级 scores. @param {Replay} r @param {any} v */
function facts(r, v) {
  if (r.game === 'gouji') {
    const finish = (v.finish ?? []).map((/** @type {string} */ s) => seatNames('gouji')[seatOf('gouji', s)]);
    if (!v.score && !finish.length && !(v.deducted?.[0] || v.deducted?.[1])) return null;
    return h('section', { class: 'panel facts' },
      v.score ? h('p', {}, `${t('scores')} `, h('b', {}, `A ${v.score.a} : ${v.score.b} B`)) : null,
      finish.length ? h('p', {}, `${t('finishing_order')}：${finish.join('、')}`) : null,
      v.deducted && (v.deducted[0] || v.deducted[1]) ? h('p', {}, dw('deducted', { a: v.deducted[0], b: v.deducted[1] })) : null,
    );
  }
  return h('section', { class: 'panel facts' },
    h('p', {},
      `${t('declarer')} `, h('b', {}, seatNames('shengji')[seatOf('shengji', v.declarer)]),
      ` · ${t('level', { r: v.level })} · ${t('trump')} `, h('b', {}, v.trump === 'NT' ? t('no_trump') : SUIT_SYMBOL[/** @type {'S'} */ (v.trump)] ?? v.trump),
    ),
    h('p', { 'data-defender-points': String(v.defenders) }, `${t('defenders_points')} `, h('b', {}, String(v.defenders))),
    v.kitty ? h('div', {}, `${dw('kitty_h')}：`, cardRow(v.kitty)) : null,
  );
}

/** The end: the result as the replay reports it, and whether the record held. @param {Replay} r @param {(s: number) => string} nameOf @param {string} [idp] */
function resultPanel(r, nameOf, idp = '') {
  const res = r.result ?? {};
  const lines = [];
  if (r.game === 'gouji') {
    if (res.score) lines.push(h('p', { id: `${idp}result`, style: 'font-size:26px;font-weight:800' }, `${t('team_a')} ${res.score.a} : ${res.score.b} ${t('team_b')}`));
    const outcome = res.outcome && typeof res.outcome === 'object' ? Object.keys(res.outcome)[0] : null;
    if (outcome) lines.push(h('p', {}, dw(`outcome_${outcome}`)));
    if (Array.isArray(res.finish) && res.finish.length) {
      lines.push(h('table', { class: 'desk-places' }, res.finish.map((/** @type {string} */ s) => {
        const i = seatOf('gouji', s);
        return h('tr', {}, h('th', {}, placeWord(res.places?.[s])), h('td', {}, `${nameOf(i)} (${seatNames('gouji')[i]})`));
      })));
    }
    if (res.deducted && (res.deducted[0] || res.deducted[1])) lines.push(h('p', {}, dw('deducted', { a: res.deducted[0], b: res.deducted[1] })));
  } else if (res.over) {
    lines.push(h('p', { id: `${idp}result`, style: 'font-size:26px;font-weight:800', 'data-result': String(res.result) }, dw('defenders_tricks', { n: res.defenders, k: res.defender_tricks })));
    if (res.by_ruling) lines.push(h('p', {}, dw('by_ruling')));
    lines.push(h('p', {}, res.final ? dw('result_final') : dw('result_not_final')));
  }
  return h(
    'section',
    { class: 'panel result', id: `${idp}replay-result` },
    h('h2', {}, dw('result_h')),
    lines,
    r.ok ? h('p', { class: 'hint' }, dw('chain_ok')) : null,
    r.fault ? h('p', { class: 'error-text', role: 'alert' }, pick(r.fault.words)) : null,
    (r.notes ?? []).map((x) => h('p', { class: 'hint' }, pick(x))),
  );
}
