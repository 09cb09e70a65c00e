// @ts-check
//! 赛事的下一副 (an event table's way on): after a board at an event (赛事) table the player's next
//! step is the event's, never a casual session's 下一副 (whose seed an event keeps secret). The
//! pair's own view (`POST /api/events/{id}/pair` with the token of its seating card, which this
//! browser keeps) says where the pair plays: a board of its round open at another table is its
//! next seat, one tap away (`/join` sits the player there, as 入座打牌 does); otherwise (the round's
//! boards played, the next round not started) the way is back to the pair's page. A 够级 team's
//! next game is the game its view marks as now. The page decides nothing about the event: it
//! reads where the server put the pair.

import * as api from './api.js';
import { pairToken, setTicket } from './settings.js';

/**
 * Where the pair goes from this table: `next`, a board (够级: a game) open for it elsewhere now;
 * `page`, its own page.
 * @typedef {{ kind: 'next', board: number } | { kind: 'page' }} EventNext
 */

/**
 * What the pair's view says comes after this table.
 * @param {string} event @param {string} here  this table's code
 * @returns {Promise<EventNext>}
 */
export async function eventNext(event, here) {
  const token = pairToken(event);
  if (!token) return { kind: 'page' };
  const me = await api.pairStatus(event, token);
  if (me.team) {
    const now = (me.team.games ?? []).find((/** @type {any} */ g) => g.now && !g.done);
    return now ? { kind: 'next', board: now.game } : { kind: 'page' };
  }
  const next = (me.table?.boards ?? []).find((/** @type {any} */ b) => !b.done && b.table_id && b.table_id !== here);
  return next ? { kind: 'next', board: next.board } : { kind: 'page' };
}

/**
 * Sits me at the pair's current board (the server's choice) and returns its table's code.
 * @param {string} event @param {string} game
 */
export async function sitNext(event, game) {
  const joined = await api.eventJoin(event, pairToken(event));
  setTicket(joined.table, { token: joined.token, seat: joined.seat, game, event });
  return joined.table;
}

/** The pair's (or team's) own page. @param {string} event */
export function pairPageLink(event) {
  return `pair.html?e=${encodeURIComponent(event)}`;
}
