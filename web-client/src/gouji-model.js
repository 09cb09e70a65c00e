// @ts-check
//! The 够级 engine's view (rules::gouji, as JSON) turned into what the table draws, and the
//! engine's actions. Everything game-specific about the wire is in this file.

/**
 * Cards left as the rules let this viewer know them: exact, or only "more than n".
 * @typedef {{ n: number, exact: boolean }} Count
 * @typedef {{ seat: number, cards: string[], gouji: boolean }} TopSet
 * @typedef {object} GoujiModel
 * @property {string[] | null} hand  mine; null for a spectator
 * @property {(Count | null)[]} counts
 * @property {TopSet | null} top  the set to beat (null: a new trick, someone leads)
 * @property {(string[] | 'pass' | 'yield' | null)[]} said  what each seat did last in this trick
 * @property {(number | null)[]} places  0 头科 … 5 大落, per seat
 * @property {boolean[]} opened  开点
 * @property {boolean[]} marked  点
 * @property {number | null} burner  the seat burning now
 * @property {number | null} burnOfferTo  the seat asked whether to burn
 * @property {boolean} freePlay  四户乱缠
 * @property {boolean[]} headless  无头 (their 对头 is out)
 * @property {{ a: number, b: number } | null} score
 * @property {boolean} over
 * @property {number} game
 */

const SEATS = ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'];
const PLACES = ['first', 'second', 'third', 'fourth', 'second_last', 'last'];

/** A seat as the engine writes it (`"B2"` or 3) → index. @param {unknown} s */
export function seatIndex(s) {
  if (typeof s === 'number') return s;
  const i = SEATS.indexOf(String(s).toUpperCase());
  return i < 0 ? 0 : i;
}

/** 对头: three seats away. @param {number} s */
export const opposite = (s) => (s + 3) % 6;
/** Same team (A: even seats). @param {number} a @param {number} b */
export const sameTeam = (a, b) => a % 2 === b % 2;

/** @param {unknown} c @returns {Count | null} */
function countOf(c) {
  if (typeof c === 'number') return { n: c, exact: true };
  if (c && typeof c === 'object') {
    const o = /** @type {any} */ (c);
    if (o.kind === 'exact') return { n: o.n, exact: true };
    if (o.kind === 'more_than') return { n: o.n, exact: false };
  }
  return null;
}

/** @param {unknown} p */
function placeOf(p) {
  if (typeof p === 'number') return p;
  const i = PLACES.indexOf(String(p));
  return i < 0 ? null : i;
}

/** @param {any} v the engine's view @returns {GoujiModel} */
export function goujiModel(v) {
  v = v ?? {};
  /** @param {string} k */
  const perSeat = (k) => (Array.isArray(v[k]) ? v[k] : Array(6).fill(null));
  return {
    hand: Array.isArray(v.hand) ? v.hand : null,
    counts: perSeat('counts').map(countOf),
    top: v.top ? { seat: seatIndex(v.top.seat), cards: v.top.cards ?? [], gouji: !!v.top.gouji } : null,
    said: perSeat('said').map((/** @type {any} */ x) => (x === 'pass' || x === 'yield' || Array.isArray(x) ? x : null)),
    places: perSeat('places').map(placeOf),
    opened: perSeat('opened').map(Boolean),
    marked: perSeat('marked').map(Boolean),
    burner: v.burner === undefined || v.burner === null ? null : seatIndex(v.burner),
    burnOfferTo: v.burn_offer === undefined || v.burn_offer === null ? null : seatIndex(v.burn_offer),
    freePlay: !!v.free_play,
    headless: perSeat('headless').map(Boolean),
    score: v.score ?? null,
    over: !!v.over,
    game: v.game ?? 0,
  };
}

/** The engine's actions (`{"type": …}`, rules::gouji::Action). */
export const goujiActions = {
  /** @param {string[]} cards */
  play: (cards) => ({ type: 'play', cards }),
  pass: () => ({ type: 'pass' }),
  yield: () => ({ type: 'yield' }),
  /** @param {string[]} cards */
  burn: (cards) => ({ type: 'burn', cards }),
  decline: () => ({ type: 'decline' }),
  askCount: () => ({ type: 'ask_count' }),
};
