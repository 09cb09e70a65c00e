// Development aid (not a test): docs/web-client.md's screenshots of the practice page (练习),
// against the real server. node tests/practice-doc-shots.js (PAIJU_BIN as for the tests)
// → docs/img/practice-*.png, in 256 colours (png-small.js).
//
// A set of four 80分 boards with the computers' reference runs at 入门 and 普通; 王阿姨 (大字 on,
// a 4.7-inch phone) plays board 1 by `paiju bot` in her seat and board 2 through the table page
// with 托管, whose result offers 「下一副 · 第 3 副」; then her set's page, board 1's field, her
// results with the chart, and the reference's replay beside hers on a desktop.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startServer, launchBrowser, newPage, paijuBin, repoRoot, until } from './harness.js';
import { smallPng } from './png-small.js';

const DIRECTOR = '4f8a2c6e9b1d3f7a5c8e2b4d6f9a1c3e';
const out = (/** @type {string} */ name) => join(repoRoot, 'docs', 'img', `${name}.png`);
const server = await startServer({ extra: ['--director-token', DIRECTOR] });
const browser = await launchBrowser();
/** @param {string} path @param {unknown} body @param {string} [bearer] */
const post = async (path, body, bearer) => {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, body: JSON.stringify(body) });
  return res.json();
};
try {
  const set = await post('/api/practice', { game: 'shengji', boards: 4, days: 2, references: ['beginner', 'club'], name: '每日练习 · 80分' }, DIRECTOR);
  await until(async () => (await (await fetch(`${server.url}/api/practice/${set.id}`)).json()).practice.ranking.length >= 2, 120_000, 'the reference runs');
  const wang = await post('/api/players', { name: '王阿姨' });
  const j = await post(`/api/practice/${set.id}/join`, { token: wang.token, level: 'beginner' });
  const bot = spawn(paijuBin(), ['bot', '--url', server.url, '--table', j.table, '--seat', String(j.seat), '--level', 'club', '--token', j.token, '--minutes', '3'], { stdio: 'ignore' });
  await new Promise((r) => bot.once('exit', r));

  const { page, context } = await newPage(browser, { width: 375, height: 667 });
  await context.addInitScript((code) => {
    localStorage.setItem('paiju.player', JSON.stringify(code));
    localStorage.setItem('paiju.bigText', 'true');
  }, wang.token);
  await page.goto(`${server.url}/practice.html?s=${set.id}`);
  await page.click('#play');
  await page.waitForFunction(() => /** @type {any} */ (window).paiju?.model.board === 2);
  await page.click('#auto');
  await page.waitForSelector('#practice-next[data-board="3"]', { timeout: 120_000 });
  await page.screenshot({ path: out('practice-table-next') });
  await page.click('#practice-page');
  await page.waitForSelector('#boards li[data-state="done"]');
  await page.$eval('#run-h', (e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: out('practice-set-phone') });
  await page.click('[data-field="1"]');
  await page.waitForSelector('#field li');
  await page.screenshot({ path: out('practice-field-phone') });
  await page.goto(`${server.url}/practice.html`);
  await page.waitForSelector('#chart svg');
  await page.$eval('#history-h', (e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: out('practice-history-phone') });

  const run = await post(`/api/practice/${set.id}/run`, { token: wang.token });
  const ref = run.boards[0].field.find((/** @type {any} */ f) => !f.mine && f.level === 'club');
  const desk = await newPage(browser, { width: 1440, height: 900 });
  await desk.context.addInitScript((code) => localStorage.setItem('paiju.player', JSON.stringify(code)), wang.token);
  await desk.page.goto(`${server.url}/practice.html?s=${set.id}&b=1&vs=${ref.table_id}`);
  await until(async () => (await desk.page.locator('.replay-view .replay-body[aria-busy="false"]').count()) === 2, 15_000, 'both replays');
  for (let k = 0; k < 4; k++) await desk.page.click('#together-next');
  await desk.page.waitForSelector('#together-at[data-trick="4"]');
  await desk.page.waitForTimeout(300);
  await desk.page.screenshot({ path: out('practice-replays-desktop') });
  for (const name of ['practice-table-next', 'practice-set-phone', 'practice-field-phone', 'practice-history-phone', 'practice-replays-desktop']) console.log(out(name), smallPng(out(name)));
} finally {
  await browser.close();
  await server.stop();
}
