// Every page, against the real server (issue 23 item 7): no request answered 404 and nothing in
// the browser's console (no missing icon, no lookup of a wrong table code by its address); axe
// finds no violation at all, moderate ones included (one main landmark, one h1 a page, every
// part in a landmark); a wrong table code says so and offers no seat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directorCaller, liveServerAndBrowser, newPage, webRoot } from './harness.js';

const DIRECTOR = '9f3b6e1d4a7c2f8e5b1d9a6c3f7e2b4d';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

/** Every axe violation, whatever its impact. @param {import('playwright-core').Page} page */
async function allViolations(page) {
  await page.evaluate(readFileSync(join(webRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    // @ts-ignore
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 2).map((/** @type {any} */ n) => n.target.join(' ')).join(', ')}`);
  });
}

test('no page asks for what is not there, and each has one main landmark and one h1', { timeout: 120_000 }, async () => {
  const ev = await director('POST', '/api/events', { game: 'shengji', name: '练习赛', tables: 3, rounds: 1, boards_per_round: 1, entries: [{ names: ['王阿姨', '李叔叔'] }, ...Array.from({ length: 5 }, () => ({ names: [], bot: true }))] });
  const set = await director('POST', '/api/practice', { game: 'shengji', boards: 1, days: 2, references: [] });
  const open = async () => (await fetch(`${live.server.url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'shengji', bots: [1, 3] }) })).json();
  const table = await open();
  // A seat at another table, as the lobby would have taken it.
  const mine = await open();
  const joined = await (await fetch(`${live.server.url}/api/tables/${mine.id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seat: 0, name: '王阿姨' }) })).json();
  const ticket = { table: mine.id, value: JSON.stringify({ token: joined.token, seat: 0, game: 'shengji' }) };
  const pages = [
    ['my seat at a table', `/#/t/${mine.id}`, '.table-page[data-fit]'],
    ['the lobby', '/', '#create'],
    ['a table to sit at', `/#/t/${table.id}`, '[data-seat]'],
    ['a wrong table code', '/#/t/999999', '#to-lobby'],
    ['the referee\'s desk', '/#/referee', 'main'],
    ['a pair\'s page', '/pair.html', '#enter'],
    ['the events', '/standings.html', 'h1'],
    ['an event\'s standings', `/standings.html?e=${ev.id}`, '[data-ranking]'],
    ['the console', `/director.html#token=${DIRECTOR}`, '#create-event'],
    ['an event\'s console', `/director.html?e=${ev.id}`, '#event-h'],
    ['the practice page', '/practice.html', '#start'],
    ['a practice set', `/practice.html?s=${set.id}`, '[data-ranking]'],
  ];
  /** @type {Record<string, string[]>} */
  const problems = {};
  for (const [what, path, ready] of pages) {
    const { page, context, errors } = await newPage(live.browser, { width: 1024, height: 768 });
    await context.addInitScript((t) => localStorage.setItem(`paiju.seat.${t.table}`, t.value), ticket);
    /** @type {string[]} */
    const seen = [];
    page.on('response', (r) => {
      if (r.status() === 404) seen.push(`404 ${new URL(r.url()).pathname}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') seen.push(`console ${m.type()}: ${m.text()}`);
    });
    await page.goto(live.server.url + path);
    await page.waitForSelector(ready);
    await page.waitForLoadState('networkidle');
    seen.push(...(await allViolations(page)), ...errors.map(String));
    const counts = await page.evaluate(() => ({ main: document.querySelectorAll('main, [role=main]').length, h1: document.querySelectorAll('h1').length }));
    if (counts.main !== 1) seen.push(`${counts.main} main landmarks`);
    if (counts.h1 !== 1) seen.push(`${counts.h1} h1`);
    if (what === 'a wrong table code') {
      assert.match(await page.textContent('h1') ?? '', /找不到桌号 999 999 的牌桌/);
      assert.equal(await page.locator('[data-seat], #name').count(), 0, 'no seat to choose, no name to write');
    }
    if (seen.length) problems[what] = seen;
    await context.close();
  }
  assert.deepEqual(problems, {});
});
