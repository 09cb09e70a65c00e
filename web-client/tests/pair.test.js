// A pair's own page (pair.html) against the real server: the lobby links to it; the player types
// the event number and the pair token; the page says where the pair plays (round, table,
// direction, opponents, boards), shows the round clock and the sit-down button, the table's
// results to confirm, and, at a half table, that the pair sits out; then its earlier rounds and
// its standing. The director's steps are API calls. Every view passes axe (no serious or critical
// violation).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directorCaller, liveServerAndBrowser, newPage, shot, axeViolations, smallTargets, until } from './harness.js';

const DIRECTOR = '5b0e9c2a7f4d1e8b3a6c9f2d5e8b1a4c';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });

const director = directorCaller(live, DIRECTOR);

test('a pair follows its event on its own page, a half table included', { timeout: 180_000 }, async () => {
  // Three tables, five pairs: EW 3 is the phantom. NS 1 are people, the rest computers.
  const entries = [{ names: ['王阿姨', '李叔叔'], organisation: '福州' }, ...Array.from({ length: 4 }, () => ({ names: [], bot: true }))];
  const ev = await director('POST', '/api/events', { game: 'shengji', name: '周三练习赛', tables: 3, rounds: 2, boards_per_round: 1, entries });
  const id = ev.id;
  const cards = await director('GET', `/api/events/${id}/cards`);
  const token = cards.pairs.find((/** @type {any} */ c) => c.players?.length).players[0].token;

  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  page.on('dialog', (dlg) => dlg.accept());
  await page.goto(live.server.url + '/');
  await page.waitForSelector('#join-event');
  await page.click('#join-event');
  await page.waitForSelector('#enter');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.deepEqual(await axeViolations(page), [], 'the form');
  await page.fill('#event-no', id);
  await page.fill('#pair-token', token);
  await page.click('#enter');
  await page.waitForSelector('[data-pair="NS1"]');
  assert.match(await page.textContent('[data-pair]') ?? '', /南北 第 1 对 · 王阿姨 \/ 李叔叔/);
  assert.match(await page.textContent('main') ?? '', /比赛还没开始/);
  // The token is in the fragment, not the query.
  assert.equal(new URL(page.url()).searchParams.get('e'), id);
  assert.ok(!new URL(page.url()).search.includes(token));

  // Round 1: table 1, NS, against EW 1 (computers), board 1, with the clock.
  await director('POST', `/api/events/${id}/rounds/1/start`, {});
  await page.waitForSelector('[data-where="1:1:NS"]', { timeout: 15_000 });
  assert.match(await page.textContent('[data-where]') ?? '', /第 1 轮 · 第 1 桌 · 本对坐南北（北、南）/);
  assert.match(await page.textContent('[data-opponents="EW1"]') ?? '', /东西 第 1 对 · 电脑/);
  assert.equal(await page.getAttribute('[data-clock]', 'data-clock'), 'left');
  assert.match(await page.textContent('[data-clock]') ?? '', /本轮剩余 1[12]:\d\d/);
  assert.ok(await page.isVisible('#sit'));
  await shot(page, 'pair-round-1024x768');
  assert.deepEqual(await axeViolations(page), [], 'the pair in a round');
  assert.deepEqual(await smallTargets(page, 48), [], 'large enough to press');

  // 入座打牌 takes a player to the board's table, seated (the server logs when).
  await page.click('#sit');
  await page.waitForURL(/#\/t\/\d+/);
  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`, { headers: { authorization: `Bearer ${DIRECTOR}` } })).json();
    return v.log_len > 0 && v.schedule[0].tables[0].boards[0].table_id;
  }, 10_000, 'the table');
  await page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
  await page.waitForSelector('[data-where="1:1:NS"]');

  // The director settles the board (the partner never came); the pair confirms it.
  await director('POST', `/api/events/${id}/adjust`, { round: 1, table: 1, board: 1, defenders: 40, reason: '练习' });
  await page.waitForSelector('#confirm', { timeout: 15_000 });
  await page.waitForFunction(() => /本轮的牌都打完了/.test(document.body.textContent ?? ''), null, { timeout: 15_000 });
  assert.equal(await page.locator('#sit').count(), 0, 'nothing left to sit down at');
  assert.match(await page.textContent('[data-table="1"]') ?? '', /40/);
  await page.click('#confirm');
  await page.waitForSelector('.ok-text:not([hidden])');
  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
    return v.schedule[0].tables.every((/** @type {any} */ t) => t.boards.every((/** @type {any} */ b) => b.done));
  }, 120_000, 'every board of round 1');
  await director('POST', `/api/events/${id}/rounds/1/close`, {});

  // Round 2: NS 1 meets the phantom: it sits out, no button; round 1 is listed; the standing.
  await director('POST', `/api/events/${id}/rounds/2/start`, {});
  await page.waitForSelector('[data-sit-out]', { timeout: 15_000 });
  assert.equal(await page.locator('#sit').count(), 0);
  assert.match(await page.textContent('[data-sit-out]') ?? '', /轮空/);
  await page.waitForSelector('[data-earlier="1"]');
  assert.match(await page.textContent('[data-standing]') ?? '', /截至第 1 轮：比赛分 [\d.]+，南北第 \d 名/);
  await shot(page, 'pair-sit-out-1024x768');
  assert.deepEqual(await axeViolations(page), [], 'the pair sitting out');
  // English is a switch.
  await page.click('#lang');
  await page.waitForFunction(() => /We sit out this round/.test(document.body.textContent ?? ''), null, { timeout: 15_000 });
  assert.deepEqual(errors.map(String), []);
});
