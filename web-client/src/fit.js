// @ts-check
//! 排版 (fitting a table to the screen): the hand comes first. A table page is the top bar, the
//! felt (the other seats and the trick) and the dock (whose turn, notices, my hand, the buttons).
//! The dock is never squeezed and nothing in it sticks over the hand; the felt takes what is
//! left. When that is too little, the felt gives way first — its plates and trick grow compact,
//! then fold into one-line chips — and only then does the hand: its rows overlap (a strip of
//! each card stays in view, rank and suit), then its cards get smaller, down to 48 px. Only
//! when all of that fails (a tiny screen with 大字 and every notice open) does the page scroll,
//! felt above, hand below, with nothing covering a card.
//!
//! CSS cannot count cards or measure a notice, so the page measures: after each drawing it tries
//! the layouts in that order, from the most comfortable, and keeps the first one that fits (the
//! felt's contents inside the felt, the dock inside the page, nothing wider than the screen).
//! The layouts are attributes on `.table-page` that style.css reads: `data-felt` (`full`,
//! `compact`, `fold`), `data-hand` (`rows`: a phone's one row a suit; `flow`; `stack`: rows
//! overlapped), `data-notes` (`over`: the refusal and notices over the felt) and `--card-w` (the
//! hand's card width). 大字 and 大牌 start from larger cards.

/** Cards never get narrower than this: a 48 px touch target, rank and suit readable. */
const MIN_CARD = 48;
/** The largest hand card (a desktop's). */
const MAX_CARD = 96;
/** How much one step makes the hand's cards smaller. */
const STEP = 4;
/** Up to this width a screen is a phone held upright: its hand is drawn one row a suit. */
const PHONE_WIDTH = 600;

/** @typedef {{ felt: 'full' | 'compact' | 'fold', hand: 'rows' | 'flow' | 'stack', card: number, notes?: 'over' }} Layout */

/**
 * The hand's preferred card width for this screen: 11 % of its narrower side (a 1366×768 laptop
 * gets the cards of a 768×1024 tablet; a phone held sideways stays at 48 px), larger with 大字
 * and 大牌. The layouts make them smaller only when the hand would not fit.
 * @param {number} width @param {number} height @param {{ bigText: boolean, bigCards: boolean }} s
 */
export function preferredCard(width, height, s) {
  const scale = (s.bigText ? 1.15 : 1) * (s.bigCards ? 1.22 : 1);
  const base = Math.min(MAX_CARD, Math.max(MIN_CARD, 0.11 * Math.min(width, height)));
  return Math.round(base * scale);
}

/**
 * Every layout to try, the most comfortable first: the felt gives way before the hand does.
 * @param {number} width @param {number} height @param {{ bigText: boolean, bigCards: boolean }} s
 * @returns {Layout[]}
 */
export function layouts(width, height, s) {
  const pref = preferredCard(width, height, s);
  const phone = width <= PHONE_WIDTH;
  const loose = phone ? 'rows' : 'flow';
  /** @type {Layout[]} */
  const out = [
    { felt: 'full', hand: loose, card: pref },
    { felt: 'compact', hand: loose, card: pref },
    { felt: 'fold', hand: loose, card: pref },
    { felt: 'fold', hand: 'stack', card: pref },
  ];
  for (let card = pref - STEP; card > MIN_CARD; card -= STEP) out.push({ felt: 'fold', hand: 'stack', card });
  if (pref > MIN_CARD) out.push({ felt: 'fold', hand: 'stack', card: MIN_CARD });
  // Last, the refusal and the notices (until 知道了) leave the dock and lie over the felt, just
  // above the hand, hiding it until read: the felt gives way to them too, rather than the hand.
  return [...out, ...out.filter((l) => l.felt === 'fold' && l.hand === 'stack').map((l) => ({ ...l, notes: /** @type {const} */ ('over') }))];
}

/** @param {HTMLElement} page @param {Layout} l @param {'fits' | 'felt' | 'overflow'} [fit] */
function apply(page, l, fit = 'fits') {
  page.dataset.fit = fit;
  page.dataset.felt = l.felt;
  page.dataset.hand = l.hand;
  page.dataset.notes = l.notes ?? 'dock';
  page.style.setProperty('--card-w', `${l.card}px`);
  if (l.notes) {
    // Over the felt, just above the dock, the messages take the screen above it at most (and
    // scroll inside if they must).
    const dock = /** @type {HTMLElement | null} */ (page.querySelector('.dock'));
    page.style.setProperty('--dock-h', `${dock ? dock.offsetHeight : 0}px`);
  }
}

/**
 * Whether the table as drawn now fits the screen: `strict`, everything in view; `dock`, the dock
 * is whole but the felt must scroll inside itself; `no`, the dock does not fit (or something is
 * wider than the screen).
 * @param {HTMLElement} page @returns {'strict' | 'dock' | 'no'}
 */
function fits(page) {
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) return 'no';
  for (const el of page.querySelectorAll('.felt, .dock, .topbar')) {
    if (el.scrollWidth > el.clientWidth + 1) return 'no';
  }
  const main = page.querySelector('.table-main');
  if (main && main.scrollHeight > main.clientHeight + 1) return 'no';
  const felt = page.querySelector('.felt');
  if (page.dataset.notes === 'over') {
    const notes = page.querySelector('.dock > .messages');
    if (notes && notes.scrollHeight > notes.clientHeight + 1) return 'dock';
  }
  return !felt || felt.scrollHeight <= felt.clientHeight + 1 ? 'strict' : 'dock';
}

/** The layout that fitted last time (by screen and settings): the next drawing starts there. */
let last = { key: '', index: 0 };

/**
 * Lays the table page out for the screen: the first of `layouts` that fits. Failing all, the most
 * compact one, with the felt scrolling inside itself above the whole dock (its trick in view) —
 * or, if even the dock is too tall, the page scrolls. Called after every drawing and when the
 * screen changes size.
 * @param {HTMLElement | null} page  the `.table-page`
 * @param {{ bigText: boolean, bigCards: boolean }} s
 */
export function fitTable(page, s) {
  if (!page) return;
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const list = layouts(W, H, s);
  const key = `${W}x${H}:${s.bigText}:${s.bigCards}`;
  const strict = (/** @type {number} */ k) => {
    apply(page, list[k]);
    return fits(page) === 'strict';
  };
  // Each layout is more compact than the one before: if one fits, the next ones do too.
  let i = last.key === key ? Math.min(last.index, list.length - 1) : 0;
  if (strict(i)) {
    // Something went away (a notice read, a trick taken): try the more comfortable ones.
    while (i > 0 && strict(i - 1)) i--;
    apply(page, list[i]);
  } else {
    let found = false;
    while (!found && i < list.length - 1) found = strict(++i);
    if (!found) {
      // Nothing fits whole. The dock stays whole and the felt scrolls, showing its trick
      // (below its plates); if even the dock is too tall, the page scrolls.
      const whole = fits(page) === 'dock';
      apply(page, list[i], whole ? 'felt' : 'overflow');
      const felt = page.querySelector('.felt');
      if (whole && felt) felt.scrollTop = felt.scrollHeight;
    }
  }
  last = { key, index: i };
}
