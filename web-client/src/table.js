// @ts-check
//! 牌桌 (a table page): the connection, the table's state as the server tells it, and the frame
//! both games share (top bar, invite, banner). What is on the felt is each game's business
//! (`shengji.js`, `gouji.js`).
//!
//! State flows one way: server messages → `state` → `render()`. The only local state is what the
//! player is choosing (the selected cards), kept by the game's UI between renders.

import { h, replace } from './dom.js';
import { t, pick } from './i18n.js';
import { settings, onChange, ticket, setTicket } from './settings.js';
import { Connection } from './net.js';
import * as api from './api.js';
import { topbar, gameName, nameField, requireName, HUMAN_ORDER } from './lobby.js';
import { tickClocks } from './ui.js';
import { turnChime } from './sound.js';
import { shengjiUI } from './shengji.js';
import { goujiUI } from './gouji.js';

/** @typedef {import('./protocol').ClientOut} ClientOut */
/** @typedef {import('./protocol').SeatInfo} SeatInfo */
/** @typedef {import('./protocol').Problem} Problem */
/** @typedef {import('./protocol').TableState} TableState */

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
 * @property {import('./net.js').Status} conn
 * @property {boolean} myTurn
 * @property {string | null} seed
 */

/**
 * What a game's UI gets: the model, and the one way to change anything (send an action).
 * @typedef {object} TableCtx
 * @property {TableModel} model
 * @property {(action: object) => void} act
 * @property {() => void} rerender
 */

/**
 * What a game's UI provides.
 * @typedef {object} GameUI
 * @property {(ctx: TableCtx) => { felt: HTMLElement, dock: HTMLElement, info: HTMLElement[], overlay?: HTMLElement | null }} render
 * @property {(event: any, msg: import('./protocol').Events, ctx: TableCtx) => void} onEvent
 * @property {() => void} [onSnapshot]  a snapshot replaced the state: forget event-derived notes
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

  /** @type {TableCtx} */
  const ctx = {
    model,
    act(action) {
      if (model.role !== 'seat') return;
      model.refusal = null;
      model.error = null;
      const id = conn.nextId();
      conn.sendAction(id, { type: 'act', id, action });
      render();
    },
    rerender: () => render(),
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
      }
      render();
    },
    isFinal: (code) => code === 1000 || code === 4000 || code === 4003 || code === 4004,
  });

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
        break;
      case 'snapshot':
        conn.lastSeq = msg.seq;
        model.view = msg.view;
        setTurn(msg.to_act, msg.clock, msg.state);
        gameUI()?.onSnapshot?.();
        break;
      case 'events': {
        if (conn.lastSeq !== null && msg.seq <= conn.lastSeq) return; // already applied
        if (conn.lastSeq !== null && msg.seq > conn.lastSeq + 1) {
          // A message went missing: ask for the whole table instead of guessing.
          conn.send({ type: 'resync' });
          return;
        }
        conn.seen(msg.seq);
        for (const ev of msg.events) gameUI()?.onEvent(ev, msg, ctx);
        if (msg.view !== undefined) model.view = msg.view;
        setTurn(msg.to_act, msg.clock, msg.state);
        break;
      }
      case 'ack':
        conn.answered(msg.id);
        return;
      case 'rejected':
        conn.answered(msg.id);
        model.refusal = { code: msg.code, zh: msg.zh, en: msg.en };
        break;
      case 'error':
        model.error = { code: msg.code, zh: msg.zh, en: msg.en };
        break;
      case 'seats':
        model.seats = msg.seats;
        break;
      case 'pong':
        return;
    }
    render();
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
    if (model.clock) tickClocks(model.clock.deadline - performance.now());
  }, 250);

  const unsubscribe = onChange((key) => key !== 'name' && render());

  function render() {
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
        ),
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
    if (model.conn === 'reconnecting') return t('reconnecting');
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
export function seatNames(game) {
  if (game === 'gouji') return ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'];
  return settings().lang === 'en' ? ['North', 'East', 'South', 'West'] : ['北', '东', '南', '西'];
}

/** Is this name already saying "a computer plays here"? (Then no 电脑 tag is needed.) @param {string | null} name */
export function isBotName(name) {
  return !name || /机器人|电脑|bot/i.test(name);
}
