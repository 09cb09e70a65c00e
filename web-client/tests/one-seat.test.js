// One player, one seat (赛风, issue 24), against the real server: each browser context is a
// device of its own (its own storage, so its own device id). A player's seat opened on a second
// device takes it over: the first shows a large final panel (close 4010) and does not reconnect
// by itself; its 「在这台设备上继续」 takes the seat back, and then the second shows the panel.
// A second tab of the same browser takes the seat over as well, and the server's connection
// record shows one takeover, not a stream (no ping-pong between the two).
// Where the event refuses a second device, the second one is told so (4009) and its 「重试」
// seats it once the first page is closed. Every hello carries the same device id across
// reloads. A competition's table says 「第1轮 第1桌」 and shows no 托管 where the event does not
// allow it (the server's refusal in its words if 托管 is asked for anyway). The console shows
// the connections with the partners' shared address first, and the new-event form's terms reach
// the server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { directorCaller, liveServerAndBrowser, newPage, shot, smallText, smallTargets, until, paijuBin, axeViolations } from './harness.js';

const DIRECTOR = '3e9a1c7b5d2f8a4e6c0b9d3f7a1e5c8b';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

/**
 * An event of one table of people (王阿姨 北, 李叔叔 南) against a computer pair, its round 1
 * started; each player's own token.
 * @param {Record<string, unknown>} terms  the event's conduct terms (second_device, auto_play, …)
 */
async function eventWithPair(terms = {}) {
  const ev = await director('POST', '/api/events', {
    game: 'shengji', name: '赛风练习', tables: 1, rounds: 1, boards_per_round: 1,
    entries: [{ names: ['王阿姨', '李叔叔'] }, { names: [], bot: true }],
    ...terms,
  });
  const players = (await director('GET', `/api/events/${ev.id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length).players;
  await director('POST', `/api/events/${ev.id}/rounds/1/start`, {});
  return { id: /** @type {string} */ (ev.id), her: /** @type {string} */ (players[0].token), his: /** @type {string} */ (players[1].token) };
}

/**
 * A device (a browser context of its own) that sits a player down from their pair's page and
 * waits until the table has welcomed the seat.
 * @param {string} id @param {string} token @param {{ width: number, height: number }} [size]
 */
async function deviceAtSeat(id, token, size = { width: 390, height: 844 }) {
  const dev = await newPage(live.browser, size);
  await dev.page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
  await dev.page.click('#sit');
  await dev.page.waitForURL(/#\/t\/\d+$/);
  await seated(dev.page);
  return dev;
}

/** The table welcomed this page's seat (and no panel stands over it). @param {import('playwright-core').Page} page */
function seated(page) {
  return page.waitForFunction(() => {
    const m = /** @type {any} */ (window).paiju?.model;
    return m && m.role === 'seat' && m.competition && !m.seatGone && m.conn === 'open';
  });
}

/** The partner (南) at the table: a `paiju bot` player with his own token. @param {string} id @param {string} token */
async function partnerBot(id, token) {
  const res = await fetch(`${live.server.url}/api/events/${id}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, seat: 2 }) });
  const joined = await res.json();
  assert.ok(res.ok, JSON.stringify(joined));
  return spawn(paijuBin(), ['bot', '--url', live.server.url, '--table', joined.table, '--seat', '2', '--level', 'beginner', '--token', joined.token, '--minutes', '3'], { stdio: 'ignore' });
}

/** The page's hello frames, as sent. @param {import('playwright-core').Page} page @returns {Promise<any[]>} */
function hellos(page) {
  return page.evaluate(() => /** @type {any} */ (window).__sent.filter((/** @type {any} */ s) => s.frame?.type === 'hello').map((/** @type {any} */ s) => s.frame));
}

/** How many sockets the page has opened so far. @param {import('playwright-core').Page} page */
function socketCount(page) {
  return page.evaluate(() => /** @type {any} */ (window).__sockets.length);
}

