// @ts-check
//! 牌桌 (a table page): the connection, the table's state as the server tells it, and the frame
//! both games share (top bar, invite, banner, 托管, the session's running score, 下一副). What is
//! on the felt is each game's business (`shengji.js`, `gouji.js`).
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
//!
//! `openTable` is a few named steps over one `Table` record: `newModel`, `tableCtx`,
//! `connect`, `receive` (`onWelcome`, `onEvents`, `onRejected`, `onSeats`), `caughtUp`,
//! `received`, `setTurn`, `render`.

import { h, replace } from './dom.js';
import { t, pick } from './i18n.js';
import { onChange, ticket, setTicket, sessionBoards, recordBoard, settings, deviceId } from './settings.js';
import { Connection } from './net.js';
import * as api from './api.js';
import { topbar, gameName, nameField, requireName, HUMAN_ORDER, formatCode } from './lobby.js';
import { tickClocks } from './ui.js';
import { noticeBox, noticeKind } from './notices.js';
import { missing } from './cards.js';
import { turnChime } from './sound.js';
import { seatNames } from './seats.js';
import { findNext, openNext } from './session.js';
import { eventNext, sitNext, pairPageLink } from './event-next.js';
import { practiceNext, sitPractice, practicePageLink, practiceFieldLink } from './practice-next.js';
import { shengjiUI } from './shengji.js';
import { goujiUI } from './gouji.js';
import { dw } from './desk.js';
import { fitTable } from './fit.js';

/** @typedef {import('./protocol').ClientOut} ClientOut */
/** @typedef {import('./protocol').SeatInfo} SeatInfo */
/** @typedef {import('./protocol').Problem} Problem */
/** @typedef {import('./protocol').TableState} TableState */
/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./notices.js').Entry} Entry */
/** @typedef {import('./notices.js').Notice} Notice */

/** How many received moves the page keeps, to say what happened before a late action. */
const RECENT_ENTRIES = 40;
/** How many notices are kept (the oldest go first). */
const MAX_NOTICES = 4;
/** While the result is shown, the lobby is asked this often whether the next board is open. */
const NEXT_POLL_MS = 3000;

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
 * @property {{ reason: string, remaining: number | null } | null} review  under review (审查): the referee's words, and what is left of the stopped clock
 * @property {string} commitment  the seed's commitment: the boards of one session share it
 * @property {string | null} botLevel  how strong the computer seats play (`welcome.bot_level`)
 * @property {TableSummary | null} next  the session's next board, once someone opened it
 * @property {string | null} nextError  why 下一副 could not be opened
 * @property {string | null} event  the event (赛事) this table is of: no session, the pair's next board instead
 * @property {import('./protocol').AtCompetition | null} competition  where this table is in its competition, and its terms (`welcome.competition`)
 * @property {4009 | 4010 | null} seatGone  the seat is another device's (4010: taken over there; 4009: held there): the page waits for the player's tap
 * @property {import('./event-next.js').EventNext | null} eventNext  where the pair goes next, once the board is over
 * @property {string | null} practice  the practice set (练习) this table is of (`welcome.competition.practice`): the run's next board instead of the pair's
 * @property {import('./practice-next.js').PracticeNext | null} practiceNext  where the run goes next, once the board is over
 */

/**
 * What a game's UI gets: the model, the one way to change anything (send an action), and the
 * pieces of the frame to put in its dock and result.
 * @typedef {object} TableCtx
 * @property {TableModel} model
 * @property {(action: object) => void} act
 * @property {() => void} rerender
 * @property {() => HTMLElement} notices
 * @property {() => HTMLElement | null} autoPanel  while the table plays for me (托管): says so, with 我来出牌
 * @property {() => HTMLElement | null} autoButton  托管 by choice
 * @property {() => HTMLElement | null} session  the running score of the boards played with this seed
 * @property {() => HTMLElement | null} nextButton  下一副 (or 下一局)
 * @property {() => HTMLElement} replayButton  the result's 全盘复盘 (replay.js); at a practice table 看各家成绩, the board's field on the practice page (the set's tables are not public while it runs)
 */

/**
 * What a game's UI provides.
 * @typedef {object} GameUI
 * @property {(ctx: TableCtx) => { felt: HTMLElement, dock: HTMLElement, info: HTMLElement[], overlay?: HTMLElement | null }} render
 * @property {(event: any, msg: import('./protocol').Events, ctx: TableCtx) => void} onEvent
 * @property {(events: any[], ctx: TableCtx) => void} [onAnswer]  the answer to a question of mine (问牌)
 * @property {() => void} [onSnapshot]  a snapshot replaced the state: forget event-derived notes
 * @property {() => void} [clearSelection]  an action of mine was given up or refused: forget what was chosen
 * @property {(events: any[]) => { text: string, move: boolean }} describe  what one move did, in words (「出了黑桃3」), for notices
 * @property {(ctx: TableCtx) => { side: string, result: number, mine: number } | null} [result]  the finished board, for the session's score
 */

