// The page's own behaviour where a scripted server says exactly what is needed (a mocked
// WebSocket, tests/mock.js): the clock's warning colour, and an unanswered action sent again
// with the same id after the line drops. The games themselves are played against the real
// server in the other test files.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage } from './harness.js';
import { staticServer, mockTable } from './mock.js';
import { shengjiTable } from './fixtures.js';

/** @type {any} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  server = await staticServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page seated at the scripted 80分 table. */
async function seated(/** @type {any} */ table) {
  const p = await newPage(browser);
  await p.context.addInitScript(() => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: 2, game: 'shengji' })));
  const mock = await mockTable(p.page, 'demo', table);
  await p.page.goto(`${server.url}/#/t/demo`);
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
  await page.waitForFunction(() => true, null, { timeout: 1000 });
  await new Promise((r) => setTimeout(r, 300)); // let the resent frame arrive
  const acts = mock.received.filter((m) => m.type === 'act');
  assert.equal(acts.length, 2, 'sent once, then once more after reconnecting');
  assert.equal(acts[1].id, first.id, 'with the same id');
  const hellos = mock.received.filter((m) => m.type === 'hello');
  assert.equal(hellos.length, 2);
  assert.equal(hellos[1].last_seq, 12, 'the second hello resumes from the last seq seen');
  await context.close();
});
