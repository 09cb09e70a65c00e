// Stale taps, against the real server with fast clocks (`--clock-scale 0.1`: 3 s a play, 6 s to
// bury). A phone's Wi-Fi drops without a close; the player taps meanwhile; the clock plays for
// the seat; when the page is back it must not play the old tap into a later trick. It says what
// the clock did instead, and an act that reaches the server after the table moved on is refused
// as `stale` — shown as "the table moved on", never as an illegal play.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, killSocket, lineMode, sentActs, until, shot } from './harness.js';
import { openTableFromLobby, waitMyTurnOrOver, handCards, tapCards } from './play.js';

const live = liveServerAndBrowser({ extra: ['--clock-scale', '0.1'] });

/** The table's seq as the lobby tells it. @param {string} id */
async function tableSeq(id) {
  const res = await fetch(`${live.server.url}/api/tables/${id}`);
  return /** @type {number} */ ((await res.json()).seq);
}

/** Taps something to play or bury (what does not matter: it must never arrive). @param {import('playwright-core').Page} page @param {any} view */
async function tapSomething(page, view) {
  const shown = await handCards(page);
  await tapCards(page, view.phase === 'bury' ? shown.slice(0, 8) : shown.slice(0, 1));
}

test('a tap made while the line was silently down is dropped, not played into a later trick', { timeout: 120_000 }, async () => {
  const { page, errors } = await newPage(live.browser);
  const id = await openTableFromLobby(page, live.server.url, 'shengji');
  const m = await waitMyTurnOrOver(page);
  assert.notEqual(m.tableState, 'over');

  // The Wi-Fi drops without a close: the page still believes it is connected, and so does the server.
  assert.equal(await lineMode(page, 'mute'), 1, 'one live socket went silent');
  const decided = await page.evaluate(() => /** @type {any} */ (window).paiju.conn.lastSeq);
  await tapSomething(page, m.view);
  await page.click('#play');
  const [act] = (await sentActs(page)).slice(-1);
  assert.equal(act.mode, 'mute', 'the act went into the dead line');
  assert.equal(act.frame.seq, decided, 'the act carries the seq the player decided on');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).paiju.conn.pending.size), 1);

  // Meanwhile the table moves on: the clock plays for the seat.
  await until(async () => (await tableSeq(id)) > decided, 30_000, 'the clock to play for the seat');

  // The page notices the dead line and comes back (the socket closes; it reconnects by itself).
  assert.equal(await killSocket(page), 1);
  await page.waitForSelector('#notices [data-notice="away"]', { timeout: 15_000 });
  const text = await page.textContent('#notices') ?? '';
  assert.match(text, /您离线时/, `one line tells what happened while away: ${text}`);
  assert.match(text, /时间到(，系统替您|：您被警告)/, `the clock's play for my seat is told: ${text}`);
  assert.match(text, /没有送出/, `and that the tap was not sent: ${text}`);
  await shot(page, 'stale-away-1024x768');

  // Not resent: the act went out once, into the dead line, and never again.
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.model.conn === 'open');
  await new Promise((r) => setTimeout(r, 500));
  const again = (await sentActs(page)).filter((a) => a.frame.id === act.frame.id);
  assert.equal(again.length, 1, 'the pending act was not sent again after the reconnection');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).paiju.conn.pending.size), 0, 'and it is no longer pending');
  assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared');
  assert.ok(await page.locator('#refusal').isHidden(), 'no refusal: nothing was wrong with the tap');

  // The line stays until the player has seen it.
  await new Promise((r) => setTimeout(r, 1000));
  assert.ok(await page.locator('#notices [data-notice="away"]').isVisible(), 'the line stays');
  await page.click('#notices-ok');
  assert.ok(await page.locator('#notices').isHidden(), '知道了 clears it');
  assert.deepEqual(errors.map(String), []);
  await page.context().close();
});

test('an act that reaches the server after the clock played is refused as stale, not as an illegal play', { timeout: 120_000 }, async () => {
  const { page, errors } = await newPage(live.browser);
  await openTableFromLobby(page, live.server.url, 'shengji');
  const m = await waitMyTurnOrOver(page);
  assert.notEqual(m.tableState, 'over');

  // The line is slow one way: the tap waits on the way out while the clock plays for the seat.
  await lineMode(page, 'hold');
  const decided = await page.evaluate(() => /** @type {any} */ (window).paiju.conn.lastSeq);
  await tapSomething(page, m.view);
  await page.click('#play');
  await page.waitForSelector('#notices [data-notice="clock"]', { timeout: 30_000 });
  assert.match(await page.textContent('#notices') ?? '', /时间到(，系统替您|：您被警告)/, 'the clock\'s play for my seat is told');
  assert.ok((await page.evaluate(() => /** @type {any} */ (window).paiju.conn.lastSeq)) > decided);

  // The held act arrives now, decided on a table that has moved on.
  await lineMode(page, 'live');
  await page.waitForFunction(() => /** @type {any} */ (window).paiju.conn.pending.size === 0, null, { timeout: 10_000 });
  await page.waitForSelector('#notices [data-notice="stale"]', { timeout: 5000 });
  const text = await page.textContent('#notices') ?? '';
  assert.match(text, /局面已变/, `the server's words for a stale act: ${text}`);
  assert.match(text, /时间到(，系统替您|：您被警告)/, `with what happened: ${text}`);
  assert.ok(await page.locator('#refusal').isHidden(), 'never a red "illegal play"');
  assert.equal(await page.locator('#hand [aria-pressed="true"]').count(), 0, 'the selection is cleared');
  await shot(page, 'stale-refused-1024x768');
  assert.deepEqual(errors.map(String), []);
  await page.context().close();
});