/**
 * One open table page: everything its steps share.
 * @typedef {object} Table
 * @property {HTMLElement} root
 * @property {(hash: string) => void} go
 * @property {import('./settings.js').SeatTicket | undefined} held
 * @property {TableModel} model
 * @property {Connection} conn
 * @property {TableCtx} ctx
 * @property {GameUI | null} ui
 * @property {string} uiGame
 * @property {Entry[]} recent  the moves received lately, oldest first (for saying what happened before a late action)
 * @property {{ target: number, hand: string[] | null, entries: Entry[] } | null} catchUp  after a reconnection: the seq the server is at, my hand before, the moves meanwhile
 * @property {number} noticeIds
 * @property {Set<number>} away  seats told 掉线 and not back yet
 * @property {boolean} recorded  this board is in the session's score
 * @property {ReturnType<typeof setInterval> | null} nextPoll
 * @property {boolean} closed  the page has left this table
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
  /** @type {Table} */
  const tbl = /** @type {any} */ ({ root, go, held, model: newModel(id, held), ui: null, uiGame: '', recent: [], catchUp: null, noticeIds: 0, away: new Set(), recorded: false, nextPoll: null, closed: false });
  tbl.ctx = tableCtx(tbl);
  tbl.conn = connect(tbl);

  // The clocks tick locally between messages.
  const ticker = setInterval(() => {
    holdClock(tbl);
    if (tbl.model.clock) tickClocks(tbl.model.clock.deadline - performance.now());
  }, 250);
  const unsubscribe = onChange((key) => key !== 'name' && render(tbl));
  // A phone turned sideways, a window resized: the table is laid out again for the new size.
  const refit = () => fitTable(root.querySelector('.table-page'), settings());
  addEventListener('resize', refit);
  // For tests and the curious: the model and the connection, read-only by convention.
  /** @type {any} */ (window).paiju = { model: tbl.model, conn: tbl.conn };
  render(tbl);
  return () => {
    // Left: nothing of this table draws again (a poll or a socket answer still on its way would
    // draw it over the next page).
    tbl.closed = true;
    clearInterval(ticker);
    removeEventListener('resize', refit);
    if (tbl.nextPoll) clearInterval(tbl.nextPoll);
    unsubscribe();
    tbl.conn.close();
  };
}

/** @param {string} id @param {Table['held']} held @returns {TableModel} */
function newModel(id, held) {
  return {
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
    commitment: '',
    botLevel: null,
    notices: [],
    review: null,
    next: null,
    nextError: null,
    event: held?.event ?? null,
    competition: null,
    seatGone: null,
    eventNext: null,
    practice: null,
    practiceNext: null,
  };
}

/** The game's UI, made when the server has said which game this is. @param {Table} tbl */
function gameUI(tbl) {
  if (tbl.model.game !== tbl.uiGame) {
    tbl.uiGame = tbl.model.game;
    tbl.ui = tbl.model.game === 'gouji' ? goujiUI() : tbl.model.game === 'shengji' ? shengjiUI() : null;
  }
  return tbl.ui;
}

/** @param {Table} tbl @param {Omit<Notice, 'id'>} n */
function addNotice(tbl, n) {
  const m = tbl.model;
  // One line a seat for 托管 and for presence: the latest replaces the one before.
  const seatOf = (/** @type {Omit<Notice, 'id'>} */ x) => (x.kind === 'auto' ? x.entries[0]?.seat : x.kind === 'seat' ? x.seat : undefined);
  const seat = seatOf(n);
  const kept = seat === undefined ? m.notices : m.notices.filter((x) => !(x.kind === n.kind && seatOf(x) === seat));
  m.notices = [...kept, { ...n, id: ++tbl.noticeIds }].slice(-MAX_NOTICES);
}

/** @param {Table} tbl @returns {TableCtx} */
function tableCtx(tbl) {
  const model = tbl.model;
  const nameOf = (/** @type {number} */ s) => model.seats[s]?.name ?? seatNames(model.game)[s] ?? String(s);
  const mine = () => (model.seat !== null ? model.seats[model.seat] : undefined);
  const setAuto = (/** @type {boolean} */ on) => () => {
    tbl.conn.send({ type: 'auto', on });
  };
  return {
    model,
    act(action) {
      if (model.role !== 'seat') return;
      model.refusal = null;
      model.error = null;
      const id = tbl.conn.nextId();
      // The table as the player saw it when deciding: the server refuses the act (`stale`)
      // if the table has moved on since.
      tbl.conn.sendAction(id, { type: 'act', id, action, seq: tbl.conn.lastSeq ?? 0 });
      render(tbl);
    },
    rerender: () => render(tbl),
    notices: () =>
      noticeBox(
        model.notices,
        { me: model.seat, nameOf, describe: (evs) => gameUI(tbl)?.describe(evs) ?? { text: '', move: false } },
        () => {
          model.notices = [];
          render(tbl);
        },
      ),
    autoPanel: () =>
      mine()?.auto
        ? h('div', { class: 'auto-panel', id: 'auto-panel', role: 'status' }, h('span', {}, t('auto_on_note')), h('button', { class: 'primary', id: 'auto-off', 'on:click': setAuto(false) }, t('auto_off')))
        : null,
    // A competition that does not allow 托管 gets no button at all: the server would refuse it.
    autoButton: () =>
      model.role === 'seat' && !mine()?.auto && model.tableState === 'playing' && model.competition?.auto_play !== false
        ? h('button', { id: 'auto', 'aria-label': t('auto_me_label'), 'on:click': setAuto(true) }, t('auto_me'))
        : null,
    session: () => sessionTable(tbl),
    nextButton: () => nextButton(tbl),
    replayButton: () =>
      model.practice
        ? h('button', { id: 'result-field', 'on:click': () => location.assign(practiceFieldLink(/** @type {string} */ (model.practice), model.board)) }, t('practice_field'))
        : h('button', { id: 'result-replay', 'on:click': () => tbl.go(`#/t/${model.id}/replay`) }, dw('full_replay')),
  };
}

