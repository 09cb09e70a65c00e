// One player, one seat, one device (issue 24.0) through the page, against the real server: a
// competition table opened in a second tab takes the seat over (the default, `replace`); the
// first tab says so in plain words and does not take the seat back by itself (no ping-pong
// between two devices: the director's connection record shows one takeover, not a stream).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directorCaller, liveServerAndBrowser, newPage, smallText, until } from './harness.js';

const DIRECTOR = '3f8b2d6a9c1e4f7b0a5d8c2e6f9b3a1d';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

test('a second tab on a competition seat takes it over; the first says so and stays off', { timeout: 120_000 }, async () => {
  const ev = await director('POST', '/api/events', {
    game: 'shengji', name: '一人一座', tables: 1, rounds: 1, boards_per_round: 1,
    entries: [{ names: ['王阿姨', '李叔叔'] }, { names: [], bot: true }],
  });
  const id = ev.id;
  const token = (await director('GET', `/api/events/${id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length).players[0].token;
  await director('POST', `/api/events/${id}/rounds/1/start`, {});
  const { page, errors } = await newPage(live.browser, { width: 375, height: 667 });
  await page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
  await page.click('#sit');
  await page.waitForURL(/#\/t\/\d+$/);
  const replaced = async () => (await director('GET', `/api/events/${id}`)).conduct.visits.filter((/** @type {any} */ v) => v.what === 'replaced').length;
  await until(async () => (await director('GET', `/api/events/${id}`)).conduct.visits.some((/** @type {any} */ v) => v.what === 'opened'), 10_000, 'the seat opened');

  // The same seat in a second tab (the same browser's seat ticket).
  const second = await page.context().newPage();
  await second.goto(page.url());
  await page.waitForFunction(() => /您的座位已在另一台设备上打开/.test(document.body.textContent ?? ''), null, { timeout: 15_000 });
  assert.equal(await replaced(), 1, 'one takeover');
  assert.deepEqual(await smallText(page, 18), [], 'the words are large enough');
  // A few seconds on, still one takeover: the first tab did not take the seat back.
  await new Promise((r) => setTimeout(r, 4000)); // proving that nothing happens: no condition to wait for
  assert.equal(await replaced(), 1, 'no ping-pong between the tabs');
  assert.match(await page.textContent('body') ?? '', /刷新这一页/);
  assert.deepEqual(errors.map(String), []);
});
