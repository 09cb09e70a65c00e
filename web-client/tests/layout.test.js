// The table's layout on scripted tables (a mocked WebSocket, no server): at phone, tablet and
// desktop sizes the whole felt — the seats and every card of the current trick — is in view and
// not under the dock, and the hand and 出牌 are reachable. The largest cases: three 10-card
// plays in 80分, the declarer's 33 cards while burying, a 10-card top set in 够级.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, shot, smallText, smallTargets, layoutProblems } from './harness.js';
import { mockServerAndBrowser, mockTable } from './mock.js';
import { shengjiTable, shengjiView, shengjiBigTrickTable, shengjiBuryTable, goujiTable, goujiBigTopTable } from './fixtures.js';

const live = mockServerAndBrowser();

const sizes = [[390, 844], [820, 1180], [1024, 768], [1440, 900]];
// On the phone the largest tables may scroll the hand inside the dock (the last resort).
const phoneDockMayScroll = new Set(['shengji-big-trick', 'gouji-big-top']);
const tables = { shengji: shengjiTable, 'shengji-big-trick': shengjiBigTrickTable, 'shengji-bury': shengjiBuryTable, gouji: goujiTable, 'gouji-big-top': goujiBigTopTable };

for (const [name, table] of Object.entries(tables)) {
  test(`layout: ${name} at three sizes`, async () => {
    /** @type {Record<string, string[]>} */
    const problems = {};
    for (const [width, height] of sizes) {
      const { page, context, errors } = await newPage(live.browser, { width, height });
      const { seat, game } = /** @type {any} */ (table.welcome);
      await context.addInitScript((s) => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: s[0], game: s[1] })), [seat, game]);
      await mockTable(page, 'demo', table);
      await page.goto(`${live.server.url}/#/t/demo`);
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

// The tightest 80分 case at tablet and desktop sizes: a full 25-card hand of five groups (it wraps
// into two rows at 1024 px), the last to play to a trick of three, computers at 高手, and a
// refusal showing: the dock holds it all without scrolling. (The computers' level once made the
// top bar two lines here, and the dock scrolled on an unlucky deal.) Then two notices on top (a
// clock warning, a 托管 play, shown until 知道了): the hand may scroll then, between whose turn it
// is and 出牌, both kept in view, and every card can still be tapped.
test('layout: a refusal under a full hand with computers at 高手; then notices', async () => {
  const hand = ['RJ', 'BJ', 'H2', 'S2', 'C2', 'HA', 'HK', 'HQ', 'H10', 'H5', 'SA', 'SK', 'SQ', 'SJ', 'S9', 'S5', 'CK', 'C10', 'C8', 'C8', 'C4', 'DA', 'DJ', 'D7', 'D3'];
  const view = {
    ...shengjiView, hand, hand_trumps: 10, hand_sizes: [24, 24, 25, 24], leader: 'E', winning: 'E', declarer: 'N',
    plays: [{ seat: 'E', cards: ['SK'] }, { seat: 'N', cards: ['S10'] }, { seat: 'W', cards: ['S3'] }],
  };
  const table = {
    ...shengjiTable,
    snapshot: () => ({ ...shengjiTable.snapshot(), view }),
    onAct: (/** @type {any} */ msg, /** @type {any} */ ws) => ws.send(JSON.stringify({ type: 'rejected', id: msg.id, code: 'must_follow_suit', zh: '必须跟出同一门花色：你有黑桃，只能出黑桃', en: 'you must follow suit' })),
  };
  for (const [width, height] of sizes.filter(([w]) => w > 600)) {
    const { page, context, errors } = await newPage(live.browser, { width, height });
    await context.addInitScript(() => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: 2, game: 'shengji' })));
    const mock = await mockTable(page, 'demo', table);
    await page.goto(`${live.server.url}/#/t/demo`);
    await page.waitForSelector('#hand');
    await page.locator('#hand button[data-card="CK"]').click();
    await page.click('#play');
    await page.waitForSelector('#refusal.refusal');
    await shot(page, `layout-shengji-refused-${width}x${height}`);
    assert.deepEqual(await layoutProblems(page), [], `${width}×${height}: the refusal and the whole hand fit the dock`);
    assert.equal(await page.locator('.tag.bot[data-bot-level="expert"]').count(), 2, 'each computer seat says its level');

    const say = (/** @type {object} */ msg) => mock.sockets[mock.sockets.length - 1].send(JSON.stringify(msg));
    say({ type: 'events', seq: 13, seat: 0, by: 'clock', events: [{ type: 'warning', seat: 'N', reason: 'timeout' }], view, to_act: [2], state: 'playing' });
    say({ type: 'events', seq: 14, seat: 1, by: 'auto', events: [{ type: 'played', seat: 'E', trick: 3, cards: ['SK'], lead: false }], view, to_act: [2], state: 'playing' });
    await page.waitForSelector('#notices [data-notice="auto"]');
    assert.deepEqual(await layoutProblems(page, true), [], `${width}×${height}, notices: the felt in view, every card and 出牌 in reach`);
    await page.$eval('.dock', (d) => d.scrollTo(0, d.scrollHeight));
    await shot(page, `layout-shengji-notices-${width}x${height}`);
    const turn = await page.locator('.dock .status').boundingBox();
    const dock = await page.locator('.dock').boundingBox();
    assert.ok(turn && dock && turn.y >= dock.y - 1 && turn.y + turn.height <= dock.y + dock.height, `${width}×${height}: whose turn it is stays in view`);
    assert.deepEqual(errors.map(String), []);
    await context.close();
  }
});