/** The WebSocket, and what its status means for the page. @param {Table} tbl */
function connect(tbl) {
  const { model, held } = tbl;
  return new Connection({
    url: api.socketUrl(model.id),
    hello: (lastSeq) => ({ type: 'hello', ...(held ? { token: held.token } : {}), device: deviceId(), ...(lastSeq !== null ? { last_seq: lastSeq } : {}) }),
    onMessage: (msg) => receive(tbl, /** @type {ClientOut} */ (msg)),
    onStatus: (status, detail) => {
      model.conn = status;
      if (status === 'closed' && detail && (detail.code === 4003 || detail.code === 4004)) {
        if (detail.code === 4003) setTicket(model.id, undefined);
        model.error = detail.code === 4004
          ? { code: 'no_table', zh: '找不到您要的这张牌桌', en: 'this table was not found' }
          : { code: 'bad_token', zh: '您的座位已失效，请重新入座', en: 'your seat is no longer valid; please sit down again' };
      } else if (status === 'closed' && detail && (detail.code === 4009 || detail.code === 4010)) {
        // One device a seat: the panel says what happened in plain words (the server's `error`
        // before the close would only repeat it, smaller).
        model.seatGone = detail.code;
        model.error = null;
      } else if (status === 'closed' && detail && (detail.code === 1002 || detail.code === 1007)) {
        model.error = { code: 'protocol_error', zh: '与服务器的通信出错，请您刷新页面', en: 'the connection to the server failed; please reload the page' };
      }
      render(tbl);
    },
    // 1002 and 1007: the server could not read what the page sent; trying again would only
    // repeat it. 4503 (a table being rebuilt) and every other close come back with backoff.
    // 4009 and 4010 (a competition's seat on another device): reconnecting by itself would take
    // the seat back and forth between two devices; the player decides (seatGonePanel).
    isFinal: (code) => code === 1000 || code === 1002 || code === 1007 || code === 4000 || code === 4003 || code === 4004 || code === 4009 || code === 4010,
  });
}

/** My hand in the view, if the view has one. @param {TableModel} model @returns {string[] | null} */
const myHand = (model) => (Array.isArray(model.view?.hand) ? model.view.hand : null);

/**
 * The catch-up after a reconnection is complete: send again what the table has not moved past,
 * give up the rest, and say in one line what happened while the line was down.
 * @param {Table} tbl
 * @param {boolean} bySnapshot  the catch-up was a snapshot (too far behind): no moves to tell, only the hand to compare
 */
function caughtUp(tbl, bySnapshot) {
  const { model, conn } = tbl;
  if (!tbl.catchUp) return;
  const { target, hand, entries } = tbl.catchUp;
  tbl.catchUp = null;
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
  if (notSent) gameUI(tbl)?.clearSelection?.();
  const mine = entries.filter((e) => e.seat === model.seat && (e.by === 'clock' || e.by === 'auto'));
  const lost = bySnapshot && hand && myHand(model) ? missing(hand, /** @type {string[]} */ (myHand(model))) : [];
  // One line, always, for a seated player: what happened to my seat, or that the others played
  // on, or just that the line is back.
  if (model.role === 'seat') addNotice(tbl, { kind: 'away', entries: mine, lost, notSent, others: entries.length });
}

/** A move received: remember it, and make a notice of it if the player must read it. @param {Table} tbl @param {import('./protocol').Events} msg */
function received(tbl, msg) {
  const { model } = tbl;
  /** @type {Entry} */
  const entry = { seq: msg.seq, seat: msg.seat, by: msg.by, ...(msg.reason ? { reason: msg.reason } : {}), events: msg.events };
  tbl.recent = [...tbl.recent, entry].slice(-RECENT_ENTRIES);
  if (tbl.catchUp) {
    tbl.catchUp.entries.push(entry);
    // My seat's moves while I was away are told in the one "while you were away" line.
    if (entry.seat === model.seat && (entry.by === 'clock' || entry.by === 'auto') && !entry.reason) return;
  }
  const kind = noticeKind(entry, model.seat);
  if (kind) addNotice(tbl, { kind, entries: [entry] });
}

