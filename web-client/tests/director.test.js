// The events' pages against the real server started with a director token: the director's
// console creates a practice event (one pair of people, computers for the rest), prints the
// seating cards, starts the round, settles the people's board with an adjusted result, closes
// the round over the missing confirmation and reveals the seed; the standings page then shows
// both rankings and every board. Both pages render with no serious or critical axe violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, directorCaller, newPage, shot, axeViolations, until } from './harness.js';

const DIRECTOR = '5b0e9c2a7f4d1e8b3a6c9f2d5e8b1a4c';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

test('the director runs a practice event in the console; the standings page shows it', { timeout: 180_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1280, height: 900 });
  page.on('dialog', (dlg) => dlg.accept());
  await page.goto(live.server.url + '/director.html');
  await page.waitForSelector('#create-event');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await page.textContent('body') ?? '', /裁判长控制台/);
  assert.deepEqual(await axeViolations(page), [], 'the new-event form');

  // Without the token the server refuses, and the page says so.
  await page.click('#create-event');
  await page.waitForSelector('.error-text:not([hidden])');
  assert.match(await page.textContent('.error-text:not([hidden])') ?? '', /裁判长/);

  await page.fill('#director-token', DIRECTOR);
  await page.click('#use-token');
  await page.fill('#ev-name', '周三练习赛');
  await page.fill('#ev-tables', '3');
  await page.fill('#ev-rounds', '1');
  await page.fill('#ev-boards', '1');
  await page.fill('#ev-entries', '王阿姨 李叔叔 / 福州');
  await page.click('#create-event');
  await page.waitForURL(/director\.html\?e=/);
  const id = new URL(page.url()).searchParams.get('e') ?? '';
  await page.waitForSelector('#start-round:not([disabled])');
  assert.match(await page.textContent('[data-commitment]') ?? '', /^[0-9a-f]{64}$/);

  // The seating cards: one a player of the one pair of people, each with its own token; the
  // computers need none.
  await page.evaluate(() => { window.print = () => {}; });
  await page.click('#print-cards');
  await page.waitForSelector('#print-area [data-token]');
  const cardTokens = await page.locator('#print-area [data-token]').allTextContents();
  assert.equal(cardTokens.length, 2, 'two players, two cards');
  assert.notEqual(cardTokens[0], cardTokens[1], 'each player has a token of their own');
  for (const t of cardTokens) assert.match(t, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  assert.match(await page.textContent('#print-area') ?? '', /米切尔移位/);

  // Round 1: the tables open; the computers' boards play themselves.
  await page.click('#start-round');
  await page.waitForSelector('#close-round:not([disabled])');
  await page.waitForSelector('[data-round="1"] [data-table="3"]');
  await page.locator('[data-round="1"]').scrollIntoViewIfNeeded();
  await shot(page, 'director-round-1280x900');
  assert.deepEqual(await axeViolations(page), [], 'the console with a round in play');

  // The people's board (NS 1 at table 1, board 1) is settled by the director.
  await page.fill('#adj-round', '1');
  await page.fill('#adj-table', '1');
  await page.fill('#adj-board', '1');
  await page.fill('#adj-points', '120');
  await page.fill('#adj-reason', '选手缺席，判违规方负');
  await page.click('#submit-adjust');
  await page.waitForSelector('.ok-text:not([hidden])');

  // Every board done: close (forced: the people have not confirmed), then reveal.
  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
    return v.schedule[0].tables.every((/** @type {any} */ t) => t.boards.every((/** @type {any} */ b) => b.done));
  }, 120_000, 'every board of round 1');
  await page.waitForSelector('#close-round:not([disabled])');
  await page.click('#close-round');
  await page.waitForSelector('.error-text:not([hidden])');
  assert.match(await page.textContent('.error-text:not([hidden])') ?? '', /确认/);
  await page.check('#force-close');
  await page.click('#close-round');
  await page.waitForSelector('#reveal:not([disabled])');
  await page.click('#reveal');
  await page.waitForSelector('[data-seed]');
  assert.equal(await page.getAttribute('[data-state]', 'data-state'), 'finished');

  // The standings page: both rankings, every board, the seed; accessible.
  const st = await newPage(live.browser, { width: 1024, height: 768 });
  await st.page.goto(`${live.server.url}/standings.html?e=${id}`);
  await st.page.waitForSelector('[data-ranking="EW"] tbody tr');
  assert.equal(await st.page.locator('[data-ranking="NS"] tbody tr').count(), 3);
  assert.equal(await st.page.locator('[data-ranking="EW"] tbody tr').count(), 3);
  assert.match(await st.page.textContent('[data-ranking="NS"]') ?? '', /王阿姨 \/ 李叔叔/);
  assert.equal(await st.page.locator('[data-board]').count(), 3);
  assert.match(await st.page.textContent('body') ?? '', /最终成绩/);
  assert.match(await st.page.textContent('[data-seed]') ?? '', /^[0-9a-f]{64}$/);
  await shot(st.page, 'standings-1024x768');
  assert.deepEqual(await axeViolations(st.page), [], 'the standings page');
  // English is a switch.
  await st.page.click('#lang');
  await st.page.waitForFunction(() => document.documentElement.lang === 'en');
  // The page fetches the standings again in English: wait for them, then read.
  await st.page.waitForFunction(() => /Final results/.test(document.body.textContent ?? ''), null, { timeout: 15_000 }).catch(() => {});
  assert.match(await st.page.textContent('body') ?? '', /Final results/);

  // The pair's own page, once the event is over (in English now): its last round stays on the
  // page, its board's match points out of the top as the travellers give them (each board was
  // played at one table here: top 0).
  const card = (await director('GET', `/api/events/${id}/cards`)).pairs.find((/** @type {any} */ c) => c.players?.length);
  const travellers = (await director('GET', `/api/events/${id}/standings`)).boards;
  const mine = travellers.flatMap((/** @type {any} */ b) => b.results).find((/** @type {any} */ r) => r.ns === String(card.number));
  const top = 2 * (Math.max(...travellers.map((/** @type {any} */ b) => b.results.length)) - 1);
  await st.page.goto(`${live.server.url}/pair.html?e=${id}#${card.players[0].token}`);
  await st.page.waitForSelector('[data-mp]');
  assert.equal(await st.page.getAttribute('[data-mp]', 'data-mp'), String(mine.ns_mp));
  assert.equal(await st.page.textContent('[data-mp]'), `${mine.ns_mp} of ${top} match points`);
  assert.equal(await st.page.locator('#confirm').count(), 0, 'nothing to confirm once the event is over');

  // The list of events links to it.
  await st.page.goto(`${live.server.url}/standings.html`);
  await st.page.waitForSelector(`a[href="standings.html?e=${id}"]`);
  assert.deepEqual(await axeViolations(st.page), [], 'the list of events');
  assert.deepEqual([...errors, ...st.errors].map(String), []);
});

