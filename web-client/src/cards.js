// @ts-check
//! 牌 (cards): the notation of the wire (`S10`, `HA`, `BJ` 小王, `RJ` 大王) and how a card looks:
//! its face, its colour, its name, and the groups a hand is drawn in (runs of one suit, runs of
//! one printed rank).
//!
//! Only what is printed on a card lives here. What a card is *worth* — which cards are trumps,
//! what beats what, how a hand is ordered — is the engine's: the page draws the hand in the order
//! the view gives it (docs/web-client.md, "The page asks the engine").

/** @typedef {'S' | 'H' | 'D' | 'C'} Suit */
/**
 * A parsed card. `rank` is 2..14 (J 11, Q 12, K 13, A 14) for suited cards, 0 for jokers.
 * @typedef {{ code: string, suit: Suit | null, rank: number, joker: 'BJ' | 'RJ' | null }} Card
 */

/** @type {Suit[]} */
export const SUITS = ['S', 'H', 'D', 'C'];
/** Suit symbols. */
export const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
/** What players call the suits. */
export const SUIT_ZH = { S: '黑桃', H: '红桃', D: '方块', C: '梅花' };
export const SUIT_EN = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

/** @param {number} rank */
export function rankSymbol(rank) {
  return ['', '', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'][rank] ?? '?';
}

/**
 * Parses the notation, case-insensitive. Unknown text gives `null`.
 * @param {string} code
 * @returns {Card | null}
 */
export function parse(code) {
  const c = String(code).trim().toUpperCase();
  if (c === 'BJ' || c === 'RJ') return { code: c, suit: null, rank: 0, joker: c };
  const suit = /** @type {Suit} */ (c[0]);
  if (!SUITS.includes(suit)) return null;
  const r = c.slice(1);
  const rank = { J: 11, Q: 12, K: 13, A: 14 }[r] ?? Number(r);
  if (!Number.isInteger(rank) || rank < 2 || rank > 14) return null;
  return { code: suit + rankSymbol(rank), suit, rank, joker: null };
}

/** @param {string} code @returns {Card} */
export function card(code) {
  const c = parse(code);
  if (!c) throw new Error(`not a card: ${code}`);
  return c;
}

/**
 * The colour class of a card: two colours (red/black) or four (♠ black, ♥ red, ♦ blue, ♣ green).
 * @param {Card} c
 * @param {boolean} fourColour
 */
export function colourClass(c, fourColour) {
  if (c.joker) return c.joker === 'RJ' ? 'red' : 'black';
  if (fourColour) return { S: 'black', H: 'red', D: 'blue', C: 'green' }[/** @type {Suit} */ (c.suit)];
  return c.suit === 'H' || c.suit === 'D' ? 'red' : 'black';
}

/**
 * What a screen reader says for a card: 「红桃K」, 「大王」; in English "K of hearts".
 * @param {Card} c
 * @param {'zh' | 'en'} lang
 */
export function cardName(c, lang) {
  if (c.joker) {
    if (lang === 'en') return c.joker === 'RJ' ? 'big joker' : 'small joker';
    return c.joker === 'RJ' ? '大王' : '小王';
  }
  const suit = /** @type {Suit} */ (c.suit);
  return lang === 'en'
    ? `${rankSymbol(c.rank)} of ${SUIT_EN[suit]}`
    : `${SUIT_ZH[suit]}${rankSymbol(c.rank)}`;
}

/**
 * Where a hand is split for drawing: between runs of different suits (the jokers are one run).
 * The hand stays in the order given; a suit met again later starts a new run.
 * @param {string[]} codes
 * @returns {{ key: string, cards: { code: string, index: number }[] }[]}
 */
export function suitRuns(codes) {
  /** @type {{ key: string, cards: { code: string, index: number }[] }[]} */
  const runs = [];
  codes.forEach((code, index) => {
    const c = card(code);
    const key = c.joker ? 'J' : /** @type {Suit} */ (c.suit);
    if (runs.length === 0 || runs[runs.length - 1].key !== key) runs.push({ key, cards: [] });
    runs[runs.length - 1].cards.push({ code, index });
  });
  return runs;
}

/**
 * How 够级 players lay out their groups: 3 … A, then the 2s and the jokers (the cards that go with
 * any set), 小王 before 大王. A way of sorting a hand for the eye, as players sort theirs; which
 * set beats which is the engine's alone.
 */
const LAID_OUT = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2', 'BJ', 'RJ'];

/**
 * A hand grouped by printed rank (suits folded away; 小王 and 大王 each a group). When the hand
 * as given keeps each rank together (a display order), the groups follow it; a hand given suit by
 * suit (the cards' face order, as the 够级 view sends it) is laid out as players lay theirs:
 * 3 … A, 2, 小王, 大王. Neither is a judgement of strength: that is the engine's.
 * @param {string[]} codes
 * @returns {{ rank: string, cards: string[], count: number }[]}
 */
export function rankGroups(codes) {
  /** @type {Map<string, string[]>} */
  const m = new Map();
  let together = true;
  let last = '';
  for (const code of codes) {
    const rank = rankKey(card(code));
    const list = m.get(rank);
    if (list && rank !== last) together = false;
    if (list) list.push(code);
    else m.set(rank, [code]);
    last = rank;
  }
  const groups = [...m.entries()].map(([rank, cards]) => ({ rank, cards, count: cards.length }));
  return together ? groups : groups.sort((a, b) => LAID_OUT.indexOf(a.rank) - LAID_OUT.indexOf(b.rank));
}

/** A card's printed rank as a key: `"2"`…`"10"`, `"J"`…`"A"`, or `"BJ"` / `"RJ"`. @param {Card} c */
export function rankKey(c) {
  return c.joker ?? rankSymbol(c.rank);
}

/** The words for a printed rank: 「A」, 「2」, 「小王」. @param {string} rank @param {'zh' | 'en'} lang */
export function rankLabel(rank, lang) {
  if (rank === 'RJ') return lang === 'en' ? 'Big joker' : '大王';
  if (rank === 'BJ') return lang === 'en' ? 'Small joker' : '小王';
  return rank;
}

/** Cards in words, for a line of text: 「黑桃3、红桃5」, "3 of spades, 5 of hearts". @param {string[]} codes @param {'zh' | 'en'} lang */
export function cardsText(codes, lang) {
  return codes.map((c) => cardName(card(c), lang)).join(lang === 'en' ? ', ' : '、');
}

/**
 * The cards in `before` that are not in `after` (hands are multisets).
 * @param {string[]} before @param {string[]} after
 */
export function missing(before, after) {
  /** @type {Map<string, number>} */
  const left = new Map();
  for (const c of after) left.set(c, (left.get(c) ?? 0) + 1);
  const out = [];
  for (const c of before) {
    const n = left.get(c) ?? 0;
    if (n > 0) left.set(c, n - 1);
    else out.push(c);
  }
  return out;
}
