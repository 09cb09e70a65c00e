// @ts-check
//! 裁判 (the referee's pages). `#/referee`: the desk — the referee's token, pasted once and kept
//! for this tab only (sessionStorage), and this server's tables, each to officiate or to replay.
//! `#/referee/t/CODE`: one table as the referee sees it over the WebSocket (role `referee`: the
//! engine's referee view, every hand), with whose turn it is and their clock, the moves as they
//! come, and the referee's tools:
//!
//! - a ruling (80分 `penalty` with its points, `end_board`, `finalize`; 够级 `ruling`: warning,
//!   a deduction of the ruleset's points, forfeit, with the offence), against a seat, with the
//!   reason every player is shown; confirmed once before it is sent, as an `act` with `seat` and
//!   `reason`. The engine accepts or refuses it, in its own words;
//! - 审查 (under review): the table's clocks stop and every player sees why, until the referee
//!   ends it (`review`);
//! - 复盘, the replay viewer, at any time.

import { h, replace } from './dom.js';
import { t, pick } from './i18n.js';
import { onChange, deviceId } from './settings.js';
import { Connection } from './net.js';
import * as api from './api.js';
import { topbar, gameName } from './lobby.js';
import { tickClocks, clockEl, refusalBox } from './ui.js';
import { seatNames } from './seats.js';
import { describeShengji } from './shengji.js';
import { describeGouji } from './gouji.js';
import { dw, refereeToken, setRefereeToken, fullBoard, goujiSaid, actorWord, seatWho, problemOf } from './desk.js';

/** @typedef {import('./protocol').ClientOut} ClientOut */
/** @typedef {import('./protocol').SeatInfo} SeatInfo */
/** @typedef {import('./protocol').Problem} Problem */
/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./notices.js').Entry} Entry */

/** The offences a 够级 ruling names (the engine's `GoujiOffence`), in the order the form lists them. @type {import('./protocol').GoujiOffence[]} */
const OFFENCES = ['signals', 'peeking_folded', 'leaving_seat', 'wrong_card_count', 'wrong_count_answer', 'cheating', 'refusing_referee', 'other'];

/** How many received moves the referee's page lists. */
const RECENT = 8;

/** A labelled field. @param {string} id @param {string} label @param {HTMLElement} control */
function field(id, label, control) {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), control);
}

// ---- The desk: token and tables ----------------------------------------------------------------

/**
 * @param {HTMLElement} root @param {(hash: string) => void} go
 * @returns {() => void}
 */
export function renderDesk(root, go) {
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const list = h('ul', { class: 'table-list', id: 'desk-tables', 'aria-live': 'polite' });
  let closed = false;

  const refresh = async () => {
    try {
      const tables = await api.listTables();
      if (closed) return;
      error.hidden = true;
      replace(list, tables.length ? tables.map((x) => tableRow(x, go)) : h('li', {}, dw('no_tables')));
    } catch (e) {
      replace(error, pick(problemOf(e)));
      error.hidden = false;
    }
  };

  function draw() {
    const token = refereeToken();
    const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false' });
    const code = h('input', { type: 'text', autocomplete: 'off', maxlength: 32, spellcheck: 'false' });
    const codeValue = () => /** @type {HTMLInputElement} */ (code).value.trim();
    root.replaceChildren(
      topbar(h('button', { id: 'lobby', 'on:click': () => go('#/') }, t('back_to_lobby')), h('span', {}, h('b', {}, dw('desk')))),
      h(
        'main',
        { class: 'lobby desk-page' },
        h('section', { class: 'panel name-panel', 'aria-labelledby': 'token-h' },
          h('h1', { id: 'token-h' }, dw('token_h')),
          h('p', { class: 'hint' }, dw('token_hint')),
          token
            ? h('p', { class: 'row' }, h('span', { id: 'token-set' }, dw('token_set')),
                h('button', { id: 'forget-token', 'on:click': () => { setRefereeToken(''); draw(); } }, dw('forget_token')))
            : h('form', { class: 'row', 'on:submit': (/** @type {Event} */ e) => { e.preventDefault(); setRefereeToken(/** @type {HTMLInputElement} */ (input).value.trim()); draw(); } },
                field('referee-token', dw('token_h'), input),
                h('button', { id: 'use-token', class: 'primary', type: 'submit' }, dw('use_token'))),
          error,
        ),
        h('section', { class: 'panel', 'aria-labelledby': 'desk-tables-h' },
          h('h2', { id: 'desk-tables-h' }, dw('tables_h')),
          h('p', {}, h('button', { id: 'refresh', 'on:click': refresh }, t('refresh'))),
          list,
        ),
        h('section', { class: 'panel', 'aria-labelledby': 'by-code-h' },
          h('h2', { id: 'by-code-h' }, dw('open_by_code')),
          field('desk-code', t('code'), code),
          h('div', { class: 'row' },
            h('button', { id: 'officiate-code', 'on:click': () => codeValue() && go(`#/referee/t/${encodeURIComponent(codeValue())}`) }, dw('officiate')),
            h('button', { id: 'replay-code', 'on:click': () => codeValue() && go(`#/t/${encodeURIComponent(codeValue())}/replay`) }, dw('replay')),
          ),
        ),
      ),
    );
    refresh();
  }

  draw();
  const off = onChange((key) => key !== 'name' && draw());
  return () => {
    closed = true;
    off();
  };
}