/** @param {Table} tbl @param {ClientOut} msg */
function receive(tbl, msg) {
  const { model, conn } = tbl;
  switch (msg.type) {
    case 'welcome':
      onWelcome(tbl, msg);
      break;
    case 'snapshot':
      conn.lastSeq = msg.seq;
      model.view = msg.view;
      setTurn(tbl, msg.to_act, msg.clock, msg.state);
      gameUI(tbl)?.onSnapshot?.();
      caughtUp(tbl, true);
      break;
    case 'events':
      if (!onEvents(tbl, msg)) return;
      break;
    case 'ack':
      conn.answered(msg.id);
      return;
    case 'answer':
      conn.answered(msg.id);
      gameUI(tbl)?.onAnswer?.(msg.events, tbl.ctx);
      break;
    case 'rejected':
      onRejected(tbl, msg);
      break;
    case 'error':
      model.error = { code: msg.code, zh: msg.zh, en: msg.en };
      break;
    case 'seats':
      onSeats(tbl, msg.seats);
      break;
    case 'review':
      // 审查: the referee stopped the clocks (the one that ran stands still) or started them again.
      model.review = msg.on ? { reason: msg.reason ?? '', remaining: msg.clock?.remaining_ms ?? null } : null;
      if (msg.clock || !msg.on) setTurn(tbl, model.toAct, msg.clock, model.tableState);
      break;
    case 'pong':
      return;
  }
  render(tbl);
}

/** Under review the clock stands still: its deadline keeps the stopped time ahead of now. @param {Table} tbl */
function holdClock(tbl) {
  const { model } = tbl;
  if (model.review && model.review.remaining !== null && model.clock) model.clock.deadline = performance.now() + model.review.remaining;
}

/** @param {Table} tbl @param {Extract<ClientOut, { type: 'welcome' }>} msg */
function onWelcome(tbl, msg) {
  const { model, conn } = tbl;
  model.game = msg.game;
  model.ruleset = msg.ruleset;
  model.board = msg.board;
  model.role = msg.role;
  model.seat = msg.seat ?? null;
  model.seats = msg.seats;
  model.tableState = msg.state;
  model.seed = msg.seed ?? null;
  model.commitment = msg.seed_commitment;
  model.botLevel = msg.bot_level;
  // A competition's table says so (`competition`): any browser at it is an event table's,
  // however it sat down (the pair's page, or a link kept from before).
  model.competition = msg.competition ?? null;
  if (model.competition) model.event = model.competition.id;
  // A practice set's table: the way on is the player's run (practice-next.js), not a pair's.
  model.practice = model.competition?.practice ? model.competition.id : null;
  if (model.view !== null) {
    // A reconnection: what was missed comes next (events up to msg.seq, or a snapshot).
    tbl.catchUp = { target: msg.seq, hand: myHand(model), entries: [] };
    if (conn.lastSeq === msg.seq) caughtUp(tbl, false);
  }
}

/** @param {Table} tbl @param {import('./protocol').Events} msg @returns {boolean} whether to draw */
function onEvents(tbl, msg) {
  const { model, conn } = tbl;
  if (conn.lastSeq !== null && msg.seq <= conn.lastSeq) return false; // already applied
  if (conn.lastSeq !== null && msg.seq > conn.lastSeq + 1) {
    // A message went missing: ask for the whole table instead of guessing.
    conn.send({ type: 'resync' });
    return false;
  }
  conn.seen(msg.seq);
  received(tbl, msg);
  for (const ev of msg.events) gameUI(tbl)?.onEvent(ev, msg, tbl.ctx);
  if (msg.view !== undefined) model.view = msg.view;
  setTurn(tbl, msg.to_act, msg.clock, msg.state);
  if (tbl.catchUp && msg.seq >= tbl.catchUp.target) caughtUp(tbl, false);
  return true;
}

/** @param {Table} tbl @param {Extract<ClientOut, { type: 'rejected' }>} msg */
function onRejected(tbl, msg) {
  const { model, conn } = tbl;
  const frame = conn.pending.get(msg.id);
  conn.answered(msg.id);
  const problem = { code: msg.code, zh: msg.zh, en: msg.en };
  // The selection goes either way: the player chooses afresh, with the reason in front of them.
  gameUI(tbl)?.clearSelection?.();
  if (msg.code === 'stale') {
    // Not a wrong play: the table moved on (the clock, 托管, a ruling) before it arrived.
    // Nothing was applied; say what happened instead, and let the player choose afresh.
    const since = frame ? tbl.recent.filter((e) => e.seq > frame.seq) : [];
    const mine = since.filter((e) => e.seat === model.seat);
    const told = mine.length ? mine : since.slice(-3);
    // The clock's own notice for the same move is folded into this one.
    model.notices = model.notices.filter((n) => !n.entries.length || !n.entries.every((e) => told.includes(e)));
    addNotice(tbl, { kind: 'stale', problem, entries: told });
  } else {
    model.refusal = problem;
  }
}

