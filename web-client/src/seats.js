// Seat names as the page shows them (display only: which seat is whose partner is the engine's).
// Its own module so that the table and the two games' views can all use it without importing
// each other.

import { settings } from './settings.js';

/**
 * The seats' names in seat order: 够级 A1…B3; 80分 the compass, in the page's language.
 * @param {string} game
 */
export function seatNames(game) {
  if (game === 'gouji') return ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'];
  return settings().lang === 'en' ? ['North', 'East', 'South', 'West'] : ['北', '东', '南', '西'];
}
