// The lobby and the ways into a table, against the real server: the remembered name, the
// invite link and code, sitting down from a link in a second browser, watching, English and
// the four-colour suits, and the lobby's own accessibility and sizes. Computers are labelled
// from the protocol's `bot` flag only: a person who calls themselves 「机器人」 is a person.

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
  // English is a switch (in 设置, opened by a tap).
  await page.click('#settings');
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.match(await page.textContent('#create') ?? '', /Open/);
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
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
  const code = await host.page.textContent('[data-table-code]') ?? '';
  assert.ok(link.endsWith(`#/t/${code}`), `the invite link names the table (${link})`);
  await shot(host.page, 'invite-1024x768');

  // The table is listed with its free seat.
  const listed = await (await fetch(`${live.server.url}/api/tables`)).json();
  assert.ok(listed.some((/** @type {any} */ t) => t.id === code));

  // A friend opens the link in their own browser, writes a name and sits down opposite. The
  // bots' own name is refused in plain words (no one can pass for a computer, or a computer for
  // a person); a name that merely contains it is a person's name like any other.
  const friend = await newPage(live.browser, { width: 390, height: 844 });
  await friend.page.goto(link);
  await friend.page.fill('#name', '机器人');
  await friend.page.click('[data-seat="2"]');
  await friend.page.waitForFunction(() => document.body.textContent?.includes('留给机器人的名字'));
  await friend.page.fill('#name', '机器人小王');
  await friend.page.click('[data-seat="2"]');
  await friend.page.waitForFunction(() => /** @type {any} */ (window).paiju?.model?.view);
  assert.equal(await friend.page.evaluate(() => /** @type {any} */ (window).paiju.model.seat), 2);
  // The host sees the friend's name at the partner's place, not marked as a computer; the two
  // bots' seats are (the server names them 「机器人」 too: only the flag tells them apart).
  await host.page.waitForFunction(() => document.querySelector('[data-seat="2"]')?.textContent?.includes('机器人小王'));
  const seats = (await (await fetch(`${live.server.url}/api/tables/${code}`)).json()).seats;
  assert.deepEqual(seats.map((/** @type {any} */ s) => s.bot), [false, true, false, true]);
  assert.equal(seats[2].name, '机器人小王');
  assert.equal(await host.page.locator('[data-seat="2"] .tag.bot').count(), 0, 'a person named 机器人小王 is not shown as a computer');
  for (const s of [1, 3]) assert.match(await host.page.textContent(`[data-seat="${s}"] .tag.bot`) ?? '', /电脑/, `seat ${s} is a computer`);
  assert.equal(await friend.page.locator('.dock .me .tag.bot').count(), 0, 'nor in their own dock');

  // Someone else watches: no hand, no play button, the four seats' plates.
  const watcher = await newPage(live.browser, { width: 1024, height: 768 });
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
  for (const p of [host, friend, watcher]) assert.deepEqual(p.errors.map(String), []);
});
