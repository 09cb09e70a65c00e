// The practice page's screens at a phone's, a laptop's and a desktop's size (390×844, 1024×768,
// 1440×900), against the real server: a club's 80分 set of two boards (the computers' reference
// runs at 入门 and 普通) and a 够级 set of one game, each played by 王阿姨 with `paiju bot` in her
// seat. At each size: her page with the chart of her percentage by week (its dot her set's
// percentage as the server gives it; then a longer history of six weeks, routed, whose week
// labels do not run into each other), the club set's ranking of the whole set and of its day
// (every line's percentage the server's; the printable page and the CSV answer), an 80分 board's
// field and a 够级 game's field and the two replays of it; printed, her page is her code alone. On each screen: nothing wider than the
// screen, no text under 18 px, every control at least 48 px, and axe-core finds no violation of
// any impact. English under 设置 once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directorCaller, liveServerAndBrowser, newPage, paijuBin, shot, smallText, smallTargets, until, webRoot } from './harness.js';

const DIRECTOR = '8d3f1a6c9e2b5d7f0a4c8e1b3d6f9a2c';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);
const SIZES = [[390, 844], [1024, 768], [1440, 900]];

/** @param {string} path @param {unknown} body */
async function post(path, body) {
  const res = await fetch(`${live.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(data)}`);
  return data;
}

/** A set made by the director, once its reference runs are all in its ranking. @param {Record<string, unknown>} spec @param {number} references */
async function setWithReferences(spec, references) {
  const set = await director('POST', '/api/practice', spec);
  await until(async () => (await (await fetch(`${live.server.url}/api/practice/${set.id}`)).json()).practice.ranking.length >= references, 120_000, `the reference runs of ${set.id}`);
  return /** @type {string} */ (set.id);
}

/** Every board of the set played for the player by `paiju bot` in their seat. @param {string} set @param {string} code @param {number} boards */
async function playSet(set, code, boards) {
  for (let n = 1; n <= boards; n++) {
    const j = await post(`/api/practice/${set}/join`, { token: code, level: 'beginner' });
    assert.equal(j.board, n);
    const bot = spawn(paijuBin(), ['bot', '--url', live.server.url, '--table', j.table, '--seat', String(j.seat), '--level', 'beginner', '--token', j.token, '--minutes', '3'], { stdio: 'ignore' });
    const code_ = await new Promise((resolve) => bot.once('exit', resolve));
    assert.equal(code_, 0, `board ${n} played`);
    await until(async () => (await post(`/api/practice/${set}/run`, { token: code })).boards[n - 1].done, 10_000, `board ${n} in the run`);
  }
}