test('the console disqualifies (signalling twice, or the button after a confirm), shows the round clock and finishes early', { timeout: 180_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1280, height: 900 });
  /** @type {string[]} */
  const asked = [];
  let answer = false;
  page.on('dialog', (dlg) => {
    asked.push(dlg.message());
    answer ? dlg.accept() : dlg.dismiss();
  });
  await page.goto(live.server.url + '/director.html');
  await page.fill('#director-token', DIRECTOR);
  await page.click('#use-token');
  await page.fill('#ev-name', '提前结束');
  await page.fill('#ev-tables', '3');
  await page.fill('#ev-rounds', '3');
  await page.fill('#ev-boards', '1');
  await page.fill('#ev-entries', '');
  await page.click('#create-event');
  await page.waitForURL(/director\.html\?e=/);
  const id = new URL(page.url()).searchParams.get('e') ?? '';
  await page.waitForSelector('#start-round:not([disabled])');
  assert.ok(!(await page.isVisible('#finish-early')), 'nothing to finish before a round is closed');
  await page.click('#start-round');
  // The round clock: 1 board of 12 minutes.
  await page.waitForSelector('[data-clock="left"]');
  assert.match(await page.textContent('[data-clock]') ?? '', /本轮剩余 1[12]:\d\d/);
  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
    return v.schedule[0].tables.every((/** @type {any} */ t) => t.boards.every((/** @type {any} */ b) => b.done));
  }, 120_000, 'every board of round 1');
  await page.waitForSelector('#close-round:not([disabled])');
  await page.click('#close-round');
  await page.waitForSelector('#finish-early:not([hidden])');

  // Signalling twice: NS 2 is disqualified by the second deduction. Each deduction shows first
  // what it does to the standings (the server's preview); dismissed, nothing is logged.
  await page.fill('#ded-pair', '2');
  await page.selectOption('#ded-kind', 'signalling');
  await page.fill('#ded-reason', '传递非法信息');
  const logLen = async () => (await (await fetch(`${live.server.url}/api/events/${id}`)).json()).log_len;
  const unsaid = await logLen();
  await page.click('#submit-deduct');
  await until(async () => asked.length > 0, 10_000, 'the preview asked');
  assert.match(asked.at(-1) ?? '', /登记后，成绩表会这样变/);
  assert.match(asked.at(-1) ?? '', /南北 2：-?[\d.]+ 比赛分 第 \d 名 → -?[\d.]+ 比赛分/, 'NS 2 named with its score before and after');
  assert.equal(await logLen(), unsaid, 'previewed and dismissed: nothing logged');
  answer = true;
  for (let i = 0; i < 2; i++) {
    const was = await logLen();
    await page.click('#submit-deduct');
    await until(async () => (await logLen()) > was, 10_000, `deduction ${i + 1} logged`);
  }
  answer = false;
  await page.waitForFunction(() => /取消资格/.test(document.querySelector('[data-ranking="NS"]')?.textContent ?? ''));

  // The disqualify button asks first: refused once (nothing happens), then accepted.
  await page.selectOption('#dq-dir', 'EW');
  await page.fill('#dq-pair', '3');
  await page.fill('#dq-reason', '不服从裁判');
  const before = (await (await fetch(`${live.server.url}/api/events/${id}`)).json()).log_len;
  await page.click('#submit-dq');
  assert.match(asked.at(-1) ?? '', /确定取消东西第 3 对的比赛资格/);
  assert.equal((await (await fetch(`${live.server.url}/api/events/${id}`)).json()).log_len, before, 'dismissed: nothing logged');
  answer = true;
  await page.click('#submit-dq');
  await page.waitForFunction(() => (document.querySelector('[data-ranking="EW"]')?.textContent ?? '').includes('取消资格'));
  assert.deepEqual(await axeViolations(page), [], 'the console between rounds');

  // Finish after one of three rounds.
  await page.click('#finish-early');
  assert.match(asked.at(-1) ?? '', /只打了 1 轮（原定 3 轮）/);
  await page.waitForSelector('[data-seed]');
  assert.equal(await page.getAttribute('[data-state]', 'data-state'), 'finished');
  const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
  assert.equal(v.finished_early, true);
  assert.deepEqual(errors.map(String), []);
});

