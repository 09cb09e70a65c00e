// An event's tables lead the way (issue 23 item 4), against the real server on a phone: a pair
// plays a round of two boards at one table (the partner a `paiju bot` player with the pair's
// token, my seat on 托管 so the board plays itself). When board 1 ends, the result offers
// 「下一副已开好 · 第 2 副」 — never the casual 下一副 nor its running score (本场累计) — and one tap
// seats me at board 2. When board 2 ends, the round's boards are all played: the button is
// 「回本对页面」, and the pair's page then says who declared each board and what it counted for
// the pair, and offers 确认 (it did not before the boards were played); confirmed and closed, the
// standings read on the phone with every name whole.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { axeViolations, directorCaller, liveServerAndBrowser, newPage, shot, until, paijuBin } from './harness.js';

const DIRECTOR = '7c1e4a9d2b5f8e3a6d9c2f5b8e1a4d7c';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

test('an event board finished: the next seat in one tap, then back to the pair\'s page', { timeout: 300_000 }, async () => {
  const ev = await director('POST', '/api/events', {
    game: 'shengji', name: '周五练习赛', tables: 1, rounds: 1, boards_per_round: 2,
    entries: [{ names: ['王阿姨', '李叔叔'] }, { names: [], bot: true }],
    // 王阿姨 lets the computer play her cards (托管): the director allows it for this event.
    auto_play: true,
  });
  const id = ev.id;
  const players = (await director('GET', `/api/events/${id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length).players;
  // Each player's own token: hers opens 北 (seat 0), her partner's 南 (seat 2).
  const [token, partnerToken] = players.map((/** @type {any} */ p) => p.token);
  await director('POST', `/api/events/${id}/rounds/1/start`, {});
  const status = async () => (await fetch(`${live.server.url}/api/events/${id}/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })).json();
  /** @type {import('node:child_process').ChildProcess[]} */
  const partners = [];
  /** The partner (南) sits down at a board's table with his own token and plays there. @param {string} table */
  const partnerAt = async (table) => {
    const res = await fetch(`${live.server.url}/api/events/${id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: partnerToken, seat: 2 }) });
    const joined = await res.json();
    assert.equal(joined.table, table, 'the partner is seated at the same board');
    partners.push(spawn(paijuBin(), ['bot', '--url', live.server.url, '--table', table, '--seat', '2', '--level', 'beginner', '--token', joined.token, '--minutes', '4'], { stdio: 'ignore' }));
  };
  const { page, errors } = await newPage(live.browser, { width: 390, height: 844 });
  try {
    // From the pair's page: before the boards are played there is nothing to confirm.
    await page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
    await page.waitForSelector('[data-where="1:1:NS"]');
    assert.equal(await page.locator('#confirm').count(), 0, 'no 确认 before the boards are played');
    await page.click('#sit');
    await page.waitForURL(/#\/t\/\d+$/);
    const board1 = new URL(page.url()).hash.slice(4);
    await partnerAt(board1);
    await page.waitForSelector('#auto');
    await page.click('#auto');

    // The director's console: both partners reached the table from one address (the tests
    // all come from 127.0.0.1), named; every seat's connections listed.
    const desk = await newPage(live.browser, { width: 1280, height: 900 });
    await desk.page.goto(`${live.server.url}/director.html#token=${DIRECTOR}`);
    await desk.page.waitForSelector('#token-kept');
    await desk.page.goto(`${live.server.url}/director.html?e=${id}`);
    await desk.page.waitForSelector('[data-conduct] [data-shared="1:1"]', { timeout: 15_000 });
    const shared = await desk.page.textContent('[data-shared="1:1"]') ?? '';
    assert.ok(shared.includes('王阿姨') && shared.includes('李叔叔'), shared);
    // One address (the console's words: 「同一地址：第1轮第1桌 北 …、南 …」), not one device.
    assert.match(shared, /^同一地址：第1轮第1桌 /);
    assert.equal(await desk.page.getAttribute('[data-shared="1:1"]', 'data-device'), 'false');
    assert.ok(await desk.page.locator('[data-visits] tr[data-visit="opened"]').count() >= 2, 'both seats opened');
    assert.deepEqual(await axeViolations(desk.page), [], 'the console with its connections');
    assert.deepEqual(desk.errors.map(String), []);
    await desk.page.context().close();

    // Board 1 over: the result leads to board 2 once its table is open; no casual 下一副, no 本场累计.
    await page.waitForSelector('#result', { timeout: 120_000 });
    await page.waitForSelector('#event-next', { timeout: 30_000 });
    assert.match(await page.textContent('#event-next') ?? '', /下一副已开好 · 第 2 副/);
    assert.equal(await page.locator('#next-board').count(), 0, 'never the casual 下一副');
    assert.equal(await page.locator('#session').count(), 0, 'no 本场累计 at an event table');
    await shot(page, 'event-next-board-390x844');
    const board2 = await until(async () => (await status()).table.boards.find((/** @type {any} */ b) => b.board === 2)?.table_id, 10_000, 'board 2 open');
    await partnerAt(board2);
    // One tap: seated at board 2.
    await page.click('#event-next');
    await page.waitForURL((u) => u.hash === `#/t/${board2}`);
    await page.waitForFunction(() => /** @type {any} */ (window).paiju?.model.board === 2 && /** @type {any} */ (window).paiju.model.role === 'seat');
    await page.waitForSelector('#hand');

    // Board 2 over, the round's boards all played: back to the pair's page.
    await page.click('#auto');
    await page.waitForSelector('#result', { timeout: 120_000 });
    await page.waitForSelector('#event-page', { timeout: 30_000 });
    assert.equal(await page.textContent('#event-page'), '回本对页面');
    assert.equal(await page.locator('#event-next, #next-board, #session').count(), 0);
    await page.click('#event-page');
    await page.waitForSelector('[data-pair="NS1"]');
    // Each board: who declared it and what it counts for the pair; now 确认.
    await page.waitForSelector('#confirm');
    for (const board of [1, 2]) {
      const row = page.locator(`[data-result-board="${board}"]`);
      const declarer = await row.locator('[data-declarer]').getAttribute('data-declarer');
      assert.match(declarer ?? '', /^[NESW]$/, `board ${board}: its declarer`);
      // The defenders' points alone (托管's moves are shown beside them in the same cell).
      const defenders = Number((await row.locator('td').nth(2).locator('[data-outcome]').textContent())?.replace(/\D+$/, ''));
      const forUs = Number(await row.locator('[data-for-us]').getAttribute('data-for-us'));
      assert.equal(forUs, declarer === 'N' || declarer === 'S' ? -defenders : defenders, `board ${board}: from our side`);
      assert.match(await row.textContent() ?? '', declarer === 'N' || declarer === 'S' ? /本对坐庄/ : /对方坐庄/);
    }
    await shot(page, 'event-pair-results-390x844');
    assert.deepEqual(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, 'the pair\'s page no wider than the phone');

    // Confirmed and closed: the standings on the phone, each name whole on its line.
    await page.click('#confirm');
    await page.waitForSelector('[data-confirmed]');
    await director('POST', `/api/events/${id}/rounds/1/close`, {});
    await page.goto(`${live.server.url}/standings.html?e=${id}`);
    await page.waitForSelector('[data-ranking="NS"] td.names');
    const lines = await page.$$eval('.results td.names', (cells) => cells.map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      return { text: td.textContent ?? '', lines: tops.size };
    }));
    for (const { text, lines: n } of lines) assert.ok(n <= Math.max(1, text.split(' / ').length), `「${text}」 on ${n} lines: a name is never broken`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'the standings no wider than the phone');
    await shot(page, 'event-standings-390x844');
    assert.deepEqual(errors.map(String), []);
  } finally {
    for (const p of partners) p.kill();
  }
});
