// @ts-check
//! 牌桌 (a table page): the connection, the table's state as the server tells it, and the frame
//! both games share (top bar, invite, banner). What is on the felt is each game's business
//! (`shengji.js`, `gouji.js`).
//!
//! State flows one way: server messages → `state` → `render()`. The only local state is what the
//! player is choosing (the selected cards), kept by the game's UI between renders, and the
//! notices the player has not dismissed yet (`notices.js`).
//!
//! An action carries the seq the page had when the player decided. After a reconnection the
//! page never sends an unanswered action again blindly: it waits for the catch-up (the missed
//! events up to the `welcome`'s seq, or a snapshot). If the table did not move, the action goes
//! again with its id; if it moved (the clock or 托管 played for this seat, a ruling came), the
//! action is given up, the selection cleared, and one line says what happened meanwhile.

import { h, replace } from './dom.js';
import { t, pick } from './i18n.js';
import { onChange, ticket, setTicket } from './settings.js';
import { Connection } from './net.js';
import * as api from './api.js';
import { topbar, gameName, nameField, requireName, HUMAN_ORDER } from './lobby.js';
import { tickClocks } from './ui.js';
import { noticeBox, noticeKind } from './notices.js';
import { missing } from './cards.js';
import { turnChime } from './sound.js';
import { seatNames } from './seats.js';
import { shengjiUI } from './shengji.js';
import { goujiUI } from './gouji.js';
import { dw } from './desk.js';

/** @typedef {import('./protocol').ClientOut} ClientOut */
/** @typedef {import('./protocol').SeatInfo} SeatInfo */
/** @typedef {import('./protocol').Problem} Problem */
/** @typedef {import('./protocol').TableState} TableState */
/** @typedef {import('./notices.js').Entry} Entry */
/** @typedef {import('./notices.js').Notice} Notice */

/** How many received moves the page keeps, to say what happened before a late action. */
const RECENT_ENTRIES = 40;
/** How many notices are kept (the oldest go first). */
const MAX_NOTICES = 4;

/**
 * What the page knows of the table: only what the server said.
 * @typedef {object} TableModel
 * @property {string} id
 * @property {string} game
 * @property {string} ruleset
 * @property {number} board
 * @property {'seat' | 'spectator' | 'referee'} role
 * @property {number | null} seat  my seat, when role is 'seat'
 * @property {SeatInfo[]} seats
 * @property {TableState} tableState
 * @property {any} view  the engine's view for me (null until the first snapshot)
 * @property {number[]} toAct
 * @property {{ seats: number[], deadline: number, limit: number } | null} clock  deadline in performance.now() time
 * @property {Problem | null} refusal  the last refusal, until my next action
 * @property {Problem | null} error  a socket-level error (rate limit, …)
 * @property {Notice[]} notices  what the player should read and has not dismissed
 * @property {import('./net.js').Status} conn
 * @property {boolean} myTurn
 * @property {string | null} seed
 * @property {{ reason: string, remaining: number | null } | null} review  under review: the referee's words, and what is left of the stopped clock
 */

/**
 * What a game's UI gets: the model, the one way to change anything (send an action), and the
 * notices box to put in its dock.
 * @typedef {object} TableCtx
 * @property {TableModel} model
 * @property {(action: object) => void} act
 * @property {() => void} rerender
 * @property {() => HTMLElement} notices
 */

/**
 * What a game's UI provides.
 * @typedef {object} GameUI
 * @property {(ctx: TableCtx) => { felt: HTMLElement, dock: HTMLElement, info: HTMLElement[], overlay?: HTMLElement | null }} render
 * @property {(event: any, msg: import('./protocol').Events, ctx: TableCtx) => void} onEvent
 * @property {(events: any[], ctx: TableCtx) => void} [onAnswer]  the answer to a question of mine (问牌)
 * @property {() => void} [onSnapshot]  a snapshot replaced the state: forget event-derived notes
 * @property {() => void} [clearSelection]  an action of mine was given up: forget what was chosen
 * @property {(events: any[]) => string} describe  what one move did, in words (「出了黑桃3」), for notices
 */

