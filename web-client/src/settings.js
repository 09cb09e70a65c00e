// @ts-check
//! What the browser remembers between visits: the display name, the language, the suit colours,
//! the turn sound, larger text and cards (大字, 大牌), the seat tokens that let a player come
//! back to their seat, the scores of the boards played with the same seed (a session), and a
//! practice player's personal code (练习). No account.

const PREFIX = 'paiju.';

/**
 * @typedef {{ lang: 'zh' | 'en', fourColour: boolean, sound: boolean, name: string, bigText: boolean, bigCards: boolean }} Settings
 */

/** @type {Settings} */
const DEFAULTS = { lang: 'zh', fourColour: false, sound: true, name: '', bigText: false, bigCards: false };

/** @param {string} key */
function read(key) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? undefined : JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** @param {string} key @param {unknown} value */
function write(key, value) {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private mode or a full store: the page still works, it only forgets.
  }
}

/** @type {Set<(key: keyof Settings) => void>} */
const listeners = new Set();

/** @returns {Settings} */
export function settings() {
  return {
    lang: read('lang') === 'en' ? 'en' : DEFAULTS.lang,
    fourColour: read('fourColour') === true,
    sound: read('sound') !== false,
    name: typeof read('name') === 'string' ? read('name') : DEFAULTS.name,
    bigText: read('bigText') === true,
    bigCards: read('bigCards') === true,
  };
}

/**
 * @template {keyof Settings} K
 * @param {K} key
 * @param {Settings[K]} value
 */
export function set(key, value) {
  write(key, value);
  for (const f of listeners) f(key);
}

/** Calls `f` with the key whenever a setting changes. @param {(key: keyof Settings) => void} f */
export function onChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/**
 * A seat this browser holds: the token proves it to the server after a reload. `event`: the
 * event (赛事) whose table it is, when the player sat down from the pair's page (or the practice
 * set's, from the practice page): the table then leads to the pair's (the run's) next board, not
 * to a session's.
 * @typedef {{ token: string, seat: number, game?: string, event?: string }} SeatTicket
 */

/** @param {string} table @returns {SeatTicket | undefined} */
export function ticket(table) {
  const t = read('seat.' + table);
  return t && typeof t.token === 'string' && typeof t.seat === 'number' ? t : undefined;
}

/** @param {string} table @param {SeatTicket | undefined} t */
export function setTicket(table, t) {
  if (t) write('seat.' + table, t);
  else {
    try {
      localStorage.removeItem(PREFIX + 'seat.' + table);
    } catch {
      // ignore
    }
  }
}

/** The device id's shape the server takes (8 to 64 of `A-Z a-z 0-9 - _`). */
const DEVICE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Made when storage fails (a private window): the id still holds for this page's life. @type {string | null} */
let deviceFallback = null;

/**
 * This browser's device id, sent in every `hello`: random, made once and kept in
 * `localStorage` (`paiju.device`). A competition's table logs a keyed mark of it, so it can tell
 * this device coming back (its old line not yet noticed dead: it takes its seat again) from a
 * second device on the same seat (which takes the seat over, or is refused). It names nothing
 * and nobody: 16 random bytes, base64url (22 characters).
 */
export function deviceId() {
  try {
    const kept = localStorage.getItem(PREFIX + 'device');
    if (kept && DEVICE_ID.test(kept)) return kept;
    const made = newDeviceId();
    localStorage.setItem(PREFIX + 'device', made);
    return made;
  } catch {
    deviceFallback ??= newDeviceId();
    return deviceFallback;
  }
}

/** 16 bytes from the browser's cryptographic random source, base64url without padding. */
function newDeviceId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The pair (or 够级 team) token of an event this browser was given (typed from the seating card,
 * or in the pair page's address): the pair's page and its tables read it. Kept as it is typed.
 * @param {string} event
 */
export function pairToken(event) {
  try {
    return localStorage.getItem(`${PREFIX}pair.${event}`) ?? '';
  } catch {
    return '';
  }
}

/** @param {string} event @param {string} token */
export function setPairToken(event, token) {
  try {
    localStorage.setItem(`${PREFIX}pair.${event}`, token);
  } catch {
    // Private mode: the token is typed again next time (the pair page keeps it in its address).
  }
}

/**
 * One board (or 够级 game) of a session, as this browser saw it: the session is every table
 * dealt from the same seed (its commitment), played one board after another (下一副).
 * `mine`: what the board was worth to my side, as the result screen showed it.
 * @typedef {{ board: number, table: string, side: string, result: number, mine: number }} SessionBoard
 */

/** @param {string} commitment @returns {SessionBoard[]} */
export function sessionBoards(commitment) {
  const v = read('session.' + commitment);
  return Array.isArray(v) ? v : [];
}

/** Records a finished board of the session (once per board). @param {string} commitment @param {SessionBoard} b */
export function recordBoard(commitment, b) {
  const list = sessionBoards(commitment).filter((x) => x.board !== b.board);
  write('session.' + commitment, [...list, b].sort((x, y) => x.board - y.board));
}

/** The personal code's shape as the server prints it (`xxxx-xxxx-xxxx`); typed codes are normalised to it. */
const PLAYER_CODE = /^[a-z0-9]{4}(-[a-z0-9]{4}){2,}$/;

/**
 * A personal code as typed or pasted (from a printout, with spaces, in capitals, or the whole
 * personal link): its `xxxx-xxxx-xxxx` form, or '' when it is not one. Whether it names a
 * player is the server's to say.
 * @param {string} text
 */
export function normalPlayerCode(text) {
  const link = text.match(/#p=([A-Za-z0-9-]+)/);
  const raw = (link ? link[1] : text).toLowerCase().replace(/[^a-z0-9]/g, '');
  if (raw.length < 12 || raw.length % 4 !== 0) return '';
  const code = raw.match(/.{4}/g)?.join('-') ?? '';
  return PLAYER_CODE.test(code) ? code : '';
}

/**
 * The practice player (练习) this browser plays as: their personal code, the only proof of who
 * they are (the server keeps its hash). '' when none.
 */
export function playerCode() {
  const c = read('player');
  return typeof c === 'string' ? c : '';
}

/** Remembers (or, with '', forgets) the personal code on this device. @param {string} code */
export function setPlayerCode(code) {
  if (code) write('player', code);
  else {
    try {
      localStorage.removeItem(PREFIX + 'player');
    } catch {
      // ignore
    }
  }
}
