// @ts-check
//! 练习 over HTTP (issue 26; server/src/practice/api.rs is the truth): a player made without a
//! password (a name; the server gives the personal code), their own page (history, best and worst
//! boards), the sets open to all, a set's view and ranking, beginning a run and sitting at its
//! board now, the run board by board with each played board's field, and the replay of a table
//! of a board the player has played. The personal code goes in request bodies only, never in a
//! URL a proxy would log.
//!
//! The wire types mirror `protocol/src/practice.rs` (they are not in the generated declarations).

import { request } from './api.js';

/**
 * @typedef {{ id: string, token: string, name: string }} PlayerMade
 * @typedef {{ entry: string, points?: number, through_round: number }} EventLine  an event (赛事) in a player's history: their pair (`NS 1`) or team (`team 3`)
 * @typedef {{ set: string, name: string, game: string, club?: string, began_ms: number, boards: number, played: number, done: boolean, percent?: number, place?: number, of: number, open: boolean, event?: EventLine }} HistoryLine  `event`: an event's line (`set` is its id)
 * @typedef {{ set: string, set_name: string, game: string, board: number, percent: number, began_ms: number }} BoardLine
 * @typedef {{ id: string, name: string, created_ms: number, history: HistoryLine[], best: BoardLine[], worst: BoardLine[] }} PlayerView
 * @typedef {{ id: string, name: string, game: string, boards: number, closes_ms: number, club?: string, open: boolean, players: number }} PracticeBrief
 * @typedef {{ place: number, run: number, name: string, level: string, computer?: boolean, percent: number, began_ms: number }} PracticeLine
 * @typedef {{ closes_ms: number, club?: string, references: string[], utc_offset_minutes: number, players: number, finished: number, ranking: PracticeLine[] }} PracticeSetView
 * @typedef {{ id: string, name: string, game: string, state: string, boards_per_round: number, now_ms: number, seed_commitment: string, seed?: string, practice?: PracticeSetView }} SetView  the set's event view (the parts the page reads)
 * @typedef {{ declarer?: string, declaring?: string, defenders?: number, a?: number, b?: number, auto_moves?: number }} PracticeResult
 * @typedef {{ run: number, name: string, level: string, computer?: boolean, mine?: boolean, result: PracticeResult, mp: number, top: number, percent: number, table_id: string }} FieldLine
 * @typedef {{ board: number, table_id?: string, now: boolean, done: boolean, result?: PracticeResult, mp?: number, top?: number, percent?: number, field?: FieldLine[] }} RunBoard
 * @typedef {{ set: string, run: number, name: string, level: string, began_ms: number, percent?: number, done: boolean, place?: number, of: number, boards: RunBoard[] }} RunView
 * @typedef {{ day: string, lines: PracticeLine[] }} PracticeDay
 * @typedef {{ game: string, boards: number, club?: string, day?: string, lines: PracticeLine[], days: PracticeDay[] }} PracticeStandings
 * @typedef {{ table: string, seat: number, token: string, round: number, table_no: number, board: number }} Joined
 */

/** @param {string} id */
const set = (id) => `/api/practice/${encodeURIComponent(id)}`;

/** A new player: a name; the server gives the code. @param {string} name @returns {Promise<PlayerMade>} */
export function newPlayer(name) {
  return request('POST', '/api/players', { body: { name } });
}

/** The player's own page (403 `bad_player_code` for a code that names nobody). @param {string} token @returns {Promise<PlayerView>} */
export function me(token) {
  return request('POST', '/api/players/me', { body: { token } });
}

/**
 * An event, from its card's page opened on a browser that keeps the player's code, into their
 * history (the server checks the card against the event and keeps the pair or team, never the
 * card's token).
 * @param {string} token @param {string} event @param {string} card
 */
export function linkEvent(token, event, card) {
  return request('POST', '/api/players/me/events', { body: { token, event, card } });
}

/** The personal link as an SVG QR code (text). @param {string} token @returns {Promise<string>} */
export function myQr(token) {
  return request('POST', '/api/players/me/qr.svg', { body: { token } });
}

/** The sets open to all (a club's is reached by its code). @returns {Promise<PracticeBrief[]>} */
export function openSets() {
  return request('GET', '/api/practice');
}

/** A set's view and ranking. @param {string} id @returns {Promise<SetView>} */
export function setView(id) {
  return request('GET', set(id));
}

/**
 * Begins the run (the first time, at `level`) or sits the player at its board now.
 * @param {string} id @param {string} token @param {string} [level] @returns {Promise<Joined>}
 */
export function join(id, token, level) {
  return request('POST', `${set(id)}/join`, { body: level ? { token, level } : { token } });
}

/** The run board by board (409 `practice_not_begun` before the first join). @param {string} id @param {string} token @returns {Promise<RunView>} */
export function run(id, token) {
  return request('POST', `${set(id)}/run`, { body: { token } });
}

/**
 * The replay (every hand) of a table of a board the player has played, or (`at`) its state
 * after that action, as the referee's replay gives it.
 * @param {string} id @param {string} token @param {string} table @param {number} [at]
 */
export function replay(id, token, table, at) {
  return request('POST', `${set(id)}/replay`, { body: at === undefined ? { token, table } : { token, table, at } });
}

/**
 * Why action `seq` of such a table was legal, in the engine's words; with `allSeeing`, what
 * every hand known says of the decision.
 * @param {string} id @param {string} token @param {string} table @param {number} seq @param {boolean} [allSeeing]
 */
export function explain(id, token, table, seq, allSeeing = false) {
  return request('POST', `${set(id)}/explain`, { body: { token, table, seq, all_seeing: allSeeing } });
}

/** The set's ranking, of one day when asked. @param {string} id @param {string} [day] @returns {Promise<{ practice: PracticeStandings }>} */
export function standings(id, day) {
  return request('GET', `${set(id)}/standings${day ? `?day=${encodeURIComponent(day)}` : ''}`);
}

/** The printable ranking (A4) and the CSV, to link to. @param {string} id @param {{ day?: string, lang?: string }} [o] */
export function resultsLinks(id, o = {}) {
  const q = (/** @type {Record<string, string | undefined>} */ p) => {
    const s = new URLSearchParams(Object.entries(p).filter((e) => !!e[1]).map(([k, v]) => [k, String(v)])).toString();
    return s ? `?${s}` : '';
  };
  return { html: `${set(id)}/results.html${q({ day: o.day })}`, csv: `${set(id)}/results.csv${q({ day: o.day, lang: o.lang === 'en' ? 'en' : undefined })}` };
}
