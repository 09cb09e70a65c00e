// The director's lot (抽签) in the console, against the real server: seven computer teams, round
// 1 one knockout match; the computers play every game and the director rules each one level as
// it ends (an API call), so the match needs extra game after extra game until the twelfth. Only
// then the console shows 「加赛用完仍未分胜负」 and one button a team, on that match alone;
// pressing one asks how the lot was drawn (cancelling sends nothing) and draws it: the match has
// its winner with 「抽签：…」 beside it. No serious or critical axe violation; the buttons are at
// least 48 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directorCaller, liveServerAndBrowser, newPage, axeViolations, smallTargets, until } from './harness.js';

const DIRECTOR = '6a9d2c5f8b1e4a7d0c3f6b9e2d5a8c1f';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });

const director = directorCaller(live, DIRECTOR);

test('the console offers the lot only on a match whose extra games are spent', { timeout: 300_000 }, async () => {
  const entries = ['山亭', '峄城', '台儿庄', '薛城', '市中', '滕州', '高新'].map((o) => ({ names: [], bot: true, organisation: o }));
  const ev = await director('POST', '/api/events', { game: 'gouji', name: '够级抽签', groups: 2, entries });
  const id = ev.id;
  await director('POST', `/api/events/${id}/rounds/1/start`, {});

  const { page, errors } = await newPage(live.browser, { width: 1280, height: 900 });
  await page.goto(`${live.server.url}/director.html`);
  await page.fill('#director-token', DIRECTOR);
  await page.click('#use-token');
  await page.goto(`${live.server.url}/director.html?e=${id}`);
  await page.waitForSelector('[data-stage="1"] [data-match="1"]');

  // Six games and twelve extra games, each ruled level once it ends: no 头科, no 大落, −12 : −12
  // (a result the rules can give: A forfeits 0:12 告负, and B loses 24 points to deductions),
  // so neither the match nor any extra game is decided.
  for (let game = 1; game <= 18; game++) {
    await until(async () => {
      const v = await director('GET', `/api/events/${id}`);
      return v.gouji.stages[0].games.some((/** @type {any} */ x) => x.game === game && x.done);
    }, 120_000, `game ${game}`);
    if (game < 18) assert.equal(await page.locator('[data-lot]').count(), 0, 'no lot while play can decide');
    await director('POST', `/api/events/${id}/games/adjust`, { table: 1, game, result: { a: -12, b: -12, last: [] }, reason: '测试：A 队告负，B 队被扣 24 分' });
  }
  await page.waitForSelector('[data-lot]', { timeout: 15_000 });
  const m = (await director('GET', `/api/events/${id}`)).gouji.stages[0].matches[0];
  const buttons = await page.locator('[data-lot]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-lot')));
  assert.deepEqual(buttons, [`1:${m.a}`, `1:${m.b}`], 'one button a team of that match');
  assert.match(await page.textContent('[data-match="1"]') ?? '', /加赛用完仍未分胜负/);
  assert.deepEqual(await axeViolations(page), [], 'the console with a lot to draw');
  assert.deepEqual(await smallTargets(page, 48), [], 'large enough to press');

  // Cancelling the dialog draws nothing.
  page.once('dialog', (dlg) => dlg.dismiss());
  await page.click(`[data-lot="1:${m.a}"]`);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await director('GET', `/api/events/${id}`)).gouji.stages[0].matches[0].winner, undefined);
  // B's button: asked how the lot was drawn, then drawn.
  page.once('dialog', (dlg) => {
    assert.match(dlg.message(), new RegExp(`抽签定胜负：${m.b} 胜`));
    dlg.accept('双方队长在裁判长面前抽签');
  });
  await page.click(`[data-lot="1:${m.b}"]`);
  await page.waitForSelector('[data-lot-reason]');
  assert.match(await page.textContent('[data-match="1"]') ?? '', new RegExp(`${m.b}抽签：双方队长在裁判长面前抽签`));
  assert.equal(await page.locator('[data-lot]').count(), 0, 'drawn once');
  assert.deepEqual(errors.map(String), []);
});
