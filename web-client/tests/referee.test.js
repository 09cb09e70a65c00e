// The referee in the browser, against the real server started with a referee token: the desk
// (`#/referee`, the token pasted once, the tables listed), a table officiated with every hand
// showing, a ruling made there (80分 a penalty; 够级 a deduction with its offence) reaching the
// log (read back from the replay endpoint) and, as a notice with the reason in plain Chinese,
// the player's own page in a second browser; and 审查: under review the player's clock stands
// still and the player sees why, and it runs again when the review ends. Screenshots at phone
// and desktop sizes; axe-core finds no serious or critical violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, until } from './harness.js';
import { openTableFromLobby } from './play.js';

const REFEREE = '7c1e4b9a2d5f8e3b6a9c2f5d8e1b4a7c';
const live = liveServerAndBrowser({ extra: ['--referee-token', REFEREE] });

/** The table's log as the referee reads it. @param {string} id */
async function steps(id) {
  const res = await fetch(`${live.server.url}/api/tables/${id}/replay`, { headers: { authorization: `Bearer ${REFEREE}` } });
  assert.equal(res.status, 200);
  return (await res.json()).steps;
}

/** The referee's page: the desk, the token, then the table from the list. @param {import('playwright-core').Page} page @param {string} id */
async function officiate(page, id) {
  await page.goto(`${live.server.url}/#/referee`);
  await page.waitForSelector('#referee-token');
  await page.fill('#referee-token', REFEREE);
  await page.click('#use-token');
  await page.waitForSelector('#token-set');
  await page.waitForSelector(`[data-officiate="${id}"]`);
  await page.click(`[data-officiate="${id}"]`);
  await page.waitForSelector('.ref-board [data-hand]');
}

test('an 80分 penalty from the browser reaches the log and the player; under review the player’s clock stands still', { timeout: 180_000 }, async () => {
  // The player: 80分 with three computers. North declares and buries first (its clock runs).
  const player = await newPage(live.browser, { width: 1024, height: 768 });
  const id = await openTableFromLobby(player.page, live.server.url, 'shengji', '老王');
  await player.page.waitForSelector('.dock [data-clock]');

  const ref = await newPage(live.browser, { width: 1440, height: 900 });
  await ref.page.goto(`${live.server.url}/#/referee`);
  await ref.page.waitForSelector('#referee-token');
  assert.equal(await ref.page.getAttribute('html', 'lang'), 'zh-CN');
  assert.deepEqual(await axeViolations(ref.page), [], 'the desk before the token');
  await officiate(ref.page, id);
  // Every hand, the declarer's with the kitty (33 cards) — as the engine's referee view has them.
  assert.deepEqual(await ref.page.$$eval('.ref-board [data-hand]', (els) => els.map((e) => Number(e.getAttribute('data-count')))), [33, 25, 25, 25]);
  assert.match(await ref.page.textContent('.ref-status') ?? '', /轮到/);

  // A penalty of 40 against North, with the reason; confirmed once.
  await ref.page.check('input[name="ruling-seat"][value="0"]');
  await ref.page.check('input[name="ruling-kind"][value="penalty"]');
  await ref.page.fill('#ruling-points', '40');
  await ref.page.fill('#ruling-reason', '信号：敲桌子');
  await ref.page.click('#ruling-submit');
  const confirm = await ref.page.textContent('#ruling-confirm') ?? '';
  assert.match(confirm, /北 老王/);
  assert.match(confirm, /罚 40 分/);
  assert.match(confirm, /信号：敲桌子/);
  await shot(ref.page, 'referee-ruling-1440x900');
  assert.deepEqual(await axeViolations(ref.page), [], 'the referee’s table with the ruling to confirm');
  await ref.page.click('#ruling-yes');
  await ref.page.waitForSelector('#ruling-ok:not([hidden])');
  assert.match(await ref.page.textContent('#ruling-ok') ?? '', /第 1 条/);

  // The log has it: the referee's entry against North, with the reason and the action.
  const ruling = (await steps(id)).find((/** @type {any} */ s) => s.actor === 'referee');
  assert.ok(ruling, 'the ruling is logged');
  assert.equal(ruling.seat_index, 0);
  assert.equal(ruling.reason, '信号：敲桌子');
  assert.deepEqual(ruling.action, { type: 'penalty', points: 40 });

  // The player's page says so in plain words, with the reason, until seen.
  await player.page.waitForSelector('[data-notice="referee"]');
  const notice = await player.page.textContent('[data-notice="referee"]') ?? '';
  assert.match(notice, /裁判/);
  assert.match(notice, /罚 40 分/);
  assert.match(notice, /信号：敲桌子/);

  // 审查: the clocks stop and the player sees why.
  await ref.page.fill('#review-reason', '查牌：核对北家的牌');
  await ref.page.click('#review-on');
  await player.page.waitForSelector('#review-banner');
  assert.match(await player.page.textContent('#review-banner') ?? '', /查牌：核对北家的牌/);
  await ref.page.waitForSelector('#ref-clock-stopped');
  await ref.page.waitForSelector('#review-off');
  const stopped = await player.page.textContent('.dock [data-clock]');
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(await player.page.textContent('.dock [data-clock]'), stopped, 'the player’s clock does not run down under review');
  await shot(player.page, 'review-player-1024x768');
  assert.deepEqual(await axeViolations(player.page), [], 'the player’s page under review');
  await ref.page.setViewportSize({ width: 390, height: 844 });
  await shot(ref.page, 'referee-review-390x844');
  assert.deepEqual(await axeViolations(ref.page), [], 'the referee’s table on a phone');

  // Over: the clock runs again from where it stood.
  await ref.page.click('#review-off');
  await player.page.waitForSelector('#review-banner', { state: 'detached' });
  await until(async () => (await player.page.textContent('.dock [data-clock]')) !== stopped, 5000, 'the clock runs again');
  const left = Number((await player.page.textContent('.dock [data-clock]'))?.match(/\d+/)?.[0]);
  assert.ok(left < Number(stopped?.match(/\d+/)?.[0]) && left > 40, `the clock goes on from ${stopped}: ${left}`);
  assert.deepEqual([...player.errors, ...ref.errors].map(String), []);
  await player.context.close();
  await ref.context.close();
});

