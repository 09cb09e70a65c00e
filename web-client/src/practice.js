// @ts-check
//! 练习 (practice.html, issue 26): practice against the field. A player without a password (a
//! name; the server gives a personal code this browser keeps) plays a set of boards alone with
//! computers, and each board is compared with everyone who played it (match points, 计副制).
//!
//! Places (the address; plain links, so the back button works):
//! - `practice.html`: without a code, what practice is, a name and 开始, or 「我有个人码」; with
//!   one, the day's sets, a club's set by its code, my results (the sets, a chart of my
//!   percentage by week, my best and worst boards) and my personal link with its QR code.
//! - `practice.html?s=ID`: a set — its boards and my result on each, 电脑水平 before the first
//!   board, 「开始第1副」 / 「继续第N副」 (→ the table page), and its ranking (a club's by day too).
//! - `…&b=N`: board N's field, every result on it (once I have played it); `…&b=N&vs=TABLE`: that
//!   table's replay beside mine (replay.js, every hand).
//! - `#p=CODE` on any of them: the personal link — the code is kept on this device and wiped from
//!   the address (a fragment: never sent to a server).
//!
//! Everything shown is the server's (server/src/practice/api.rs): the page computes no score.

import { h, replace } from './dom.js';
import { pick, t } from './i18n.js';
import { settings, set as setSetting, onChange, playerCode, setPlayerCode, normalPlayerCode, setTicket } from './settings.js';
import { topbar, gameName, BOT_LEVELS } from './lobby.js';
import { ApiError } from './api.js';
import * as api from './practice-api.js';
import { pw } from './practice-words.js';
import { historyChart, percentText } from './practice-chart.js';
import { replayViewer } from './replay.js';

/** @typedef {import('./practice-api.js').RunView} RunView */
/** @typedef {import('./practice-api.js').RunBoard} RunBoard */
/** @typedef {import('./practice-api.js').FieldLine} FieldLine */
/** @typedef {import('./practice-api.js').PracticeLine} PracticeLine */
/** @typedef {import('./practice-api.js').PracticeResult} PracticeResult */
/** @typedef {import('./protocol').Problem} Problem */
/** @typedef {() => void} Leave */

const ID = /^[A-Za-z0-9_-]+$/;

/** Where the page is: a set, one of its boards, a table to replay beside mine. */
function where() {
  const q = new URLSearchParams(location.search);
  const s = q.get('s')?.trim() ?? '';
  const b = q.get('b') ?? '';
  const vs = q.get('vs') ?? '';
  return { set: ID.test(s) ? s : null, board: /^\d+$/.test(b) ? Number(b) : null, vs: ID.test(vs) ? vs : null };
}

/** @param {string} set @param {number} [board] @param {string} [vs] */
function link(set, board, vs) {
  let href = `practice.html?s=${encodeURIComponent(set)}`;
  if (board) href += `&b=${board}`;
  if (vs) href += `&vs=${encodeURIComponent(vs)}`;
  return href;
}

/** What the personal link said, once read: who signed in, or why not. @type {{ name?: string, problem?: Problem } | null} */
let fromLink = null;

/** A refusal (or any failure) in the page's language. @param {unknown} e */
function problemText(e) {
  if (e instanceof ApiError) return pick(e.problem);
  return String(e instanceof Error ? e.message : e);
}

/** A refusal's code, when the server sent one. @param {unknown} e */
function codeOf(e) {
  return e instanceof ApiError ? e.problem.code : '';
}

/** An error line, hidden until shown. */
function errorLine() {
  const box = h('p', { class: 'error-text', role: 'alert', hidden: true });
  return {
    box,
    /** @param {unknown} e */
    show(e) {
      replace(box, typeof e === 'string' ? e : problemText(e));
      box.hidden = false;
    },
    hide() {
      box.hidden = true;
    },
  };
}

/** 「12月4日」 @param {number} ms */
function dateText(ms) {
  const d = new Date(ms);
  return settings().lang === 'en' ? d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' }) : `${d.getMonth() + 1}月${d.getDate()}日`;
}

