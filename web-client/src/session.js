// @ts-check
//! 下一副 (the next board): a session is the boards dealt from one seed, played one after the
//! other at new tables (board + 1: the same seed deals the next board, its declarer the deal's,
//! so the declarer rotates). Whoever presses 下一副 first opens the next table with the same seed,
//! the same computers in the same seats and the same clock, and sits in their own seat; the
//! others' pages find it in the lobby (same seed commitment, board + 1) and sit at theirs. The
//! seed is public once the board is over (and no open table deals from it): the server checks.
//! No server state beyond the lobby's: a second press finds the table the first one opened.

import * as api from './api.js';
import { t } from './i18n.js';
import { setTicket } from './settings.js';

/** @typedef {import('./protocol').TableSummary} TableSummary */
/** @typedef {import('./table.js').TableModel} TableModel */

/** The session's next board among the lobby's tables, if someone opened it. @param {TableSummary[]} tables @param {TableModel} model */
export function findNext(tables, model) {
  return (
    tables.find(
      (x) => x.seed_commitment === model.commitment && x.game === model.game && x.board === model.board + 1 && (x.state === 'waiting' || x.state === 'playing'),
    ) ?? null
  );
}

/**
 * Sits me at my seat of the session's next board, opening it first if no one has. Returns the
 * table's code. Throws an `api.ApiError` (or an Error with the reason) when it cannot.
 * @param {TableModel} model @param {string} name
 */
export async function openNext(model, name) {
  const seat = /** @type {number} */ (model.seat);
  let next = findNext(await api.listTables(), model);
  if (!next) {
    const here = await api.getTable(model.id);
    if (!here.seed) throw new Error(t('next_no_seed'));
    const seconds = model.view?.ruleset?.play_seconds ?? model.view?.ruleset?.move_seconds;
    next = await api.createTable({
      game: model.game,
      ruleset: model.ruleset,
      seed: here.seed,
      board: model.board + 1,
      bots: here.seats.filter((s) => s.bot).map((s) => s.seat),
      bot_level: here.bot_level,
      ...(typeof seconds === 'number' ? { play_seconds: seconds } : {}),
    });
  }
  const free = next.seats[seat] && !next.seats[seat].bot && next.seats[seat].name === null;
  if (!free) return next.id; // taken (by me from another browser, or someone else): watch or choose there
  const joined = await api.joinSeat(next.id, seat, name);
  setTicket(joined.table, { token: joined.token, seat: joined.seat, game: model.game });
  return joined.table;
}
