// The console's 公平竞赛 section against the real server: an 80分 event of computer pairs is
// played, the director starts the fair-play analysis on a phone-sized console, stops it at once
// (the progress says how far it got), resumes it, and reads the pairs by the
// figure: every pair of the event with its decisions, none marked (computers play honestly),
// and the links to the decisions behind each figure point into the replay. No serious axe
// violation; no text under 18 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, directorCaller, newPage, shot, axeViolations, smallText, until } from './harness.js';

const DIRECTOR = '8e1c4a7f2b5d9e3c6a0f8b1d4e7c2a5f';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

test('the director runs, stops, resumes and reads the fair-play analysis on a phone', { timeout: 240_000 }, async () => {
  const bots = Array.from({ length: 6 }, () => ({ names: [], bot: true }));
  const ev = await director('POST', '/api/events', {
    game: 'shengji', name: '公平竞赛练习', tables: 3, rounds: 1, boards_per_round: 2, movement: 'plain', entries: bots,
    // A fixed organiser's seed: the computers are deterministic given the deals, so the test
    // reads the same analysis every run.
    seed: 'fa17'.repeat(16),
  });
  await director('POST', `/api/events/${ev.id}/rounds/1/start`, {});
  await until(async () => {
    const v = await director('GET', `/api/events/${ev.id}`);
    return v.schedule[0].tables.every((/** @type {any} */ t) => t.boards.every((/** @type {any} */ b) => b.done));
  }, 180_000, 'every board played');

  const { page, errors } = await newPage(live.browser, { width: 375, height: 667 });
  await page.goto(`${live.server.url}/director.html?e=${ev.id}#token=${DIRECTOR}`);
  await page.waitForSelector('[data-fairplay="idle"]');
  assert.match(await page.textContent('#fairplay') ?? '', /不是判决/);

  // Start, then stop at once: the worker stops after the board it is on (if it began one).
  // The stop is sent once the server has answered the page's start: sent on the click alone, it
  // could overtake the start (which clears it) and the run would go on to the end.
  const started = page.waitForResponse((r) => r.url().endsWith(`/api/events/${ev.id}/fairplay`) && r.request().method() === 'POST');
  await page.click('#fairplay-run[data-run="true"]');
  await started;
  await director('POST', `/api/events/${ev.id}/fairplay`, { run: false });
  await page.waitForSelector('[data-fairplay="stopped"]', { timeout: 60_000 });
  const [done, total] = ((await page.getAttribute('[data-progress]', 'data-progress')) ?? '').split('/').map(Number);
  assert.equal(total, 6, 'six boards played: three tables, two boards');
  // The stop may come before the worker's first board: part-way is anything short of the end.
  assert.ok(done < total, `stopped part-way: ${done}/${total}`);
  assert.match(await page.textContent('#fairplay') ?? '', /再按会接着分析/);

  // Resume: it goes on from there and finishes.
  await page.click('#fairplay-run[data-run="true"]');
  await page.waitForSelector('[data-fairplay="done"]', { timeout: 180_000 });
  const status = await director('GET', `/api/events/${ev.id}/fairplay`);
  assert.equal(status.report.tables, 6, 'every board analysed once');
  const rows = page.locator('#fairplay-pairs tbody tr');
  assert.equal(await rows.count(), 6, 'every pair of the event');
  assert.equal(await page.locator('#fairplay-pairs tr[data-flagged="true"]').count(), 0, 'nobody marked');
  const figures = await page.locator('#fairplay-pairs tbody tr td:nth-child(4) b').allTextContents();
  status.report.pairs.forEach((/** @type {any} */ p, /** @type {number} */ i) => {
    assert.ok(p.tally.decisions > 0, `${p.direction}${p.number} has decisions`);
    assert.equal(p.bot, true);
    assert.ok('z_partner' in p, 'the figure flagged is in the report');
    assert.equal(figures[i], typeof p.z_partner === 'number' ? p.z_partner.toFixed(1) : '—', 'the console shows it');
  });
  assert.match(await rows.first().textContent() ?? '', /电脑/);
  const link = page.locator('[data-driver]').first();
  if (await link.count()) assert.match(await link.getAttribute('href') ?? '', /^\.\/#\/t\/[A-Za-z0-9]+\/replay\/\d+$/);

  await page.locator('#fairplay').scrollIntoViewIfNeeded();
  await shot(page, 'director-fairplay-375x667');
  assert.deepEqual(await smallText(page, 18), [], 'no text under 18 px');
  assert.deepEqual(await axeViolations(page), [], 'the console with the analysis');
  assert.deepEqual(errors, []);
});

test('a 够级 event: the analysis reads teams and games', { timeout: 420_000 }, async () => {
  const teams = Array.from({ length: 6 }, (_, i) => ({ names: [], bot: true, team: `电脑${i + 1}队` }));
  const ev = await director('POST', '/api/events', { game: 'gouji', name: '够级公平竞赛', entries: teams, seed: '6a11'.repeat(16) });
  await director('POST', `/api/events/${ev.id}/rounds/1/start`, {});
  await until(async () => {
    const v = await director('GET', `/api/events/${ev.id}`);
    const games = v.gouji.stages[0]?.games ?? [];
    return games.length > 0 && games.every((/** @type {any} */ g) => g.done);
  }, 300_000, 'the final played');

  const { page, errors } = await newPage(live.browser, { width: 375, height: 667 });
  await page.goto(`${live.server.url}/director.html?e=${ev.id}#token=${DIRECTOR}`);
  await page.waitForSelector('[data-fairplay="idle"]');
  assert.match(await page.textContent('#fairplay') ?? '', /哪一队打得像看得见队友的牌/);
  await page.click('#fairplay-run[data-run="true"]');
  await page.waitForSelector('[data-fairplay="done"]', { timeout: 120_000 });
  const status = await director('GET', `/api/events/${ev.id}/fairplay`);
  assert.equal(status.report.game, 'gouji');
  assert.match(await page.textContent('#fairplay') ?? '', new RegExp(`分析了 ${status.report.tables} 局`));
  const rows = page.locator('#fairplay-pairs tbody tr');
  assert.equal(await rows.count(), 6, 'every team');
  const first = status.report.pairs[0];
  assert.equal(await rows.first().getAttribute('data-pair'), `team${first.number}`);
  assert.match(await rows.first().textContent() ?? '', new RegExp(first.team));
  assert.equal(await page.locator('#fairplay-pairs tr[data-flagged="true"]').count(), 0, 'nobody marked');
  const link = page.locator('[data-driver]').first();
  if (await link.count()) assert.match(await link.textContent() ?? '', /第1轮 第\d局/);
  assert.deepEqual(await smallText(page, 18), [], 'no text under 18 px');
  assert.deepEqual(errors, []);
});
