// How the tests play: through the page, as a person would — tap cards or groups, then 出牌 —
// choosing what to play from what the page shows. Every refusal met on the way is checked the
// same way the illegal-play test checks it: the Chinese message is shown, the hand unchanged.
//
// What to tap is the *test's* choice, made by a crude player below that knows a little of the
// rules (trumps, suits, the order of 够级 ranks). The page itself knows none (docs/web-client.md,
// "The page asks the engine"); when the engine puts a suggested play (`hint`) in the view, the
// test tries that first.

import assert from 'node:assert/strict';
import { card } from '../src/cards.js';

// ---- The test player's own card knowledge (never the page's) ------------------------------

/** Equal codes counted. @param {string[]} codes */
function counts(codes) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

/** The level as 2..14 and the trump suit (null: 无主) of an 80分 view. @param {any} view */
function levelTrump(view) {
  const level = { J: 11, Q: 12, K: 13, A: 14 }[/** @type {'J'} */ (view.level)] ?? Number(view.level);
  const trump = ['S', 'H', 'D', 'C'].includes(view.trump) ? view.trump : null;
  return { level, trump };
}

/** 'T' for a trump (jokers, level cards, the trump suit), else the suit. @param {string} code @param {number} level @param {string | null} trump */
function lane(code, level, trump) {
  const c = card(code);
  return c.joker || c.rank === level || c.suit === trump ? 'T' : /** @type {string} */ (c.suit);
}

/** A rough strength for choosing low cards (higher is stronger). @param {string} code @param {number} level @param {string | null} trump */
function strength(code, level, trump) {
  const c = card(code);
  if (c.joker) return c.joker === 'RJ' ? 100 : 99;
  if (c.rank === level) return c.suit === trump ? 98 : 97;
  return (c.suit === trump ? 50 : 0) + c.rank;
}

/** @typedef {import('playwright-core').Page} Page */

