// The director's lot (抽签) in the console, against the real server: a knockout match whose 12
// extra games left it level shows 「加赛用完仍未分胜负」 and one button a team, on that match alone;
// pressing one asks how the lot was drawn and sends `POST /api/events/{id}/lot` with the table,
// the team and the reason. Playing eighteen games to get there would take the test minutes, so
// the console's view of a real event (seven computer teams, round 1 a knockout match) is marked
// `lot_needed` on its way to the page, as the server marks a spent match (server/src/event/
// gouji.rs tests the server's side, tests/tests/events.rs its refusals over HTTP). No serious or
// critical axe violation; the buttons are at least 48 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, axeViolations, smallTargets } from './harness.js';

const DIRECTOR = '6a9d2c5f8b1e4a7d0c3f6b9e2d5a8c1f';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });

/** A director's call. @param {string} method @param {string} path @param {unknown} [body] */
async function director(method, path, body) {
  const res = await fetch(`${live.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${DIRECTOR}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${JSON.stringify(data)}`);
  return data;
}

test('the console offers the lot only on a match whose extra games are spent', { timeout: 120_000 }, async () => {
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
  assert.equal(await page.locator('[data-lot]').count(), 0, 'no lot while play can decide');

  // The server's view, as it is once the match's extra games are spent.
  let spent = false;
  await page.route(`**/api/events/${id}`, async (route) => {
    const res = await route.fetch();
    const v = await res.json();
    if (spent) v.gouji.stages[0].matches[0].lot_needed = true;
    await route.fulfill({ response: res, json: v });
  });
  /** @type {any} */
  let sent = null;
  await page.route(`**/api/events/${id}/lot`, async (route) => {
    sent = route.request().postDataJSON();
    const v = await director('GET', `/api/events/${id}`);
    await route.fulfill({ json: v });
  });
  spent = true;
  await page.waitForSelector('[data-lot]', { timeout: 15_000 });
  const m = (await director('GET', `/api/events/${id}`)).gouji.stages[0].matches[0];
  const buttons = await page.locator('[data-lot]').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-lot')));
  assert.deepEqual(buttons, [`1:${m.a}`, `1:${m.b}`], 'one button a team of that match');
  assert.match(await page.textContent('[data-match="1"]') ?? '', /加赛用完仍未分胜负/);
  assert.deepEqual(await axeViolations(page), [], 'the console with a lot to draw');
  assert.deepEqual(await smallTargets(page, 48), [], 'large enough to press');

  // Pressing B's button asks how the lot was drawn, then sends it.
  page.once('dialog', (dlg) => {
    assert.match(dlg.message(), new RegExp(`抽签定胜负：${m.b} 胜`));
    dlg.accept('双方队长在裁判长面前抽签');
  });
  await page.click(`[data-lot="1:${m.b}"]`);
  await page.waitForSelector('.ok-text:not([hidden])');
  assert.deepEqual(sent, { table: 1, winner: m.b, reason: '双方队长在裁判长面前抽签' });
  // Cancelling the dialog sends nothing.
  sent = null;
  page.once('dialog', (dlg) => dlg.dismiss());
  await page.click(`[data-lot="1:${m.a}"]`);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(sent, null);
  assert.deepEqual(errors.map(String), []);
});
