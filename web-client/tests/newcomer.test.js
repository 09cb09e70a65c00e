// A newcomer who only taps what is on the screen (issue 13): from the lobby, with computers in
// the other seats and a slower clock, a whole 80分 board (提示, then 出牌 or 扣底, every turn) and
// a whole 够级 game (不烧, 过, or the last rank group as a lead — with a joker when the screen
// says a burn needs one), to the result (my side, what it means, the session's score) and on to
// the next board (下一副 / 下一局: the same seed, board + 1, the declarer rotating). Decisions are
// made from the page alone; the test waits for the server's answer to each tap (the page's
// pending actions) before looking again, as a person waits for the cards to move.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, layoutProblems } from './harness.js';

const live = liveServerAndBrowser();

/** @typedef {import('playwright-core').Page} Page */

/** Taps, then waits until the server has answered what the tap sent (or nothing was sent). @param {Page} page @param {string} sel */
async function tapAndWait(page, sel) {
  const seq = await page.evaluate(() => /** @type {any} */ (window).paiju.conn.lastSeq);
  await page.click(sel);
  await page.waitForFunction((seq) => {
    if (document.querySelector('#refusal.refusal')) return true;
    const { conn } = /** @type {any} */ (window).paiju;
    return conn.pending.size === 0 && conn.lastSeq > seq;
  }, seq, { timeout: 20_000, polling: 30 });
  return page.locator('#refusal.refusal').count().then((n) => n === 0);
}

