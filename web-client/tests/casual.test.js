// What an older player needs at the table (issue 13), on scripted tables (a mocked WebSocket,
// tests/mock.js) at a phone (390×844), a tablet in portrait (820×1180) and a desktop (1440×900):
// the finished trick stays on the felt with its winner and points; every clock move, warning,
// penalty and 托管 play, and a seat that lost its line, told in one plain line; 托管 by choice,
// and back; a dead line noticed within seconds; the jokers the clearest cards; who is who (对家,
// 上家, 下家); the level and trump near the hand; shaded cards and 提示; a refusal clears the
// selection; the 最大 and 够级！ tags on one line; 够级's set starting at the size on the table and
// 「轮到您出牌」 kept in view on a phone; 大字 and 大牌. Screenshots in tests/artifacts/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, axeViolations, smallTargets, layoutProblems, until, clockMoves } from './harness.js';
import { mockServerAndBrowser, mockTable } from './mock.js';
import { shengjiTable, shengjiView, goujiTable, goujiView } from './fixtures.js';

const live = mockServerAndBrowser();

const SIZES = [[390, 844], [820, 1180], [1440, 900]];

/** A page seated at a scripted table. @param {any} table @param {number[]} size */
async function seated(table, size = [1024, 768]) {
  const p = await newPage(live.browser, { width: size[0], height: size[1] });
  const { seat, game } = table.welcome;
  await p.context.addInitScript((s) => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: s[0], game: s[1] })), [seat, game]);
  const mock = await mockTable(p.page, 'demo', table);
  await p.page.goto(`${live.server.url}/#/t/demo`);
  await p.page.waitForSelector('#hand');
  return { ...p, mock };
}

/** Sends a server message on the page's live mocked socket. @param {any} mock @param {object} msg */
const say = (mock, msg) => mock.sockets[mock.sockets.length - 1].send(JSON.stringify(msg));

/** Is the element's centre really on screen (not covered, not outside)? @param {import('playwright-core').Page} page @param {string} sel */
function visibleAtCentre(page, sel) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const at = document.elementFromPoint(x, y);
    return !!at && (at === el || el.contains(at) || at.contains(el));
  }, sel);
}

// ---- 1. The finished trick stays on the felt --------------------------------------------------

test('80分: the trick just won stays on the felt with its winner and points, until the next lead and at least 2 s', async () => {
  for (const [w, h] of SIZES) {
    const { page, context, mock, errors } = await seated(shengjiTable, [w, h]);
    // I (S) play the fourth card; W's trump takes the trick with 20 points, and W leads next.
    const t0 = Date.now();
    const after = { ...shengjiView, to_act: 'W', hand: shengjiView.hand.filter((c) => c !== 'S5'), hand_sizes: [23, 22, 22, 23], trick: 4, leader: 'W', plays: [], winning: null, defenders: 35 };
    say(mock, {
      type: 'events', seq: 13, seat: 2, by: 'player',
      events: [
        { type: 'played', seat: 'S', trick: 3, cards: ['S5'], lead: false },
        { type: 'played', seat: 'W', trick: 3, cards: ['H3'], lead: false },
        { type: 'trick_won', trick: 3, winner: 'W', points: 20 },
      ],
      view: after, to_act: [3], state: 'playing',
    });
    // The snapshot had E and N's plays; the announcements bring S's and W's.
    await page.waitForSelector('#finished-trick');
    assert.equal(await page.getAttribute('#finished-trick', 'data-winner'), '3');
    assert.equal(await page.getAttribute('#finished-trick', 'data-points'), '20');
    assert.match(await page.textContent('.felt .play.winning .win-tag') ?? '', /赢 · 得 20 分/);
    // W leads at once (a computer): the finished trick is still there, then gives way.
    say(mock, {
      type: 'events', seq: 14, seat: 3, by: 'bot',
      events: [{ type: 'played', seat: 'W', trick: 4, cards: ['C2'], lead: true }],
      view: { ...after, to_act: 'N', plays: [{ seat: 'W', cards: ['C2'] }], winning: 'W', hand_sizes: [23, 22, 22, 22] }, to_act: [0], state: 'playing',
    });
    await page.waitForFunction(() => /** @type {any} */ (window).paiju.conn.lastSeq === 14);
    const stillThere = await page.locator('#finished-trick').count();
    assert.ok(stillThere || Date.now() - t0 >= 2000, 'still on the felt right after the next lead');
    if (stillThere) await shot(page, `casual-finished-trick-${w}x${h}`);
    await page.waitForFunction(() => !document.querySelector('#finished-trick'), null, { timeout: 5000 });
    assert.ok(Date.now() - t0 >= 1900, `kept about 2 s (${Date.now() - t0} ms)`);
    assert.equal(await page.locator('.felt .play').count(), 1, 'then the new trick');
    assert.deepEqual(errors.map(String), []);
    await context.close();
  }
});

