// The page's own behaviour where a scripted server says exactly what is needed (a mocked
// WebSocket, tests/mock.js): the clock's warning colour; an unanswered action sent again with
// the same id after the line drops when the table did not move, and given up (with one line
// saying why) when it did; a `stale` refusal; a referee's reason. The games themselves are
// played against the real server in the other test files (the stale path too: stale.test.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, until, clockMoves } from './harness.js';
import { mockServerAndBrowser, mockTable } from './mock.js';
import { shengjiTable, shengjiView } from './fixtures.js';

const live = mockServerAndBrowser();

/** A page seated at the scripted 80分 table. */
async function seated(/** @type {any} */ table) {
  const p = await newPage(live.browser);
  await p.context.addInitScript(() => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: 2, game: 'shengji' })));
  const mock = await mockTable(p.page, 'demo', table);
  await p.page.goto(`${live.server.url}/#/t/demo`);
  await p.page.waitForSelector('#hand');
  return { ...p, mock };
}

test('the clock turns red from 10 seconds', async () => {
  const table = { ...shengjiTable, snapshot: () => ({ ...shengjiTable.snapshot(), clock: { seats: [2], remaining_ms: 12_500, limit_ms: 30_000 } }) };
  const { page, context } = await seated(table);
  const clock = page.locator('.dock [data-clock]');
  assert.match(await clock.textContent() ?? '', /1[23] 秒/);
  assert.equal(await clock.evaluate((e) => e.classList.contains('warning')), false);
  await page.waitForFunction(() => document.querySelector('.dock [data-clock]')?.classList.contains('warning'), null, { timeout: 5000 });
  assert.match(await clock.textContent() ?? '', /^(10|9) 秒$/);
  await context.close();
});

test('an unanswered action is sent again with the same id after the line drops', async () => {
  const { page, context, mock } = await seated(shengjiTable); // the mock never answers an act
  await page.locator('#hand button[data-card="SA"]').click();
  assert.equal(await page.getAttribute('#hand button[data-card="SA"]', 'aria-pressed'), 'true', 'a tap selects');
  await page.click('#play');
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.conn.pending.size === 1);
  const first = mock.received.find((m) => m.type === 'act');
  assert.deepEqual(first.action, { type: 'play', cards: ['SA'] });
  mock.sockets[0].close({ code: 4008 });
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn !== 'open', null, { timeout: 5000, polling: 10 });
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn === 'open', null, { timeout: 10_000 });
  // The resent frame arrives right after the new hello (the page sends it on the catch-up).
  await until(async () => mock.received.filter((m) => m.type === 'act').length >= 2, 2000, 'the act sent again');
  const acts = mock.received.filter((m) => m.type === 'act');
  assert.equal(first.seq, 12, 'the act carries the seq it was decided on');
  assert.equal(acts.length, 2, 'sent once, then once more after reconnecting: the table had not moved');
  assert.equal(acts[1].id, first.id, 'with the same id');
  assert.equal(acts[1].seq, 12);
  const hellos = mock.received.filter((m) => m.type === 'hello');
  assert.equal(hellos.length, 2);
  assert.equal(hellos[1].last_seq, 12, 'the second hello resumes from the last seq seen');
  await context.close();
});

// What the clock did for seat S (2) after the page decided at seq 12: a warning and 方块3.
const clockView = {
  ...shengjiView, to_act: 'W', hand_sizes: [24, 23, 22, 24],
  hand: shengjiView.hand.filter((c) => c !== 'D3'),
  plays: [...shengjiView.plays, { seat: 'S', cards: ['D3'] }],
};
const clockEvents = () => ({
  type: 'events', seq: 13, seat: 2, by: 'clock',
  events: [{ type: 'warning', seat: 'S', reason: 'timeout' }, { type: 'played', seat: 'S', trick: 3, cards: ['D3'], lead: false, auto: true }],
  view: clockView, to_act: [3], state: 'playing',
});

/** Taps 黑桃A and presses 出牌 (the mock answers, or never does: then it stays pending). @param {import('playwright-core').Page} page */
async function playSA(page, answered = false) {
  await page.locator('#hand button[data-card="SA"]').click();
  await page.click('#play');
  if (!answered) await page.waitForFunction(() => /** @type {any} */ (window).paiju.conn.pending.size === 1);
}