/** Someone sat down, lost their line, came back, went on or off 托管: told in one line a seat. @param {Table} tbl @param {SeatInfo[]} seats */
function onSeats(tbl, seats) {
  const { model } = tbl;
  const before = model.seats;
  model.seats = seats;
  if (model.tableState !== 'playing') return;
  for (const s of seats) {
    const was = before[s.seat];
    if (!was || s.bot || s.seat === model.seat || !s.name || was.name !== s.name) continue;
    /** @type {Notice['change'] | null} */
    let change = null;
    if (was.connected && !s.connected) change = 'offline';
    // 「回来了」 only after 「掉线了」: a player's first arrival is no news.
    else if (!was.connected && s.connected && tbl.away.has(s.seat)) change = 'back';
    else if (!was.auto && s.auto) change = 'auto_on';
    else if (was.auto && !s.auto) change = 'auto_off';
    if (change === 'offline') tbl.away.add(s.seat);
    if (change === 'back') tbl.away.delete(s.seat);
    if (change) addNotice(tbl, { kind: 'seat', entries: [], seat: s.seat, change });
  }
}

/**
 * @param {Table} tbl
 * @param {number[]} toAct
 * @param {import('./protocol').Clock | undefined} clock
 * @param {TableState} state
 */
function setTurn(tbl, toAct, clock, state) {
  const { model } = tbl;
  const wasMyTurn = model.myTurn;
  model.toAct = toAct;
  model.tableState = state;
  model.clock = clock ? { seats: clock.seats, deadline: performance.now() + clock.remaining_ms, limit: clock.limit_ms } : null;
  model.myTurn = model.role === 'seat' && model.seat !== null && toAct.includes(model.seat) && state !== 'over';
  if (model.myTurn && !wasMyTurn) turnChime();
  if (state === 'over') boardOver(tbl);
}

/** The board is over: its result goes into the session's score, and the next board is looked for. @param {Table} tbl */
function boardOver(tbl) {
  const { model } = tbl;
  if (model.practice) {
    practiceOver(tbl, model.practice);
    return;
  }
  if (model.event) {
    eventOver(tbl);
    return;
  }
  if (!tbl.recorded && model.role === 'seat' && model.commitment) {
    const r = gameUI(tbl)?.result?.(tbl.ctx);
    if (r) {
      recordBoard(model.commitment, { board: model.board, table: model.id, ...r });
      tbl.recorded = true;
    }
  }
  if (!tbl.nextPoll && model.role === 'seat') {
    const look = async () => {
      try {
        const next = findNext(await api.listTables(), model);
        if ((next?.id ?? null) !== (model.next?.id ?? null)) {
          model.next = next;
          render(tbl);
        }
      } catch {
        // The lobby will answer next time.
      }
    };
    tbl.nextPoll = setInterval(look, NEXT_POLL_MS);
    look();
  }
}

/**
 * An event table's board is over: where the pair goes next is asked now and every few seconds
 * while the result is shown (its next board's table opens once this one is done).
 * @param {Table} tbl
 */
function eventOver(tbl) {
  const { model } = tbl;
  if (tbl.nextPoll || model.role !== 'seat' || !model.event) return;
  const event = model.event;
  const look = async () => {
    try {
      const next = await eventNext(event, model.id);
      if (JSON.stringify(next) !== JSON.stringify(model.eventNext)) {
        model.eventNext = next;
        render(tbl);
      }
    } catch {
      // The event will answer next time.
    }
  };
  tbl.nextPoll = setInterval(look, NEXT_POLL_MS);
  look();
}

/**
 * A practice table's board is over: where the run goes next is asked now and every few seconds
 * while the result is shown (the set takes the board's result in a moment after the table ends).
 * @param {Table} tbl @param {string} set
 */
function practiceOver(tbl, set) {
  const { model } = tbl;
  if (tbl.nextPoll || model.role !== 'seat') return;
  const look = async () => {
    try {
      const next = await practiceNext(set, model.board);
      if (JSON.stringify(next) !== JSON.stringify(model.practiceNext)) {
        model.practiceNext = next;
        render(tbl);
      }
      // Known for good: nothing more to ask.
      if (next.kind !== 'page' && tbl.nextPoll) {
        clearInterval(tbl.nextPoll);
      }
    } catch {
      // The set will answer next time.
    }
  };
  tbl.nextPoll = setInterval(look, NEXT_POLL_MS);
  look();
}