// ---- 2. Timeouts, 托管 and presence in plain words; 托管 by choice ------------------------

test('every clock move, warning, penalty and 托管 play, and a seat that lost its line, is told until seen', async () => {
  const { page, context, mock, errors } = await seated(shengjiTable, [390, 844]);
  // The clock warns me (the move stays mine), then plays for 老王 with a penalty.
  say(mock, { type: 'events', seq: 13, seat: 2, by: 'clock', events: [{ type: 'warning', seat: 'S', reason: 'timeout' }], view: { ...shengjiView, grace: true }, to_act: [2], state: 'playing' });
  await page.waitForSelector('#notices [data-notice="clock"]');
  assert.match(await page.textContent('#notices') ?? '', /时间到：您被警告一次（这一步还可以接着出/);
  // A computer plays for 东 (托管), twice: one line for the seat, the latest.
  for (const [seq, card] of [[14, 'S3'], [15, 'S4']]) {
    say(mock, { type: 'events', seq, seat: 1, by: 'auto', events: [{ type: 'played', seat: 'E', trick: 3, cards: [card], lead: false }], view: shengjiView, to_act: [2], state: 'playing' });
  }
  await page.waitForFunction(() => /托管：系统替电脑出了黑桃4/.test(document.querySelector('#notices')?.textContent ?? ''));
  assert.equal(await page.locator('#notices [data-notice="auto"]').count(), 1, 'one 托管 line a seat');
  // 老王 (N) loses the line: 掉线 on his plate and in words.
  const seats = shengjiTable.welcome.seats.map((s) => (s.seat === 0 ? { ...s, connected: false } : s));
  say(mock, { type: 'seats', seats });
  await page.waitForSelector('#notices [data-notice="seat"]');
  assert.match(await page.textContent('#notices') ?? '', /老王掉线了/);
  assert.match(await page.textContent('[data-seat="0"]') ?? '', /掉线/);
  // The clock plays for 老王 with the penalty.
  say(mock, { type: 'events', seq: 16, seat: 0, by: 'clock', events: [{ type: 'played', seat: 'N', trick: 3, cards: ['S6'], lead: false, auto: true }, { type: 'penalty', seat: 'N', reason: 'timeout', points: 10, delta: -10, defenders: 5 }], view: shengjiView, to_act: [2], state: 'playing', clock: { seats: [2], remaining_ms: 20_000, limit_ms: 30_000 } });
  await page.waitForFunction(() => /时间到，系统替老王出了黑桃6（罚 10 分）/.test(document.querySelector('#notices')?.textContent ?? ''));
  await shot(page, 'casual-notices-390x844');
  await clockMoves(page);
  assert.ok(await page.locator('#notices').isVisible(), 'kept until seen');
  await page.click('#notices-ok');
  assert.ok(await page.locator('#notices').isHidden());
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('托管 by choice: the button asks the server, the dock says the computer plays, 我来出牌 takes it back', async () => {
  for (const [w, h] of SIZES) {
    /** @type {any[]} */
    const asked = [];
    const table = { ...shengjiTable, onOther: (/** @type {any} */ msg) => asked.push(msg) };
    const { page, context, mock } = await seated(table, [w, h]);
    await page.click('#auto');
    await until(async () => asked.length === 1, 2000, 'the request for 托管');
    assert.deepEqual(asked.at(-1), { type: 'auto', on: true });
    const on = shengjiTable.welcome.seats.map((s) => (s.seat === 2 ? { ...s, auto: true } : s));
    say(mock, { type: 'seats', seats: on });
    await page.waitForSelector('#auto-panel');
    assert.match(await page.textContent('#auto-panel') ?? '', /托管中：电脑正在替您出牌/);
    assert.ok(await visibleAtCentre(page, '#auto-off'), `${w}×${h}: 我来出牌 in reach`);
    await shot(page, `casual-auto-${w}x${h}`);
    await page.click('#auto-off');
    await until(async () => asked.length === 2, 2000, 'the request to play again');
    assert.deepEqual(asked.at(-1), { type: 'auto', on: false });
    await context.close();
  }
});

// ---- 3. A dead line is noticed within seconds -------------------------------------------------

test('a line that died silently (no pong) is noticed within seconds: the banner, then a reconnection', async () => {
  let deaf = false;
  const table = { ...shengjiTable, deaf: () => deaf };
  const { page, context, mock } = await seated(table);
  deaf = true;
  const t0 = Date.now();
  await page.waitForFunction(() => document.querySelector('#banner:not([hidden])')?.textContent === '正在重新连接…', null, { timeout: 15_000, polling: 50 });
  const took = Date.now() - t0;
  assert.ok(took < 12_000, `noticed in ${took} ms`);
  deaf = false;
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn === 'open', null, { timeout: 15_000 });
  assert.ok(mock.received.filter((m) => m.type === 'hello').length >= 2, 'it said hello again');
  await page.waitForSelector('#notices [data-notice="away"]');
  assert.match(await page.textContent('#notices') ?? '', /网络断了一会儿，已经重新连上/);
  await context.close();
});

// ---- 4. The jokers are the clearest cards -----------------------------------------------------

test('大王 and 小王 are written large (at least 18 px), whole and in view, at three sizes, 大牌 larger still', async () => {
  const view = { ...shengjiView, hand: ['RJ', 'BJ', ...shengjiView.hand.slice(1)], hand_trumps: 9 };
  const table = { ...shengjiTable, snapshot: () => ({ ...shengjiTable.snapshot(), view }) };
  for (const [w, h] of SIZES) {
    const { page, context } = await seated(table, [w, h]);
    const jokers = await page.$$eval('#hand .card.joker', (els) => els.map((el) => {
      const r = /** @type {HTMLElement} */ (el.querySelector('.r'));
      const box = r.getBoundingClientRect();
      // Every character of the word is on the card's visible part (not under the next card).
      const text = /** @type {Text} */ (r.firstChild);
      const seen = [...(text.textContent ?? '')].every((_, i) => {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const c = range.getBoundingClientRect();
        const at = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
        return !!at && (at === el || el.contains(at));
      });
      return { text: r.textContent, size: parseFloat(getComputedStyle(r).fontSize), seen, w: box.width };
    }));
    assert.deepEqual(jokers.map((j) => j.text), ['大王', '小王']);
    for (const j of jokers) {
      assert.ok(j.size >= 18, `${w}×${h}: ${j.text} at ${j.size} px`);
      assert.ok(j.seen, `${w}×${h}: ${j.text} whole and uncovered`);
    }
    await shot(page, `casual-jokers-${w}x${h}`);
    await context.close();
  }
  // 大牌: the cards grow.
  const { page, context } = await seated(table, [820, 1180]);
  const width = () => page.$eval('#hand .card', (e) => e.getBoundingClientRect().width);
  const before = await width();
  await page.click('#settings');
  await page.click('#big-cards');
  await page.waitForFunction((b) => (document.querySelector('#hand .card')?.getBoundingClientRect().width ?? 0) > b * 1.1, before);
  await page.click('#big-text');
  await page.waitForFunction(() => parseFloat(getComputedStyle(document.documentElement).fontSize) >= 24);
  await shot(page, 'casual-big-820x1180');
  assert.deepEqual(await layoutProblems(page, true), [], '大字 and 大牌: every card still in reach, the trick in view');
  await context.close();
});

// ---- 5. Who is who; 6. the tablet; level and trump near the hand ---------------------------------

test('80分 seats say 对家, 上家, 下家; the level and trump sit large by the hand, in the suit\'s colour; the tablet\'s cards are large', async () => {
  for (const [w, h] of SIZES) {
    const { page, context } = await seated(shengjiTable, [w, h]);
    // I am S (2): N across is 对家, E on the right 下家, W on the left 上家.
    assert.match(await page.textContent('[data-seat="0"] .tags') ?? '', /对家/);
    assert.match(await page.textContent('[data-seat="1"] .tags') ?? '', /下家/);
    assert.match(await page.textContent('[data-seat="3"] .tags') ?? '', /上家/);
    const badge = page.locator('#trump-badge');
    assert.match(await badge.textContent() ?? '', /打 2.*主 ♥ 红桃/);
    const colour = await page.$eval('#trump-badge b', (e) => getComputedStyle(e).color);
    assert.equal(colour, 'rgb(179, 0, 12)', 'hearts in red');
    assert.ok(parseFloat(await badge.evaluate((e) => getComputedStyle(e).fontSize)) >= 22);
    const cardW = await page.$eval('#hand .card', (e) => e.getBoundingClientRect().width);
    if (w === 820) assert.ok(cardW >= 80, `the tablet's cards use its screen (${cardW} px)`);
    await context.close();
  }
});

// ---- 8. Shaded cards and 提示; a refusal clears the selection --------------------------------------

test('the cards outside `playable` are shaded and 提示 is in reach at three sizes; a refusal clears the selection', async () => {
  const spades = shengjiView.hand.filter((c) => c[0] === 'S' && c !== 'S2');
  const view = { ...shengjiView, playable: spades, hint: ['S5'] };
  const table = {
    ...shengjiTable,
    snapshot: () => ({ ...shengjiTable.snapshot(), view }),
    onAct: (/** @type {any} */ msg, /** @type {any} */ ws) => ws.send(JSON.stringify({ type: 'rejected', id: msg.id, code: 'must_follow_suit', zh: '必须跟出同一门花色：你有黑桃，只能出黑桃', en: 'you must follow suit' })),
  };
  for (const [w, h] of SIZES) {
    const { page, context, errors } = await seated(table, [w, h]);
    assert.equal(await page.locator('#hand [data-playable="false"]').count(), shengjiView.hand.length - spades.length);
    assert.ok(await visibleAtCentre(page, '#hint'), `${w}×${h}: 提示 in reach`);
    await page.click('#hint');
    assert.deepEqual(await page.$$eval('#hand [aria-pressed="true"]', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card)), ['S5']);
    await shot(page, `casual-hint-${w}x${h}`);
    // A refused play: the reason shows, the selection is cleared.
    await page.locator('#hand button[data-card="CK"]').click();
    await page.click('#play');
    await page.waitForSelector('#refusal.refusal');
    assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared');
    assert.equal(await page.locator('#hand .card').count(), shengjiView.hand.length, 'the hand is unchanged');
    assert.deepEqual(await smallTargets(page, 48), [], 'every control at least 48 px');
    assert.deepEqual(errors.map(String), []);
    await context.close();
  }
});

