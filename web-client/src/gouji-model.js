// @ts-check
//! The 够级 engine's view (rules::gouji, as JSON) turned into what the table draws, and the
//! engine's actions. Everything game-specific about the wire is in this file.
//!
//! Nothing here knows a rule. Whether the seat to act may beat, pass or yield, and whether a
//! lead needs a joker, is the engine's prompt in the view; whether a set is a 级牌 is the top
//! set's `gouji`; the hand is drawn in the order the view gives it. A set is sent as it is
//! built and the engine's refusal is shown as it comes.

/**
 * Cards left as the rules let this viewer know them: exact, or only "more than n" (问牌).
 * @typedef {{ n: number, exact: boolean }} Count
 * @typedef {{ seat: number, cards: string[], gouji: boolean, burn: boolean }} TopSet
 * @typedef {object} GoujiModel
 * @property {number} game
 * @property {string[] | null} hand  mine; null for a spectator
 * @property {(Count | null)[]} counts
 * @property {TopSet | null} top  the set to beat (null: a lead is due)
 * @property {number | null} turn  the seat that must act
 * @property {'lead' | 'respond' | 'burn_offer' | null} prompt  what it is asked
 * @property {boolean} mayBeat  (respond) the engine lets that seat beat the top set by normal play
 * @property {boolean} mayYield  (respond) that seat may 让
 * @property {boolean} mayPass  the viewing seat may 过 now (the view's `can_pass`; from an older server: any respond prompt)
 * @property {boolean} burnOffer  the viewing seat is asked whether it burns (the view's `burn_offer`)
 * @property {number | null} playSeconds  seconds a set (the ruleset's `move_seconds` in the view)
 * @property {number | null} freeMinutes  minutes from a game's start without a clock (the ruleset's `free_minutes`: 满10分钟后…)
 * @property {boolean} jokerRequired  (lead) a standing burner must put a joker in the set
 * @property {boolean[]} passed  passed in this trick
 * @property {boolean[]} yielded  yielded the top set
 * @property {(number | null)[]} places  0 头科 … 5 大落, per seat
 * @property {string[]} status  'playing' | 'out' | 'failed', per seat
 * @property {boolean[]} opened  开点
 * @property {boolean[]} marked  点
 * @property {boolean[]} burning  a standing burn
 * @property {boolean[]} headless  无头 (their 对头 is out)
 * @property {boolean} freePlay  四户乱缠
 * @property {number[]} finish  seats out, 头科 first
 * @property {{ a: number, b: number } | null} score  once the game is over
 * @property {string | null} outcome  'places' | 'sweep' | 'forfeit'
 * @property {boolean} over
 */

/** @typedef {import('./protocol').GoujiView} GoujiView (generated from rules::gouji::View) */
/** @typedef {import('./protocol').GoujiAction} GoujiAction */

const SEATS = ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'];
const PLACES = ['first', 'second', 'third', 'fourth', 'second_last', 'last'];

/** A seat as the engine writes it (`"B2"`) → index. @param {unknown} s */
export function seatIndex(s) {
  if (typeof s === 'number') return s;
  const i = SEATS.indexOf(String(s).toUpperCase());
  return i < 0 ? 0 : i;
}

/** 对头: three seats away. @param {number} s */
export const opposite = (s) => (s + 3) % 6;
/** Same team (A: even seats). @param {number} a @param {number} b */
export const sameTeam = (a, b) => a % 2 === b % 2;

/** @param {import('./protocol').CardCount | null | undefined} c @returns {Count | null} */
function countOf(c) {
  if (c && c.kind === 'exact') return { n: c.n, exact: true };
  if (c && c.kind === 'more_than') return { n: c.n, exact: false };
  return null;
}

/** @param {unknown} p */
export function placeIndex(p) {
  const i = PLACES.indexOf(String(p));
  return i < 0 ? null : i;
}

/**
 * @param {GoujiView | null | undefined} view the engine's view (null before the first snapshot)
 * @returns {GoujiModel}
 */
export function goujiModel(view) {
  /** @type {Partial<GoujiView>} */
  const v = view ?? {};
  const players = [...(v.players ?? [])].sort((a, b) => seatIndex(a.seat) - seatIndex(b.seat));
  const prompt = v.prompt ?? null;
  const score = v.score ?? null;
  const viewer = v.viewer;
  const ownSeat = viewer && typeof viewer === 'object' && typeof viewer.seat === 'number' ? viewer.seat : null;
  return {
    game: v.game ?? 0,
    hand: Array.isArray(v.hand) ? v.hand : null,
    // The players' list answers every count as 问牌 would, one's own too: one's own exact
    // count is one's hand.
    counts: players.map((p) => (ownSeat !== null && seatIndex(p.seat) === ownSeat && Array.isArray(v.hand) ? { n: v.hand.length, exact: true } : countOf(p.cards))),
    top: v.top ? { seat: seatIndex(v.top.owner), cards: v.top.cards ?? [], gouji: !!v.top.gouji, burn: !!v.top.burn } : null,
    turn: v.turn ? seatIndex(v.turn) : null,
    prompt: prompt ? prompt.kind : null,
    mayBeat: prompt?.kind === 'respond' && prompt.may_beat,
    mayYield: typeof v.can_yield === 'boolean' ? v.can_yield : prompt?.kind === 'respond' && prompt.may_yield,
    mayPass: typeof v.can_pass === 'boolean' ? v.can_pass : prompt?.kind === 'respond',
    burnOffer: !!v.burn_offer,
    playSeconds: typeof v.ruleset?.move_seconds === 'number' ? v.ruleset.move_seconds : null,
    freeMinutes: typeof v.ruleset?.free_minutes === 'number' ? v.ruleset.free_minutes : null,
    jokerRequired: prompt?.kind === 'lead' && prompt.joker_required,
    passed: players.map((p) => !!p.passed),
    yielded: players.map((p) => !!p.yielded),
    places: players.map((p) => (p.place ? placeIndex(p.place) : null)),
    status: players.map((p) => String(p.status ?? 'playing')),
    opened: players.map((p) => !!p.opened),
    marked: players.map((p) => !!p.marked),
    burning: players.map((p) => !!p.burning),
    headless: players.map((p) => p.has_head === false),
    freePlay: !!v.free_play,
    finish: (v.finish ?? []).map(seatIndex),
    score,
    outcome: v.outcome ? (typeof v.outcome === 'string' ? v.outcome : Object.keys(v.outcome)[0]) : null,
    over: score !== null,
  };
}

/** The engine's actions (`{"type": …}`, rules::gouji::Action). */
export const goujiActions = {
  /** @param {string[]} cards @returns {GoujiAction} */
  play: (cards) => ({ type: 'play', cards }),
  /** @returns {GoujiAction} */
  pass: () => ({ type: 'pass' }),
  /** @returns {GoujiAction} */
  yield: () => ({ type: 'yield' }),
  /** @param {string[]} cards @returns {GoujiAction} */
  burn: (cards) => ({ type: 'burn', cards }),
  /** @returns {GoujiAction} */
  decline: () => ({ type: 'decline' }),
  /** @returns {GoujiAction} */
  askCount: () => ({ type: 'ask_count' }),
};