/** 「12月5日 00:00」 @param {number} ms */
function whenText(ms) {
  const d = new Date(ms);
  return `${dateText(ms)} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** 「62.5%」, as the server gives it. @param {number | undefined | null} p */
function pct(p) {
  return typeof p === 'number' ? `${percentText(p)}%` : '—';
}

/** A board's word: 第 3 副 (够级: 第 3 局). @param {string} game @param {number} n */
function boardWord(game, n) {
  return pw(game === 'gouji' ? 'game_n' : 'board_n', { n });
}

/** 副 or 局 (English: boards, games). @param {string} game */
function unit(game) {
  return pw(game === 'gouji' ? 'unit_game' : 'unit_board');
}

/** 副 or 局 (English: board, game), for one of them. @param {string} game */
function one(game) {
  return pw(game === 'gouji' ? 'one_game' : 'one_board');
}

/** The computers' level in words (入门, 普通, 高手). @param {string} level */
function levelWord(level) {
  return BOT_LEVELS.includes(/** @type {any} */ (level)) ? t(`bot_level_${level}`) : level;
}

/**
 * A run's name: the player's, or the computers' reference run as the server names it
 * (「电脑·普通」; in English from its `computer` flag and level, the server's name being Chinese).
 * @param {{ name: string, computer?: boolean, level: string }} l
 */
function runName(l) {
  return l.computer && settings().lang === 'en' ? `${t('bot')} · ${levelWord(l.level)}` : l.name;
}

/** A team's points, a true minus sign for a loss (「−4」). @param {number | undefined} n */
function points(n) {
  return typeof n !== 'number' ? '—' : n < 0 ? `−${-n}` : String(n);
}

/** A result as the field shows it: 80分 the declarer and the defenders' points; 够级 the teams'. @param {string} game @param {PracticeResult | undefined} r */
function resultText(game, r) {
  if (!r) return '';
  if (game === 'gouji' || typeof r.a === 'number') return pw('teams', { a: points(r.a), b: points(r.b) });
  return `${declarerText(r)} · ${pw('defenders_n', { n: r.defenders ?? '—' })}`;
}

/** 「北（南北坐庄）」 @param {PracticeResult} r */
function declarerText(r) {
  const seats = settings().lang === 'en' ? { N: 'North', E: 'East', S: 'South', W: 'West' } : { N: '北', E: '东', S: '南', W: '西' };
  const seat = seats[/** @type {'N'} */ (r.declarer)] ?? r.declarer ?? '';
  return pw('declarer_side', { seat, side: pw(r.declaring === 'NS' ? 'side_ns' : 'side_ew') });
}

/** The bar at the top (the lobby's: 设置 with 大字 and English), the brand back to the lobby. @param {string} title */
function bar(title) {
  const el = topbar(h('span', { class: 'title' }, title));
  // The lobby's bar links its brand to `#/`, the lobby's own place; here the lobby is another page.
  el.querySelector('a.brand')?.setAttribute('href', './');
  return el;
}

/** The page's frame: the bar, then the sections in one main. @param {HTMLElement} root @param {string} title @param {...(HTMLElement | null)} sections */
function frame(root, title, ...sections) {
  document.title = `${title} · ${t('title')}`;
  root.replaceChildren(bar(pw('page')), h('main', { class: 'practice-page' }, ...sections));
}

/** A big link (as large as a button). @param {string} href @param {string} text @param {Record<string, any>} [attrs] */
function bigLink(href, text, attrs = {}) {
  return h('a', { class: 'button-link', href, ...attrs }, text);
}

// --- who I am ----------------------------------------------------------------------------------

/**
 * The two ways to be someone here: a name and 开始 (a new player), or 「我有个人码」.
 * @param {() => void} done  called once this device has a code
 * @param {'h1' | 'h2'} level  the welcome's heading (h1 on the page's own welcome)
 */