// ---- Smaller: tags on one line; 够级's set size; 轮到您出牌 in view on a phone; the bury prompt -----

test('最大 and 够级！ stay on one line; 够级 starts a set at the size on the table; 「轮到您出牌」 stays in view on a phone', async () => {
  for (const [w, h] of SIZES) {
    for (const table of [shengjiTable, goujiTable]) {
      const { page, context } = await seated(table, [w, h]);
      const tags = await page.$$eval('.win-tag', (els) => els.map((e) => ({ text: e.textContent, h: e.getBoundingClientRect().height, size: parseFloat(getComputedStyle(e).fontSize) })));
      assert.ok(tags.length >= 1);
      for (const tag of tags) assert.ok(tag.h < tag.size * 2, `${w}×${h}: 「${tag.text}」 on one line (${tag.h} px)`);
      if (table === goujiTable) {
        // The top set is three Qs: tapping the 6s (four of them) starts the set with three.
        await page.click('#hand .group-btn[data-rank="6"]');
        assert.match(await page.textContent('#builder [data-part="6"]') ?? '', /6 ×3/);
        await page.click('#hand .group-btn[data-rank="2"]');
        assert.match(await page.textContent('#builder [data-part="2"]') ?? '', /2 ×3/);
        if (w < 600) {
          await page.$eval('.dock', (d) => d.scrollTo(0, d.scrollHeight));
          assert.ok(await visibleAtCentre(page, '#your-turn'), '「轮到您出牌」 stays in view when the dock scrolls');
        }
        await shot(page, `casual-gouji-set-${w}x${h}`);
      }
      await context.close();
    }
  }
});

