// The moments of a game that the layout must hold at every screen size (issue 23), played on the
// mock server: one page a size, both games on it (two scripted tables), each moment brought by
// what a server would send — a snapshot, the clock's events, a dropped line and its catch-up, an
// `answer` to 问牌, a refusal. Used by matrix.test.js (every card tappable, …) and by
// matrix-shots.js (docs/web-client.md's screenshots).

import { mockTable } from './mock.js';
import { welcome, shengjiView, goujiView } from './fixtures.js';

/** The sizes of issue 23: phones upright (4.7" to 6.5"), a phone sideways, tablets, laptops, a desktop. */
export const SIZES = [[360, 640], [375, 667], [390, 844], [414, 896], [667, 375], [768, 1024], [1024, 768], [1366, 768], [1920, 1080]];

const seats4 = ['老王', '电脑·东', '我', '电脑·西'].map((name, seat) => ({ seat, name, bot: name.startsWith('电脑'), connected: true, auto: false }));
const seats6 = ['我', '电脑·B1', '李阿姨', '电脑·B2', '张叔', '电脑·B3'].map((name, seat) => ({ seat, name, bot: name.startsWith('电脑'), connected: true, auto: false }));
const five = (suit) => ['A', 'K', 'Q', 'J', '10'].map((r) => suit + r);

/** 80分 moments: the view, who acts, the clock. */
const SHENGJI = {
  // A trick under way, my turn: E led, N followed (the docs' screenshot).
  mid: { view: shengjiView, toAct: [2] },
  bury: {
    view: {
      ...shengjiView, phase: 'bury', trick: 0, leader: null, plays: [], winning: null, last_trick: null, defenders: 0, hand_sizes: [25, 25, 33, 25], hand_trumps: 11,
      hand: ['RJ', 'BJ', 'H2', 'S2', 'HA', 'HK', 'HK', 'HQ', 'H10', 'H5', 'H3', 'SA', 'SK', 'SQ', 'SQ', 'SJ', 'S9', 'S5', 'S3', 'CA', 'CK', 'C10', 'C9', 'C8', 'C8', 'C4', 'C3', 'DA', 'DJ', 'D8', 'D7', 'D5', 'D3'],
    },
    toAct: [2],
  },
  lead: { view: { ...shengjiView, trick: 4, leader: 'S', plays: [], winning: null, to_act: 'S' }, toAct: [2] },
  // W threw five clubs, N and E followed with five cards each: my turn, the last to play.
  throw: {
    view: { ...shengjiView, hand_sizes: [19, 19, 23, 19], leader: 'W', winning: 'W', plays: [{ seat: 'W', cards: five('C') }, { seat: 'N', cards: five('D') }, { seat: 'E', cards: ['S8', 'S7', 'S6', 'S4', 'S3'] }] },
    toAct: [2],
  },
  result: {
    view: { ...shengjiView, phase: 'over', to_act: null, plays: [], winning: null, hand: [], hand_sizes: [0, 0, 0, 0], result: 85, kitty: ['S3', 'S4', 'C5', 'C6', 'D8', 'D9', 'H4', 'H6'] },
    toAct: [],
    state: 'over',
  },
};

const player = (seat, n, more = {}) => ({
  seat, cards: n > 10 ? { kind: 'more_than', n: 10 } : { kind: 'exact', n }, status: 'playing', place: null,
  has_head: true, opened: false, marked: false, burning: false, passed: false, yielded: false, ...more,
});

/** 够级's view with the ruleset's clock (the rulebook's first ten minutes, then 20 s a set). */
const gv = { ...goujiView, ruleset: { ...goujiView.ruleset, free_minutes: 10, move_seconds: 20, grace_seconds: 5 } };

/** 够级 moments. */
const GOUJI = {
  // Answering a three-card set (the docs' screenshot): my turn.
  mid: { view: gv, toAct: [0] },
  lead: { view: { ...gv, top: null, prompt: { kind: 'lead', joker_required: false }, players: gv.players.map((p) => ({ ...p, passed: false })) }, toAct: [0] },
  // The first minutes of a game: no clock yet (the page says so).
  untimed: { view: gv, toAct: [0], clock: false },
  // Answering a ten-card top set with fifteen rank groups in my hand.
  answer: {
    view: {
      ...gv, hand: [...gv.hand, 'S3', 'H3', 'D9', 'C7'],
      top: { cards: ['SK', 'HK', 'DK', 'CK', 'SK', 'HK', 'S2', 'H2', 'BJ', 'RJ'], shape: { base: 13, naturals: 6, twos: 2, small: 1, big: 1 }, owner: 'B2', gouji: true, burn: false },
    },
    toAct: [0],
  },
  result: {
    view: {
      ...gv, hand: [], turn: null, prompt: null, top: null,
      players: ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'].map((s, i) => player(s, 0, { status: 'out', place: ['first', 'third', 'second', 'last', 'fourth', 'second_last'][i] })),
      finish: ['A1', 'A2', 'B1', 'A3', 'B3', 'B2'], score: { a: 3, b: -3 }, outcome: 'places',
    },
    toAct: [],
    state: 'over',
  },
};

