// @ts-check
//! 练习的下一副 (a practice table's way on): after a board of a practice set (the table's
//! `welcome.competition.practice`) the player's next step is their run's: its next board, one tap
//! away (`POST /api/practice/{id}/join` seats them at the run's board now), or, once every board
//! is played, the set's page with the percentage and the field. The run's own view
//! (`POST /api/practice/{id}/run`, with the personal code this browser keeps) says which; the page
//! decides nothing itself.

import * as practice from './practice-api.js';
import { playerCode, setTicket } from './settings.js';

/**
 * Where the player goes from this table: `next`, the run's next board (its table may still be
 * opening); `done`, every board played (the set's page); `page`, not known yet (the run has not
 * taken this board's result in yet, or this browser has no code): the set's page for now.
 * @typedef {{ kind: 'next', board: number } | { kind: 'done' } | { kind: 'page' }} PracticeNext
 */

/**
 * What the run says comes after this board.
 * @param {string} set @param {number} board  this table's board
 * @returns {Promise<PracticeNext>}
 */
export async function practiceNext(set, board) {
  const code = playerCode();
  if (!code) return { kind: 'page' };
  const run = await practice.run(set, code);
  if (run.done) return { kind: 'done' };
  const now = run.boards.find((b) => b.now && !b.done);
  return now && now.board !== board ? { kind: 'next', board: now.board } : { kind: 'page' };
}

/**
 * Sits me at the run's board now (the server's choice) and returns its table's code.
 * @param {string} set @param {string} game
 */
export async function sitPractice(set, game) {
  const joined = await practice.join(set, playerCode());
  setTicket(joined.table, { token: joined.token, seat: joined.seat, game, event: set });
  return joined.table;
}

/** The set's page (its boards, the run's percentage, each board's field). @param {string} set */
export function practicePageLink(set) {
  return `practice.html?s=${encodeURIComponent(set)}`;
}

/** A board's field on the set's page (every result on it, their replays). @param {string} set @param {number} board */
export function practiceFieldLink(set, board) {
  return `${practicePageLink(set)}&b=${board}`;
}
