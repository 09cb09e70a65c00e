// The lobby and the ways into a table, against the real server: the remembered name, the
// invite link and code, sitting down from a link in a second browser, watching, English and
// the four-colour suits, and the lobby's own accessibility and sizes. Computers are labelled
// from the protocol's `bot` flag only: a person who calls themselves 「机器人小王」 is a person.
// Issue 13: the time for each play offered when opening; the code in two groups of three digits,
// typed back with a space; the invite's QR code; the friend's page says whose table and which
// game; the computers' own names (「电脑·东」) refused to people. Issue 12: 「电脑水平」 chosen
// when opening, reaching the server, and shown at the table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, smallText, smallTargets } from './harness.js';

const live = liveServerAndBrowser();

test('the lobby is large, accessible, and remembers the name', async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  await page.goto(live.server.url + '/');
  await page.waitForSelector('#create');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await page.textContent('body') ?? '', /开新桌/);
  await page.fill('#name', '王阿姨');
  await page.reload();
  assert.equal(await page.inputValue('#name'), '王阿姨', 'the name is remembered by the browser');
  await shot(page, 'lobby-1024x768');
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(await smallText(page, 18), []);
  assert.deepEqual(await smallTargets(page, 48), []);
  // The time for each play is chosen when opening a table (the ruleset's by default).
  assert.equal(await page.isChecked('input[name=seconds][value="standard"]'), true);
  assert.equal(await page.locator('input[name=seconds]').count(), 4);
  // English is a switch (in 设置, opened by a tap).
  await page.click('#settings');
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(await page.textContent('#create') ?? '', /Open/);
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.deepEqual(errors.map(String), []);
});

test('on a phone the lobby starts with 开桌, 用桌号加入 and 参加比赛; the tables come after, the finished ones folded', async () => {
  const { page, errors } = await newPage(live.browser, { width: 375, height: 667 });
  // A busy server: ten tables being played, twenty finished.
  const seats = ['老王', '电脑·东', '李阿姨', '电脑·西'].map((name, seat) => ({ seat, name, bot: name.startsWith('电脑'), connected: true, auto: false }));
  const tables = Array.from({ length: 30 }, (_, i) => ({
    id: String(100000 + i), game: 'shengji', ruleset: 'fujian-2024', board: 1, state: i < 10 ? 'playing' : 'over', seats, spectators: 0, seq: 40,
    seed_commitment: '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925', deal_algorithm: 'paiju-deal-1', bot_level: 'club',
  }));
  await page.route('**/api/tables', (r) => r.fulfill({ json: tables }));
  await page.goto(live.server.url + '/');
  await page.waitForSelector('li[data-table="100000"]');
  const top = (/** @type {string} */ sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top + scrollY);
  const firstTable = await top('li[data-table="100000"]');
  for (const sel of ['#create', '#join-code', '#join-event']) assert.ok((await top(sel)) < firstTable, `${sel} before the tables`);
  assert.ok((await top('#create')) < 2 * 667, '开桌 within the first two screens');
  assert.equal(await page.locator('.tables-panel li[data-table]:visible').count(), 10, 'the tables being played are listed');
  assert.equal(await page.locator('li[data-state="over"]:visible').count(), 0, 'the finished ones are folded away');
  await page.click('#finished-tables summary');
  assert.equal(await page.locator('li[data-state="over"]:visible').count(), 20, 'and there when asked for');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  await shot(page, 'lobby-375x667');
  assert.deepEqual(errors.map(String), []);
});