/** The clock's notices: a warning for me, a play for another seat with its cost. */
const clockEvents = {
  shengji: [
    { seat: 2, events: [{ type: 'warning', seat: 'S', reason: 'timeout' }] },
    { seat: 0, events: [{ type: 'played', seat: 'N', trick: 3, cards: ['S6'], lead: false, auto: true }, { type: 'penalty', seat: 'N', reason: 'timeout', points: 10, delta: -10, defenders: 5 }] },
  ],
  gouji: [
    { seat: 0, events: [{ type: 'warned', seat: 'A1', grace_seconds: 5 }] },
    { seat: 2, events: [{ type: 'passed', seat: 'A2', conceded: false }] },
  ],
};

/**
 * A scripted table whose state the test moves on: `show(moment)` sends its snapshot on the live
 * socket; `clock()` the clock's moves; `drop()` closes the line, and the catch-up after the
 * reconnection brings a move the clock made meanwhile (「您离线时…」). Acts: 问牌 is answered, any
 * other act refused (so a refusal can be shown).
 * @param {import('playwright-core').Page} page @param {'shengji' | 'gouji'} game @param {string} id
 */
export async function scriptedTable(page, game, id) {
  const moments = game === 'shengji' ? SHENGJI : GOUJI;
  const me = game === 'shengji' ? 2 : 0;
  let seq = 100;
  let current = moments.mid;
  const clock = () => (current.toAct.length && current.clock !== false ? { clock: { seats: current.toAct, remaining_ms: 24_000, limit_ms: 30_000 } } : {});
  const snapshot = () => ({ type: 'snapshot', seq, view: current.view, to_act: current.toAct, state: current.state ?? 'playing', ...clock() });
  const hello = { ...welcome(game, me, game === 'shengji' ? seats4 : seats6), table: id };
  /** @type {{ seq: number, events: object }[]} */
  let missed = [];
  const mock = await mockTable(page, id, {
    welcome: hello,
    snapshot,
    onHello: (msg, ws) => {
      ws.send(JSON.stringify({ ...hello, seq, state: current.state ?? 'playing' }));
      // A page that opens the table gets the snapshot; one coming back, what it missed.
      if (msg.last_seq === undefined) ws.send(JSON.stringify(snapshot()));
      for (const m of missed) ws.send(JSON.stringify(m.events));
      missed = [];
    },
    onAct: (msg, ws) => {
      if (msg.action.type === 'ask_count') {
        ws.send(JSON.stringify({ type: 'answer', id: msg.id, events: [{ type: 'count_answered', asker: 'A1', about: 'B2', answer: { kind: 'exact', n: 7 } }] }));
      } else {
        ws.send(JSON.stringify({ type: 'rejected', id: msg.id, code: 'cannot_beat', zh: '这手牌管不上桌上的牌：要同样张数、更大的点数', en: 'this set does not beat the one on the table' }));
      }
    },
  });
  const say = (/** @type {object} */ msg) => mock.sockets[mock.sockets.length - 1].send(JSON.stringify(msg));
  const seen = (/** @type {number} */ s) => page.waitForFunction((s) => /** @type {any} */ (window).paiju?.conn.lastSeq === s, s);
  const events = (/** @type {{ seat: number, events: object[] }} */ e) => ({ type: 'events', seq: ++seq, seat: e.seat, by: 'clock', events: e.events, view: current.view, to_act: current.toAct, state: current.state ?? 'playing', ...clock() });
  return {
    mock,
    /** @param {string} name */
    async show(name) {
      current = moments[/** @type {keyof typeof moments} */ (name)];
      seq += 1;
      say(snapshot());
      await seen(seq);
    },
    async clock() {
      for (const e of clockEvents[game]) say(events(e));
      await seen(seq);
    },
    async drop() {
      missed = [{ seq: seq + 1, events: events(clockEvents[game][0]) }];
      const sockets = mock.sockets.length;
      mock.sockets[sockets - 1].close({ code: 4008 });
      // The phone's Wi-Fi comes back: the browser says so, and the page reconnects at once.
      await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn !== 'open');
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await page.waitForSelector('#notices [data-notice="away"]', { timeout: 10_000 });
      if (mock.sockets.length !== sockets + 1) throw new Error('the page did not open one new socket');
    },
    moments: Object.keys(moments),
  };
}