test('a 够级 deduction from the browser, with its offence, under review', { timeout: 180_000 }, async () => {
  const res = await fetch(`${live.server.url}/api/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'gouji', bots: [0, 1, 2, 3, 4, 5] }),
  });
  const { id } = await res.json();
  const ref = await newPage(live.browser, { width: 1440, height: 900 });
  await officiate(ref.page, id);
  // Six hands, as rank groups.
  assert.equal(await ref.page.locator('.ref-board [data-hand]').count(), 6);
  // The computers play on quickly: first stop the table, so the ruling is made on what is seen.
  await ref.page.fill('#review-reason', '检查 B1 的叫牌');
  await ref.page.click('#review-on');
  await ref.page.waitForSelector('#review-off');
  await ref.page.check('input[name="ruling-seat"][value="1"]');
  await ref.page.check('input[name="ruling-kind"][value="deduction"]');
  // The points a deduction may take are the ruleset's, from the view.
  await ref.page.check('input[name="ruling-points"][value="4"]');
  await ref.page.selectOption('#ruling-offence', 'other');
  await ref.page.fill('#ruling-reason', '同组队员交流牌型');
  await ref.page.click('#ruling-submit');
  assert.match(await ref.page.textContent('#ruling-confirm') ?? '', /扣 4 分（其他犯规）/);
  await ref.page.click('#ruling-yes');
  await ref.page.waitForSelector('#ruling-ok:not([hidden])');
  await ref.page.waitForSelector('.ref-recent-list [data-by="referee"]');
  assert.match(await ref.page.textContent('.ref-recent-list [data-by="referee"]') ?? '', /扣 4 分/);
  await shot(ref.page, 'referee-gouji-1440x900');
  assert.deepEqual(await axeViolations(ref.page), [], 'the 够级 referee table');
  await ref.page.click('#review-off');
  await ref.page.waitForSelector('#review-on');

  const ruling = (await steps(id)).find((/** @type {any} */ s) => s.actor === 'referee');
  assert.ok(ruling);
  assert.equal(ruling.seat_index, 1);
  assert.equal(ruling.reason, '同组队员交流牌型');
  assert.deepEqual(ruling.action, { type: 'ruling', ruling: 'deduction', offence: 'other', points: 4 });
  assert.deepEqual(ref.errors.map(String), []);
  await ref.context.close();
});
