// @ts-check
//! 大厅 (the lobby): the display name the browser remembers; first what a player comes to do —
//! open a table (computer players in the empty seats, the time for each play), join one by its
//! code (six digits, read aloud: any spaces or dashes), practice against the field (练习, its own
//! page), an event's pair page — and after those the tables (who plays; the finished ones folded
//! away, but those this browser played at).

import { h, replace } from './dom.js';
import { t, pick } from './i18n.js';
import { settings, set, setTicket, ticket } from './settings.js';
import * as api from './api.js';

/** @typedef {import('./protocol').TableSummary} TableSummary */

/** Seats filled by people first, so friends sit as partners: 80分 N, S, E, W; 够级 team A first. */
export const HUMAN_ORDER = { shengji: [0, 2, 1, 3], gouji: [0, 2, 4, 1, 3, 5] };
/** Default ruleset per game (docs/protocol.md: the game's default when absent). */
export const RULESETS = { shengji: ['fujian-2024'], gouji: ['zaozhuang-2017'] };

/** Seconds a play a table may be opened with (the server accepts 15 to 120); null: the ruleset's. */
export const PLAY_SECONDS = [null, 45, 60, 90];
/** 「电脑水平」: how strong the computer seats play (`CreateTable.bot_level`); 普通 by default. */
export const BOT_LEVELS = /** @type {const} */ (['beginner', 'club', 'expert']);

/** A table code as it is read aloud: six digits in two groups (「123 456」); others as they are. @param {string} id */
export function formatCode(id) {
  return /^\d{6}$/.test(id) ? `${id.slice(0, 3)} ${id.slice(3)}` : id;
}

/** @param {string} game */
export function gameName(game) {
  return game === 'gouji' ? t('gouji') : game === 'shengji' ? t('shengji') : game;
}

/**
 * The display name field, remembered by the browser.
 * @param {string} id
 */
export function nameField(id) {
  const input = h('input', {
    id,
    type: 'text',
    maxlength: 24,
    autocomplete: 'nickname',
    placeholder: t('name_placeholder'),
    value: settings().name,
    'on:input': (/** @type {Event} */ e) => set('name', /** @type {HTMLInputElement} */ (e.target).value.trim()),
  });
  return h('div', { class: 'field' }, h('label', { for: id }, t('your_name')), input);
}

/** Asks for a name if there is none; returns it or null. @param {HTMLElement} errorBox */
export function requireName(errorBox) {
  const name = settings().name.trim();
  if (!name) {
    replace(errorBox, t('need_name'));
    errorBox.hidden = false;
    /** @type {HTMLInputElement | null} */ (document.querySelector('#name'))?.focus();
    return null;
  }
  return name;
}