test('a stale refusal says the table moved on and what the clock did, never a red refusal', async () => {
  const table = {
    ...shengjiTable,
    onAct: (/** @type {any} */ msg, /** @type {any} */ ws) => {
      // The clock played for the seat before this act arrived.
      ws.send(JSON.stringify(clockEvents()));
      ws.send(JSON.stringify({ type: 'rejected', id: msg.id, code: 'stale', zh: '局面已变，这步没有送达', en: 'the table moved on before this arrived; nothing was applied' }));
    },
  };
  const { page, context, errors } = await seated(table);
  await playSA(page, true);
  await page.waitForSelector('#notices [data-notice="stale"]');
  const text = await page.textContent('#notices') ?? '';
  assert.match(text, /局面已变，这步没有送达/);
  assert.match(text, /时间到，系统替您出了方块3（警告一次）/, text);
  assert.equal(await page.locator('#notices li').count(), 1, 'one line: the clock\'s own notice is folded into it');
  assert.ok(await page.locator('#refusal').isHidden(), 'no red refusal');
  assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared');
  // English under 设置: the same line in English.
  await page.click('#settings');
  await page.click('#lang');
  await page.waitForFunction(() => /the table moved on/.test(document.querySelector('#notices')?.textContent ?? ''));
  assert.match(await page.textContent('#notices') ?? '', /Time ran out: played 3 of diamonds \(a warning\) for you/);
  await page.click('#notices-ok');
  assert.ok(await page.locator('#notices').isHidden());
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('after a drop, an unanswered act is given up, not resent, when the table moved on', async () => {
  const table = {
    ...shengjiTable,
    onHello: (/** @type {any} */ _msg, /** @type {any} */ ws, /** @type {number} */ n) => {
      if (n === 0) {
        ws.send(JSON.stringify(shengjiTable.welcome));
        ws.send(JSON.stringify(shengjiTable.snapshot()));
        return;
      }
      // Back after the drop: the clock played for the seat meanwhile (seq 13).
      ws.send(JSON.stringify({ ...shengjiTable.welcome, seq: 13 }));
      ws.send(JSON.stringify(clockEvents()));
    },
  };
  const { page, context, mock, errors } = await seated(table); // the mock never answers an act
  await playSA(page);
  mock.sockets[0].close({ code: 4008 });
  await page.waitForSelector('#notices [data-notice="away"]', { timeout: 10_000 });
  const text = await page.textContent('#notices') ?? '';
  assert.match(text, /您离线时：时间到，系统替您出了方块3（警告一次）/, text);
  assert.match(text, /您刚才那步没有送出/, text);
  // A frame the page sends now arrives after anything it sent before: had the act gone again on
  // the catch-up, the mock would have it by the time 托管's request comes.
  await page.click('#auto');
  await until(async () => mock.received.some((m) => m.type === 'auto'), 2000, 'a later frame');
  assert.equal(mock.received.filter((m) => m.type === 'act').length, 1, 'the act was not sent again');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).paiju.conn.pending.size), 0);
  assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('after a long drop caught up by a snapshot, the line names the cards that left the hand', async () => {
  const table = {
    ...shengjiTable,
    onHello: (/** @type {any} */ _msg, /** @type {any} */ ws, /** @type {number} */ n) => {
      if (n === 0) {
        ws.send(JSON.stringify(shengjiTable.welcome));
        ws.send(JSON.stringify(shengjiTable.snapshot()));
        return;
      }
      const view = { ...shengjiView, hand: shengjiView.hand.filter((c) => c !== 'D3' && c !== 'C4'), plays: [], trick: 4, to_act: 'E' };
      ws.send(JSON.stringify({ ...shengjiTable.welcome, seq: 20 }));
      ws.send(JSON.stringify({ type: 'snapshot', seq: 20, view, to_act: [1], state: 'playing' }));
    },
  };
  const { page, context, mock } = await seated(table);
  await playSA(page);
  mock.sockets[0].close({ code: 4008 });
  await page.waitForSelector('#notices [data-notice="away"]', { timeout: 10_000 });
  const text = await page.textContent('#notices') ?? '';
  assert.match(text, /从您手里出去的牌：梅花4、方块3/, text);
  assert.match(text, /没有送出/, text);
  assert.equal(mock.received.filter((m) => m.type === 'act').length, 1, 'the act was not sent again');
  await context.close();
});

test('a referee\'s ruling is shown with the reason given, until seen', async () => {
  const { page, context, mock } = await seated(shengjiTable);
  mock.sockets[0].send(JSON.stringify({
    type: 'events', seq: 13, seat: 0, by: 'referee', reason: '第二次打暗号',
    events: [{ type: 'penalty', seat: 'N', reason: 'ruling', points: 40, delta: 40, defenders: 55 }],
    view: { ...shengjiView, defenders: 55 }, to_act: [2], state: 'playing', clock: { seats: [2], remaining_ms: 20_000, limit_ms: 30_000 },
  }));
  await page.waitForSelector('#notices [data-notice="referee"]');
  assert.match(await page.textContent('#notices') ?? '', /裁判对老王：罚 40 分。理由：第二次打暗号/);
  await clockMoves(page);
  assert.ok(await page.locator('#notices').isVisible(), 'it stays until 知道了');
  await context.close();
});

test('the engine\'s playable cards and hint, when the view has them: others shaded, 提示 selects the hint', async () => {
  const spades = shengjiView.hand.filter((c) => c[0] === 'S' && c !== 'S2');
  const view = { ...shengjiView, playable: spades, hint: ['S5'] };
  const table = { ...shengjiTable, snapshot: () => ({ ...shengjiTable.snapshot(), view }) };
  const { page, context, errors } = await seated(table);
  const shaded = await page.$$eval('#hand [data-playable="false"]', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card));
  assert.equal(shaded.length, shengjiView.hand.length - spades.length, 'every card outside `playable` is shaded');
  assert.ok(!shaded.some((c) => spades.includes(/** @type {string} */ (c))));
  await page.click('#hint');
  assert.deepEqual(await page.$$eval('#hand [aria-pressed="true"]', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.card)), ['S5'], '提示 selects the engine\'s play');
  await context.close();

  // Without the fields (an older server): nothing shaded, no 提示.
  const plain = await seated(shengjiTable);
  assert.equal(await plain.page.locator('#hand [data-playable="false"]').count(), 0);
  assert.equal(await plain.page.locator('#hint').count(), 0);
  await plain.context.close();
  assert.deepEqual(errors.map(String), []);
});

