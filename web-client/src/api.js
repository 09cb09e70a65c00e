// @ts-check
//! The lobby over HTTP (docs/protocol.md, "Lobby"): list, create, join, leave; and the two calls
//! of an event's pair that its tables make (where the pair plays next, sitting down there).

/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./protocol').CreateTable} CreateTable */
/** @typedef {import('./protocol').Joined} Joined */
/** @typedef {import('./protocol').Problem} Problem */

/** A refusal from the server, with its code and both languages. */
export class ApiError extends Error {
  /** @param {number} status @param {Problem} problem */
  constructor(status, problem) {
    super(problem.en || problem.code);
    this.status = status;
    this.problem = problem;
  }
}

/** The page's own words when the server cannot be reached. @type {Problem} */
export const NETWORK = { code: 'network', zh: '连不上服务器，请您检查网络', en: 'cannot reach the server; check the network' };

/**
 * One call to the server, JSON in and out (text that is not JSON comes back as it is). A
 * refusal throws an `ApiError` with the server's problem (or, when it sent none, the page's own
 * words for the status). `bearer`: a referee's or director's token. The lobby, the referee's
 * desk and the event pages all call the server this way.
 * @param {string} method @param {string} path @param {{ body?: unknown, bearer?: string }} [opts]
 * @returns {Promise<any>}
 */
export async function request(method, path, { body, bearer } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, NETWORK);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    const problem =
      data && typeof data === 'object' && typeof data.code === 'string'
        ? data
        : { code: `http_${res.status}`, zh: `服务器出错（${res.status}），请您稍后再试`, en: `server error (${res.status}); please try again later` };
    throw new ApiError(res.status, problem);
  }
  return data;
}

/** @param {string} method @param {string} path @param {unknown} [body] */
function call(method, path, body) {
  return request(method, path, { body });
}

/** @returns {Promise<TableSummary[]>} */
export function listTables() {
  return call('GET', '/api/tables');
}

/** @param {string} id @returns {Promise<TableSummary>} */
export function getTable(id) {
  return call('GET', `/api/tables/${encodeURIComponent(id)}`);
}

/** @param {CreateTable} req @returns {Promise<TableSummary>} */
export function createTable(req) {
  return call('POST', '/api/tables', req);
}

/** @param {string} id @param {number} seat @param {string} name @returns {Promise<Joined>} */
export function joinSeat(id, seat, name) {
  return call('POST', `/api/tables/${encodeURIComponent(id)}/join`, { seat, name });
}

/** @param {string} id @param {string} token */
export function leaveSeat(id, token) {
  return call('POST', `/api/tables/${encodeURIComponent(id)}/leave`, { token });
}

/** A pair's (or 够级 team's) own view of its event, by its token (`PairStatus`). @param {string} event @param {string} token @returns {Promise<any>} */
export function pairStatus(event, token) {
  return call('POST', `/api/events/${encodeURIComponent(event)}/pair`, { token });
}

/** Sits a player of the pair at its current board (`EventJoined`). @param {string} event @param {string} token @returns {Promise<Joined>} */
export function eventJoin(event, token) {
  return call('POST', `/api/events/${encodeURIComponent(event)}/join`, { token });
}

/** The WebSocket URL of a table, on the page's own host. @param {string} id */
export function socketUrl(id) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws/${encodeURIComponent(id)}`;
}
