// 80分 in a real browser against the real server: one seat played through the page, three bots.
// Along the way: burying the kitty, an illegal play refused in Chinese with the hand unchanged,
// the WebSocket killed mid-trick (the page reconnects and the board goes on without a reload),
// screenshots at three sizes, axe-core, text and touch-target sizes; the board to its result,
// then the review of its tricks.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, killSocket, shot, axeViolations, smallText, smallTargets, layoutProblems } from './harness.js';
import { openTableFromLobby, waitMyTurnOrOver, model, tapCards, pressAndAwait, shengjiTurn, shengjiRevoke, handCards } from './play.js';

const live = liveServerAndBrowser();

test('a whole 80分 board with three bots, through the page', { timeout: 300_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  const id = await openTableFromLobby(page, live.server.url, 'shengji');
  assert.match(id, /^[A-Za-z0-9_-]+$/);

  let turns = 0;
  let refusals = 0;
  let revokeTested = false;
  let killed = false;
  let shots = false;
  let fullShots = false;
  for (;;) {
    const m = await waitMyTurnOrOver(page);
    if (m.tableState === 'over' || m.view.phase === 'over') break;
    const v = m.view;

    // An illegal play: another suit while holding the led suit. The server's Chinese rule message
    // shows next to the cards, the hand stays as it was, and the message stays until the next action.
    const revoke = !revokeTested && v.phase === 'play' ? shengjiRevoke(v) : null;
    if (revoke) {
      const before = await handCards(page);
      await tapCards(page, [revoke]);
      const r = await pressAndAwait(page);
      assert.equal(r.ok, false, 'playing off-suit while holding the led suit is refused');
      const box = page.locator('#refusal');
      assert.ok(await box.isVisible());
      assert.ok(parseFloat(await box.evaluate((e) => getComputedStyle(e).fontSize)) >= 24, 'the refusal is large');
      assert.deepEqual(await handCards(page), before);
      await shot(page, 'shengji-refusal-1024x768');
      assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared on a refusal');
      await page.locator('#hand button').first().click();
      assert.ok(await box.isVisible(), 'the refusal stays until the next action');
      await page.locator('#hand button').first().click();
      revokeTested = true;
    }

    // Mid-trick (someone has led): kill the socket from outside the app.
    if (!killed && v.phase === 'play' && v.plays.length > 0 && turns > 4) {
      await page.evaluate(() => (/** @type {any} */ (window).__sameDocument = true));
      assert.ok((await killSocket(page)) >= 1, 'a live socket was killed');
      await page.waitForFunction(() => document.querySelector('#banner:not([hidden])')?.textContent === '正在重新连接…', null, { timeout: 5000, polling: 20 });
      await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn === 'open', null, { timeout: 15_000 });
      assert.ok(await page.evaluate(() => /** @type {any} */ (window).__sameDocument), 'no reload');
      assert.ok(await page.locator('#banner').isHidden(), 'the banner goes once reconnected');
      killed = true;
      continue; // the turn is still ours: decide again from the view the server sent
    }

    if (!shots && v.phase === 'play' && v.plays.length > 0) {
      for (const [w, h] of [[390, 844], [1024, 768], [1440, 900]]) {
        await page.setViewportSize({ width: w, height: h });
        await shot(page, `shengji-${w}x${h}`);
        // On the phone the hand may scroll inside the dock (the last resort), each card still
        // reachable; so it may at any size while notices sit above it (layout.test.js).
        const notices = await page.locator('#notices').isVisible();
        assert.deepEqual(await layoutProblems(page, w < 600 || notices), [], `${w}×${h}: the felt and the whole trick in view, not under the dock; the hand and 出牌 reachable`);
      }
      await page.setViewportSize({ width: 1024, height: 768 });
      assert.deepEqual(await axeViolations(page), [], 'axe-core: no serious or critical violations on the 80分 table');
      assert.deepEqual(await smallText(page, 18), [], 'no text under 18 px at 1024×768');
      assert.deepEqual(await smallTargets(page, 48), [], 'every control at least 48 px');
      shots = true;
    }

    // A trick with three plays already on the felt (the fullest the seat sees at its turn).
    if (!fullShots && v.phase === 'play' && v.plays.length === 3) {
      for (const [w, h] of [[390, 844], [1024, 768], [1440, 900]]) {
        await page.setViewportSize({ width: w, height: h });
        await shot(page, `shengji-3plays-${w}x${h}`);
        // On the phone the hand may scroll inside the dock; so it may at any size while notices
        // (moves made while the socket was down, shown until 知道了) sit above it (layout.test.js).
        const notices = await page.locator('#notices').isVisible();
        assert.deepEqual(await layoutProblems(page, w < 600 || notices), [], `${w}×${h}, three plays: the whole trick in view, not under the dock`);
      }
      await page.setViewportSize({ width: 1024, height: 768 });
      fullShots = true;
    }

    refusals += await shengjiTurn(page, v);
    turns++;
  }

  assert.ok(revokeTested, 'the illegal play was tried');
  assert.ok(killed, 'the socket was killed mid-trick');
  assert.ok(fullShots, 'a three-play trick was checked');
  // 25 cards in fewer turns than cards: the (普通) computers lead pairs, tractors and throws, and
  // a follower plays as many cards (as in newcomer.test.js).
  assert.ok(turns >= 12, `the seat played the board (${turns} turns)`);
  assert.ok(refusals <= 3, `the chosen plays were legal almost always (${refusals} refused)`);

  // The result screen, then the review of the board's tricks.
  await page.waitForSelector('#result', { timeout: 20_000 });
  const result = Number(await page.getAttribute('#result', 'data-result'));
  assert.ok(Number.isInteger(result));
  await shot(page, 'shengji-result-1024x768');
  await page.click('#result-review');
  await page.waitForSelector('[role=dialog]');
  const first = await page.textContent('[role=dialog] h2');
  await page.click('#review-next');
  assert.notEqual(await page.textContent('[role=dialog] h2'), first, 'the review steps to the next trick');
  await page.click('#review-close');
  assert.deepEqual(errors.map(String), [], 'no page errors');
});