/**
 * @param {HTMLElement} root
 * @param {{ id: string, watch: boolean, go: (hash: string) => void }} opts
 * @returns {() => void} closes the table (on leaving the page)
 */
export function openTable(root, { id, watch, go }) {
  const held = watch ? undefined : ticket(id);
  if (!held && !watch) {
    chooseSeat(root, id, go);
    return () => {};
  }

  /** @type {TableModel} */
  const model = {
    id,
    game: held?.game ?? '',
    ruleset: '',
    board: 0,
    role: held ? 'seat' : 'spectator',
    seat: held?.seat ?? null,
    seats: [],
    tableState: 'waiting',
    view: null,
    toAct: [],
    clock: null,
    refusal: null,
    error: null,
    conn: 'connecting',
    myTurn: false,
    seed: null,
    notices: [],
    review: null,
  };
  /** The game's UI, made when the server has said which game this is. @type {GameUI | null} */
  let ui = null;
  let uiGame = '';
  const gameUI = () => {
    if (model.game !== uiGame) {
      uiGame = model.game;
      ui = model.game === 'gouji' ? goujiUI() : model.game === 'shengji' ? shengjiUI() : null;
    }
    return ui;
  };

  /** The moves received lately, oldest first (for saying what happened before a late action). @type {Entry[]} */
  let recent = [];
  /**
   * While catching up after a reconnection: the seq the server is at (the `welcome`'s), my hand
   * before, and the moves that came in meanwhile. @type {{ target: number, hand: string[] | null, entries: Entry[] } | null}
   */
  let catchUp = null;
  let noticeIds = 0;

  /** @param {Omit<Notice, 'id'>} n */
  function addNotice(n) {
    model.notices = [...model.notices, { ...n, id: ++noticeIds }].slice(-MAX_NOTICES);
  }

  /** A seat in a notice: the player's name; a computer's seat by where it sits (「东（电脑）」). @param {number} s */
  const noticeName = (s) => {
    const seat = seatNames(model.game)[s] ?? String(s);
    return model.seats[s]?.bot ? `${seat}${t('paren', { x: t('bot') })}` : model.seats[s]?.name ?? seat;
  };

  /** @type {TableCtx} */
  const ctx = {
    model,
    act(action) {
      if (model.role !== 'seat') return;
      model.refusal = null;
      model.error = null;
      const id = conn.nextId();
      // The table as the player saw it when deciding: the server refuses the act (`stale`)
      // if the table has moved on since.
      conn.sendAction(id, { type: 'act', id, action, seq: conn.lastSeq ?? 0 });
      render();
    },
    rerender: () => render(),
    notices: () =>
      noticeBox(
        model.notices,
        { me: model.seat, nameOf: noticeName, describe: (evs) => gameUI()?.describe(evs) ?? '' },
        () => {
          model.notices = [];
          render();
        },
      ),
  };

  const conn = new Connection({
    url: api.socketUrl(id),
    hello: (lastSeq) => ({ type: 'hello', ...(held ? { token: held.token } : {}), ...(lastSeq !== null ? { last_seq: lastSeq } : {}) }),
    onMessage: (msg) => receive(/** @type {ClientOut} */ (msg)),
    onStatus: (status, detail) => {
      model.conn = status;
      if (status === 'closed' && detail && (detail.code === 4003 || detail.code === 4004)) {
        if (detail.code === 4003) setTicket(id, undefined);
        model.error = detail.code === 4004
          ? { code: 'no_table', zh: '找不到这张牌桌', en: 'this table was not found' }
          : { code: 'bad_token', zh: '您的座位已失效，请重新入座', en: 'your seat is no longer valid; please sit down again' };
      } else if (status === 'closed' && detail && (detail.code === 1002 || detail.code === 1007)) {
        model.error = { code: 'protocol_error', zh: '与服务器的通信出错，请刷新页面', en: 'the connection to the server failed; please reload the page' };
      }
      render();
    },
    // 1002 and 1007: the server could not read what the page sent; trying again would only
    // repeat it. 4503 (a table being rebuilt) and every other close come back with backoff.
    isFinal: (code) => code === 1000 || code === 1002 || code === 1007 || code === 4000 || code === 4003 || code === 4004,
  });

  /** My hand in the view, if the view has one. @returns {string[] | null} */
  const myHand = () => (Array.isArray(model.view?.hand) ? model.view.hand : null);

  /**
   * The catch-up after a reconnection is complete: send again what the table has not moved past,
   * give up the rest, and say in one line what happened while the line was down.
   * @param {boolean} bySnapshot  the catch-up was a snapshot (too far behind): no moves to tell, only the hand to compare
   */
  function caughtUp(bySnapshot) {
    if (!catchUp) return;
    const { target, hand, entries } = catchUp;
    catchUp = null;
    let notSent = false;
    let resend = false;
    for (const [id, frame] of [...conn.pending]) {
      if (frame.seq === target) {
        resend = true; // nothing moved since the player decided: the same id goes again
        continue;
      }
      // The table moved on: never play a decision made on an older table. If my own move is
      // among the missed ones, the server applied it and only the ack was lost.
      const applied = entries.some((e) => e.seq > frame.seq && e.seat === model.seat && e.by === 'player');
      conn.answered(id);
      if (!applied) notSent = true;
    }
    if (resend) conn.resend();
    if (notSent) gameUI()?.clearSelection?.();
    const mine = entries.filter((e) => e.seat === model.seat && (e.by === 'clock' || e.by === 'auto'));
    const lost = bySnapshot && hand && myHand() ? missing(hand, /** @type {string[]} */ (myHand())) : [];
    if (mine.length || notSent || lost.length) addNotice({ kind: 'away', entries: mine, lost, notSent });
  }

  /** A move received: remember it, and make a notice of it if the player must read it. @param {import('./protocol').Events} msg */
  function received(msg) {
    /** @type {Entry} */
    const entry = { seq: msg.seq, seat: msg.seat, by: msg.by, ...(msg.reason ? { reason: msg.reason } : {}), events: msg.events };
    recent = [...recent, entry].slice(-RECENT_ENTRIES);
    if (catchUp) {
      catchUp.entries.push(entry);
      // My seat's moves while I was away are told in the one "while you were away" line.
      if (entry.seat === model.seat && (entry.by === 'clock' || entry.by === 'auto') && !entry.reason) return;
    }
    const kind = noticeKind(entry, model.seat);
    if (kind) addNotice({ kind, entries: [entry] });
  }

  /** @param {ClientOut} msg */
  function receive(msg) {
    switch (msg.type) {
      case 'welcome':
        model.game = msg.game;
        model.ruleset = msg.ruleset;
        model.board = msg.board;
        model.role = msg.role;
        model.seat = msg.seat ?? null;
        model.seats = msg.seats;
        model.tableState = msg.state;
        model.seed = msg.seed ?? null;
        if (model.view !== null) {
          // A reconnection: what was missed comes next (events up to msg.seq, or a snapshot).
          catchUp = { target: msg.seq, hand: myHand(), entries: [] };
          if (conn.lastSeq === msg.seq) caughtUp(false);
        }
        break;
      case 'snapshot':
        conn.lastSeq = msg.seq;
        model.view = msg.view;
        setTurn(msg.to_act, msg.clock, msg.state);
        gameUI()?.onSnapshot?.();
        caughtUp(true);
        break;
      case 'events': {
        if (conn.lastSeq !== null && msg.seq <= conn.lastSeq) return; // already applied
        if (conn.lastSeq !== null && msg.seq > conn.lastSeq + 1) {
          // A message went missing: ask for the whole table instead of guessing.
          conn.send({ type: 'resync' });
          return;
        }
        conn.seen(msg.seq);
        received(msg);
        for (const ev of msg.events) gameUI()?.onEvent(ev, msg, ctx);
        if (msg.view !== undefined) model.view = msg.view;
        setTurn(msg.to_act, msg.clock, msg.state);
        if (catchUp && msg.seq >= catchUp.target) caughtUp(false);
        break;
      }
      case 'ack':
        conn.answered(msg.id);
        return;
      case 'answer':
        conn.answered(msg.id);
        gameUI()?.onAnswer?.(msg.events, ctx);
        break;
      case 'rejected': {
        const frame = conn.pending.get(msg.id);
        conn.answered(msg.id);
        const problem = { code: msg.code, zh: msg.zh, en: msg.en };
        if (msg.code === 'stale') {
          // Not a wrong play: the table moved on (the clock, 托管, a ruling) before it arrived.
          // Nothing was applied; say what happened instead, and let the player choose afresh.
          gameUI()?.clearSelection?.();
          const since = frame ? recent.filter((e) => e.seq > frame.seq) : [];
          const mine = since.filter((e) => e.seat === model.seat);
          const told = mine.length ? mine : since.slice(-3);
          // The clock's own notice for the same move is folded into this one.
          model.notices = model.notices.filter((n) => !n.entries.length || !n.entries.every((e) => told.includes(e)));
          addNotice({ kind: 'stale', problem, entries: told });
        } else {
          model.refusal = problem;
        }
        break;
      }
      case 'error':
        model.error = { code: msg.code, zh: msg.zh, en: msg.en };
        break;
      case 'seats':
        model.seats = msg.seats;
        break;
      case 'review':
        // 审查: the referee stopped the clocks (the one that ran stands still) or started them again.
        model.review = msg.on ? { reason: msg.reason ?? '', remaining: msg.clock?.remaining_ms ?? null } : null;
        if (msg.clock || !msg.on) setTurn(model.toAct, msg.clock, model.tableState);
        break;
      case 'pong':
        return;
    }
    render();
  }

  /** Under review the clock stands still: its deadline keeps the stopped time ahead of now. */
  function holdClock() {
    if (model.review && model.review.remaining !== null && model.clock) model.clock.deadline = performance.now() + model.review.remaining;
  }

  /**
   * @param {number[]} toAct
   * @param {import('./protocol').Clock | undefined} clock
   * @param {TableState} state
   */
  function setTurn(toAct, clock, state) {
    const wasMyTurn = model.myTurn;
    model.toAct = toAct;
    model.tableState = state;
    model.clock = clock ? { seats: clock.seats, deadline: performance.now() + clock.remaining_ms, limit: clock.limit_ms } : null;
    model.myTurn = model.role === 'seat' && model.seat !== null && toAct.includes(model.seat) && state !== 'over';
    if (model.myTurn && !wasMyTurn) turnChime();
  }

  // The clocks tick locally between messages.
  const ticker = setInterval(() => {
    holdClock();
    if (model.clock) tickClocks(model.clock.deadline - performance.now());
  }, 250);

  const unsubscribe = onChange((key) => key !== 'name' && render());

  function render() {
    holdClock();
    const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
    const g = gameUI();
    const parts = g && model.view ? g.render(ctx) : null;
    const banner = bannerText();
    root.replaceChildren(
      h('div', { id: 'banner', role: 'status', 'aria-live': 'polite', hidden: !banner }, banner),
      h(
        'div',
        { class: 'table-page', 'data-game': model.game, 'data-state': model.tableState, 'data-conn': model.conn },
        topbar(
          h('button', { id: 'lobby', 'on:click': () => go('#/') }, t('back_to_lobby')),
          h('span', {}, h('b', {}, gameName(model.game)), ` · ${t('code')} `, h('b', { 'data-table-code': '' }, id)),
          ...(parts ? parts.info : []),
          ...(model.tableState === 'over' ? [h('button', { id: 'replay', 'on:click': () => go(`#/t/${id}/replay`) }, dw('replay'))] : []),
        ),
        model.review ? h('p', { class: 'review-banner', id: 'review-banner', role: 'status' }, dw('under_review', { reason: model.review.reason })) : null,
        model.tableState === 'waiting' ? invitePanel(id, model) : null,
        model.error ? h('p', { class: 'error-text', role: 'alert', style: 'margin:8px' }, pick(model.error)) : null,
        model.role === 'spectator' ? h('p', { class: 'hint', style: 'text-align:center;margin:6px' }, t('spectating')) : null,
        parts ? parts.felt : h('p', { style: 'padding:20px;font-size:24px' }, t('connecting')),
        parts ? parts.dock : null,
      ),
      parts?.overlay ?? '',
    );
    if (model.clock) tickClocks(model.clock.deadline - performance.now());
    if (focusKey) /** @type {HTMLElement | null} */ (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus();
  }

  function bannerText() {
    if (model.conn === 'reconnecting') return conn.lastCloseCode === 4503 ? t('rebuilding') : t('reconnecting');
    if (model.conn === 'connecting' && model.view) return t('reconnecting');
    return '';
  }

  // For tests and the curious: the model and the connection, read-only by convention.
  /** @type {any} */ (window).paiju = { model, conn };

  render();
  return () => {
    clearInterval(ticker);
    unsubscribe();
    conn.close();
  };
}

/** While seats are empty: the link and the code to give friends. @param {string} id @param {TableModel} model */
function invitePanel(id, model) {
  const link = `${location.origin}${location.pathname}#/t/${id}`;
  const copied = h('span', { 'aria-live': 'polite' });
  const empty = model.seats.filter((s) => s.name === null && !s.bot).length;
  return h(
    'section',
    { class: 'notice invite', 'aria-labelledby': 'invite-h' },
    h('h3', { id: 'invite-h' }, t('invite'), empty ? ` · ${t('free_seats')} ${empty}` : ''),
    h('span', {}, t('invite_text'), ' ', h('b', { 'data-invite-link': '' }, link), ` · ${t('code')} `, h('b', {}, id)),
    h(
      'button',
      {
        'on:click': async () => {
          try {
            await navigator.clipboard.writeText(link);
            replace(copied, t('copied'));
          } catch {
            replace(copied, link);
          }
        },
      },
      t('copy_link'),
    ),
    copied,
  );
}

/**
 * Someone opened a table link without a seat: show the free seats, or watch.
 * @param {HTMLElement} root @param {string} id @param {(hash: string) => void} go
 */
async function chooseSeat(root, id, go) {
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const seatsBox = h('div', { class: 'choice' });
  root.replaceChildren(
    topbar(h('span', {}, `${t('code')} `, h('b', {}, id))),
    h(
      'main',
      { class: 'lobby' },
      h('section', { class: 'panel name-panel' },
        h('h1', {}, t('choose_seat')),
        nameField('name'),
        error,
        seatsBox,
        h('p', {}, h('button', { 'on:click': () => go(`#/t/${id}/watch`) }, t('watch'))),
      ),
    ),
  );
  try {
    const table = await api.getTable(id);
    const order = HUMAN_ORDER[/** @type {'shengji' | 'gouji'} */ (table.game)] ?? table.seats.map((s) => s.seat);
    const names = seatNames(table.game);
    const free = order.map((i) => table.seats[i]).filter((s) => s && s.name === null && !s.bot);
    replace(
      seatsBox,
      free.length === 0
        ? h('p', {}, t('free_seats') + ' 0')
        : free.map((s) =>
            h('button', {
              'data-seat': String(s.seat),
              'on:click': async () => {
                error.hidden = true;
                const name = requireName(error);
                if (!name) return;
                try {
                  const joined = await api.joinSeat(id, s.seat, name);
                  setTicket(id, { token: joined.token, seat: joined.seat, game: table.game });
                  go(`#/t/${id}`);
                } catch (e) {
                  replace(error, e instanceof api.ApiError ? pick(e.problem) : String(e));
                  error.hidden = false;
                }
              },
            }, `${t('sit')} · ${names[s.seat]}`),
          ),
    );
  } catch (e) {
    replace(error, e instanceof api.ApiError ? pick(e.problem) : String(e));
    error.hidden = false;
  }
}

/** Seat names as players say them. @param {string} game */