test('a seat opened on a second device: the first shows 4010 and takes it back only when asked', { timeout: 120_000 }, async () => {
  const { id, her } = await eventWithPair();
  // The first device is a small phone with 大字: the panel must still read and tap there.
  const first = await newPage(live.browser, { width: 375, height: 667 });
  await first.page.goto(`${live.server.url}/pair.html?e=${id}#${her}`);
  await first.page.evaluate(() => localStorage.setItem('paiju.bigText', 'true'));
  await first.page.click('#sit');
  await first.page.waitForURL(/#\/t\/\d+$/);
  await seated(first.page);
  const table = new URL(first.page.url()).hash.slice(4);

  const second = await deviceAtSeat(id, her);
  assert.equal(new URL(second.page.url()).hash.slice(4), table, 'the same seat at the same table');
  // The first device is told, in a panel in place of the table, and stays off.
  await first.page.waitForSelector('#seat-gone[data-close="4010"]');
  const panel = await first.page.textContent('#seat-gone') ?? '';
  assert.match(panel, /您的座位已在另一台设备上打开，这里已断开。比赛中每位选手只用一台设备。/);
  assert.equal(await first.page.textContent('#seat-back'), '在这台设备上继续');
  assert.equal(await first.page.locator('#hand, .felt').count(), 0, 'no table under the panel');
  const sockets = await socketCount(first.page);
  // No reconnect loop: the page lives on (its clock ticks, its watchdog runs) and opens nothing.
  await first.page.waitForFunction(() => {
    const w = /** @type {any} */ (window);
    w.__ticks = (w.__ticks ?? 0) + 1;
    return w.__ticks > 90; // about 1.5 s of animation frames
  }, null, { polling: 'raf' });
  assert.equal(await socketCount(first.page), sockets, 'no connection opened by itself after 4010');
  assert.ok(await second.page.evaluate(() => /** @type {any} */ (window).paiju.model.seatGone === null), 'the second device keeps the seat');

  // On the phone with 大字: large text, a big button in reach, nothing wider than the screen.
  assert.deepEqual(await smallText(first.page, 18), [], 'no text under 18 px');
  assert.deepEqual(await smallTargets(first.page, 48), [], 'every control at least 48 px');
  assert.ok(await first.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal overflow');
  const reach = await first.page.evaluate(() => {
    const b = /** @type {HTMLElement} */ (document.querySelector('#seat-back'));
    const r = b.getBoundingClientRect();
    return { inView: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth, hit: b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)), h: r.height, fontSize: parseFloat(getComputedStyle(b).fontSize) };
  });
  assert.ok(reach.inView && reach.hit, `「在这台设备上继续」 in view and tappable without scrolling: ${JSON.stringify(reach)}`);
  assert.ok(reach.h >= 64, 'a big button');
  assert.deepEqual(await axeViolations(first.page), [], 'the panel');
  await shot(first.page, 'seat-moved-375x667-bigtext');
  // English under 设置.
  await first.page.click('#settings');
  await first.page.click('#lang');
  assert.match(await first.page.textContent('#seat-gone') ?? '', /Your seat was opened on another device/);
  assert.equal(await first.page.textContent('#seat-back'), 'Continue on this device');
  await first.page.click('#lang');

  // 「在这台设备上继续」: the seat comes back here, and the other device is told in its turn.
  await first.page.click('#seat-back');
  await seated(first.page);
  await second.page.waitForSelector('#seat-gone[data-close="4010"]');
  assert.equal(await first.page.locator('#seat-gone').count(), 0);
  await first.context.close();
  await second.context.close();
});