test('the bury prompt and hint both say 扣底, like the button', async () => {
  const view = { ...shengjiView, phase: 'bury', plays: [], winning: null, last_trick: null, hint: ['D3', 'C4', 'C8', 'C8', 'D7', 'DJ', 'C10', 'S5'], hand: [...shengjiView.hand, 'S3', 'H3', 'C3', 'D5', 'D8', 'C9', 'SK', 'CA', 'BJ', 'HQ'], hand_trumps: 11 };
  const table = { ...shengjiTable, snapshot: () => ({ ...shengjiTable.snapshot(), view }) };
  const { page, context } = await seated(table, [390, 844]);
  assert.match(await page.textContent('#bury-prompt') ?? '', /扣底：请选 8 张牌，再按「扣底」/);
  assert.equal(await page.textContent('#play'), '扣底');
  assert.deepEqual(await axeViolations(page), []);
  await context.close();
});

test('the points the defenders took and the points still out (the view\'s), under 分牌', async () => {
  const { page, context } = await seated(shengjiTable, [390, 844]);
  assert.match(await page.textContent('[data-points-left]') ?? '', /还有 160 分没出/);
  await page.click('#points');
  const panel = await page.textContent('#points-panel') ?? '';
  assert.match(panel, /闲家捡的分 · 15/);
  assert.deepEqual(await page.$$eval('#points-panel [data-card]', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card)), ['DK', 'D10']);
  await context.close();
});