/** Opens a table from the lobby the way a person does. @param {Page} page @param {'shengji' | 'gouji'} game @param {string} name */
async function openFromLobby(page, game, name) {
  await page.goto(live.server.url + '/');
  await page.fill('#name', name);
  await page.check(`input[name=game][value=${game}]`);
  await page.check('input[name=humans][value="1"]');
  await page.check('input[name=seconds][value="60"]');
  await page.click('#create');
  await page.waitForURL(/#\/t\/\d{6}$/);
  await page.waitForSelector('#hand');
  return page.url().split('#/t/')[1];
}

/** What is on screen for me to do now: 'result', 'choose', 'turn', or null (not my turn). @param {Page} page */
function whatNow(page) {
  return page.evaluate(() => {
    const pending = /** @type {any} */ (window).paiju.conn.pending.size;
    if (document.querySelector('#result')) return 'result';
    if (pending) return null;
    if (document.querySelector('[data-choose]')) return 'choose';
    if (document.querySelector('.dock .status.my-turn')) return 'turn';
    return null;
  });
}

test('a newcomer plays a whole 80分 board from the lobby to the result and the next board', { timeout: 400_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  const id = await openFromLobby(page, 'shengji', '新来的');
  // The computers have their own names, and the seats say who is who.
  // I am 北: play passes to the right, to 西 (下家); 东 plays before me (上家); 南 is across.
  assert.match(await page.textContent('[data-seat="1"]') ?? '', /电脑·东[^]*上家/);
  assert.match(await page.textContent('[data-seat="2"]') ?? '', /电脑·南[^]*对家/);
  assert.match(await page.textContent('[data-seat="3"]') ?? '', /电脑·西[^]*下家/);
  assert.equal(await page.getAttribute('[data-play-seconds]', 'data-play-seconds'), '60', 'the slower clock chosen in the lobby');

  let turns = 0;
  let finishedSeen = 0;
  let shots = false;
  for (let guard = 0; guard < 400; guard++) {
    let now = null;
    for (let i = 0; i < 600 && !now; i++) {
      now = await whatNow(page);
      if (!now) {
        if (await page.locator('#finished-trick').count()) finishedSeen++;
        await page.waitForTimeout(50);
      }
    }
    if (now === 'result') break;
    if (now === 'choose') {
      await tapAndWait(page, '[data-choose=single]');
      continue;
    }
    assert.equal(now, 'turn', 'my turn came');
    if (!shots && turns === 6) {
      for (const [w, h] of [[390, 844], [820, 1180], [1440, 900]]) {
        await page.setViewportSize({ width: w, height: h });
        await shot(page, `newcomer-shengji-${w}x${h}`);
        assert.deepEqual(await layoutProblems(page, w < 600), [], `${w}×${h}`);
      }
      await page.setViewportSize({ width: 1024, height: 768 });
      shots = true;
    }
    // 提示 selects the engine's play; 出牌 (扣底 to bury) sends it.
    await page.click('#hint');
    assert.ok(await tapAndWait(page, '#play'), 'the suggested play is accepted');
    turns++;
  }
  // 25 cards and the bury, in fewer turns than cards: the (普通) computers lead pairs, tractors and
  // throws, and a follower plays as many cards.
  assert.ok(turns >= 12, `the newcomer played the board (${turns} turns)`);
  assert.ok(finishedSeen > 0, 'a finished trick was seen on the felt');

  // The result: which side I was on, whether it was good, what it means, the session's score.
  await page.waitForSelector('#result-side');
  assert.equal(await page.getAttribute('#result-side', 'data-side'), 'declarer', 'board 1: N declares');
  assert.match(await page.textContent('#result-side') ?? '', /您是庄家一方（和对家电脑·南一起）/);
  assert.match(await page.textContent('#session') ?? '', /第 1 副/);
  for (const [w, h] of [[390, 844], [820, 1180], [1440, 900]]) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, `newcomer-shengji-result-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1024, height: 768 });
  assert.deepEqual(await axeViolations(page), [], 'axe-core on the result');

  // 下一副: a new table, the same seed, board 2, the declarer rotating to 东.
  await page.click('#next-board');
  await page.waitForURL((u) => /#\/t\/\d{6}$/.test(u.toString()) && !u.toString().endsWith(id), { timeout: 20_000 });
  await page.waitForSelector('#hand');
  const info = await page.textContent('.topbar .info') ?? '';
  assert.match(info, /第 2 副/);
  assert.match(info, /庄家 电脑·东/);
  const next = page.url().split('#/t/')[1];
  const boards = await (await fetch(`${live.server.url}/api/tables`)).json();
  const first = boards.find((/** @type {any} */ t) => t.id === id);
  const second = boards.find((/** @type {any} */ t) => t.id === next);
  assert.equal(second.seed_commitment, first.seed_commitment, 'the same seed');
  assert.equal(second.board, 2);
  assert.deepEqual(second.seats.map((/** @type {any} */ s) => s.bot), [false, true, true, true]);
  await shot(page, 'newcomer-shengji-next-1024x768');

  // The lobby marks the first board finished and says who played. The computers play on
  // meanwhile: a failed throw of theirs may ask this player to choose (a dialog over the table),
  // which a person answers before leaving.
  for (let tries = 0; ; tries++) {
    if (await page.isVisible('[data-choose="single"]')) await page.click('[data-choose="single"]');
    try {
      await page.click('#lobby', { timeout: 3000 });
      break;
    } catch (e) {
      if (tries >= 5) throw e;
    }
  }
  await page.waitForSelector(`li[data-table="${id}"]`);
  assert.match(await page.textContent(`li[data-table="${id}"]`) ?? '', /已结束[^]*新来的、电脑·东、电脑·南、电脑·西/);
  await shot(page, 'newcomer-lobby-1024x768');
  assert.deepEqual(errors.map(String), [], 'no page errors');
});

test('a newcomer plays a whole 够级 game from the lobby to the result and the next game', { timeout: 600_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  const id = await openFromLobby(page, 'gouji', '新来的');
  let leads = 0;
  let others = 0;
  let finishedSeen = 0;
  let shots = false;
  for (let guard = 0; guard < 3000; guard++) {
    let now = null;
    for (let i = 0; i < 2400 && !now; i++) {
      now = await whatNow(page);
      if (!now && (await page.locator('#decline:not([disabled])').count()) && !(await page.evaluate(() => /** @type {any} */ (window).paiju.conn.pending.size))) now = 'turn';
      if (!now) {
        if (await page.locator('#finished-trick').count()) finishedSeen++;
        await page.waitForTimeout(50);
      }
    }
    if (now === 'result') break;
    assert.equal(now, 'turn', 'my turn came');
    if (await page.locator('#decline:not([disabled])').count()) {
      assert.ok(await tapAndWait(page, '#decline'), '不烧');
      others++;
      continue;
    }
    if (await page.locator('#pass:not([disabled])').count()) {
      assert.ok(await tapAndWait(page, '#pass'), '过');
      others++;
      continue;
    }
    // A lead: the last rank group (a joker too if the screen says a burn needs one).
    const ranks = await page.$$eval('#hand .group-btn', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.rank ?? ''));
    let ok = false;
    for (const rank of [...ranks].reverse()) {
      await page.click(`#hand .group-btn[data-rank="${rank}"]`);
      if (await page.locator('#prompt-note[data-note="joker"]').count()) {
        const joker = ranks.find((r) => (r === 'BJ' || r === 'RJ') && r !== rank);
        if (joker) await page.click(`#hand .group-btn[data-rank="${joker}"]`);
      }
      if (!shots) {
        for (const [w, h] of [[390, 844], [820, 1180], [1440, 900]]) {
          await page.setViewportSize({ width: w, height: h });
          await shot(page, `newcomer-gouji-${w}x${h}`);
          assert.deepEqual(await layoutProblems(page, w < 600), [], `${w}×${h}`);
        }
        await page.setViewportSize({ width: 1024, height: 768 });
        shots = true;
      }
      ok = await tapAndWait(page, '#play');
      if (ok) break;
      // Refused: the reason is on screen and the set is cleared; try another group.
    }
    assert.ok(ok, 'some lead was accepted');
    leads++;
  }
  assert.ok(leads >= 1, `the newcomer led (${leads} leads, ${others} passes)`);
  assert.ok(finishedSeen > 0, 'a finished trick was seen in the middle');

  // The result: my team and mates, whether we won, 头科…大落 with names, the session's score.
  await page.waitForSelector('#result-side');
  assert.equal(await page.getAttribute('#result-side', 'data-side'), 'A');
  assert.match(await page.textContent('#result-side') ?? '', /您在A 队（和电脑·A2、电脑·A3一起）/);
  assert.match(await page.textContent('#finishing-order') ?? '', /头科/);
  assert.match(await page.textContent('#finishing-order') ?? '', /新来的 \(A1\)/);
  assert.match(await page.textContent('#session') ?? '', /第 1 局/);
  for (const [w, h] of [[390, 844], [820, 1180], [1440, 900]]) {
    await page.setViewportSize({ width: w, height: h });
    await shot(page, `newcomer-gouji-result-${w}x${h}`);
  }
  await page.setViewportSize({ width: 1024, height: 768 });

  await page.click('#next-board');
  await page.waitForURL((u) => /#\/t\/\d{6}$/.test(u.toString()) && !u.toString().endsWith(id), { timeout: 20_000 });
  await page.waitForSelector('#hand');
  assert.match(await page.textContent('.topbar .info') ?? '', /第 2 局/);
  assert.deepEqual(errors.map(String), [], 'no page errors');
});