test('a second tab on a competition seat takes it over; the first says so and stays off', { timeout: 120_000 }, async () => {
  const { id, her } = await eventWithPair();
  const { page, errors, context } = await newPage(live.browser, { width: 375, height: 667 });
  await page.goto(`${live.server.url}/pair.html?e=${id}#${her}`);
  await page.click('#sit');
  await page.waitForURL(/#\/t\/\d+$/);
  const visits = async () => (await director('GET', `/api/events/${id}`)).conduct.visits;
  const replaced = async () => (await visits()).filter((/** @type {any} */ v) => v.what === 'replaced').length;
  await until(async () => (await visits()).some((/** @type {any} */ v) => v.what === 'opened'), 10_000, 'the seat opened');

  // The same seat in a second tab (the same browser's seat ticket, the same device id).
  const second = await context.newPage();
  await second.goto(page.url());
  await page.waitForFunction(() => /您的座位已在另一台设备上打开/.test(document.body.textContent ?? ''), null, { timeout: 15_000 });
  assert.equal(await replaced(), 1, 'one takeover');
  assert.deepEqual(await smallText(page, 18), [], 'the words are large enough (without 大字)');
  // A few seconds on, still one takeover: the first tab did not take the seat back.
  await new Promise((r) => setTimeout(r, 4000)); // proving that nothing happens: no condition to wait for
  assert.equal(await replaced(), 1, 'no ping-pong between the tabs');
  // How to go on is the player's: the panel's one button.
  assert.equal(await page.textContent('#seat-back'), '在这台设备上继续');
  assert.deepEqual(errors.map(String), []);
  await context.close();
});

test('an event that refuses a second device: the second is told 4009, and 重试 seats it once the first has gone', { timeout: 120_000 }, async () => {
  const { id, her } = await eventWithPair({ second_device: 'refuse' });
  const first = await deviceAtSeat(id, her);
  assert.equal(await first.page.evaluate(() => /** @type {any} */ (window).paiju.model.competition.one_device_refuses), true);
  const second = await newPage(live.browser, { width: 375, height: 667 });
  await second.page.goto(`${live.server.url}/pair.html?e=${id}#${her}`);
  await second.page.click('#sit');
  await second.page.waitForSelector('#seat-gone[data-close="4009"]');
  assert.match(await second.page.textContent('#seat-gone') ?? '', /这个座位正在另一台设备上使用。比赛中每位选手只用一台设备：请先关掉另一台设备上的页面，再点「重试」。/);
  assert.equal(await second.page.textContent('#seat-back'), '重试');
  assert.deepEqual(await smallText(second.page, 18), []);
  assert.deepEqual(await smallTargets(second.page, 48), []);
  assert.ok(await second.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  await shot(second.page, 'seat-in-use-375x667');
  // The first device keeps its seat: it was not disturbed.
  assert.ok(await first.page.evaluate(() => /** @type {any} */ (window).paiju.model.seatGone === null && /** @type {any} */ (window).paiju.model.conn === 'open'));

  // 重试 while the first still holds it: refused again, the same panel.
  const before = await socketCount(second.page);
  await second.page.click('#seat-back');
  await until(async () => (await socketCount(second.page)) > before, 5_000, 'a new connection on 重试');
  await second.page.waitForSelector('#seat-gone[data-close="4009"]');
  // The first page closed (the player did as told): 重试 now seats this device.
  await first.context.close();
  await second.page.click('#seat-back');
  await until(async () => {
    if (await second.page.evaluate(() => /** @type {any} */ (window).paiju.model.seatGone === 4009)) await second.page.click('#seat-back').catch(() => {});
    return second.page.evaluate(() => { const m = /** @type {any} */ (window).paiju.model; return m.role === 'seat' && m.conn === 'open' && !m.seatGone; });
  }, 20_000, 'seated on the second device once the first has gone');
  await second.context.close();
});

test('every hello carries this browser\'s device id, the same after a reload', { timeout: 60_000 }, async () => {
  const { id, her } = await eventWithPair();
  const dev = await deviceAtSeat(id, her);
  const [hello] = await hellos(dev.page);
  assert.match(hello.device ?? '', /^[A-Za-z0-9_-]{22}$/, 'a random 22-character base64url id');
  assert.equal(await dev.page.evaluate(() => localStorage.getItem('paiju.device')), hello.device, 'kept in localStorage');
  await dev.page.reload();
  await seated(dev.page);
  const [again] = await hellos(dev.page);
  assert.equal(again.device, hello.device, 'the same id after a reload');
  // Another browser is another device.
  const other = await newPage(live.browser);
  await other.page.goto(`${live.server.url}/`);
  await other.page.waitForSelector('#create');
  const otherId = await other.page.evaluate(async () => (await import('./src/settings.js')).deviceId());
  assert.match(otherId, /^[A-Za-z0-9_-]{22}$/);
  assert.notEqual(otherId, hello.device);
  await dev.context.close();
  await other.context.close();
});

test('a competition\'s table: 第1轮 第1桌 in the top bar, no 托管 where the event does not allow it', { timeout: 120_000 }, async () => {
  const { id, her, his } = await eventWithPair();
  const dev = await deviceAtSeat(id, her, { width: 1024, height: 768 });
  const bot = await partnerBot(id, his);
  try {
    assert.equal(await dev.page.textContent('#at-competition'), '第1轮 第1桌');
    assert.deepEqual(await dev.page.evaluate(() => /** @type {any} */ (window).paiju.model.competition), { id, round: 1, table: 1, auto_play: false, one_device_refuses: false, practice: false });
    // Playing (both partners seated, the computers opposite), and still no 托管 button.
    await dev.page.waitForFunction(() => /** @type {any} */ (window).paiju.model.tableState === 'playing', null, { timeout: 30_000 });
    await dev.page.waitForSelector('#hand');
    assert.equal(await dev.page.locator('#auto').count(), 0, 'no 托管 button');
    // On a phone too (the top bar folds; the place stays).
    await dev.page.setViewportSize({ width: 375, height: 667 });
    await until(() => dev.page.evaluate(() => document.querySelector('.table-page')?.getAttribute('data-felt') === 'fold'), 5_000, 'the felt folded on the phone');
    assert.ok(await dev.page.isVisible('#at-competition'), '第1轮 第1桌 in view on the phone');
    // English.
    await dev.page.click('#settings');
    await dev.page.click('#lang');
    assert.equal(await dev.page.textContent('#at-competition'), 'Round 1, table 1');
    await dev.page.click('#lang');
    // 托管 asked for anyway (an old page, a typed frame): the server's refusal, in its words.
    await dev.page.evaluate(() => /** @type {any} */ (window).paiju.conn.send({ type: 'auto', on: true }));
    await dev.page.waitForSelector('.error-text[role="alert"]');
    assert.match(await dev.page.textContent('.error-text[role="alert"]') ?? '', /比赛中不能托管/);
    assert.deepEqual(dev.errors.map(String), []);
  } finally {
    bot.kill();
    await dev.context.close();
  }
});

test('the console: the new event\'s terms reach the server; 连接记录 flags the partners\' one address; 托管 moves by the result', { timeout: 240_000 }, async () => {
  const con = await newPage(live.browser, { width: 1280, height: 900 });
  await con.page.goto(`${live.server.url}/director.html#token=${DIRECTOR}`);
  await con.page.waitForSelector('#create-event');
  // The defaults: a second device takes over, no 托管, timeouts counted by the round.
  assert.equal(await con.page.inputValue('#ev-second-device'), 'replace');
  assert.equal(await con.page.isChecked('#ev-auto-play'), false);
  assert.equal(await con.page.inputValue('#ev-timeouts'), 'round');
  await con.page.fill('#ev-name', '赛风练习（控制台）');
  await con.page.fill('#ev-tables', '1');
  await con.page.fill('#ev-rounds', '1');
  await con.page.fill('#ev-boards', '1');
  await con.page.fill('#ev-entries', '王阿姨 李叔叔');
  await con.page.selectOption('#ev-second-device', 'refuse');
  await con.page.check('#ev-auto-play');
  await con.page.selectOption('#ev-timeouts', 'competition');
  const sent = con.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/events');
  await con.page.click('#create-event');
  const body = (await sent).postDataJSON();
  assert.deepEqual([body.second_device, body.auto_play, body.timeouts_counted], ['refuse', true, 'competition'], 'the creation body');
  await con.page.waitForURL(/director\.html\?e=/);
  const id = new URL(con.page.url()).searchParams.get('e') ?? '';
  const view = await director('GET', `/api/events/${id}`);
  assert.equal(view.conduct.second_device, 'refuse');
  assert.equal(view.conduct.auto_play, true);
  await con.page.waitForSelector('#conduct [data-terms="refuse:true"]');
  assert.match(await con.page.textContent('#conduct') ?? '', /另一台设备：拒绝 · 托管：允许/);
  await con.page.click('#start-round:not([disabled])');
  await con.page.waitForSelector('#close-round:not([disabled])');

  // Both partners connect — all from 127.0.0.1, so one address — and a second device of hers is refused.
  const players = (await director('GET', `/api/events/${id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length).players;
  const her = await deviceAtSeat(id, players[0].token);
  const bot = await partnerBot(id, players[1].token);
  const second = await newPage(live.browser);
  try {
    await second.page.goto(`${live.server.url}/pair.html?e=${id}#${players[0].token}`);
    await second.page.click('#sit');
    await second.page.waitForSelector('#seat-gone[data-close="4009"]');
    // The console: the flag first and large, then every connection.
    await con.page.waitForSelector('#conduct .shared-line[data-shared="1:1"]', { timeout: 15_000 });
    // The players as the server names them (with their pair: 「王阿姨（南北1）」).
    assert.equal(await con.page.textContent('#conduct .shared-line'), '同一地址：第1轮第1桌 北 王阿姨（南北1）、南 李叔叔（南北1）');
    assert.equal(await con.page.getAttribute('#conduct .shared-line', 'data-device'), 'false', 'one address, not one device (the bot sends no device id)');
    await con.page.waitForSelector('#visits tr[data-visit="refused"][data-seat="0"]');
    const rows = await con.page.$$eval('#visits tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const opened = rows.filter((r) => r[6] === '打开');
    assert.ok(opened.some((r) => r[3] === '北' && /^王阿姨/.test(r[4] ?? '') && /^[0-9a-f]{10}$/.test(r[8] ?? '')), `her opening, with her device's mark: ${JSON.stringify(rows)}`);
    assert.ok(opened.some((r) => r[3] === '南' && /^李叔叔/.test(r[4] ?? '') && r[8] === '—'), 'his opening, no device id sent');
    const refused = rows.find((r) => r[6] === '拒绝（座位在另一台设备上）');
    assert.ok(refused && refused[0] === '1' && refused[1] === '1' && refused[2] === '1', 'the refused second device: round, table, board');
    assert.notEqual(refused?.[8], opened.find((r) => r[3] === '北')?.[8], 'another device, another mark');
    assert.equal(refused?.[7], opened.find((r) => r[3] === '北')?.[7], 'the same address, the same mark');
    assert.deepEqual(await axeViolations(con.page), [], 'the console with 连接记录');
    await con.page.locator('#conduct').scrollIntoViewIfNeeded();
    await shot(con.page, 'director-conduct-1280x900');

    // 托管 is allowed here: the button is there, and each move it makes is shown by the result.
    await her.page.waitForSelector('#auto', { timeout: 30_000 });
    await her.page.click('#auto');
    await con.page.waitForSelector('[data-round="1"] [data-auto-moves^="北:"]', { timeout: 150_000 });
    assert.match(await con.page.textContent('[data-auto-moves^="北:"]') ?? '', /^北 托管 \d+ 步$/);
    assert.deepEqual(her.errors.map(String).concat(con.errors.map(String)), []);
  } finally {
    bot.kill();
    await her.context.close();
    await second.context.close();
    await con.context.close();
  }
});

test('the console shows the set-up\'s warnings (a share-and-relay cut short)', { timeout: 60_000 }, async () => {
  const ev = await director('POST', '/api/events', {
    game: 'shengji', name: '接力练习', tables: 4, rounds: 2, boards_per_round: 1, movement: 'relay',
    entries: Array.from({ length: 8 }, () => ({ names: [], bot: true })),
  });
  assert.equal(ev.warnings?.[0]?.code, 'curtailed_relay', 'the server warns');
  const con = await newPage(live.browser, { width: 1280, height: 900 });
  await con.page.goto(`${live.server.url}/director.html?e=${ev.id}#token=${DIRECTOR}`);
  await con.page.waitForSelector('#warnings [data-warning="curtailed_relay"]');
  assert.equal(await con.page.textContent('#warnings [data-warning="curtailed_relay"]'), ev.warnings[0].zh, 'in the server\'s words');
  assert.match(await con.page.textContent('#warnings') ?? '', /^请注意/);
  await con.context.close();
});
