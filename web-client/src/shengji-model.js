// @ts-check
//! The 80分 engine's view (rules::shengji, as JSON) turned into what the table draws, and the
//! engine's actions. Everything game-specific about the wire is in this file.

/** @typedef {import('./cards.js').Suit} Suit */
/**
 * @typedef {{ seat: number, cards: string[] }} Play
 * @typedef {{ leader: number, plays: Play[], winner: number | null }} Trick
 * @typedef {object} ShengjiModel
 * @property {'bury' | 'play' | 'choose' | 'over'} phase
 * @property {number} board
 * @property {number} level  2..14
 * @property {Suit | null} trump  null: 无主
 * @property {number} declarer
 * @property {string[] | null} hand  mine; null for a spectator
 * @property {number[]} counts  cards left per seat
 * @property {Trick | null} trick  the current trick
 * @property {Trick | null} lastTrick
 * @property {Trick[]} tricks  finished tricks, for the review
 * @property {number} defenderPoints
 * @property {number} buryCount
 * @property {string[] | null} kitty
 * @property {{ seat: number, attempted: string[], blockers: number[], penalty: number, forced: string[] | null } | null} failedThrow
 * @property {{ thrower: number, chooser: number, single: string[], pair: string[] } | null} choice
 * @property {{ defenderPoints: number, trickPoints: number, kittyPoints: number, multiplier: number, penalties: number } | null} result
 */

const SEAT_LETTERS = ['N', 'E', 'S', 'W'];

/** A seat as the engine writes it (`"N"` or 0) → index. @param {unknown} s */
export function seatIndex(s) {
  if (typeof s === 'number') return s;
  const i = SEAT_LETTERS.indexOf(String(s).toUpperCase());
  return i < 0 ? 0 : i;
}

/** A rank as the engine writes it (`"10"`, `"A"`, 14) → 2..14. @param {unknown} r */
export function rankValue(r) {
  if (typeof r === 'number') return r;
  const s = String(r).toUpperCase();
  return { J: 11, Q: 12, K: 13, A: 14 }[s] ?? (Number(s) || 2);
}

/** @param {unknown} s @returns {Suit | null} */
function suitOf(s) {
  const x = typeof s === 'string' ? s.toUpperCase()[0] : '';
  return x === 'S' || x === 'H' || x === 'D' || x === 'C' ? x : null;
}

/** @param {any} t @returns {Trick | null} */
function trickOf(t) {
  if (!t) return null;
  const plays = (t.plays ?? []).map((/** @type {any} */ p) => ({ seat: seatIndex(p.seat), cards: p.cards ?? [] }));
  return { leader: seatIndex(t.leader ?? plays[0]?.seat ?? 0), plays, winner: t.winner === undefined || t.winner === null ? null : seatIndex(t.winner) };
}

/**
 * @param {any} v  the engine's view
 * @returns {ShengjiModel}
 */
export function shengjiModel(v) {
  v = v ?? {};
  const tricks = (v.tricks ?? []).map(trickOf).filter(Boolean);
  return {
    phase: v.phase ?? 'play',
    board: v.board ?? 0,
    level: rankValue(v.level ?? 2),
    trump: suitOf(v.trump),
    declarer: seatIndex(v.declarer ?? 0),
    hand: Array.isArray(v.hand) ? v.hand : null,
    counts: v.counts ?? [],
    trick: trickOf(v.trick),
    lastTrick: trickOf(v.last_trick) ?? tricks[tricks.length - 1] ?? null,
    tricks,
    defenderPoints: v.defender_points ?? 0,
    buryCount: v.bury_count ?? 8,
    kitty: v.kitty ?? null,
    failedThrow: v.failed_throw
      ? {
          seat: seatIndex(v.failed_throw.seat),
          attempted: v.failed_throw.attempted ?? [],
          blockers: (v.failed_throw.blockers ?? []).map(seatIndex),
          penalty: v.failed_throw.penalty ?? 0,
          forced: v.failed_throw.forced ?? null,
        }
      : null,
    choice: v.choice
      ? { thrower: seatIndex(v.choice.thrower), chooser: seatIndex(v.choice.chooser), single: v.choice.single ?? [], pair: v.choice.pair ?? [] }
      : null,
    result: v.result
      ? {
          defenderPoints: v.result.defender_points ?? 0,
          trickPoints: v.result.trick_points ?? 0,
          kittyPoints: v.result.kitty_points ?? 0,
          multiplier: v.result.multiplier ?? 1,
          penalties: v.result.penalties ?? 0,
        }
      : null,
  };
}

/** The engine's actions (`{"type": …}`). */
export const shengjiActions = {
  /** @param {string[]} cards */
  play: (cards) => ({ type: 'play', cards }),
  /** @param {string[]} cards */
  bury: (cards) => ({ type: 'bury', cards }),
  /** The opponents' choice after a failed throw. @param {'single' | 'pair'} unit */
  choose: (unit) => ({ type: 'choose', unit }),
};
