// @ts-check
//! The 够级 rule's verdict on a set being built, before it is sent (gouji.md, "Sets", "够级 sets",
//! "Beating a set"). The server decides; this only tells the player early, in the same words.
//! Values: 4..14 naturals, 15 the 2s, 16 小王, 17 大王 (cards.js `goujiValue`).

import { card, goujiValue } from './cards.js';

/** 级牌 thresholds by base value: five 10s, four Js, three Qs, two Ks, two As, one 2. */
const GOUJI_AT = { 10: 5, 11: 4, 12: 3, 13: 2, 14: 2, 15: 1 };

/**
 * A set's shape: base value (the natural rank, or 15 for 2s only, 16/17 for jokers only),
 * and the normalised values high to low (2s count as the base).
 * @param {string[]} codes
 * @returns {{ ok: true, base: number, values: number[], big: number, small: number } | { ok: false }}
 */
export function shape(codes) {
  const vs = codes.map((c) => goujiValue(card(c)));
  const naturals = [...new Set(vs.filter((v) => v <= 14))];
  if (naturals.length > 1 || vs.length === 0) return { ok: false };
  const big = vs.filter((v) => v === 17).length;
  const small = vs.filter((v) => v === 16).length;
  const twos = vs.filter((v) => v === 15).length;
  const base = naturals[0] ?? (twos ? 15 : small ? 16 : 17);
  const values = vs.map((v) => (v === 15 ? base : v)).sort((a, b) => b - a);
  return { ok: true, base, values, big, small };
}

/** Is this set a 级牌 by its cards (the 无头 and last-set exceptions are the server's)? @param {string[]} codes */
export function isGoujiSet(codes) {
  const s = shape(codes);
  if (!s.ok) return false;
  if (s.big + s.small > 0) return true;
  const need = GOUJI_AT[/** @type {10} */ (s.base)];
  return need !== undefined && s.values.length >= need;
}

/**
 * Does `next` beat `top`? Same count, every card strictly higher position by position; a big
 * joker may be covered by two big jokers (大花两打一), a small joker only by big jokers.
 * @param {string[]} next @param {string[]} top
 */
export function beats(next, top) {
  const a = shape(next);
  const b = shape(top);
  if (!a.ok || !b.ok) return false;
  if (a.values.length === b.values.length && pairwise(a.values, b.values)) return true;
  // 大花两打一: b big jokers may be covered by 2b big jokers, with exactly b more cards.
  if (b.big > 0 && a.values.length === b.values.length + b.big && a.big >= 2 * b.big) {
    const restA = dropBig(a.values, 2 * b.big);
    const restB = dropBig(b.values, b.big);
    return restA.length === restB.length && pairwise(restA, restB);
  }
  return false;
}

/** @param {number[]} a @param {number[]} b sorted high to low, same length */
function pairwise(a, b) {
  return a.length === b.length && a.every((v, i) => v > b[i]);
}

/** @param {number[]} values @param {number} n */
function dropBig(values, n) {
  const out = [...values];
  for (let i = 0; i < n; i++) {
    const j = out.indexOf(17);
    if (j >= 0) out.splice(j, 1);
  }
  return out;
}

/**
 * The verdict shown under the set builder.
 * @param {string[]} chosen
 * @param {{ top: string[] | null, topIsGouji: boolean, mayBeat: boolean, jokerRequired: boolean, wholeHand: boolean }} table
 *   `mayBeat`: the engine's prompt says this seat may beat the top set by normal play (a 级牌
 *   binds everyone but its 对头); `jokerRequired`: a standing burner leads with a joker, except
 *   their last set.
 * @returns {{ kind: 'none' | 'ok' | 'gouji' | 'bad', key: string, params?: Record<string, number> }}
 */
export function verdict(chosen, table) {
  if (chosen.length === 0) return { kind: 'none', key: 'set_empty' };
  const s = shape(chosen);
  if (!s.ok) return { kind: 'bad', key: 'verdict_not_set' };
  if (table.top) {
    if (!table.mayBeat) return { kind: 'bad', key: table.topIsGouji ? 'verdict_only_opposite' : 'verdict_cannot_beat' };
    if (!beats(chosen, table.top)) {
      const top = shape(table.top);
      const twoForOne = top.ok && top.big > 0 && chosen.length === table.top.length + top.big;
      return chosen.length === table.top.length || twoForOne
        ? { kind: 'bad', key: 'verdict_low' }
        : { kind: 'bad', key: 'verdict_count', params: { n: table.top.length } };
    }
  } else if (table.jokerRequired && !table.wholeHand && s.big + s.small === 0) {
    return { kind: 'bad', key: 'verdict_joker' };
  }
  return isGoujiSet(chosen) ? { kind: 'gouji', key: 'verdict_gouji' } : { kind: 'ok', key: 'verdict_ok' };
}