test('the two ways to look back are named apart; after a reload 回看各轮 says which tricks it lacks', async () => {
  // The board over, seen by a page opened (again) at trick 3: only tricks 3 and 4 are in its review.
  const trick = (/** @type {number} */ n) => ({ trick: n, plays: [{ seat: 'N', cards: ['S3'] }, { seat: 'E', cards: ['S4'] }, { seat: 'S', cards: ['S5'] }, { seat: 'W', cards: ['S6'] }], winner: 'W', points: 5 });
  const over = { ...shengjiView, phase: 'over', to_act: null, plays: [], hand: [], hand_sizes: [0, 0, 0, 0], result: 45, last_trick: trick(4), tricks: [trick(3), trick(4)] };
  const table = { ...shengjiTable, welcome: { ...shengjiTable.welcome, state: 'over' }, snapshot: () => ({ ...shengjiTable.snapshot(), view: over, to_act: [], clock: undefined, state: 'over' }) };
  const p = await newPage(live.browser);
  await p.context.addInitScript(() => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: 2, game: 'shengji' })));
  await p.page.route('**/api/tables', (r) => r.fulfill({ json: [] }));
  await mockTable(p.page, 'demo', table);
  await p.page.goto(`${live.server.url}/#/t/demo`);
  await p.page.waitForSelector('#result');
  assert.equal(await p.page.textContent('#result-review'), '回看各轮');
  assert.equal(await p.page.textContent('#result-replay'), '全盘复盘');
  assert.equal(await p.page.textContent('#replay'), '全盘复盘', 'the top bar\'s names the same thing the same way');
  await p.page.click('#result-review');
  assert.match(await p.page.textContent('#review-partial') ?? '', /只有本页看到的第 3–4 轮[^]*全盘复盘/);
  assert.deepEqual(p.errors.map(String), []);
  await p.context.close();
});
