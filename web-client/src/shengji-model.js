// @ts-check
//! The 80分 engine's view (rules::shengji, as JSON) turned into what the table draws, and the
//! engine's actions. Everything game-specific about the wire is in this file.
//!
//! Nothing here knows a rule: the hand is drawn in the order the view gives it, who is winning
//! the trick is the view's `winning`, which cards can be played is the view's `playable` and a
//! suggested play its `hint` (both only for the seat to act, and only when the engine sends
//! them). A play is sent as it is and the engine's refusal is shown as it comes.

/** @typedef {import('./cards.js').Suit} Suit */
/** @typedef {import('./protocol').ShengjiView} ShengjiView (generated from rules::shengji::View) */
/** @typedef {import('./protocol').ShengjiAction} ShengjiAction */
/**
 * @typedef {{ seat: number, cards: string[] }} Play
 * @typedef {{ number: number, leader: number, plays: Play[], winner: number | null, points: number }} Trick
 * @typedef {{ seat: number, attempted: string[], blockers: number[], penalty: number, forced: string[] | null, chooser: number | null }} FailedThrow
 * @typedef {object} ShengjiModel
 * @property {'bury' | 'play' | 'choose' | 'over'} phase
 * @property {number} board
 * @property {string} level  as the engine writes it: `"2"`…`"10"`, `"J"`…`"A"`
 * @property {Suit | null} trump  null: 无主
 * @property {number} declarer
 * @property {number | null} toAct
 * @property {string[] | null} hand  mine, in the engine's order; null for a spectator
 * @property {Set<string> | null} playable  the cards that are part of some legal play (the engine's `playable`), or null when the view does not say
 * @property {string[] | null} hint  one legal play (the engine's `hint`), or null
 * @property {number[]} counts  cards held per seat
 * @property {Trick | null} trick  the current trick (null before its lead)
 * @property {Trick | null} lastTrick
 * @property {Trick[]} tricks  every finished trick, once the board is over (for the review)
 * @property {number} defenderPoints  after penalties
 * @property {string[]} pointCards  the point cards in the tricks the defenders won (the view's)
 * @property {number | null} pointsLeft  card points not yet played (the view's), null when the view does not say
 * @property {number | null} handTrumps  how many of my hand's first cards are trumps (the view's)
 * @property {number | null} playSeconds  seconds a play (the ruleset's in the view)
 * @property {string[] | null} kitty  the buried kitty, when this viewer may see it
 * @property {{ chooser: number, single: string[], pair: string[] } | null} choice
 * @property {number | null} result  the defenders' points once the board is over
 */

const SEAT_LETTERS = ['N', 'E', 'S', 'W'];

/** A seat as the engine writes it (`"N"`) → index. @param {unknown} s */
export function seatIndex(s) {
  if (typeof s === 'number') return s;
  const i = SEAT_LETTERS.indexOf(String(s).toUpperCase());
  return i < 0 ? 0 : i;
}

/** `"S"`…`"C"`, or `"NT"` (无主) → null. @param {unknown} s @returns {Suit | null} */
function suitOf(s) {
  return s === 'S' || s === 'H' || s === 'D' || s === 'C' ? s : null;
}

/** @param {import('./protocol').SeatPlay[] | undefined} plays */
function playsOf(plays) {
  return (plays ?? []).map((p) => ({ seat: seatIndex(p.seat), cards: p.cards ?? [] }));
}

/**
 * A finished trick as the engine records it.
 * @param {import('./protocol').TrickRecord | null | undefined} t @returns {Trick | null}
 */
export function trickRecord(t) {
  if (!t) return null;
  const plays = playsOf(t.plays);
  return { number: t.trick ?? 0, leader: plays[0]?.seat ?? 0, plays, winner: t.winner ? seatIndex(t.winner) : null, points: t.points ?? 0 };
}

/**
 * @param {ShengjiView | null | undefined} view  the engine's view (null before the first snapshot)
 * @returns {ShengjiModel}
 */
export function shengjiModel(view) {
  /** @type {Partial<ShengjiView>} */
  const v = view ?? {};
  // Fields the engine adds for the seat to act; absent from older servers (then: no dimming, no hint).
  const asked = /** @type {{ playable?: unknown, hint?: unknown }} */ (v);
  const plays = playsOf(v.plays);
  return {
    phase: v.phase ?? 'play',
    board: v.board ?? 0,
    level: String(v.level ?? ''),
    trump: suitOf(v.trump),
    declarer: seatIndex(v.declarer ?? 0),
    toAct: v.to_act ? seatIndex(v.to_act) : null,
    hand: Array.isArray(v.hand) ? v.hand : null,
    playable: Array.isArray(asked.playable) ? new Set(/** @type {string[]} */ (asked.playable)) : null,
    hint: Array.isArray(asked.hint) && asked.hint.length ? /** @type {string[]} */ (asked.hint) : null,
    counts: v.hand_sizes ?? [],
    trick: plays.length
      ? { number: v.trick ?? 0, leader: seatIndex(v.leader), plays, winner: v.winning ? seatIndex(v.winning) : null, points: 0 }
      : null,
    lastTrick: trickRecord(v.last_trick),
    tricks: /** @type {Trick[]} */ ((v.tricks ?? []).map(trickRecord).filter(Boolean)),
    defenderPoints: v.defenders ?? 0,
    pointCards: v.defender_point_cards ?? [],
    pointsLeft: typeof v.points_left === 'number' ? v.points_left : null,
    handTrumps: typeof v.hand_trumps === 'number' ? v.hand_trumps : null,
    playSeconds: typeof v.ruleset?.play_seconds === 'number' ? v.ruleset.play_seconds : null,
    kitty: v.kitty ?? null,
    choice: v.choice ? { chooser: seatIndex(v.choice.chooser), single: v.choice.single ?? [], pair: v.choice.pair ?? [] } : null,
    result: typeof v.result === 'number' ? v.result : null,
  };
}

/**
 * 甩牌失败 as the event tells everyone (rules::shengji::Event::ThrowFailed).
 * @param {Extract<import('./protocol').ShengjiEvent, { type: 'throw_failed' }>} ev @returns {FailedThrow}
 */
export function failedThrow(ev) {
  const blockers = new Set();
  for (const b of ev.blocked ?? []) for (const s of b.by ?? []) blockers.add(seatIndex(s));
  return {
    seat: seatIndex(ev.seat),
    attempted: ev.attempt ?? [],
    blockers: [...blockers],
    penalty: ev.penalty ?? 0,
    forced: ev.forced ?? null,
    chooser: ev.chooser ? seatIndex(ev.chooser) : null,
  };
}

/** The engine's actions (`{"type": …}`). */
export const shengjiActions = {
  /** @param {string[]} cards @returns {ShengjiAction} */
  play: (cards) => ({ type: 'play', cards }),
  /** @param {string[]} cards @returns {ShengjiAction} */
  bury: (cards) => ({ type: 'bury', cards }),
  /** The opponents' choice after a failed throw. @param {'single' | 'pair'} unit @returns {ShengjiAction} */
  choose: (unit) => ({ type: 'choose', unit }),
};