test('a friend joins by the invite link, a third person watches; computers are told by the bot flag', { timeout: 120_000 }, async () => {
  // The host opens an 80分 table for two people: two seats stay free for friends.
  const host = await newPage(live.browser, { width: 1024, height: 768 });
  await host.page.goto(live.server.url + '/');
  await host.page.fill('#name', '老王');
  await host.page.check('input[name=game][value=shengji]');
  await host.page.check('input[name=humans][value="2"]');
  await host.page.click('#create');
  await host.page.waitForSelector('[data-invite-link]');
  const link = await host.page.textContent('[data-invite-link]') ?? '';
  const code = await host.page.getAttribute('[data-table-code]', 'data-table-code') ?? '';
  assert.match(code, /^\d{6}$/, 'a six-digit code');
  assert.equal(await host.page.textContent('[data-table-code]'), `${code.slice(0, 3)} ${code.slice(3)}`, 'shown in two groups, to read aloud');
  assert.ok(link.endsWith(`#/t/${code}`), `the invite link names the table (${link})`);
  // The QR code of the invite link, drawn by the server.
  await host.page.waitForFunction(() => /** @type {HTMLImageElement | null} */ (document.querySelector('img[data-qr]'))?.naturalWidth, null, { timeout: 5000 });
  const qr = await (await fetch(`${live.server.url}/api/tables/${code}/qr.svg`)).text();
  assert.match(qr, /^<svg/);
  await shot(host.page, 'invite-1024x768');
  for (const [w, h] of [[390, 844], [820, 1180], [1440, 900]]) {
    await host.page.setViewportSize({ width: w, height: h });
    await shot(host.page, `invite-${w}x${h}`);
  }
  await host.page.setViewportSize({ width: 1024, height: 768 });

  // The table is listed with its free seat.
  const listed = await (await fetch(`${live.server.url}/api/tables`)).json();
  assert.ok(listed.some((/** @type {any} */ t) => t.id === code));

  // A friend opens the link in their own browser, writes a name and sits down opposite. The
  // bots' own name is refused in plain words (no one can pass for a computer, or a computer for
  // a person); a name that merely contains it is a person's name like any other.
  const friend = await newPage(live.browser, { width: 390, height: 844 });
  await friend.page.goto(link);
  // The page says whose table it is and which game, before anything else.
  await friend.page.waitForFunction(() => document.querySelector('#seat-title')?.textContent === '老王的80分牌桌');
  assert.match(await friend.page.textContent('#seat-intro') ?? '', /对家是您的搭档/);
  await shot(friend.page, 'friend-390x844');
  await friend.page.fill('#name', '电脑·东');
  await friend.page.click('[data-seat="2"]');
  await friend.page.waitForFunction(() => document.body.textContent?.includes('留给机器人的名字'));
  await friend.page.fill('#name', '机器人');
  await friend.page.click('[data-seat="2"]');
  await friend.page.waitForFunction(() => document.body.textContent?.includes('留给机器人的名字'));
  await friend.page.fill('#name', '机器人小王');
  await friend.page.click('[data-seat="2"]');
  await friend.page.waitForFunction(() => /** @type {any} */ (window).paiju?.model?.view);
  assert.equal(await friend.page.evaluate(() => /** @type {any} */ (window).paiju.model.seat), 2);
  // The host sees the friend's name at the partner's place, not marked as a computer; the two
  // bots' seats are (by the flag; their names are the server's: 「电脑·东」, 「电脑·西」).
  await host.page.waitForFunction(() => document.querySelector('[data-seat="2"]')?.textContent?.includes('机器人小王'));
  const seats = (await (await fetch(`${live.server.url}/api/tables/${code}`)).json()).seats;
  assert.deepEqual(seats.map((/** @type {any} */ s) => s.bot), [false, true, false, true]);
  assert.deepEqual(seats.map((/** @type {any} */ s) => s.name), ['老王', '电脑·东', '机器人小王', '电脑·西']);
  assert.equal(seats[2].name, '机器人小王');
  assert.equal(await host.page.locator('[data-seat="2"] .tag.bot').count(), 0, 'a person named 机器人小王 is not shown as a computer');
  for (const s of [1, 3]) assert.match(await host.page.textContent(`[data-seat="${s}"] .tag.bot`) ?? '', /电脑/, `seat ${s} is a computer`);
  assert.equal(await friend.page.locator('.dock .me .tag.bot').count(), 0, 'nor in their own dock');

  // Someone else types the code as it was read to them (with a space) and watches: no hand, no
  // play button, the four seats' plates.
  const watcher = await newPage(live.browser, { width: 1024, height: 768 });
  await watcher.page.goto(`${live.server.url}/`);
  await watcher.page.fill('#code', ` ${code.slice(0, 3)} ${code.slice(3)} `);
  await watcher.page.click('#join-code');
  await watcher.page.waitForURL(new RegExp(`#/t/${code}$`));
  await watcher.page.waitForSelector('#seat-title');
  await watcher.page.goto(`${live.server.url}/#/t/${code}/watch`);
  await watcher.page.waitForFunction(() => /** @type {any} */ (window).paiju?.model?.view);
  assert.equal(await watcher.page.evaluate(() => /** @type {any} */ (window).paiju.model.role), 'spectator');
  assert.equal(await watcher.page.$('#hand'), null, 'a spectator sees no hand');
  assert.equal(await watcher.page.$('#play'), null, 'a spectator cannot play');
  assert.equal(await watcher.page.locator('.felt .seat').count(), 4);

  // Four-colour suits: diamonds turn blue, clubs green, on the host's hand.
  await host.page.click('#settings');
  await host.page.click('#four-colour');
  await host.page.waitForSelector('#hand .card.blue, #hand .card.green');
  await shot(host.page, 'table-four-colour-1024x768');
  // The friend's browser goes away: the host sees 掉线 on the friend's plate and in words.
  await friend.context.close();
  await host.page.waitForFunction(() => /机器人小王掉线了/.test(document.querySelector('#notices')?.textContent ?? ''), null, { timeout: 15_000 });
  assert.doesNotMatch(await host.page.textContent('#notices') ?? '', /回来了/, 'a first arrival is no news');
  assert.match(await host.page.textContent('[data-seat="2"]') ?? '', /掉线/);
  for (const p of [host, friend, watcher]) assert.deepEqual(p.errors.map(String), []);
});

test('「电脑水平」: a table opened at 高手 tells the server, and the table shows it', { timeout: 60_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  await page.goto(live.server.url + '/');
  await page.waitForSelector('#create');
  // 普通 unless chosen; three choices, as large as the others.
  assert.equal(await page.isChecked('input[name=bot-level][value="club"]'), true);
  assert.equal(await page.locator('input[name=bot-level]').count(), 3);
  assert.match(await page.textContent('body') ?? '', /电脑水平/);
  await page.fill('#name', '王阿姨');
  await page.check('input[name=game][value=shengji]');
  await page.check('input[name=humans][value="1"]');
  await page.check('input[name=bot-level][value="expert"]');
  assert.deepEqual(await smallTargets(page, 48), []);
  await page.click('#create');
  await page.waitForURL(/#\/t\//);
  const id = page.url().split('#/t/')[1];
  // The server has it: the table's summary says 高手.
  const summary = await (await fetch(`${live.server.url}/api/tables/${id}`)).json();
  assert.equal(summary.bot_level, 'expert');
  // And the table page shows it (from the server's welcome).
  await page.waitForSelector('[data-bot-level="expert"]');
  assert.match(await page.textContent('[data-bot-level]') ?? '', /高手/);
  await shot(page, 'bot-level-expert-1024x768');
  assert.deepEqual(errors.map(String), []);
});
