// 够级 in a real browser against the real server: one seat played through the page, five bots,
// a whole game to its result. Along the way: the seats marked (对头, 联邦), the hand grouped by
// printed rank with counts in the engine's order, a set built and sent as it is (the page judges
// nothing), 问牌 answered to the asker, screenshots and axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, smallText, smallTargets, layoutProblems } from './harness.js';
import { openTableFromLobby, waitMyTurnOrOver, goujiTurn, model } from './play.js';

const live = liveServerAndBrowser();

test('a whole 够级 game with five bots, through the page', { timeout: 600_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  await openTableFromLobby(page, live.server.url, 'gouji');

  // Six seats: mine (A1) in the dock, B2 marked 对头, A2 and A3 联邦.
  await page.waitForSelector('#hand .group-btn');
  assert.match(await page.textContent('[data-seat="3"]') ?? '', /对头/);
  assert.match(await page.textContent('[data-seat="2"]') ?? '', /联邦/);
  assert.match(await page.textContent('[data-seat="4"]') ?? '', /联邦/);
  assert.doesNotMatch(await page.textContent('[data-seat="1"]') ?? '', /联邦|对头/);
  // The hand grouped by printed rank, counts adding up to 50, in the order the engine gives the hand.
  const groups = await page.$$eval('#hand .group-btn', (els) => els.map((e) => ({ rank: /** @type {HTMLElement} */ (e).dataset.rank, n: Number(e.querySelector('.gc')?.textContent?.slice(1)) })));
  assert.equal(groups.reduce((a, g) => a + g.n, 0), 50);
  // The groups follow the engine's order when it keeps each rank together, else the order players
  // lay them out in: 3 … A, then 2, 小王, 大王.
  const hand = (await model(page)).view.hand;
  const rankOf = (/** @type {string} */ c) => (c === 'BJ' || c === 'RJ' ? c : c.slice(1));
  const runs = hand.map(rankOf).filter((/** @type {string} */ r, /** @type {number} */ i, /** @type {string[]} */ a) => i === 0 || a[i - 1] !== r);
  const laidOut = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2', 'BJ', 'RJ'];
  const expected = new Set(runs).size === runs.length ? runs : [...new Set(runs)].sort((a, b) => laidOut.indexOf(a) - laidOut.indexOf(b));
  assert.deepEqual(groups.map((g) => g.rank), expected, 'the groups in the engine\'s order (or 3 … A, 2, the jokers)');

  let leads = 0;
  let passes = 0;
  let asked = false;
  let shots = false;
  for (let guard = 0; guard < 2000; guard++) {
    const m = await waitMyTurnOrOver(page, 120_000);
    if (m.tableState === 'over' || m.view.score) break;
    const v = m.view;

    if (!asked) {
      // 问牌: the server answers me alone (an `answer`, not an event) how many cards my 对头 holds.
      await page.click('#ask');
      await page.waitForSelector('#count-note', { timeout: 10_000 });
      assert.match(await page.textContent('#count-note') ?? '', /B2/);
      asked = true;
    }

    if (!shots) {
      // Build a set: it shows in the builder, with no verdict of the page's own (the engine judges
      // it when sent); 出牌 is held back only when the engine's prompt says the seat may not beat.
      const last = page.locator('#hand .group-btn').last();
      await last.click();
      await page.waitForSelector('#selection');
      assert.equal(await page.$('#verdict'), null, 'the page gives no verdict of its own');
      const cannotBeat = v.prompt?.kind === 'respond' && v.prompt.may_beat === false;
      assert.equal(await page.isEnabled('#play'), !cannotBeat, '出牌 follows the engine\'s prompt');
      for (const [w, h] of [[390, 844], [1024, 768], [1440, 900]]) {
        await page.setViewportSize({ width: w, height: h });
        await shot(page, `gouji-${w}x${h}`);
        assert.deepEqual(await layoutProblems(page, w < 600), [], `${w}×${h}: the felt and the whole trick in view, not under the dock; the hand and 出牌 reachable`);
      }
      await page.setViewportSize({ width: 1024, height: 768 });
      assert.deepEqual(await axeViolations(page), [], 'axe-core: no serious or critical violations on the 够级 table');
      assert.deepEqual(await smallText(page, 18), [], 'no text under 18 px at 1024×768');
      assert.deepEqual(await smallTargets(page, 48), [], 'every control at least 48 px');
      await page.click('#clear');
      shots = true;
    }

    const did = await goujiTurn(page, v);
    if (did === 'lead') leads++;
    else passes++;
  }
  assert.ok(leads >= 1, `the seat led (${leads} leads, ${passes} passes)`);
  assert.ok(shots, 'screenshots and checks were taken');

  // The result: the finishing order and the team scores.
  await page.waitForSelector('#result', { timeout: 60_000 });
  assert.match(await page.getAttribute('#result', 'data-score') ?? '', /^-?\d+:-?\d+$/);
  assert.match(await page.textContent('[role=dialog]') ?? '', /头科/);
  await shot(page, 'gouji-result-1024x768');
  assert.deepEqual(errors.map(String), [], 'no page errors');
});