/** The running score of this seed's boards as this browser played them (none at an event table: the event keeps the score). @param {Table} tbl */
function sessionTable(tbl) {
  const { model } = tbl;
  if (model.event) return null;
  const boards = model.commitment ? sessionBoards(model.commitment) : [];
  if (!boards.length) return null;
  const sideName = (/** @type {string} */ side) => (side === 'declarer' ? t('side_declarer') : side === 'defenders' ? t('side_defenders') : side === 'A' ? t('team_a') : side === 'B' ? t('team_b') : side);
  const unit = (/** @type {number} */ n) => t(model.game === 'gouji' ? 'game_n' : 'board', { n });
  const total = boards.reduce((a, b) => a + b.mine, 0);
  return h(
    'section',
    { class: 'session', id: 'session', 'aria-labelledby': 'session-h' },
    h('h3', { id: 'session-h' }, t('session')),
    h('table', {},
      boards.map((b) => h('tr', { 'data-board': String(b.board) }, h('th', {}, unit(b.board)), h('td', {}, sideName(b.side)), h('td', { class: 'num' }, signedText(b.mine)))),
      h('tr', { class: 'total' }, h('th', {}, t('session_total')), h('td', {}), h('td', { class: 'num', id: 'session-total', 'data-total': String(total) }, signedText(total))),
    ),
  );
}