/** One table of the desk's list. @param {TableSummary} x @param {(hash: string) => void} go */
function tableRow(x, go) {
  const names = x.seats.map((s) => s.name ?? t('empty_seat')).join('、');
  return h(
    'li',
    { 'data-table': x.id },
    h('span', { class: 'desc' },
      h('b', {}, gameName(x.game)),
      ` · ${t('code')} ${x.id} · ${dw(`state_${x.state}`)} · ${dw('steps_n', { n: x.seq })}`,
      h('br', {}),
      h('span', { class: 'hint' }, names),
    ),
    h('span', { class: 'row' },
      x.state === 'closed' ? null : h('button', { 'data-officiate': x.id, 'on:click': () => go(`#/referee/t/${x.id}`) }, dw('officiate')),
      h('button', { 'data-replay': x.id, 'on:click': () => go(`#/t/${x.id}/replay`) }, dw('replay')),
    ),
  );
}

// ---- One table, officiated -------------------------------------------------------------------------

/**
 * @param {HTMLElement} root
 * @param {{ id: string, go: (hash: string) => void }} opts
 * @returns {() => void}
 */
export function openRefereeTable(root, { id, go }) {
  const token = refereeToken();
  if (!token) {
    root.replaceChildren(
      topbar(h('button', { id: 'desk', 'on:click': () => go('#/referee') }, dw('back_to_desk'))),
      h('main', { class: 'lobby' }, h('p', { class: 'error-text', role: 'alert' }, dw('token_missing'))),
    );
    return () => {};
  }

  /** What the server said. */
  const model = {
    game: '',
    board: 0,
    /** @type {SeatInfo[]} */
    seats: [],
    /** @type {import('./protocol').TableState} */
    state: 'waiting',
    /** @type {any} */
    view: null,
    /** @type {number[]} */
    toAct: [],
    /** @type {{ seats: number[], deadline: number } | null} */
    clock: null,
    /** @type {{ reason: string, remaining: number | null } | null} */
    review: null,
    /** The moves received, newest last. @type {Entry[]} */
    recent: [],
    /** The events of the moves since the last snapshot (够级: what each seat did this trick). @type {any[][]} */
    trickEvents: [],
    /** @type {Problem | null} */
    error: null,
    /** @type {import('./net.js').Status} */
    conn: 'connecting',
  };

  // The ruling being made: kept across redraws.
  const form = {
    seat: 0,
    kind: '',
    points: 10,
    deduction: 0,
    /** @type {import('./protocol').GoujiOffence} */
    offence: 'signals',
    reason: '',
    reviewReason: '',
    confirming: false,
    /** @type {Problem | null} */
    refusal: null,
    okText: '',
  };

  // The page's parts: the skeleton is drawn once per game and language; the boxes are redrawn
  // as messages come, and the form only when its own state changes (what is typed survives).
  const boardBox = h('div', { class: 'ref-board' });
  const statusBox = h('section', { class: 'panel ref-status', 'aria-live': 'polite', 'aria-label': dw('desk') });
  const reviewPanel = h('section', { class: 'panel ref-review', 'aria-labelledby': 'review-h' });
  const rulingPanel = h('section', { class: 'panel ref-ruling', 'aria-labelledby': 'ruling-h' });
  const recentBox = h('section', { class: 'panel ref-recent', 'aria-labelledby': 'recent-h' });
  const banner = h('div', { id: 'review-banner', class: 'review-banner', role: 'status', hidden: true });

  let ready = false;
  const conn = new Connection({
    url: api.socketUrl(id),
    hello: (lastSeq) => ({ type: 'hello', token, device: deviceId(), ...(lastSeq !== null ? { last_seq: lastSeq } : {}) }),
    onMessage: (msg) => receive(/** @type {ClientOut} */ (msg)),
    onStatus: (status, detail) => {
      model.conn = status;
      if (status === 'closed' && detail?.code === 4003) model.error = { code: 'bad_token', zh: dw('role_not_referee'), en: dw('role_not_referee') };
      if (status === 'closed' && detail?.code === 4004) model.error = { code: 'no_table', zh: '找不到您要的这张牌桌', en: 'this table was not found' };
      // The first status comes while the connection is being made: drawn once it exists.
      if (ready) update();
    },
    isFinal: (code) => code === 1000 || code === 1002 || code === 1007 || code === 4000 || code === 4003 || code === 4004,
  });

  /** @param {ClientOut} msg */
  function receive(msg) {
    switch (msg.type) {
      case 'welcome': {
        const fresh = model.game !== msg.game;
        model.game = msg.game;
        model.board = msg.board;
        model.seats = msg.seats;
        model.state = msg.state;
        if (msg.role !== 'referee') model.error = { code: 'bad_token', zh: dw('role_not_referee'), en: dw('role_not_referee') };
        if (fresh) skeleton();
        // A ruling unanswered when the line dropped goes again with its id: the server answers
        // an applied one from its cache, and refuses one the table has moved past (`stale`).
        if (conn.pending.size) conn.resend();
        break;
      }
      case 'snapshot': {
        const first = model.view === null;
        conn.lastSeq = msg.seq;
        model.view = msg.view;
        model.trickEvents = [];
        setTurn(msg.to_act, msg.clock, msg.state);
        // The form offers what the view's ruleset allows (够级 deductions).
        if (first) formBox();
        break;
      }
      case 'events': {
        if (conn.lastSeq !== null && msg.seq <= conn.lastSeq) return;
        if (conn.lastSeq !== null && msg.seq > conn.lastSeq + 1) {
          conn.send({ type: 'resync' });
          return;
        }
        conn.seen(msg.seq);
        model.recent = [...model.recent, { seq: msg.seq, seat: msg.seat, by: msg.by, ...(msg.reason ? { reason: msg.reason } : {}), events: msg.events }].slice(-RECENT);
        model.trickEvents = [...model.trickEvents, msg.events].slice(-400);
        if (msg.view !== undefined) model.view = msg.view;
        setTurn(msg.to_act, msg.clock, msg.state);
        break;
      }
      case 'ack':
        conn.answered(msg.id);
        form.okText = dw('ruled', { seq: msg.seq });
        form.reason = '';
        form.confirming = false;
        skeleton();
        return;
      case 'rejected':
        conn.answered(msg.id);
        form.refusal = { code: msg.code, zh: msg.zh, en: msg.en };
        form.confirming = false;
        formBox();
        return;
      case 'answer':
        conn.answered(msg.id);
        return;
      case 'error':
        model.error = { code: msg.code, zh: msg.zh, en: msg.en };
        break;
      case 'seats':
        model.seats = msg.seats;
        break;
      case 'review': {
        const was = !!model.review;
        model.review = msg.on ? { reason: msg.reason ?? '', remaining: msg.clock?.remaining_ms ?? null } : null;
        if (!msg.on) model.clock = msg.clock ? { seats: msg.clock.seats, deadline: performance.now() + msg.clock.remaining_ms } : null;
        if (msg.on) model.error = null;
        if (was !== !!model.review) {
          form.reviewReason = '';
          reviewBox();
        }
        break;
      }
      case 'pong':
        return;
    }
    update();
  }

  /** @param {number[]} toAct @param {import('./protocol').Clock | undefined} clock @param {import('./protocol').TableState} state */
  function setTurn(toAct, clock, state) {
    model.toAct = toAct;
    model.state = state;
    model.clock = clock ? { seats: clock.seats, deadline: performance.now() + clock.remaining_ms } : null;
  }

  const nameOf = (/** @type {number} */ s) => model.seats[s]?.name ?? seatNames(model.game)[s] ?? String(s);
  const describe = (/** @type {any[]} */ evs) => (model.game === 'gouji' ? describeGouji(evs) : describeShengji(evs)).text;

  function skeleton() {
    const info = [h('span', {}, h('b', {}, dw('desk')), ` · ${t('code')} `, h('b', { 'data-table-code': '' }, id))];
    if (model.game) info.push(h('span', {}, gameName(model.game)), h('span', {}, t(model.game === 'gouji' ? 'game_n' : 'board', { n: model.board })));
    root.replaceChildren(
      h(
        'div',
        { class: 'referee-page', 'data-game': model.game },
        topbar(
          h('button', { id: 'desk', 'on:click': () => go('#/referee') }, dw('back_to_desk')),
          ...info,
          h('button', { id: 'open-replay', 'on:click': () => go(`#/t/${id}/replay`) }, dw('open_replay')),
        ),
        banner,
        h('main', { class: 'ref-main' }, boardBox, h('div', { class: 'ref-side' }, statusBox, reviewPanel, rulingPanel, recentBox)),
      ),
    );
    reviewBox();
    formBox();
    update();
  }

  /** Redraws what follows the table: the board, the status, the banner, the recent moves. */
  function update() {
    if (model.view && model.game) {
      const last = model.recent[model.recent.length - 1];
      replace(boardBox, fullBoard(model.game, model.view, {
        nameOf,
        bot: (s) => !!model.seats[s]?.bot,
        toAct: model.state === 'playing' ? model.toAct : [],
        events: last?.events ?? [],
        said: model.game === 'gouji' ? goujiSaid(model.trickEvents) : undefined,
      }));
    } else {
      replace(boardBox, h('p', { style: 'padding:20px;font-size:24px' }, t('connecting')));
    }
    banner.hidden = !model.review;
    replace(banner, model.review ? dw('under_review', { reason: model.review.reason }) : '');
    const who = model.toAct.map((s) => seatWho(model.game, s, nameOf)).join('、');
    const clockMs = model.clock ? model.clock.deadline - performance.now() : null;
    replace(
      statusBox,
      model.error ? h('p', { class: 'error-text', role: 'alert', id: 'ref-error' }, pick(model.error)) : null,
      model.conn === 'reconnecting' ? h('p', { class: 'hint' }, t('reconnecting')) : null,
      h('p', { id: 'ref-state', 'data-state': model.state }, `${dw(`state_${model.state}`)} · ${dw('steps_n', { n: conn.lastSeq ?? 0 })}`),
      who && model.state === 'playing'
        ? h('p', { class: 'ref-turn' }, `${dw('to_act')}：`, h('b', {}, who), ' ',
            model.review
              ? h('span', { class: 'clock', id: 'ref-clock-stopped' }, model.review.remaining === null ? '' : t('seconds', { n: Math.ceil(model.review.remaining / 1000) }), dw('clock_stopped'))
              : clockMs !== null ? clockEl(clockMs) : null)
        : null,
    );
    replace(
      recentBox,
      h('h2', { id: 'recent-h' }, dw('recent_h')),
      h('ol', { class: 'ref-recent-list', reversed: true }, [...model.recent].reverse().map((e) =>
        h('li', { 'data-seq': String(e.seq), 'data-by': e.by },
          h('span', { class: 'hint' }, `#${e.seq} `),
          h('b', {}, seatWho(model.game, e.seat, nameOf)),
          ` · ${actorWord(e.by)} · ${describe(e.events) || '—'}`,
          e.reason ? h('span', { class: 'step-reason' }, ` · ${dw('reason')}：${e.reason}`) : null,
        ))),
    );
    // The seat choices show the players' names as they come.
    for (const el of rulingPanel.querySelectorAll('[data-seat-name]')) {
      const s = Number(/** @type {HTMLElement} */ (el).dataset.seatName);
      el.textContent = seatWho(model.game, s, nameOf);
    }
  }

  /** 审查: on with a reason, or off. */
  function reviewBox() {
    const input = h('input', { type: 'text', maxlength: 200, value: form.reviewReason, 'on:input': (/** @type {Event} */ e) => { form.reviewReason = /** @type {HTMLInputElement} */ (e.target).value; } });
    replace(
      reviewPanel,
      h('h2', { id: 'review-h' }, dw('review_h')),
      model.review
        ? [h('p', { class: 'review-now' }, dw('under_review', { reason: model.review.reason })),
           h('button', { id: 'review-off', class: 'primary', 'on:click': () => conn.send({ type: 'review', on: false }) }, dw('review_off'))]
        : [field('review-reason', dw('review_reason'), input),
           h('button', { id: 'review-on', 'on:click': () => conn.send({ type: 'review', on: true, reason: form.reviewReason.trim() }) }, dw('review_on'))],
    );
  }

  /** The action a ruling sends, and what it says in words. @returns {{ action: object, what: string } | null} */
  function ruling() {
    if (model.game === 'gouji') {
      const offence = t(`offence_${form.offence}`);
      if (form.kind === 'warning') return { action: { type: 'ruling', ruling: 'warning', offence: form.offence }, what: `${dw('warning')}（${offence}）` };
      if (form.kind === 'deduction') return { action: { type: 'ruling', ruling: 'deduction', offence: form.offence, points: form.deduction }, what: `${dw('deduction_n', { n: form.deduction })}（${offence}）` };
      if (form.kind === 'forfeit') return { action: { type: 'ruling', ruling: 'forfeit', offence: form.offence }, what: `${dw('forfeit')}（${offence}）` };
      return null;
    }
    if (form.kind === 'penalty') return { action: { type: 'penalty', points: form.points }, what: t('did_penalty', { n: form.points }) };
    if (form.kind === 'end_board') return { action: { type: 'end_board' }, what: dw('end_board') };
    if (form.kind === 'finalize') return { action: { type: 'finalize' }, what: dw('finalize') };
    return null;
  }

  /** The ruling form. */
  function formBox() {
    if (!model.game) return;
    const names = seatNames(model.game);
    const gouji = model.game === 'gouji';
    const kinds = gouji ? ['warning', 'deduction', 'forfeit'] : ['penalty', 'end_board', 'finalize'];
    if (!kinds.includes(form.kind)) form.kind = kinds[0];
    // The points a 够级 deduction may take are the ruleset's (the engine refuses others).
    const allowed = /** @type {number[]} */ (model.view?.ruleset?.scoring?.deduction_points ?? []);
    if (gouji && allowed.length && !allowed.includes(form.deduction)) form.deduction = allowed[0];
    /** @param {string} name @param {string} value @param {boolean} checked @param {(v: string) => void} set @param {any} label */
    const radio = (name, value, checked, set, label) =>
      h('label', {}, h('input', { type: 'radio', name, value, checked, 'on:change': () => { set(value); formBox(); } }), label);
    const kindWord = (/** @type {string} */ k) => (k === 'deduction' ? dw('deduction_n', { n: allowed.length ? allowed.join(' / ') : '' }) : dw(k));
    const r = ruling();
    // Redrawn on every choice: the control that had the focus gets it back.
    const had = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusKey = had && rulingPanel.contains(had) ? (had.id ? `#${had.id}` : `[name="${had.getAttribute('name')}"][value="${had.getAttribute('value')}"]`) : null;
    replace(
      rulingPanel,
      h('h2', { id: 'ruling-h' }, dw('ruling_h')),
      h('fieldset', { class: 'choice', id: 'ruling-seat' },
        h('legend', {}, dw('ruling_seat')),
        names.map((n, s) => radio('ruling-seat', String(s), form.seat === s, (v) => { form.seat = Number(v); }, h('span', { 'data-seat-name': String(s) }, n))),
      ),
      h('fieldset', { class: 'choice', id: 'ruling-kind' },
        h('legend', {}, dw('ruling_kind')),
        kinds.map((k) => radio('ruling-kind', k, form.kind === k, (v) => { form.kind = v; }, kindWord(k))),
      ),
      !gouji && form.kind === 'penalty'
        ? field('ruling-points', dw('penalty_points'), h('input', { type: 'number', min: 1, step: 5, value: form.points, inputmode: 'numeric', 'on:input': (/** @type {Event} */ e) => { form.points = Number(/** @type {HTMLInputElement} */ (e.target).value); } }))
        : null,
      gouji && form.kind === 'deduction' && allowed.length > 1
        ? h('fieldset', { class: 'choice', id: 'ruling-points' }, h('legend', {}, dw('deduction_points')),
            allowed.map((p) => radio('ruling-points', String(p), form.deduction === p, (v) => { form.deduction = Number(v); }, dw('deduction_n', { n: p }))))
        : null,
      gouji
        ? field('ruling-offence', dw('offence'), h('select', { 'on:change': (/** @type {Event} */ e) => { form.offence = /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value); formBox(); } },
            OFFENCES.map((o) => h('option', { value: o, selected: o === form.offence }, t(`offence_${o}`)))))
        : null,
      field('ruling-reason', dw('ruling_reason'), h('textarea', { rows: 2, maxlength: 200, 'on:input': (/** @type {Event} */ e) => { form.reason = /** @type {HTMLTextAreaElement} */ (e.target).value; } }, form.reason)),
      form.confirming && r
        ? h('div', { class: 'notice', id: 'ruling-confirm', role: 'alertdialog', 'aria-labelledby': 'ruling-confirm-text' },
            h('p', { id: 'ruling-confirm-text' }, dw('ruling_confirm', { what: dw('for_seat', { who: seatWho(model.game, form.seat, nameOf), what: r.what }), reason: form.reason.trim() })),
            h('div', { class: 'actions' },
              h('button', { id: 'ruling-yes', class: 'primary', 'on:click': () => send(r.action) }, dw('confirm')),
              h('button', { id: 'ruling-no', 'on:click': () => { form.confirming = false; formBox(); } }, dw('cancel')),
            ))
        : h('div', { class: 'actions' }, h('button', { id: 'ruling-submit', class: 'primary', 'on:click': () => { form.confirming = true; form.refusal = null; form.okText = ''; formBox(); } }, dw('ruling_submit'))),
      refusalBox(form.refusal),
      h('p', { id: 'ruling-ok', role: 'status', class: 'ok-text', hidden: !form.okText }, form.okText),
    );
    if (focusKey) /** @type {HTMLElement | null} */ (rulingPanel.querySelector(focusKey))?.focus();
    update();
  }

  /** Sends a ruling against the chosen seat, with the reason (the engine judges it). @param {object} action */
  function send(action) {
    const rid = conn.nextId();
    conn.sendAction(rid, { type: 'act', id: rid, seq: conn.lastSeq ?? 0, seat: form.seat, reason: form.reason.trim(), action });
  }

  const ticker = setInterval(() => {
    if (model.clock && !model.review) tickClocks(model.clock.deadline - performance.now());
  }, 250);
  const unsubscribe = onChange((key) => key !== 'name' && skeleton());
  ready = true;
  skeleton();
  // For tests and the curious: what the referee's page knows.
  /** @type {any} */ (window).paijuReferee = { model, conn };
  return () => {
    clearInterval(ticker);
    unsubscribe();
    conn.close();
  };
}