function identityPanels(done, level) {
  const err = errorLine();
  const name = h('input', { id: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', placeholder: t('name_placeholder'), value: settings().name });
  const start = async () => {
    err.hide();
    const n = name.value.trim();
    if (!n) {
      err.show(pw('need_name'));
      name.focus();
      return;
    }
    try {
      const made = await api.newPlayer(n);
      setPlayerCode(made.token);
      setSetting('name', made.name);
      done();
    } catch (e) {
      err.show(e);
    }
  };
  const codeErr = errorLine();
  const code = h('input', { id: 'code', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', placeholder: 'ab3d-7kfm-q2xw' });
  const signIn = async () => {
    codeErr.hide();
    const c = normalPlayerCode(code.value);
    if (!c) {
      codeErr.show(pw('bad_code'));
      return;
    }
    try {
      const me = await api.me(c);
      setPlayerCode(c);
      fromLink = { name: me.name };
      done();
    } catch (e) {
      codeErr.show(e);
    }
  };
  return [
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'welcome-h' },
      h(level, { id: 'welcome-h' }, pw('welcome_h')),
      h('p', { class: 'lead' }, pw('welcome_text')),
      h('p', { class: 'hint' }, pw('welcome_when')),
      h('div', { class: 'field' }, h('label', { for: 'name' }, pw('your_name')), name),
      err.box,
      h('div', { class: 'row' }, h('button', { class: 'primary', id: 'start', 'on:click': start }, pw('start'))),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'code-h' },
      h('h2', { id: 'code-h' }, pw('have_code_h')),
      h('p', { class: 'hint' }, pw('have_code_hint')),
      h('div', { class: 'field' }, h('label', { for: 'code' }, pw('code')), code),
      codeErr.box,
      h('div', { class: 'row' }, h('button', { id: 'sign-in', 'on:click': signIn }, pw('sign_in'))),
    ),
  ];
}

/**
 * The personal link (`#p=CODE`): kept on this device if it names a player, then wiped from the
 * address (a screenshot or a shared screen should not show it).
 */
async function readLink() {
  const m = location.hash.match(/[#&]p=([^&]+)/);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  const code = normalPlayerCode(decodeURIComponent(m[1]));
  if (!code) {
    fromLink = { problem: { code: 'bad_code', zh: pw('bad_code'), en: pw('bad_code') } };
    return;
  }
  try {
    const me = await api.me(code);
    setPlayerCode(code);
    fromLink = { name: me.name };
  } catch (e) {
    fromLink = { problem: e instanceof ApiError ? e.problem : { code: 'error', zh: String(e), en: String(e) } };
  }
}

/** What the personal link did, as a line (once). */
function linkNote() {
  const note = fromLink;
  fromLink = null;
  if (!note) return null;
  if (note.problem) return h('p', { class: 'error-text', role: 'alert', id: 'link-problem' }, pick(note.problem));
  return h('p', { class: 'ok-text', role: 'status', id: 'signed-in' }, pw('signed_in', { name: note.name ?? '' }));
}

// --- the page's own place: the day's sets, my results, my code ----------------------------------

/** @param {HTMLElement} root @param {() => void} redraw @returns {Leave} */
function home(root, redraw) {
  const code = playerCode();
  if (!code) {
    frame(root, pw('page'), linkNote(), ...identityPanels(redraw, 'h1'));
    return () => {};
  }
  const err = errorLine();
  const hello = h('section', { class: 'panel', 'aria-labelledby': 'hello-h' }, h('h1', { id: 'hello-h' }, pw('page')), linkNote(), err.box);
  const today = h('section', { class: 'panel', 'aria-labelledby': 'today-h' }, h('h2', { id: 'today-h' }, pw('today_h')), h('p', { class: 'hint' }, t('connecting')));
  const history = h('section', { class: 'panel', 'aria-labelledby': 'history-h' }, h('h2', { id: 'history-h' }, pw('history_h')));
  const mine = h('section', { class: 'panel my-code', 'aria-labelledby': 'me-h' }, h('h2', { id: 'me-h' }, pw('me_h')));
  frame(root, pw('page'), hello, today, clubPanel(), history, mine);
  let closed = false;
  Promise.all([api.me(code), api.openSets()])
    .then(([me, sets]) => {
      if (closed) return;
      replace(hello, h('h1', { id: 'hello-h' }, pw('hello', { name: me.name })), ...hello.querySelectorAll('.ok-text, .error-text'));
      const played = new Map(me.history.map((l) => [l.set, l]));
      replace(
        today,
        h('h2', { id: 'today-h' }, pw('today_h')),
        sets.length
          ? h('ul', { class: 'table-list', id: 'sets' }, sets.map((s) => {
              const line = played.get(s.id);
              const label = line ? pw(line.done ? 'see_result' : 'carry_on') : pw('begin');
              return h('li', { 'data-set': s.id, 'data-players': String(s.players) },
                h('span', { class: 'desc' }, h('b', {}, s.name), h('span', { class: 'players' }, pw('set_line', { game: gameName(s.game), n: s.boards, unit: unit(s.game), players: s.players }))),
                bigLink(link(s.id), label, { class: line ? 'button-link' : 'button-link primary', 'data-go': s.id }),
              );
            }))
          : h('p', {}, pw('no_sets')),
      );
      historyPanel(history, me);
      myCode(mine, code, me.name, redraw);
    })
    .catch((e) => {
      if (closed) return;
      if (codeOf(e) === 'bad_player_code') {
        // The server does not know this code (any more): this device forgets it.
        setPlayerCode('');
        fromLink = { problem: /** @type {ApiError} */ (e).problem };
        redraw();
        return;
      }
      err.show(e);
    });
  return () => {
    closed = true;
  };
}

/** 「俱乐部代码」: a club's set, reached by its code (its id). */
function clubPanel() {
  const err = errorLine();
  const input = h('input', { id: 'club-code', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const open = async () => {
    err.hide();
    const c = input.value.trim().replace(/\s+/g, '');
    if (!ID.test(c)) {
      err.show(pw('not_a_set', { code: input.value.trim() }));
      return;
    }
    try {
      await api.setView(c);
      location.assign(link(c));
    } catch (e) {
      err.show(e instanceof ApiError && e.status === 404 ? pw('not_a_set', { code: c }) : e);
    }
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'club-h' },
    h('h2', { id: 'club-h' }, pw('club_h')),
    h('p', { class: 'hint' }, pw('club_hint')),
    h('div', { class: 'field' }, h('label', { for: 'club-code' }, pw('club_h')), input),
    err.box,
    h('div', { class: 'row' }, h('button', { id: 'open-club', 'on:click': open }, pw('open'))),
  );
}

/** My results: the sets I played, the chart by week, my best and worst boards. @param {HTMLElement} box @param {import('./practice-api.js').PlayerView} me */
function historyPanel(box, me) {
  if (!me.history.length) {
    replace(box, h('h2', { id: 'history-h' }, pw('history_h')), h('p', {}, pw('no_history')));
    return;
  }
  const chartBox = h('div', { class: 'chart-box', id: 'chart' });
  const boardLine = (/** @type {import('./practice-api.js').BoardLine} */ b) =>
    h('li', { 'data-set': b.set, 'data-board': String(b.board), 'data-percent': String(b.percent) },
      h('a', { href: link(b.set, b.board) }, pw('board_link', { set: b.set_name, board: b.board, unit: unit(b.game), p: percentText(b.percent) })));
  replace(
    box,
    h('h2', { id: 'history-h' }, pw('history_h')),
    h('div', scroll(pw('history_table')),
      h('table', { class: 'results', id: 'history' },
        h('thead', {}, h('tr', {}, [pw('col_set'), pw('col_percent'), pw('col_place')].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, me.history.map((l) => l.event ? eventRow(l, l.event) :
          h('tr', { 'data-set': l.set, 'data-percent': l.percent === undefined ? '' : String(l.percent), 'data-place': l.place === undefined ? '' : String(l.place), 'data-played': String(l.played) },
            h('td', { class: 'names' }, h('a', { href: link(l.set) }, l.name),
              h('div', { class: 'hint' }, `${dateText(l.began_ms)} · ${pw('col_played')} ${pw('played_of', { played: l.played, boards: l.boards })}`, l.open && l.percent !== undefined ? ` · ${pw('still_open')}` : '')),
            h('td', { class: 'num' }, pct(l.percent)),
            h('td', {}, l.place ? pw('place_of', { place: l.place, of: l.of }) : '—'),
          ))),
      ),
    ),
    // The chart once a set has a percentage (an event's line has none).
    me.history.some((l) => typeof l.percent === 'number') ? [h('h3', { id: 'chart-h' }, pw('chart_h')), chartBox, h('p', { class: 'hint' }, pw('chart_hint'))] : null,
    me.best.length ? [h('h3', {}, pw('best_h')), h('ul', { class: 'board-links', id: 'best' }, me.best.map(boardLine))] : null,
    me.worst.length ? [h('h3', {}, pw('worst_h')), h('ul', { class: 'board-links', id: 'worst' }, me.worst.map(boardLine))] : null,
  );
  historyChart(chartBox, me.history, { big: settings().bigText });
}

/**
 * An event (赛事) in my history, from its card's page: my pair or team, its points and place in
 * the public standings; its standings page.
 * @param {import('./practice-api.js').HistoryLine} l @param {import('./practice-api.js').EventLine} e
 */
function eventRow(l, e) {
  const [kind, n] = e.entry.split(' ');
  const entry = kind === 'team' ? pw('event_team', { n }) : pw('event_pair', { dir: pw(kind === 'EW' ? 'side_ew' : 'side_ns'), n });
  return h('tr', { 'data-set': l.set, 'data-event': e.entry, 'data-place': l.place === undefined ? '' : String(l.place) },
    h('td', { class: 'names' }, h('a', { href: `standings.html?e=${encodeURIComponent(l.set)}` }, l.name),
      h('div', { class: 'hint' }, `${pw('event_word')} · ${entry}`, e.points !== undefined ? ` · ${pw(l.game === 'gouji' ? 'event_points' : 'event_mp', { n: e.points })}` : '', l.open ? ` · ${pw('still_open')}` : '')),
    h('td', { class: 'num' }, '—'),
    h('td', {}, l.place ? pw('place_of', { place: l.place, of: l.of }) : '—'),
  );
}

/**
 * My personal code: the link that carries it to another device, its QR code, printable, and a
 * plain warning that whoever has it plays as me. 「换一个人」 forgets it on this device.
 * @param {HTMLElement} box @param {string} code @param {string} name @param {() => void} redraw
 */
function myCode(box, code, name, redraw) {
  const url = `${location.origin}${location.pathname}#p=${code}`;
  const copied = h('span', { 'aria-live': 'polite' });
  const qr = h('div', { class: 'qr-box' });
  replace(
    box,
    h('h2', { id: 'me-h' }, pw('me_h')),
    h('p', { class: 'code-big' }, h('span', { class: 'print-only' }, `${name} · `), h('b', { id: 'my-code', class: 'mono' }, code)),
    h('p', {}, pw('me_text')),
    h('p', { class: 'warning-box', id: 'code-warning' }, pw('me_warning')),
    h('p', { class: 'my-link' }, pw('my_link'), h('b', { id: 'my-link', class: 'mono' }, url)),
    qr,
    h('div', { class: 'row no-print' },
      h('button', {
        id: 'copy-link',
        'on:click': async () => {
          try {
            await navigator.clipboard.writeText(url);
            replace(copied, pw('copied'));
          } catch {
            replace(copied, url);
          }
        },
      }, pw('copy')),
      h('button', { id: 'print', 'on:click': () => print() }, pw('print')),
      h('button', {
        class: 'danger',
        id: 'forget',
        'on:click': () => {
          if (!confirm(pw('forget_ask', { name }))) return;
          setPlayerCode('');
          redraw();
        },
      }, pw('forget')),
      copied,
    ),
  );
  // The server draws the QR code of the link (the code in the request's body only); shown as an
  // image, so nothing in it runs.
  api.myQr(code)
    .then((svg) => {
      if (typeof svg !== 'string' || !box.isConnected) return;
      const src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
      const img = h('img', { class: 'qr', id: 'my-qr', src, alt: pw('qr_alt'), width: 180, height: 180 });
      img.addEventListener('load', () => URL.revokeObjectURL(src), { once: true });
      replace(qr, img);
    })
    .catch(() => {
      // The link is there in words; the picture can wait.
    });
}

/** The box a wide table scrolls in on a phone (a named region the keyboard can scroll). @param {string} name */
function scroll(name) {
  return { class: 'scroll', role: 'region', tabindex: '0', 'aria-label': name };
}

// --- a set ---------------------------------------------------------------------------------------

/** @param {HTMLElement} root @param {string} id @param {() => void} redraw @returns {Leave} */
function setPage(root, id, redraw) {
  const code = playerCode();
  const err = errorLine();
  const head = h('section', { class: 'panel', 'aria-labelledby': 'set-h' }, h('h1', { id: 'set-h' }, pw('page')), linkNote(), err.box);
  const runBox = h('section', { class: 'panel', 'aria-labelledby': 'run-h' }, h('p', { class: 'hint' }, t('connecting')));
  const ranking = h('section', { class: 'panel', 'aria-labelledby': 'ranking-h' }, h('h2', { id: 'ranking-h' }, pw('ranking_h')));
  frame(root, pw('page'), head, code ? runBox : null, ...(code ? [] : identityPanels(redraw, 'h2')), ranking);
  let closed = false;
  const notBegun = (/** @type {unknown} */ e) => {
    if (codeOf(e) === 'practice_not_begun') return null;
    throw e;
  };
  // The run is asked for only once my history says I began this set (before, the server would
  // answer 409 `practice_not_begun`, a refusal every first visit would log).
  const myRun = async () => {
    if (!code) return null;
    const me = await api.me(code);
    return me.history.some((l) => l.set === id) ? api.run(id, code).catch(notBegun) : null;
  };
  Promise.all([api.setView(id), api.standings(id), myRun()])
    .then(([view, st, run]) => {
      if (closed) return;
      document.title = `${view.name} · ${t('title')}`;
      const p = view.practice;
      const open = view.state === 'running';
      replace(
        head,
        h('h1', { id: 'set-h' }, view.name),
        h('p', { class: 'facts', id: 'set-facts', 'data-players': String(p?.players ?? 0), 'data-finished': String(p?.finished ?? 0) },
          pw('facts', { game: gameName(view.game), n: view.boards_per_round, unit: unit(view.game), players: p?.players ?? 0, finished: p?.finished ?? 0 })),
        h('p', { class: 'facts' },
          p?.club ? h('span', { id: 'club-name' }, pw('club_set', { club: p.club }), ' · ') : null,
          open && p ? pw('closes', { when: whenText(p.closes_ms) }) : h('b', { id: 'set-closed' }, pw('closed'))),
        ...head.querySelectorAll('.ok-text, .error-text'),
      );
      if (code) {
        if (run) runPanel(runBox, id, view, run, code);
        else startPanel(runBox, id, view, code, open);
      }
      rankingPanel(ranking, id, st.practice, run?.run ?? null);
    })
    .catch((e) => {
      if (closed) return;
      if (e instanceof ApiError && e.status === 404) {
        replace(head, h('h1', { id: 'set-h' }, pw('not_a_set', { code: id })), bigLink('practice.html', pw('back_home'), { id: 'back-home' }));
        runBox.remove();
        ranking.remove();
        return;
      }
      if (codeOf(e) === 'bad_player_code') {
        setPlayerCode('');
        fromLink = { problem: /** @type {ApiError} */ (e).problem };
        redraw();
        return;
      }
      err.show(e);
    });
  return () => {
    closed = true;
  };
}

/**
 * Sits me at the run's board now (beginning the run at `level` the first time) and opens the
 * table page there, the seat's token kept as the event flow keeps it.
 * @param {string} id @param {string} game @param {string} code @param {string | undefined} level @param {{ show: (e: unknown) => void }} err
 */
async function sitDown(id, game, code, level, err) {
  try {
    const j = await api.join(id, code, level);
    setTicket(j.table, { token: j.token, seat: j.seat, game, event: id });
    location.assign(`./#/t/${encodeURIComponent(j.table)}`);
  } catch (e) {
    err.show(e);
  }
}

/** Before the first board: 电脑水平, then 「开始第1副」. @param {HTMLElement} box @param {string} id @param {import('./practice-api.js').SetView} view @param {string} code @param {boolean} open */
function startPanel(box, id, view, code, open) {
  const err = errorLine();
  let level = 'club';
  const levels = h('div', { class: 'choice', role: 'radiogroup', 'aria-labelledby': 'level-h' },
    BOT_LEVELS.map((l) => h('label', {},
      h('input', { type: 'radio', name: 'level', value: l, checked: l === level, 'on:change': () => (level = l) }),
      t(`bot_level_${l}`))));
  replace(
    box,
    h('h2', { id: 'run-h' }, pw('my_run_h')),
    h('h3', { id: 'level-h' }, pw('level_h')),
    h('p', { class: 'hint' }, pw('level_hint')),
    levels,
    err.box,
    open
      ? h('div', { class: 'row', style: 'margin-top:14px' }, h('button', { class: 'primary', id: 'play', 'on:click': () => sitDown(id, view.game, code, level, err) }, pw('start_first', { unit: unit(view.game), one: one(view.game) })))
      : h('p', { class: 'big' }, pw('closed')),
  );
}

/**
 * My run: its level, percentage and place, each board with its state, result, match points and
 * percentage, and the way to the board now.
 * @param {HTMLElement} box @param {string} id @param {import('./practice-api.js').SetView} view @param {RunView} run @param {string} code
 */
function runPanel(box, id, view, run, code) {
  const err = errorLine();
  const game = view.game;
  const now = run.boards.find((b) => b.now && !b.done);
  const open = view.state === 'running';
  const summary = run.done
    ? [pw('run_done', { p: percentText(run.percent ?? 0) }), run.place ? ` · ${pw('run_place', { place: run.place, of: run.of })}` : '']
    : [run.percent === undefined ? pw('run_none') : pw('run_percent', { p: percentText(run.percent) })];
  replace(
    box,
    h('h2', { id: 'run-h' }, pw('my_run_h')),
    h('p', { class: 'big', id: 'run-summary', 'data-percent': run.percent === undefined ? '' : String(run.percent), 'data-place': run.place === undefined ? '' : String(run.place), 'data-of': String(run.of), 'data-done': String(run.done) }, ...summary),
    h('p', { class: 'hint' }, pw('run_level', { level: levelWord(run.level) })),
    now && open ? h('div', { class: 'row' }, h('button', { class: 'primary', id: 'play', 'data-board': String(now.board), 'on:click': () => sitDown(id, game, code, undefined, err) }, now.board === 1 && !run.boards.some((b) => b.done) ? pw('start_first', { unit: unit(game), one: one(game) }) : pw('carry_on_n', { n: now.board, unit: unit(game), one: one(game) }))) : null,
    now && !open ? h('p', { class: 'big' }, pw('closed')) : null,
    err.box,
    h('ul', { class: 'card-list', id: 'boards' }, run.boards.map((b) =>
      h('li', { 'data-board': String(b.board), 'data-state': b.done ? 'done' : b.now ? 'now' : 'todo', 'data-percent': b.percent === undefined ? '' : String(b.percent), 'data-mp': b.mp === undefined ? '' : String(b.mp), 'data-top': b.top === undefined ? '' : String(b.top), class: b.now && !b.done ? 'now' : '' },
        h('div', { class: 'what' }, h('b', {}, boardWord(game, b.board)), ' ', h('span', { class: `tag ${b.done ? 'team' : b.now ? 'placed' : 'offline'}` }, pw(b.done ? 'state_done' : b.now ? 'state_now' : 'state_todo'))),
        b.done ? h('div', { class: 'score' }, h('b', { class: 'pct' }, pct(b.percent)), ' ', h('span', {}, `${pw('col_mp')} ${b.mp} / ${b.top}`)) : null,
        b.done ? h('div', { class: 'result' }, resultText(game, b.result)) : null,
        b.done ? bigLink(link(id, b.board), pw('see_field'), { 'data-field': String(b.board), 'aria-label': `${boardWord(game, b.board)} · ${pw('see_field')}` }) : null,
      ))),
  );
}

/**
 * The set's ranking (finished runs, best first), and a club's by day; the printable page and
 * the CSV. My line marked.
 * @param {HTMLElement} box @param {string} id @param {import('./practice-api.js').PracticeStandings} st @param {number | null} myRun
 */
function rankingPanel(box, id, st, myRun) {
  const lang = settings().lang;
  const table = (/** @type {PracticeLine[]} */ lines, /** @type {string} */ caption, /** @type {string} */ key) =>
    lines.length
      ? h('div', scroll(caption),
          h('table', { class: 'results', 'data-ranking': key },
            h('caption', {}, caption),
            h('thead', {}, h('tr', {}, [pw('col_place'), pw('col_player'), pw('col_percent')].map((x) => h('th', { scope: 'col' }, x)))),
            h('tbody', {}, lines.map((l) =>
              h('tr', { class: l.run === myRun ? 'mine' : '', 'data-run': String(l.run), 'data-percent': String(l.percent), 'data-place': String(l.place), 'data-computer': String(!!l.computer) },
                h('td', {}, String(l.place)),
                h('td', { class: 'names' }, runName(l), l.run === myRun ? pw('me_mark') : '', h('div', { class: 'hint' }, pw('level_of', { level: levelWord(l.level) }))),
                h('td', { class: 'num' }, pct(l.percent)),
              ))),
          ))
      : h('p', { 'data-ranking': key }, caption, '：', pw('ranking_none'));
  const links = (/** @type {string | undefined} */ day) => {
    const l = api.resultsLinks(id, { day, lang });
    return h('div', { class: 'links' },
      h('a', { href: l.html, target: '_blank', rel: 'noopener', 'data-print': day ?? 'all' }, pw('print_results')),
      h('a', { href: l.csv, 'data-csv': day ?? 'all' }, pw('csv')));
  };
  const byDay = st.club ? st.days : [];
  replace(
    box,
    h('h2', { id: 'ranking-h' }, pw('ranking_h')),
    h('p', { class: 'hint' }, pw('ranking_hint')),
    table(st.lines, pw('ranking_all'), 'all'),
    links(undefined),
    byDay.map((d) => h('div', { class: 'day', 'data-day': d.day }, table(d.lines, pw('ranking_day', { day: d.day }), d.day), links(d.day))),
  );
}

// --- a board's field, and two replays ------------------------------------------------------------

/**
 * What a board needs before its field can be shown: my code, the set, my run with that board
 * played. Draws the refusal (or the sign-in) and returns null otherwise.
 * @param {HTMLElement} root @param {string} id @param {number} n @param {() => void} redraw @param {(v: import('./practice-api.js').SetView, run: RunView, board: RunBoard) => Leave | void} then
 * @returns {Leave}
 */
function withBoard(root, id, n, redraw, then) {
  const code = playerCode();
  if (!code) {
    frame(root, pw('page'), h('section', { class: 'panel' }, h('h1', {}, pw('page')), h('p', {}, pw('sign_in_first'))), ...identityPanels(redraw, 'h2'));
    return () => {};
  }
  const err = errorLine();
  frame(root, pw('page'), h('section', { class: 'panel' }, h('h1', {}, pw('page')), h('p', { class: 'hint' }, t('connecting')), err.box));
  let closed = false;
  /** @type {Leave} */
  let leave = () => {};
  Promise.all([api.setView(id), api.run(id, code)])
    .then(([view, run]) => {
      if (closed) return;
      const board = run.boards.find((b) => b.board === n);
      if (!board || !board.done || !board.field) {
        frame(root, view.name, h('section', { class: 'panel' }, h('h1', {}, boardWord(view.game, n)), h('p', { class: 'big', id: 'field-not-yet' }, pw('field_not_yet')), bigLink(link(id), pw('back_set'), { id: 'back-set' })));
        return;
      }
      leave = then(view, run, board) ?? (() => {});
    })
    .catch((e) => err.show(e));
  return () => {
    closed = true;
    leave();
  };
}

/** Board N's field: every result on it, mine marked, each with its replay. @param {HTMLElement} root @param {string} id @param {number} n @param {() => void} redraw */
function fieldPage(root, id, n, redraw) {
  return withBoard(root, id, n, redraw, (view, _run, board) => {
    const game = view.game;
    const field = [...(board.field ?? [])].sort((a, b) => b.mp - a.mp || a.run - b.run);
    const shengji = game !== 'gouji';
    const mine = field.find((f) => f.mine);
    frame(
      root,
      `${boardWord(game, n)} · ${view.name}`,
      h('section', { class: 'panel', 'aria-labelledby': 'field-h' },
        h('h1', { id: 'field-h' }, pw('field_h', { board: boardWord(game, n) })),
        h('p', { class: 'hint' }, view.name),
        mine ? h('p', { class: 'big', id: 'field-mine', 'data-percent': String(mine.percent), 'data-mp': String(mine.mp), 'data-top': String(mine.top) }, pw('field_mine', { result: resultText(game, mine.result), mp: mine.mp, top: mine.top, p: percentText(mine.percent) })) : null,
        h('ul', { class: 'card-list', id: 'field', 'data-board': String(n) }, field.map((f) =>
          h('li', { class: f.mine ? 'mine' : '', 'data-run': String(f.run), 'data-mine': String(!!f.mine), 'data-mp': String(f.mp), 'data-top': String(f.top), 'data-percent': String(f.percent), 'data-table': f.table_id,
            'data-declarer': f.result.declarer ?? '', 'data-defenders': String(f.result.defenders ?? ''), 'data-a': String(f.result.a ?? ''), 'data-b': String(f.result.b ?? '') },
            h('div', { class: 'what' }, h('b', { class: 'who' }, runName(f)), f.mine ? pw('me_mark') : '', h('span', { class: 'hint' }, ` · ${pw('level_of', { level: levelWord(f.level) })}`)),
            h('div', { class: 'score' }, h('b', { class: 'pct' }, pct(f.percent)), ' ', h('span', {}, `${pw('col_mp')} ${f.mp} / ${f.top}`)),
            h('div', { class: 'result' }, resultText(game, f.result), f.result.auto_moves ? h('span', { class: 'conduct-mark' }, pw('auto_moves', { n: f.result.auto_moves })) : null),
            f.table_id ? bigLink(link(id, n, f.table_id), pw('watch_replay'), { 'data-replay': f.table_id, 'aria-label': `${runName(f)} · ${pw('watch_replay')}` }) : null,
          ))),
        h('p', { class: 'hint' }, pw(shengji ? 'field_hint_shengji' : 'field_hint_gouji')),
        h('p', { class: 'hint' }, pw('mp_hint')),
        h('div', { class: 'links' }, bigLink(link(id), pw('back_set'), { id: 'back-set' })),
      ),
    );
  });
}

/**
 * A table of the set as a replay source: the set's own replay of it (every hand), its states
 * and the engine's verdicts, for a board the player has played (the table's public endpoints
 * are not open while the set runs).
 * @param {string} id @param {string} code @param {string} table @returns {import('./replay.js').ReplaySource}
 */
function practiceSource(id, code, table) {
  return {
    replay: () => api.replay(id, code, table),
    state: (k) => api.replay(id, code, table, k),
    explain: (k) => api.explain(id, code, table, k),
    seeing: (k) => api.explain(id, code, table, k, true),
  };
}

/** That table's replay beside mine (side by side on a wide screen, one above the other on a phone). @param {HTMLElement} root @param {string} id @param {number} n @param {string} vs @param {() => void} redraw */
function replaysPage(root, id, n, vs, redraw) {
  return withBoard(root, id, n, redraw, (view, _run, board) => {
    const code = playerCode();
    const game = view.game;
    const field = board.field ?? [];
    const mine = field.find((f) => f.mine);
    const other = field.find((f) => f.table_id === vs && !f.mine);
    /** @type {{ line: FieldLine, idp: string, title: string }[]} */
    const shown = [];
    if (other) shown.push({ line: other, idp: 'vs-', title: pw('replay_of', { name: runName(other) }) });
    if (mine) shown.push({ line: mine, idp: 'mine-', title: pw('replay_mine') });
    const hosts = shown.map((s) => h('div', { class: 'replay-view', 'data-table': s.line.table_id }));
    // Both at the same trick: the end of trick n in each (0: as dealt).
    let together = 0;
    const togetherAt = h('span', { id: 'together-at', 'aria-live': 'polite', 'data-trick': '0' }, pw('together_dealt'));
    /** @param {number} n */
    const both = (n) => {
      together = Math.max(0, n);
      for (const v of viewers) v.toTrick(together);
      togetherAt.dataset.trick = String(together);
      replace(togetherAt, together ? pw('together_at', { n: together }) : pw('together_dealt'));
    };
    frame(
      root,
      `${boardWord(game, n)} · ${view.name}`,
      h('section', { class: 'panel', 'aria-labelledby': 'replays-h' },
        h('h1', { id: 'replays-h' }, pw('replays_h', { board: boardWord(game, n) })),
        h('p', { class: 'hint' }, view.name),
        h('div', { class: 'links' }, bigLink(link(id, n), pw('back_field'), { id: 'back-field' }), bigLink(link(id), pw('back_set'))),
        shown.length > 1
          ? h('div', { class: 'together', role: 'group', 'aria-label': pw('together_h') },
              h('b', {}, `${pw('together_h')}：`),
              h('button', { id: 'together-start', 'on:click': () => both(0) }, pw('together_start')),
              h('button', { id: 'together-prev', 'on:click': () => both(together - 1) }, `« ${pw('together_prev')}`),
              h('button', { class: 'primary', id: 'together-next', 'on:click': () => both(together + 1) }, `${pw('together_next')} »`),
              togetherAt)
          : null,
      ),
      h('div', { class: `replays${shown.length > 1 ? ' two' : ''}` },
        shown.map((s, i) => h('section', { class: 'replay-col', 'aria-labelledby': `${s.idp}h`, 'data-mine': String(!!s.line.mine) },
          h('h2', { id: `${s.idp}h` }, s.title),
          h('p', { class: 'hint' }, `${levelWord(s.line.level)} · ${resultText(game, s.line.result)} · ${pct(s.line.percent)}`),
          hosts[i]))),
    );
    root.querySelector('main')?.classList.add('wide');
    const viewers = shown.map((s, i) => replayViewer(hosts[i], { source: practiceSource(id, code, s.line.table_id), at: 0, idp: s.idp, heading: 'h3', label: s.title }));
    return () => viewers.forEach((v) => v.close());
  });
}

// --- the page --------------------------------------------------------------------------------------

/** The language and 大字 on the root element (style.css reads them), as the other pages do. */
function applySettings() {
  const s = settings();
  const el = document.documentElement;
  el.lang = s.lang === 'en' ? 'en' : 'zh-CN';
  el.classList.toggle('big-text', s.bigText);
  el.classList.toggle('big-cards', s.bigCards);
}

/** Starts the practice page (practice.html). */
export function main() {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  /** @type {Leave} */
  let leave = () => {};
  const draw = () => {
    leave();
    applySettings();
    const at = where();
    if (at.set && at.board && at.vs) leave = replaysPage(root, at.set, at.board, at.vs, draw);
    else if (at.set && at.board) leave = fieldPage(root, at.set, at.board, draw);
    else if (at.set) leave = setPage(root, at.set, draw);
    else leave = home(root, draw);
  };
  onChange((key) => key !== 'name' && draw());
  applySettings();
  readLink().then(draw);
  // For tests and the curious.
  /** @type {any} */ (window).paijuPractice = { where };
}