/** Every axe violation, whatever its impact. @param {import('playwright-core').Page} page */
async function allViolations(page) {
  await page.evaluate(readFileSync(join(webRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    // @ts-ignore
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join(', ')}`);
  });
}

/** What is wrong with the screen: wider than the screen, small text, small controls, axe. @param {import('playwright-core').Page} page */
async function screenProblems(page) {
  const out = [];
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  if (wide > 0) out.push(`wider than the screen by ${wide} px`);
  for (const x of await smallText(page, 18)) out.push(`text under 18 px: ${JSON.stringify(x)}`);
  for (const x of await smallTargets(page, 48)) out.push(`control under 48 px: ${JSON.stringify(x)}`);
  out.push(...(await allViolations(page)));
  return out;
}

test('the practice page at three sizes: the chart, a club set\'s ranking by day, the fields and replays', { timeout: 600_000 }, async () => {
  const url = live.server.url;
  const club = '福州老年棋牌协会';
  const [shengji, gouji] = await Promise.all([
    setWithReferences({ game: 'shengji', boards: 2, club, references: ['beginner', 'club'], name: `${club} · 周三` }, 2),
    setWithReferences({ game: 'gouji', boards: 1, days: 2, references: ['beginner'], name: '够级 · 练一局' }, 1),
  ]);
  const wang = await post('/api/players', { name: '王阿姨' });
  await playSet(shengji, wang.token, 2);
  await playSet(gouji, wang.token, 1);
  const me = await post('/api/players/me', { token: wang.token });
  assert.equal(me.history.length, 2);
  const st = (await (await fetch(`${url}/api/practice/${shengji}/standings`)).json()).practice;
  assert.equal(st.lines.length, 3, 'two reference runs and hers');
  // Her day (the runs begun on it; past the set's midnight the reference runs' day is another).
  const herDay = st.days.find((/** @type {any} */ d) => d.lines.some((/** @type {any} */ l) => l.name === '王阿姨'));
  assert.ok(herDay, JSON.stringify(st.days));
  const day = herDay.day;
  const goujiRun = await post(`/api/practice/${gouji}/run`, { token: wang.token });
  const goujiField = goujiRun.boards[0].field;
  const other = goujiField.find((/** @type {any} */ f) => !f.mine);

  /** @type {Record<string, string[]>} */
  const problems = {};
  for (const [width, height] of SIZES) {
    const size = `${width}x${height}`;
    const { page, context, errors } = await newPage(live.browser, { width, height });
    await context.addInitScript((code) => localStorage.setItem('paiju.player', JSON.stringify(code)), wang.token);
    const check = async (/** @type {string} */ what) => {
      const p = await screenProblems(page);
      if (p.length) problems[`${what} ${size}`] = p;
    };

    // Her page: the chart's dots are her sets' percentages.
    await page.goto(`${url}/practice.html`);
    await page.waitForSelector('#chart svg');
    for (const l of me.history) {
      assert.equal(Number(await page.getAttribute(`#chart circle[data-set="${l.set}"]`, 'data-percent')), l.percent, `${size}: ${l.name}'s dot`);
      assert.equal(Number(await page.getAttribute(`#history tr[data-set="${l.set}"]`, 'data-percent')), l.percent);
    }
    const fits = await page.$eval('#chart', (box) => /** @type {SVGSVGElement} */ (box.querySelector('svg')).getBoundingClientRect().width <= box.getBoundingClientRect().width + 0.5);
    assert.ok(fits, `${size}: the chart within its box`);
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await shot(page, `practice-chart-${size}`);
    await check('her page');

    // A longer history, six weeks (routed): the weeks laid out, their labels apart.
    const week = 7 * 24 * 3600 * 1000;
    const start = me.history[0].began_ms - 5 * week;
    const long = { ...me, history: [...me.history, ...Array.from({ length: 10 }, (_, i) => ({ ...me.history[0], set: `old${i}`, name: `旧牌套 ${i + 1}`, began_ms: start + Math.floor(i / 2) * week + (i % 2) * 3600_000, percent: 30 + i * 5, done: true, open: false, place: 2, of: 5 }))] };
    await page.route('**/api/players/me', (r) => r.fulfill({ json: long }));
    await page.reload();
    await page.waitForSelector('#chart svg');
    assert.equal(Number(await page.getAttribute('#chart svg', 'data-weeks')), 6);
    assert.equal(await page.locator('#chart circle[data-set]').count(), long.history.length);
    const labels = await page.$$eval('#chart text[data-week]', (els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    for (let i = 1; i < labels.length; i++) assert.ok(labels[i][0] >= labels[i - 1][1], `${size}: week labels apart`);
    await page.locator('#chart').scrollIntoViewIfNeeded();
    await shot(page, `practice-chart-weeks-${size}`);
    await check('six weeks');
    await page.unroute('**/api/players/me');
    if (width === 1024) {
      // Printed: the personal code (her name, the code, the link, the QR code) and nothing else.
      await page.emulateMedia({ media: 'print' });
      assert.ok(await page.isVisible('#my-code') && await page.isVisible('#my-link'), 'the code printed');
      assert.match(await page.textContent('.my-code .print-only') ?? '', /王阿姨/);
      for (const hidden of ['#history', '#chart', '.topbar', '#copy-link', '#forget', '#club-code']) assert.equal(await page.isVisible(hidden), false, `${hidden} not printed`);
      await page.emulateMedia({ media: 'screen' });
    }

    // The club's set: its ranking and its day's, as the server ranks them; print and CSV.
    await page.goto(`${url}/practice.html?s=${shengji}`);
    await page.waitForSelector('[data-ranking="all"] tbody tr');
    assert.match(await page.textContent('#club-name') ?? '', new RegExp(club));
    for (const [key, lines] of [['all', st.lines], ...st.days.map((/** @type {any} */ d) => [d.day, d.lines])]) {
      const rows = page.locator(`[data-ranking="${key}"] tbody tr`);
      assert.equal(await rows.count(), lines.length, `${size}: the ${key} ranking`);
      for (const [i, l] of lines.entries()) {
        assert.equal(Number(await rows.nth(i).getAttribute('data-percent')), l.percent);
        assert.equal(Number(await rows.nth(i).getAttribute('data-place')), l.place);
        assert.match(await rows.nth(i).textContent() ?? '', new RegExp(l.name));
      }
    }
    const print = await page.getAttribute(`[data-print="${day}"]`, 'href');
    const csv = await page.getAttribute(`[data-csv="${day}"]`, 'href');
    assert.equal(print, `/api/practice/${shengji}/results.html?day=${day}`);
    const csvText = await (await fetch(`${url}${csv}`)).text();
    assert.match(csvText, /名次,选手,电脑水平,百分比/);
    assert.ok(csvText.includes('王阿姨'));
    assert.equal((await fetch(`${url}${print}`)).status, 200);
    await shot(page, `practice-club-${size}`);
    await check('the club set');

    // An 80分 board's field.
    await page.click('[data-field="1"]');
    await page.waitForSelector('#field li');
    await check('an 80分 field');

    // A 够级 game's field (team points) and the two replays.
    await page.goto(`${url}/practice.html?s=${gouji}&b=1`);
    await page.waitForSelector('#field li');
    for (const f of goujiField) {
      const li = page.locator(`#field li[data-run="${f.run}"]`);
      assert.equal(Number(await li.getAttribute('data-a')), f.result.a);
      assert.equal(Number(await li.getAttribute('data-b')), f.result.b);
      assert.match(await li.textContent() ?? '', new RegExp(`A ${String(f.result.a).replace("-", "−")} : ${String(f.result.b).replace("-", "−")} B`));
    }
    assert.match(await page.textContent('#field-h') ?? '', /第 1 局/);
    await shot(page, `practice-field-gouji-${size}`);
    await check('a 够级 field');
    await page.click(`[data-replay="${other.table_id}"]`);
    await until(async () => (await page.locator('.replay-view .replay-body[aria-busy="false"]').count()) === 2, 15_000, 'both replays');
    // Every hand as dealt: 6 × 50 cards… less none yet (at step 0).
    const counts = await page.locator('.replay-view >> nth=0').locator('[data-hand]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
    assert.equal(counts.length, 6);
    await page.click('#together-next');
    await page.waitForSelector('#together-at[data-trick="1"]');
    await shot(page, `practice-replays-gouji-${size}`);
    await check('two 够级 replays');

    if (width === 1024) {
      // English under 设置.
      await page.click('#settings');
      await page.click('#lang');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      await page.waitForSelector('#replays-h');
      assert.match(await page.textContent('#replays-h') ?? '', /Game 1 · replays side by side/);
      await page.click('#lang');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    }
    assert.deepEqual(errors.map(String), []);
    await context.close();
  }
  assert.deepEqual(problems, {});
});

// The same identity in events: an event card's page (pair.html) opened on a browser that keeps a
// practice player's code tells the server (`POST /api/players/me/events` with the code, the event
// and the card; answered here as the server answers it), and an event in the history
// (`history[].event`) is a line of its own: the pair, its match points and place, a link to the
// event's standings, no percentage and no dot on the chart.
test('an event card opened on a practice player\'s browser; an event in the history', { timeout: 120_000 }, async () => {
  const url = live.server.url;
  const ev = await director('POST', '/api/events', { game: 'shengji', name: '周五比赛', tables: 1, rounds: 1, boards_per_round: 1, entries: [{ names: ['王阿姨', '李叔叔'] }, { names: [], bot: true }] });
  const card = (await director('GET', `/api/events/${ev.id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length).players[0].token;
  const wang = await post('/api/players', { name: '王阿姨' });
  const { page, context, errors } = await newPage(live.browser, { width: 390, height: 844 });
  await context.addInitScript((code) => localStorage.setItem('paiju.player', JSON.stringify(code)), wang.token);
  /** @type {any[]} */
  const linked = [];
  await page.route('**/api/players/me/events', (r) => {
    linked.push(r.request().postDataJSON());
    r.fulfill({ json: { event: ev.id, entry: 'NS 1' } });
  });
  await page.goto(`${url}/pair.html?e=${ev.id}#${card}`);
  await page.waitForSelector('[data-pair="NS1"]');
  await until(async () => linked.length > 0, 5000, 'the event linked');
  assert.deepEqual(linked[0], { token: wang.token, event: ev.id, card });

  // Her history with that event in it (as the server words it).
  const me = await post('/api/players/me', { token: wang.token });
  const line = { set: ev.id, name: '周五比赛', game: 'shengji', began_ms: 0, boards: 0, played: 0, done: false, place: 2, of: 4, open: true, event: { entry: 'NS 1', points: 3.5, through_round: 1 } };
  await page.route('**/api/players/me', (r) => r.fulfill({ json: { ...me, history: [line] } }));
  await page.goto(`${url}/practice.html`);
  const row = page.locator(`#history tr[data-set="${ev.id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-event'), 'NS 1');
  assert.match(await row.textContent() ?? '', /周五比赛.*比赛 · 南北第 1 对 · 比赛分 3\.5.*第 2 \/ 4/);
  assert.equal(await row.locator('a').getAttribute('href'), `standings.html?e=${ev.id}`);
  assert.equal(await page.locator('#chart, #chart-h').count(), 0, 'no percentage, no chart');
  assert.deepEqual(await smallTargets(page, 48), []);
  assert.deepEqual(errors.map(String), []);
  await context.close();
});