/**
 * What is wrong at this moment, measured in the page: a hand card (or 够级 rank group) with no
 * point where a tap reaches it (`elementFromPoint` returns the card or its child), the listed
 * controls the same, the page wider than the screen, labels on the felt overlapping or cut at
 * its edge, text under 18 px. Also the hand's card
 * width and how the table was laid out.
 * @param {import('playwright-core').Page} page @param {string[]} controls
 */
export function measure(page, controls) {
  return page.evaluate((controls) => {
    const problems = [];
    const W = document.documentElement.clientWidth;
    const H = innerHeight;
    const tappable = (/** @type {Element} */ el) => {
      const r = el.getBoundingClientRect();
      for (let y = Math.max(r.top, 0) + 2; y < Math.min(r.bottom, H) - 1; y += 4) {
        for (let x = Math.max(r.left, 0) + 2; x < Math.min(r.right, W) - 1; x += 4) {
          const at = document.elementFromPoint(x, y);
          if (at && (at === el || el.contains(at))) return true;
        }
      }
      return false;
    };
    const name = (/** @type {HTMLElement} */ el) => el.dataset.card ?? el.dataset.rank ?? el.id;
    const cards = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('#hand button')]);
    const lost = cards.filter((el) => !tappable(el)).map(name);
    if (lost.length) problems.push(`hand cards without a tappable point: ${lost.join(' ')}`);
    for (const sel of controls) {
      const el = document.querySelector(sel);
      if (!el) problems.push(`${sel} is missing`);
      else if (!tappable(el)) problems.push(`${sel} cannot be tapped`);
    }
    if (document.documentElement.scrollWidth > W + 1) problems.push(`the page is wider than the screen: ${document.documentElement.scrollWidth} > ${W}`);
    // On the felt no label runs under another or a plate, and none is cut by the felt's edges.
    const felt = document.querySelector('.felt')?.getBoundingClientRect();
    const labels = [...document.querySelectorAll('.felt .nameplate, .felt .play .who, .felt .play .win-tag')].filter((el) => el.getBoundingClientRect().width > 0);
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i].getBoundingClientRect();
      if (felt && (a.left < felt.left - 0.5 || a.right > felt.right + 0.5)) problems.push(`cut at the felt's edge: 「${labels[i].textContent?.trim()}」`);
      for (let j = i + 1; j < labels.length; j++) {
        const b = labels[j].getBoundingClientRect();
        if (labels[i].contains(labels[j]) || labels[j].contains(labels[i])) continue;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) problems.push(`overlapping on the felt: 「${labels[i].textContent?.trim()}」 and 「${labels[j].textContent?.trim()}」`);
      }
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const el = /** @type {Element} */ (n.parentElement);
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (style.display === 'none' || style.visibility === 'hidden' || r.width <= 1 || r.height <= 1) continue;
      if (parseFloat(style.fontSize) < 18) problems.push(`text under 18 px: 「${n.textContent.trim().slice(0, 20)}」 ${style.fontSize}`);
    }
    const page = /** @type {HTMLElement | null} */ (document.querySelector('.table-page'));
    return { problems, card: cards[0] ? Math.round(cards[0].getBoundingClientRect().width) : 0, fit: page ? `${page.dataset.fit}/${page.dataset.felt}/${page.dataset.hand}` : '' };
  }, controls);
}

/** Seats this browser at both scripted tables (the tokens the page keeps). @param {import('playwright-core').BrowserContext} context */
export function seatBoth(context) {
  return context.addInitScript(() => {
    localStorage.setItem('paiju.seat.m80', JSON.stringify({ token: 'x', seat: 2, game: 'shengji' }));
    localStorage.setItem('paiju.seat.mgj', JSON.stringify({ token: 'y', seat: 0, game: 'gouji' }));
  });
}

/** 大字 on or off, through the page's own settings (its listeners redraw the table). @param {import('playwright-core').Page} page @param {boolean} on */
export async function bigText(page, on) {
  await page.evaluate(async (on) => {
    const s = await import('/src/settings.js');
    s.set('bigText', on);
  }, on);
  await page.waitForFunction((on) => document.documentElement.classList.contains('big-text') === on, on);
}
