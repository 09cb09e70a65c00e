// The table's layout on scripted tables (a mocked WebSocket, no server): at phone, tablet and
// desktop sizes the whole felt — the seats and every card of the current trick — is in view and
// not under the dock, and the hand and 出牌 are reachable. The largest cases: three 10-card
// plays in 80分, the declarer's 33 cards while burying, a 10-card top set in 够级.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, shot, smallText, smallTargets, layoutProblems } from './harness.js';
import { staticServer, mockTable } from './mock.js';
import { shengjiTable, shengjiBigTrickTable, shengjiBuryTable, goujiTable, goujiBigTopTable } from './fixtures.js';

/** @type {Awaited<ReturnType<typeof staticServer>>} */
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

const sizes = [[390, 844], [820, 1180], [1024, 768], [1440, 900]];
// On the phone the largest tables may scroll the hand inside the dock (the last resort).
const phoneDockMayScroll = new Set(['shengji-big-trick', 'gouji-big-top']);
const tables = { shengji: shengjiTable, 'shengji-big-trick': shengjiBigTrickTable, 'shengji-bury': shengjiBuryTable, gouji: goujiTable, 'gouji-big-top': goujiBigTopTable };

for (const [name, table] of Object.entries(tables)) {
  test(`layout: ${name} at three sizes`, async () => {
    /** @type {Record<string, string[]>} */
    const problems = {};
    for (const [width, height] of sizes) {
      const { page, context, errors } = await newPage(browser, { width, height });
      const { seat, game } = /** @type {any} */ (table.welcome);
      await context.addInitScript((s) => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: s[0], game: s[1] })), [seat, game]);
      await mockTable(page, 'demo', table);
      await page.goto(`${server.url}/#/t/demo`);
      await page.waitForSelector('#hand');
      await shot(page, `layout-${name}-${width}x${height}`);
      const p = await layoutProblems(page, width < 600 && phoneDockMayScroll.has(name));
      if (p.length) problems[`${width}x${height}`] = p;
      if (width === 1024) {
        assert.deepEqual(await smallText(page, 18), [], 'no text under 18 px at 1024×768');
        assert.deepEqual(await smallTargets(page, 48), [], 'every control at least 48 px');
      }
      assert.deepEqual(errors.map(String), []);
      await context.close();
    }
    assert.deepEqual(problems, {}, `${name}: the felt and the trick in view, the hand and 出牌 reachable at every size`);
  });
}