test('past the deadline the console marks tables over time and offers 判迟到弃权; the server judges the time', { timeout: 120_000 }, async () => {
  // NS 1 are people who never sit down; everyone else is a computer.
  const entries = [{ names: ['王阿姨', '李叔叔'] }, ...Array.from({ length: 5 }, () => ({ names: [], bot: true }))];
  const res = await fetch(`${live.server.url}/api/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DIRECTOR}`, 'content-type': 'application/json' },
    body: JSON.stringify({ game: 'shengji', name: '迟到', tables: 3, rounds: 1, boards_per_round: 1, entries }),
  });
  const { id } = await res.json();
  await fetch(`${live.server.url}/api/events/${id}/rounds/1/start`, { method: 'POST', headers: { authorization: `Bearer ${DIRECTOR}`, 'content-type': 'application/json' }, body: '{}' });
  const { page, errors } = await newPage(live.browser, { width: 1280, height: 900 });
  /** @type {string[]} */
  const asked = [];
  page.on('dialog', (dlg) => { asked.push(dlg.message()); dlg.accept(); });
  // The page is shown a round that started 25 minutes ago (12 allowed): the server's own times
  // are unchanged, so the forfeit it is asked for is refused as too early.
  const SHIFT = 25 * 60 * 1000;
  await page.route(new RegExp(`/api/events/${id}$`), async (route) => {
    const real = await route.fetch();
    const v = await real.json();
    v.round_started_ms -= SHIFT;
    v.round_deadline_ms -= SHIFT;
    await route.fulfill({ response: real, json: v });
  });
  await page.goto(`${live.server.url}/director.html?e=${id}`);
  await page.fill('#director-token', DIRECTOR);
  await page.click('#use-token');
  await page.waitForSelector('[data-clock="over"]');
  assert.match(await page.textContent('[data-clock]') ?? '', /本轮已超时 1[23]:\d\d/);
  await page.waitForSelector('[data-over-time="1"]');
  await page.waitForSelector('[data-late="NS1"]');
  assert.equal(await page.locator('[data-late]').count(), 1, 'only the people who are not seated');
  assert.deepEqual(await axeViolations(page), [], 'the console over time');
  await page.click('[data-late="NS1"]');
  assert.match(asked.at(-1) ?? '', /南北第 1 对本轮开始 10 分钟后仍未入座/);
  await page.waitForSelector('.error-text[role="alert"]:not([hidden])');
  assert.match(await page.textContent('.error-text[role="alert"]:not([hidden])') ?? '', /不到 10 分钟/);
  assert.deepEqual(errors.map(String), []);
});
