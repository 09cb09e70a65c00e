// The console loses no entry (issue 23 item 5), against the real server: the director opens the
// console from the director's link (`director.html#token=…`): the token is remembered on the
// device (and wiped from the address) until 忘记. Two pairs of people registered with the event
// (three tables), computers filling the other four places; a late pair typed into the empty 报名 box and added keeps
// both (it takes the last computer's place, EW3) and every registered player's token; replacing the whole list asks first and names the pairs it
// would drop, and dismissed, changes nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directorCaller, liveServerAndBrowser, newPage, axeViolations } from './harness.js';

const DIRECTOR = '2d8a5f1c7e4b9a3d6f2c8e5b1a7d4f9c';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

test('the console adds a late pair without losing one, asks before replacing, and remembers its token', { timeout: 120_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1024, height: 768 });
  /** What each confirm() said, and whether the director accepted it. */
  const asked = [];
  let accept = true;
  page.on('dialog', (dlg) => {
    asked.push(dlg.message());
    if (accept) dlg.accept();
    else dlg.dismiss();
  });

  // The director's link: one tap, the token kept on the device, gone from the address.
  await page.goto(`${live.server.url}/director.html#token=${DIRECTOR}`);
  await page.waitForSelector('#token-kept');
  assert.equal(new URL(page.url()).hash, '', 'the token is wiped from the address');
  await page.goto(`${live.server.url}/director.html`);
  await page.waitForSelector('#token-kept');
  assert.deepEqual(await axeViolations(page), [], 'the console with its token remembered');

  // Two pairs of people registered with the event; computers in the other two places.
  await page.fill('#ev-name', '周日练习赛');
  await page.fill('#ev-tables', '3');
  await page.fill('#ev-rounds', '1');
  await page.fill('#ev-boards', '1');
  await page.fill('#ev-entries', '王阿姨 李叔叔 / 福州\n张伯 刘姨 / 厦门');
  await page.click('#create-event');
  await page.waitForURL(/director\.html\?e=/);
  const id = new URL(page.url()).searchParams.get('e') ?? '';
  const pairs = async () => (await director('GET', `/api/events/${id}`)).pairs.map((/** @type {any} */ p) => `${p.direction}${p.number}:${p.bot ? '电脑' : p.names.join(' ')}`);
  assert.deepEqual(await pairs(), ['NS1:王阿姨 李叔叔', 'NS2:张伯 刘姨', 'NS3:电脑', 'EW1:电脑', 'EW2:电脑', 'EW3:电脑']);
  await page.waitForSelector('[data-registered="6"]');

  // A late pair, typed into the empty box and added: both pairs stay, a computer makes room.
  assert.equal(await page.inputValue('#reg-entries'), '', 'the 报名 box starts empty');
  const tokens = async () => (await director('GET', `/api/events/${id}/cards`)).pairs.flatMap((/** @type {any} */ c) => (c.players ?? []).map((/** @type {any} */ p) => `${p.name}:${p.token}`));
  const printed = await tokens();
  await page.fill('#reg-entries', '陈叔 林姨 / 泉州');
  await page.click('#add-entries');
  await page.waitForSelector('[data-entry="EW3"]:has-text("陈叔")');
  assert.deepEqual(await pairs(), ['NS1:王阿姨 李叔叔', 'NS2:张伯 刘姨', 'NS3:电脑', 'EW1:电脑', 'EW2:电脑', 'EW3:陈叔 林姨']);
  assert.deepEqual(asked, [], 'adding asks nothing: nobody is dropped');
  const now = await tokens();
  for (const card of printed) assert.ok(now.includes(card), `the printed card ${card} still works`);
  assert.match(await page.textContent('#act-done:not([hidden])') ?? '', /凭证不变/, 'it says the printed cards stay good');

  // Replacing the whole list asks first, naming the pairs it would drop; dismissed: nothing changes.
  accept = false;
  await page.fill('#reg-entries', '赵叔 钱姨');
  await page.click('#replace-entries');
  const question = asked.at(-1) ?? '';
  for (const who of ['王阿姨 / 李叔叔', '张伯 / 刘姨', '陈叔 / 林姨']) assert.ok(question.includes(who), `it names ${who}: ${question}`);
  assert.deepEqual(await pairs(), ['NS1:王阿姨 李叔叔', 'NS2:张伯 刘姨', 'NS3:电脑', 'EW1:电脑', 'EW2:电脑', 'EW3:陈叔 林姨'], 'dismissed: the list is as it was');

  // 忘记: the device forgets the token.
  await page.goto(`${live.server.url}/director.html`);
  await page.click('#forget-token');
  await page.waitForSelector('#token-kept', { state: 'detached' });
  assert.equal(await page.evaluate(() => localStorage.getItem('paiju.director')), null);
  assert.deepEqual(errors.map(String), []);
});