/** Opens the lobby, sets the name, and opens a table of `game` with computers in the other seats. */
export async function openTableFromLobby(/** @type {Page} */ page, /** @type {string} */ url, /** @type {'shengji' | 'gouji'} */ game, name = '测试员') {
  await page.goto(url + '/');
  await page.fill('#name', name);
  await page.check(`input[name=game][value=${game}]`);
  await page.check('input[name=humans][value="1"]');
  await page.click('#create');
  await page.waitForURL(/#\/t\//);
  await page.waitForFunction(() => /** @type {any} */ (window).paiju?.model?.view);
  return page.url().split('#/t/')[1];
}

/** The page's model (what the server said), read for deciding; all acting goes through clicks. */
export function model(/** @type {Page} */ page) {
  return page.evaluate(() => {
    const m = /** @type {any} */ (window).paiju.model;
    return { myTurn: m.myTurn, tableState: m.tableState, view: m.view, seat: m.seat, conn: m.conn, refusal: m.refusal };
  });
}

/** The hand as shown, in order: 80分 cards by code, 够级 groups as value×count. */
export function handCards(/** @type {Page} */ page) {
  return page.$$eval('#hand [data-card], #hand .group-btn', (els) =>
    els.map((e) => {
      const el = /** @type {HTMLElement} */ (e);
      return el.dataset.card ?? `${el.dataset.value}${el.querySelector('.gc')?.textContent}`;
    }),
  );
}

/** Waits until it is my turn or the game is over. */
export async function waitMyTurnOrOver(/** @type {Page} */ page, timeout = 60_000) {
  // Only once every action sent has been answered: never decide on a view from before it.
  await page.waitForFunction(() => {
    const { model: m, conn } = /** @type {any} */ (window).paiju;
    return conn.pending.size === 0 && ((m.myTurn && m.conn === 'open') || m.tableState === 'over');
  }, null, { timeout, polling: 50 });
  return model(page);
}

/** Taps these cards in the hand (each code once per occurrence). */
export async function tapCards(/** @type {Page} */ page, /** @type {string[]} */ cards) {
  const taken = new Map();
  for (const c of cards) {
    const i = taken.get(c) ?? 0;
    await page.locator(`#hand button[data-card="${c}"]`).nth(i).click();
    taken.set(c, i + 1);
  }
}

/**
 * Presses the play button and waits for the answer: the hand shrinks (accepted) or a refusal
 * shows (then: the Chinese message is there and the hand is exactly as before).
 * @returns {Promise<{ ok: true } | { ok: false, code: string, text: string }>}
 */
export async function pressAndAwait(/** @type {Page} */ page, selector = '#play') {
  const before = await handCards(page);
  const seq = await page.evaluate(() => /** @type {any} */ (window).paiju.conn.lastSeq);
  await page.click(selector);
  // Answered: refused (the message shows), or stored (acknowledged, and its events applied).
  const outcome = await page.waitForFunction((seq) => {
    const refusal = document.querySelector('#refusal.refusal');
    if (refusal) return { ok: false, code: /** @type {HTMLElement} */ (refusal).dataset.code ?? '', text: refusal.textContent ?? '' };
    const { conn } = /** @type {any} */ (window).paiju;
    if (conn.pending.size === 0 && conn.lastSeq > seq) return { ok: true };
    return null;
  }, seq, { timeout: 20_000, polling: 30 });
  const result = /** @type {any} */ (await outcome.jsonValue());
  if (!result.ok) {
    assert.match(result.text, /[\u4e00-\u9fff]/, 'a refusal is shown in Chinese');
    assert.deepEqual(await handCards(page), before, 'a refused play leaves the hand unchanged');
    // The selection is cleared: the player chooses afresh, the reason in front of them.
    await page.waitForFunction(() => !document.querySelector('#hand [aria-pressed="true"]'), null, { timeout: 5000 });
  }
  return result;
}

// ---- 80分 ---------------------------------------------------------------------------------

/**
 * Plays to follow, in order of preference: pairs of the led suit first (pairs answer pairs),
 * then its lowest singles; void: the lowest cards. A few variants follow in case the engine's
 * ladder asks for something else (a tractor); the page's refusal tells.
 * @param {any} view the engine's view
 * @returns {string[][]}
 */
export function shengjiCandidates(view) {
  const { level, trump } = levelTrump(view);
  const key = (/** @type {string} */ c) => -strength(c, level, trump);
  const hand = [...view.hand].sort((a, b) => key(b) - key(a)); // lowest first
  const laneOf = (/** @type {string} */ c) => lane(c, level, trump);
  const hint = Array.isArray(view.hint) && view.hint.length ? [view.hint] : [];
  if (!view.plays.length) return [...hint, [hand[0]]]; // lead: the lowest single is always legal
  const lead = view.plays[0].cards;
  const n = lead.length;
  const suit = hand.filter((c) => laneOf(c) === laneOf(lead[0]));
  if (suit.length <= n) return [...hint, [...suit, ...hand.filter((c) => !suit.includes(c)).slice(0, n - suit.length)]];
  const pairs = [...counts(suit).entries()].filter(([, k]) => k >= 2).map(([c]) => c).sort((a, b) => key(b) - key(a));
  const leadPairs = [...counts(lead).values()].filter((k) => k >= 2).length;
  /** @param {string[]} ps */
  const build = (ps) => {
    const out = [];
    for (const p of ps.slice(0, Math.min(leadPairs, Math.floor(n / 2)))) out.push(p, p);
    for (const c of suit) if (out.length < n && counts(out).get(c) !== counts(suit).get(c)) out.push(c);
    return out.slice(0, n);
  };
  const variants = [...hint, build(pairs), build([...pairs].reverse()), suit.slice(0, n), suit.slice(-n)];
  for (let i = 0; i + 1 < pairs.length; i++) variants.push(build([pairs[i], pairs[i + 1], ...pairs.filter((_, j) => j !== i && j !== i + 1)]));
  return variants;
}

/** A card the rules forbid now: another suit while the led suit is held (or null). @param {any} view */
export function shengjiRevoke(view) {
  if (!view.plays.length) return null;
  const { level, trump } = levelTrump(view);
  const laneOf = (/** @type {string} */ c) => lane(c, level, trump);
  const lead = view.plays[0].cards;
  if (lead.length !== 1) return null;
  const has = view.hand.some((/** @type {string} */ c) => laneOf(c) === laneOf(lead[0]));
  const other = view.hand.find((/** @type {string} */ c) => laneOf(c) !== laneOf(lead[0]));
  return has && other ? other : null;
}

/** One 80分 turn through the page: bury or play. Returns the refusals met. */
export async function shengjiTurn(/** @type {Page} */ page, /** @type {any} */ view) {
  let refusals = 0;
  if (view.phase === 'bury') {
    const shown = await handCards(page);
    await tapCards(page, Array.isArray(view.hint) && view.hint.length ? view.hint : shown.slice(-8));
    const r = await pressAndAwait(page);
    assert.ok(r.ok, `burying 8 cards is accepted: ${JSON.stringify(r)}`);
    return refusals;
  }
  if (view.phase === 'choose') {
    await page.click('[data-choose=single]');
    return refusals;
  }
  for (const cards of shengjiCandidates(view)) {
    await tapCards(page, cards);
    const r = await pressAndAwait(page);
    if (r.ok) return refusals;
    refusals++;
  }
  throw new Error(`no candidate play was accepted: ${JSON.stringify(view.plays)} hand ${view.hand}`);
}

// ---- 够级 ---------------------------------------------------------------------------------

/** 够级 ranks, lowest first: the test player's knowledge, for choosing its lead. */
const GOUJI_LOW_FIRST = ['4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2', 'BJ', 'RJ'];

/** One 够级 turn through the page: lead the lowest set (with a joker when burning), else pass or decline. */
export async function goujiTurn(/** @type {Page} */ page, /** @type {any} */ view) {
  const prompt = view.prompt?.kind;
  if (prompt === 'burn_offer') {
    assert.ok((await pressAndAwait(page, '#decline')).ok, '不烧 is accepted');
    return 'decline';
  }
  if (prompt === 'respond') {
    assert.ok((await pressAndAwait(page, '#pass')).ok, '过 is accepted');
    return 'pass';
  }
  // Lead: tap the lowest group (a joker too while burning). The page judges nothing: the set is
  // sent as built and the engine answers.
  const ranks = await page.$$eval('#hand .group-btn', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.rank ?? ''));
  const lowest = [...ranks].sort((a, b) => GOUJI_LOW_FIRST.indexOf(a) - GOUJI_LOW_FIRST.indexOf(b))[0];
  await page.click(`#hand .group-btn[data-rank="${lowest}"]`);
  if (view.prompt?.joker_required) {
    const joker = ranks.find((r) => r === 'BJ' || r === 'RJ');
    if (joker && joker !== lowest) await page.click(`#hand .group-btn[data-rank="${joker}"]`);
  }
  await page.waitForSelector('#selection');
  const r = await pressAndAwait(page);
  assert.ok(r.ok, `the lead is accepted: ${JSON.stringify(r)}`);
  return 'lead';
}