/** @param {HTMLElement} root @param {(hash: string) => void} go */
export function renderLobby(root, go) {
  const error = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const showError = (/** @type {unknown} */ e) => {
    replace(error, e instanceof api.ApiError ? pick(e.problem) : String(e));
    error.hidden = false;
  };

  // Tables: waiting, then playing, then finished ones this browser played at; other finished
  // tables folded away (a busy server has many).
  const list = h('ul', { class: 'table-list', 'aria-live': 'polite' });
  const finished = h('div', { id: 'finished-tables' });
  const refresh = async () => {
    try {
      const tables = await api.listTables();
      const rank = { waiting: 0, playing: 1, over: 2, closed: 3 };
      const open = tables.filter((x) => x.state !== 'closed').sort((a, b) => rank[a.state] - rank[b.state]);
      const shown = open.filter((x) => x.state !== 'over' || ticket(x.id));
      const folded = open.filter((x) => x.state === 'over' && !ticket(x.id));
      if (shown.length === 0) replace(list, h('li', {}, t('no_tables')));
      else replace(list, shown.map((x) => tableRow(x, go)));
      replace(
        finished,
        folded.length
          ? h('details', {}, h('summary', { class: 'folded' }, t('finished_tables', { n: folded.length })), h('ul', { class: 'table-list' }, folded.map((x) => tableRow(x, go))))
          : null,
      );
    } catch (e) {
      showError(e);
    }
  };

  // Create.
  /** @type {'shengji' | 'gouji'} */
  let game = 'shengji';
  let humans = 1;
  const humansBox = h('div', { class: 'choice', role: 'radiogroup', 'aria-labelledby': 'humans-label' });
  const drawHumans = () => {
    const max = game === 'gouji' ? 6 : 4;
    humans = Math.min(humans, max);
    replace(
      humansBox,
      Array.from({ length: max }, (_, i) => i + 1).map((n) =>
        h(
          'label',
          {},
          h('input', {
            type: 'radio',
            name: 'humans',
            value: n,
            checked: n === humans,
            'on:change': () => (humans = n),
          }),
          t('humans_n', { n }),
        ),
      ),
    );
  };
  const gameBox = h(
    'div',
    { class: 'choice', role: 'radiogroup', 'aria-label': t('game') },
    /** @type {const} */ (['shengji', 'gouji']).map((g) =>
      h(
        'label',
        {},
        h('input', {
          type: 'radio',
          name: 'game',
          value: g,
          checked: g === game,
          'on:change': () => {
            game = g;
            drawHumans();
          },
        }),
        gameName(g),
      ),
    ),
  );
  drawHumans();

  /** @type {number | null} */
  let seconds = null;
  const secondsBox = h(
    'div',
    { class: 'choice', role: 'radiogroup', 'aria-labelledby': 'seconds-label' },
    PLAY_SECONDS.map((n) =>
      h('label', {},
        h('input', { type: 'radio', name: 'seconds', value: n ?? 'standard', checked: n === seconds, 'on:change': () => (seconds = n) }),
        n === null ? t('play_time_standard') : t('play_time_n', { n }),
      ),
    ),
  );

  /** @type {typeof BOT_LEVELS[number]} */
  let botLevel = 'club';
  const levelBox = h(
    'div',
    { class: 'choice', role: 'radiogroup', 'aria-labelledby': 'bot-level-label' },
    BOT_LEVELS.map((l) =>
      h('label', {},
        h('input', { type: 'radio', name: 'bot-level', value: l, checked: l === botLevel, 'on:change': () => (botLevel = l) }),
        t(`bot_level_${l}`),
      ),
    ),
  );

  const create = async () => {
    error.hidden = true;
    const name = requireName(error);
    if (!name) return;
    const order = HUMAN_ORDER[game];
    const bots = order.slice(humans).sort((a, b) => a - b);
    try {
      const table = await api.createTable({ game, ruleset: RULESETS[game][0], bots, bot_level: botLevel, ...(seconds ? { play_seconds: seconds } : {}) });
      const joined = await api.joinSeat(table.id, order[0], name);
      setTicket(table.id, { token: joined.token, seat: joined.seat, game });
      go(`#/t/${table.id}`);
    } catch (e) {
      showError(e);
    }
  };

  // Join by code.
  const codeInput = h('input', { id: 'code', type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const joinByCode = () => {
    const code = extractCode(codeInput.value);
    if (code) go(`#/t/${code}`);
  };

  root.replaceChildren(
    topbar(),
    h(
      'main',
      { class: 'lobby' },
      h('section', { class: 'panel name-panel' }, h('h1', {}, t('tagline')), nameField('name'), error),
      h(
        'section',
        { class: 'panel create-panel', 'aria-labelledby': 'create-h' },
        h('h2', { id: 'create-h' }, t('create_table')),
        h('div', { class: 'field' }, h('span', {}, t('game')), gameBox),
        h('div', { class: 'field' }, h('span', { id: 'humans-label' }, t('humans')), humansBox),
        h('div', { class: 'field' }, h('span', { id: 'seconds-label' }, t('play_time')), secondsBox),
        h('div', { class: 'field' }, h('span', { id: 'bot-level-label' }, t('bot_level')), levelBox),
        h('button', { class: 'primary', id: 'create', 'on:click': create }, t('create')),
      ),
      h(
        'section',
        { class: 'panel practice-panel', 'aria-labelledby': 'practice-h' },
        h('h2', { id: 'practice-h' }, t('practice_h')),
        h('p', { class: 'hint' }, t('practice_hint')),
        h('div', { class: 'row' }, h('a', { class: 'button-link primary', id: 'to-practice', href: 'practice.html' }, t('practice_go'))),
      ),
      h(
        'section',
        { class: 'panel join-panel', 'aria-labelledby': 'join-h' },
        h('h2', { id: 'join-h' }, t('join_by_code')),
        h('div', { class: 'field' }, h('label', { for: 'code' }, t('code')), codeInput),
        h('button', { id: 'join-code', 'on:click': joinByCode }, t('join')),
      ),
      h(
        'section',
        { class: 'panel events-panel', 'aria-labelledby': 'events-h' },
        h('h2', { id: 'events-h' }, t('events_h')),
        h('p', { class: 'hint' }, t('events_hint')),
        h(
          'div',
          { class: 'row' },
          h('a', { class: 'button-link', id: 'join-event', href: 'pair.html', style: BIG_LINK }, t('join_event')),
          h('a', { class: 'button-link', href: 'standings.html', style: BIG_LINK }, t('event_standings')),
        ),
      ),
      h(
        'section',
        { class: 'panel tables-panel', 'aria-labelledby': 'tables-h' },
        h('div', { class: 'row', style: 'justify-content:space-between' }, h('h2', { id: 'tables-h' }, t('tables')), h('button', { 'on:click': refresh }, t('refresh'))),
        list,
        finished,
      ),
    ),
  );
  refresh();
}

/** A link as large as the lobby's buttons (the events' pages are separate documents). */
const BIG_LINK = 'min-height:56px;display:inline-flex;align-items:center;padding:4px 18px;font-size:22px;font-weight:700;border:3px solid var(--accent);border-radius:var(--radius);text-decoration:none';

/** A table code out of a pasted link or a typed code (「123 456」, 「123-456」, any case). @param {string} text */
export function extractCode(text) {
  const link = text.match(/#\/t\/([A-Za-z0-9_-]+)/);
  if (link) return link[1];
  const code = text.replace(/[\s-]+/g, '').toLowerCase();
  return /^[a-z0-9_]+$/.test(code) ? code : null;
}

/** A table in the list: the game, its code, who plays (computers marked), its state. @param {TableSummary} x @param {(hash: string) => void} go */
function tableRow(x, go) {
  const free = x.seats.filter((s) => s.name === null && !s.bot).length;
  const over = x.state === 'over';
  const players = x.seats.filter((s) => s.name).map((s) => s.name).join('、');
  const state = over ? t('finished') : x.state === 'playing' ? t('playing_now') : t('waiting_players');
  return h(
    'li',
    { 'data-table': x.id, 'data-state': x.state },
    h(
      'span',
      { class: 'desc' },
      h('b', {}, gameName(x.game)),
      ` · ${t('code')} ${formatCode(x.id)} · `,
      h('span', { class: 'tag ' + (over ? 'offline' : x.state === 'playing' ? 'team' : 'declarer'), 'data-table-state': x.state }, state),
      free ? ` · ${t('free_seats')} ${free}` : '',
      x.seats.some((s) => s.bot) ? h('span', { 'data-bot-level': x.bot_level }, ` · ${t('bot_level_of', { level: t(`bot_level_${x.bot_level}`) })}`) : '',
      x.spectators ? ` · ${t('spectators')} ${x.spectators}` : '',
      players ? h('span', { class: 'players' }, `${t('players')}：${players}`) : null,
    ),
    h(
      'span',
      { class: 'row' },
      // A table this browser holds a seat at: back to that seat (a finished one too, for its result).
      ticket(x.id) ? h('button', { class: 'primary', 'on:click': () => go(`#/t/${x.id}`) }, t('back_to_seat')) : null,
      free > 0 && !over && !ticket(x.id) ? h('button', { 'on:click': () => go(`#/t/${x.id}`) }, t('join')) : null,
      h('button', { 'on:click': () => go(`#/t/${x.id}/watch`) }, over ? t('view_table') : t('watch')),
    ),
  );
}

/** Whether the settings panel is open (kept across re-renders of the page). */
let settingsOpen = false;

/**
 * The bar at the top of every page: the name of the place, facts of the table, a 设置 button
 * that opens the language, suit colour and sound switches (a tap, never a hover).
 * @param {...HTMLElement} middle
 */
export function topbar(...middle) {
  const [lead, ...facts] = middle[0]?.tagName === 'BUTTON' ? middle : [null, ...middle];
  const s = settings();
  const panel = h(
    'div',
    { class: 'settings-row', id: 'settings-panel', hidden: !settingsOpen },
    h('button', { id: 'lang', lang: s.lang === 'zh' ? 'en' : 'zh', title: t('language_label'), 'on:click': () => set('lang', s.lang === 'zh' ? 'en' : 'zh') }, t('language')),
    h('button', { id: 'four-colour', class: 'toggle', 'aria-pressed': String(s.fourColour), 'on:click': () => set('fourColour', !s.fourColour) }, t('four_colour')),
    h('button', { id: 'sound', class: 'toggle', 'aria-pressed': String(s.sound), 'on:click': () => set('sound', !s.sound) }, t('sound')),
    h('button', { id: 'big-text', class: 'toggle', 'aria-pressed': String(s.bigText), 'on:click': () => set('bigText', !s.bigText) }, t('big_text')),
    h('button', { id: 'big-cards', class: 'toggle', 'aria-pressed': String(s.bigCards), 'on:click': () => set('bigCards', !s.bigCards) }, t('big_cards')),
  );
  const toggle = h('button', {
    id: 'settings',
    'aria-expanded': String(settingsOpen),
    'aria-controls': 'settings-panel',
    'on:click': () => {
      settingsOpen = !settingsOpen;
      panel.hidden = !settingsOpen;
      toggle.setAttribute('aria-expanded', String(settingsOpen));
    },
  }, t('settings'));
  return h(
    'header',
    { class: 'topbar' },
    h('a', { href: '#/', class: 'brand' }, t('title')),
    lead,
    h('div', { class: 'info' }, facts),
    toggle,
    panel,
  );
}