// ---- 7. The 够级 result: my team, 头科…大落 with names ---------------------------------------------

test('the 够级 result says my team, whether it won, the finishing order with names, and offers 下一局', async () => {
  const over = {
    ...goujiView, hand: [], turn: null, prompt: null, top: null,
    players: goujiView.players.map((p, i) => ({ ...p, cards: { kind: 'exact', n: 0 }, status: 'out', place: ['first', 'third', 'second', 'last', 'fourth', 'second_last'][i] })),
    finish: ['A1', 'A2', 'B1', 'A3', 'B3', 'B2'], score: { a: 3, b: -3 }, outcome: 'places',
  };
  const table = { ...goujiTable, welcome: { ...goujiTable.welcome, state: 'over' }, snapshot: () => ({ ...goujiTable.snapshot(), view: over, to_act: [], clock: undefined, state: 'over' }) };
  for (const [w, h] of SIZES) {
    const p = await newPage(live.browser, { width: w, height: h });
    await p.context.addInitScript(() => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: 0, game: 'gouji' })));
    await p.page.route('**/api/tables', (r) => r.fulfill({ json: [] }));
    await mockTable(p.page, 'demo', table);
    await p.page.goto(`${live.server.url}/#/t/demo`);
    await p.page.waitForSelector('#result');
    const text = await p.page.textContent('[role=dialog]') ?? '';
    assert.match(text, /您在A 队（和李阿姨、张叔一起）/);
    assert.match(text, /您这队赢了/);
    assert.match(text, /头科[^]*我 \(A1\)[^]*二科[^]*李阿姨 \(A2\)[^]*大落[^]*电脑 \(B2\)/);
    assert.ok(await p.page.locator('#next-board').isVisible());
    assert.equal(await p.page.textContent('#next-board'), '下一局');
    assert.ok(await p.page.locator('#session').isVisible(), 'the session\'s running score');
    await shot(p.page, `casual-gouji-result-${w}x${h}`);
    if (w === 1440) assert.deepEqual(await axeViolations(p.page), []);
    await p.context.close();
  }
});