/** +85, −40. @param {number} n */
function signedText(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/** 下一副 (下一局): sits me at the same seat of the session's next board, opening it if no one has. @param {Table} tbl */
function nextButton(tbl) {
  const { model } = tbl;
  if (model.role !== 'seat') return null;
  if (model.practice) return practiceButton(tbl, model.practice);
  if (model.event) return eventButton(tbl, model.event);
  const label = model.game === 'gouji' ? t('next_game') : t('next_board');
  const opener = model.next?.seats.find((s) => !s.bot && s.name)?.name;
  return h(
    'span',
    { class: 'next-board' },
    h('button', {
      class: 'primary',
      id: 'next-board',
      'on:click': async () => {
        model.nextError = null;
        try {
          const name = requireNameOr(model);
          const id = await openNext(model, name);
          tbl.go(`#/t/${id}`);
        } catch (e) {
          model.nextError = e instanceof api.ApiError ? pick(e.problem) : String(e instanceof Error ? e.message : e);
          render(tbl);
        }
      },
    }, label),
    model.next && opener ? h('span', { class: 'hint', id: 'next-ready' }, t('next_ready', { who: opener })) : null,
    model.nextError ? h('span', { class: 'error-text', role: 'alert' }, t('next_failed', { why: model.nextError })) : null,
  );
}

/**
 * At an event table, the one big button: 「下一副已开好」 (够级 「下一局已开好」) sits me at the pair's
 * next board in one tap; otherwise 「回本对页面」 (回本队页面). Never the casual 下一副.
 * @param {Table} tbl @param {string} event
 */
function eventButton(tbl, event) {
  const { model } = tbl;
  const gouji = model.game === 'gouji';
  const next = model.eventNext;
  const page = h('a', { class: 'button-link primary', id: 'event-page', href: pairPageLink(event) }, t(gouji ? 'event_team_page' : 'event_pair_page'));
  if (next?.kind !== 'next') return h('span', { class: 'next-board' }, page, model.nextError ? h('span', { class: 'error-text', role: 'alert' }, model.nextError) : null);
  return h(
    'span',
    { class: 'next-board' },
    h('button', {
      class: 'primary',
      id: 'event-next',
      'data-board': String(next.board),
      'on:click': async () => {
        model.nextError = null;
        try {
          const id = await sitNext(event, model.game);
          if (id === model.id) {
            // The server still seats the pair here: its next board is not open yet.
            model.nextError = t('event_next_wait');
            render(tbl);
          } else tbl.go(`#/t/${id}`);
        } catch (e) {
          model.nextError = e instanceof api.ApiError ? pick(e.problem) : String(e instanceof Error ? e.message : e);
          render(tbl);
        }
      },
    }, t(gouji ? 'event_next_game' : 'event_next_board', { n: next.board })),
    model.nextError ? h('span', { class: 'error-text', role: 'alert' }, model.nextError) : null,
  );
}

/**
 * At a practice table: 「下一副 · 第 2 副」 (够级 「下一局 · 第 2 局」) seats me at the run's next
 * board in one tap; after the last board 「看成绩」 goes to the set's page. 「回练习页面」 is there
 * too, to stop for now (the set waits: the run goes on from the next board another time).
 * @param {Table} tbl @param {string} set
 */
function practiceButton(tbl, set) {
  const { model } = tbl;
  const gouji = model.game === 'gouji';
  const next = model.practiceNext;
  const error = model.nextError ? h('span', { class: 'error-text', role: 'alert' }, model.nextError) : null;
  if (next?.kind === 'done') {
    return h('span', { class: 'next-board' }, h('a', { class: 'button-link primary', id: 'practice-done', href: practicePageLink(set) }, t('practice_done')), error);
  }
  const page = h('button', { id: 'practice-page', 'on:click': () => location.assign(practicePageLink(set)) }, t('practice_page'));
  if (next?.kind !== 'next') return h('span', { class: 'next-board' }, page, error);
  return h(
    'span',
    { class: 'next-board' },
    h('button', {
      class: 'primary',
      id: 'practice-next',
      'data-board': String(next.board),
      'on:click': async () => {
        model.nextError = null;
        try {
          const id = await sitPractice(set, model.game);
          if (id === model.id) {
            // The run still seats me here: its next board is not open yet.
            model.nextError = t('event_next_wait');
            render(tbl);
          } else tbl.go(`#/t/${id}`);
        } catch (e) {
          model.nextError = e instanceof api.ApiError ? pick(e.problem) : String(e instanceof Error ? e.message : e);
          render(tbl);
        }
      },
    }, t(gouji ? 'practice_next_game' : 'practice_next_board', { n: next.board })),
    page,
    error,
  );
}

/** The name to sit down with at the next board: the remembered one, else the one at this table. @param {TableModel} model */
function requireNameOr(model) {
  const box = document.createElement('span');
  return requireName(box) ?? (model.seat !== null ? model.seats[model.seat]?.name ?? '' : '');
}

/**
 * The page's one heading: which game, and which table. At a competition's table the place in
 * the competition (「第1轮 第2桌」) instead of the code: a player finds their table by it, and the
 * code lets nobody in there. It stays in view when the top bar folds on a phone.
 * @param {TableModel} model
 */
function tableTitle(model) {
  const at = model.competition;
  if (at?.practice) {
    // A practice table: the set's board is what the player knows it by.
    return h('h1', { class: 'table-title', 'data-competition': at.id, 'data-practice': at.id },
      h('b', { class: 'game-name' }, gameName(model.game)), h('span', { class: 'game-name' }, ' · '),
      h('b', { id: 'at-competition', 'data-board': String(model.board) }, t(model.game === 'gouji' ? 'at_practice_game' : 'at_practice', { n: model.board })));
  }
  if (at) {
    return h('h1', { class: 'table-title', 'data-competition': at.id },
      h('b', { class: 'game-name' }, gameName(model.game)), h('span', { class: 'game-name' }, ' · '),
      h('b', { id: 'at-competition', 'data-round': String(at.round), 'data-table': String(at.table) }, t('at_competition', { round: at.round, table: at.table })));
  }
  return h('h1', { class: 'table-title' }, h('b', {}, gameName(model.game)), ` · ${t('code')} `, h('b', { 'data-table-code': model.id }, formatCode(model.id)));
}

/**
 * The seat is on another device now (4010), or another device holds it (4009): one large panel
 * in plain words, and one button that takes the seat (back) on this device. Nothing happens
 * until the player taps: reconnecting by itself would take the seat from the other device, and
 * that one would take it back.
 * @param {Table} tbl @param {4009 | 4010} code
 */
function seatGonePanel(tbl, code) {
  const moved = code === 4010;
  return h(
    'section',
    { class: 'seat-gone', id: 'seat-gone', 'data-close': String(code), role: 'alert', 'aria-labelledby': 'seat-gone-h' },
    h('h2', { id: 'seat-gone-h' }, t(moved ? 'seat_moved_h' : 'seat_in_use_h')),
    h('p', {}, t(moved ? 'seat_moved_text' : 'seat_in_use_text')),
    moved ? h('p', {}, t('seat_moved_back')) : null,
    h('button', {
      class: 'primary',
      id: 'seat-back',
      'on:click': () => {
        tbl.model.seatGone = null;
        tbl.conn.resume();
        render(tbl);
      },
    }, t(moved ? 'seat_take_back' : 'seat_retry')),
    h('p', { class: 'hint' }, t('seat_director_sees')),
  );
}

/**
 * The top bar's way out: the lobby; at a practice table, the set's page (its boards and
 * results), where a practice player comes from.
 * @param {Table} tbl
 */
function leaveButton(tbl) {
  const set = tbl.model.practice;
  if (set) return h('button', { id: 'to-practice', 'on:click': () => location.assign(practicePageLink(set)) }, t('back_to_practice'));
  return h('button', { id: 'lobby', 'on:click': () => tbl.go('#/') }, t('back_to_lobby'));
}

/** @param {Table} tbl */
function render(tbl) {
  if (tbl.closed) return;
  const { root, model, go } = tbl;
  if (model.seatGone) {
    // No table under the panel: nothing here plays any more until the player says so.
    root.replaceChildren(
      h('div', { class: 'seat-gone-page' },
        topbar(leaveButton(tbl), tableTitle(model)),
        h('main', { class: 'seat-gone-main' }, seatGonePanel(tbl, model.seatGone)),
      ),
    );
    return;
  }
  holdClock(tbl);
  const focusKey = /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.key;
  const g = gameUI(tbl);
  const parts = g && model.view ? g.render(tbl.ctx) : null;
  const banner = bannerText(tbl);
  root.replaceChildren(
    h('div', { id: 'banner', role: 'status', 'aria-live': 'polite', hidden: !banner }, banner),
    h(
      'div',
      { class: 'table-page', 'data-game': model.game, 'data-state': model.tableState, 'data-conn': model.conn },
      topbar(
        leaveButton(tbl),
        tableTitle(model),
        ...(parts ? parts.info : []),
        ...(model.tableState === 'over' && !model.practice ? [h('button', { id: 'replay', 'on:click': () => go(`#/t/${model.id}/replay`) }, dw('full_replay'))] : []),
      ),
      h(
        'main',
        { class: 'table-main' },
        model.review ? h('p', { class: 'review-banner', id: 'review-banner', role: 'status' }, dw('under_review', { reason: model.review.reason })) : null,
        model.tableState === 'waiting' ? invitePanel(model.id, model) : null,
        model.error ? h('p', { class: 'error-text', role: 'alert', style: 'margin:8px' }, pick(model.error)) : null,
        model.role === 'spectator' ? h('p', { class: 'hint', style: 'text-align:center;margin:6px' }, t('spectating')) : null,
        parts ? parts.felt : h('p', { style: 'padding:20px;font-size:24px' }, t('connecting')),
        parts ? parts.dock : null,
      ),
    ),
    parts?.overlay ?? '',
  );
  fitTable(/** @type {HTMLElement | null} */ (root.querySelector('.table-page')), settings());
  if (model.clock) tickClocks(model.clock.deadline - performance.now());
  if (focusKey) /** @type {HTMLElement | null} */ (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus();
}

/** @param {Table} tbl */
function bannerText({ model, conn }) {
  if (model.conn === 'reconnecting') return conn.lastCloseCode === 4503 ? t('rebuilding') : t('reconnecting');
  if (model.conn === 'connecting' && model.view) return t('reconnecting');
  return '';
}

/** While seats are empty: the link, the code (to read aloud) and a QR code to give friends. @param {string} id @param {TableModel} model */
function invitePanel(id, model) {
  const link = `${location.origin}${location.pathname}#/t/${id}`;
  const copied = h('span', { 'aria-live': 'polite' });
  const empty = model.seats.filter((s) => s.name === null && !s.bot).length;
  return h(
    'section',
    { class: 'notice invite', 'aria-labelledby': 'invite-h' },
    h('img', { class: 'qr', src: `/api/tables/${encodeURIComponent(id)}/qr.svg`, alt: t('qr_alt'), width: 132, height: 132, 'data-qr': '' }),
    h('div', { class: 'invite-text' },
      h('h2', { id: 'invite-h' }, t('invite'), empty ? ` · ${t('free_seats')} ${empty}` : ''),
      h('span', {}, t('invite_text'), ' ', h('b', { 'data-invite-link': '' }, link)),
      h('span', { class: 'code-big' }, `${t('code')} `, h('b', {}, formatCode(id))),
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
    ),
  );
}

/**
 * Someone opened a table link without a seat: say which game and whose table it is, show the
 * free seats, or watch.
 * @param {HTMLElement} root @param {string} id @param {(hash: string) => void} go
 */
async function chooseSeat(root, id, go) {
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const seatsBox = h('div', { class: 'choice' });
  const title = h('h1', { id: 'seat-title' }, t('choose_seat'));
  const intro = h('p', { id: 'seat-intro', class: 'intro' });
  root.replaceChildren(
    topbar(h('span', {}, `${t('code')} `, h('b', {}, formatCode(id)))),
    h(
      'main',
      { class: 'lobby' },
      h('section', { class: 'panel name-panel' },
        title,
        intro,
        nameField('name'),
        error,
        h('h2', {}, t('choose_seat')),
        seatsBox,
        h('p', {}, h('button', { 'on:click': () => go(`#/t/${id}/watch`) }, t('watch'))),
      ),
    ),
  );
  try {
    // Looked for in the lobby's list, not asked for by its code: a wrong code is not an error
    // of the page's (no 404), it is a table that is not there.
    const table = (await api.listTables()).find((x) => x.id === id);
    if (!table) {
      replace(title, t('no_such_table', { code: formatCode(id) }));
      intro.replaceChildren(h('button', { class: 'primary', id: 'to-lobby', 'on:click': () => go('#/') }, t('back_to_lobby')));
      for (const el of root.querySelectorAll('.name-panel > .field, .name-panel > h2, .name-panel > .choice, .name-panel > p:not(#seat-intro)')) el.remove();
      return;
    }
    const order = HUMAN_ORDER[/** @type {'shengji' | 'gouji'} */ (table.game)] ?? table.seats.map((s) => s.seat);
    const host = order.map((i) => table.seats[i]).find((s) => s && !s.bot && s.name)?.name;
    const game = gameName(table.game);
    replace(title, host ? t('whose_table', { who: host, game }) : t('a_table', { game }));
    replace(intro, table.game === 'gouji' ? t('game_intro_gouji') : t('game_intro_shengji'));
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
                  const joined = await api.joinSeat(table.id, s.seat, name);
                  setTicket(joined.table, { token: joined.token, seat: joined.seat, game: table.game });
                  go(`#/t/${joined.table}`);
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
