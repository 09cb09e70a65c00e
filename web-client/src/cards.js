// @ts-check
//! 牌 (cards): the notation of the rules (`S10`, `HA`, `BJ` 小王, `RJ` 大王), how a card looks,
//! and the two hand orders: 80分 by trump then suit, 够级 by rank with 2s and jokers apart.

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

/** Counts equal codes: a hand is a multiset. @param {string[]} codes */
export function counts(codes) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

// ---------------------------------------------------------------------------------------------
// 80分: trumps first (大王, 小王, 主级牌, 副级牌, trump suit A…2), then each side suit A…2,
// side suits alternating colours so that neighbours are easy to tell apart.

/**
 * A sort key for 80分; lower sorts first (further left in the hand).
 * @param {Card} c
 * @param {number} level 2..14
 * @param {Suit | null} trump  null: 无主
 */
export function shengjiKey(c, level, trump) {
  if (c.joker === 'RJ') return 0;
  if (c.joker === 'BJ') return 1;
  const suit = /** @type {Suit} */ (c.suit);
  if (c.rank === level) {
    // The trump suit's level card above the others; the others by suit, so equal cards stay adjacent.
    return suit === trump ? 2 : 3 + SUITS.indexOf(suit);
  }
  const order = sideSuitOrder(trump);
  const block = suit === trump ? 0 : 1 + order.indexOf(suit);
  return 10 + block * 20 + (14 - c.rank);
}

/** Side suits in alternating colours, starting after the trump suit. @param {Suit | null} trump */
function sideSuitOrder(trump) {
  /** @type {Suit[]} */
  const ring = ['S', 'H', 'C', 'D'];
  const start = trump ? (ring.indexOf(trump) + 1) % 4 : 0;
  return [0, 1, 2, 3].map((i) => ring[(start + i) % 4]).filter((s) => s !== trump);
}

/**
 * Is this card a trump?
 * @param {Card} c @param {number} level @param {Suit | null} trump
 */
export function isTrump(c, level, trump) {
  return c.joker !== null || c.rank === level || c.suit === trump;
}

/**
 * The 80分 hand order.
 * @param {string[]} codes
 * @param {number} level
 * @param {Suit | null} trump
 */
export function sortShengji(codes, level, trump) {
  return [...codes].sort((a, b) => shengjiKey(card(a), level, trump) - shengjiKey(card(b), level, trump));
}

/**
 * The group a card goes in, for the hand's gaps: 'T' for trumps, else its suit.
 * @param {Card} c @param {number} level @param {Suit | null} trump
 */
export function shengjiGroup(c, level, trump) {
  return isTrump(c, level, trump) ? 'T' : /** @type {string} */ (c.suit);
}

// ---------------------------------------------------------------------------------------------
// 够级: suits never matter. Order 4 < … < A < 2 < 小王 < 大王.

/**
 * The 够级 value of a card: 4..14 as printed, 2 → 15, 小王 16, 大王 17.
 * @param {Card} c
 */
export function goujiValue(c) {
  if (c.joker === 'RJ') return 17;
  if (c.joker === 'BJ') return 16;
  return c.rank === 2 ? 15 : c.rank;
}

/**
 * A 够级 hand grouped by value, highest first: [{ value, cards, count }].
 * @param {string[]} codes
 */
export function goujiGroups(codes) {
  /** @type {Map<number, string[]>} */
  const m = new Map();
  for (const code of codes) {
    const v = goujiValue(card(code));
    const list = m.get(v) ?? [];
    list.push(code);
    m.set(v, list);
  }
  return [...m.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([value, cards]) => ({ value, cards, count: cards.length }));
}

/** The label of a 够级 value: 「A」, 「2」, 「小王」. @param {number} v @param {'zh' | 'en'} lang */
export function goujiLabel(v, lang) {
  if (v === 17) return lang === 'en' ? 'Big joker' : '大王';
  if (v === 16) return lang === 'en' ? 'Small joker' : '小王';
  if (v === 15) return '2';
  return rankSymbol(v);
}
