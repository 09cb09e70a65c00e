// 练习 (practice against the field, issue 26) against the real server, as an older player on a
// 4.7-inch phone (375×667) with 大字 on, each browser context a device of its own. A set of
// eight 80分 boards is made with the director's token, with the computers' reference run at 入门
// so that the field is never empty. 王阿姨 comes from the lobby, writes her name and is given a
// personal code (its link and QR code on her page), chooses 入门 and plays boards 1–3 through
// the real table page — 托管 plays her cards, the table's 「下一副 · 第 N 副」 takes her to the
// run's next board — and stops (「先停一下，回练习页面」): the set's page shows her three boards
// as the server scores them. On another device (no storage) her personal link signs her in and
// is wiped from the address; 「继续第 4 副」 and the tables' way on finish the set, whose page
// then shows her percentage and place as the server has them. Board 1's field lists every result
// as the server does, hers marked; 看回放 opens the reference's replay beside hers, both stepped
// together by trick with every hand (their card counts as the replays say). Then 李叔叔, on a
// third device, is first refused a wrong code in the server's words, makes his own identity,
// plays board 1 and finds 王阿姨's result in his field; the set closed early by its organiser,
// his 「继续第 2 副」 is refused in the server's words and the page then offers nothing to play.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directorCaller, liveServerAndBrowser, newPage, shot, until } from './harness.js';

const DIRECTOR = '5b8e2d4f7a1c9e3b6d0f2a8c4e7b1d9f';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });
const director = directorCaller(live, DIRECTOR);

/** A player's POST (their code in the body), its status and JSON. @param {string} path @param {unknown} body */
async function post(path, body) {
  const res = await fetch(`${live.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, data: await res.json() };
}

/** The run as the server has it. @param {string} set @param {string} code */
async function runOf(set, code) {
  const { status, data } = await post(`/api/practice/${set}/run`, { token: code });
  assert.equal(status, 200, JSON.stringify(data));
  return data;
}

/** A phone with 大字 on, as an older player has it: a device of its own. */
async function phone() {
  const d = await newPage(live.browser, { width: 375, height: 667 });
  await d.context.addInitScript(() => localStorage.setItem('paiju.bigText', 'true'));
  return d;
}

/** The percentage as the page prints it (the server's, two decimals at most). @param {number} p */
const pctText = (p) => `${Math.round(p * 100) / 100}%`;

/**
 * At a practice table: board `n` is the one seated, 托管 plays it out, and the result is shown.
 * @param {import('playwright-core').Page} page @param {number} n
 */
async function playOut(page, n) {
  await page.waitForURL(/#\/t\/\d+$/);
  await page.waitForSelector(`#at-competition[data-board="${n}"]`, { timeout: 20_000 });
  await page.waitForFunction((n) => /** @type {any} */ (window).paiju?.model.board === n && /** @type {any} */ (window).paiju.model.role === 'seat', n);
  assert.match(await page.textContent(`#at-competition[data-board="${n}"]`) ?? '', new RegExp(`练习 第${n}副`));
  await page.click('#auto', { timeout: 20_000 });
  await page.waitForSelector('#result', { timeout: 120_000 });
}

test('a set played against the field: identity, three boards, another device, the field and two replays, a second player', { timeout: 600_000 }, async () => {
  const url = live.server.url;
  const set = await director('POST', '/api/practice', { game: 'shengji', boards: 8, days: 2, references: ['beginner'], name: '周五练习 · 80分' });
  const id = /** @type {string} */ (set.id);
  assert.equal(set.state, 'running');
  const reference = until(async () => {
    const v = await (await fetch(`${url}/api/practice/${id}`)).json();
    return v.practice.ranking.length >= 1 ? v : null;
  }, 120_000, 'the computers\' reference run');

  // --- 王阿姨, her phone: from the lobby to a personal code.
  const a = await phone();
  await a.page.goto(`${url}/`);
  await a.page.click('#to-practice');
  await a.page.waitForURL(/practice\.html$/);
  assert.match(await a.page.textContent('#welcome-h') ?? '', /练习 · 和大家打同样的牌/);
  assert.equal(await a.page.evaluate(() => document.documentElement.classList.contains('big-text')), true, '大字 on');
  await a.page.fill('#name', '王阿姨');
  await a.page.click('#start');
  await a.page.waitForSelector('#my-code');
  const code = JSON.parse(await a.page.evaluate(() => localStorage.getItem('paiju.player') ?? 'null'));
  assert.match(code, /^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/, 'the personal code kept on the device');
  assert.equal(await a.page.textContent('#my-code'), code);
  assert.equal(await a.page.textContent('#my-link'), `${url}/practice.html#p=${code}`, 'the personal link carries the code in its fragment');
  assert.match(await a.page.textContent('#code-warning') ?? '', /谁拿到这个码，谁就能用您的名字打牌/);
  await a.page.waitForFunction(() => /** @type {HTMLImageElement | null} */ (document.querySelector('#my-qr'))?.naturalWidth ?? 0 > 0);
  assert.equal((await post('/api/players/me', { token: code })).data.name, '王阿姨');
  await reference;

  // The set is listed with its players; 开始 goes to its page, 入门 chosen before board 1.
  await a.page.reload();
  await a.page.waitForSelector(`#sets li[data-set="${id}"]`);
  assert.equal(await a.page.getAttribute(`#sets li[data-set="${id}"]`, 'data-players'), '0');
  await shot(a.page, 'practice-home-375x667');
  await a.page.click(`[data-go="${id}"]`);
  await a.page.waitForSelector('input[name=level][value=club]:checked');
  assert.match(await a.page.textContent('#play') ?? '', /开始第 1 副/);
  await a.page.check('input[name=level][value=beginner]');
  await shot(a.page, 'practice-set-start-375x667');
  await a.page.click('#play');

  // Boards 1–3 through the table page and its way on.
  for (const n of [1, 2, 3]) {
    await playOut(a.page, n);
    await a.page.waitForSelector(`#practice-next[data-board="${n + 1}"]`, { timeout: 30_000 });
    assert.match(await a.page.textContent('#practice-next') ?? '', new RegExp(`下一副 · 第 ${n + 1} 副`));
    assert.equal(await a.page.locator('#next-board, #event-next, #session, #result-replay').count(), 0, 'no casual 下一副, no session, no public replay at a practice table');
    if (n === 1) await shot(a.page, 'practice-table-result-375x667');
    if (n < 3) await a.page.click('#practice-next');
  }
  // She stops for now: back on the set's page, three boards played as the server scores them.
  await a.page.click('#practice-page');
  await a.page.waitForSelector('#boards li[data-state="done"]');
  let run = await runOf(id, code);
  assert.equal(run.level, 'beginner');
  for (const b of run.boards) {
    const li = a.page.locator(`#boards li[data-board="${b.board}"]`);
    assert.equal(await li.getAttribute('data-state'), b.done ? 'done' : b.now ? 'now' : 'todo', `board ${b.board}`);
    if (b.done) {
      assert.equal(Number(await li.getAttribute('data-percent')), b.percent);
      assert.match(await li.textContent() ?? '', new RegExp(`${pctText(b.percent).replace('.', '\\.')}.*比赛分 ${b.mp} / ${b.top}`));
    }
  }
  assert.deepEqual(run.boards.map((/** @type {any} */ b) => b.done), [true, true, true, false, false, false, false, false]);
  assert.match(await a.page.textContent('#play') ?? '', /继续第 4 副/);
  await shot(a.page, 'practice-set-375x667');

  // --- Her tablet (another device, nothing stored): the personal link.
  const b = await phone();
  await b.page.goto(`${url}/practice.html#p=${code}`);
  await b.page.waitForSelector('#signed-in');
  assert.match(await b.page.textContent('#signed-in') ?? '', /已用个人码登录：王阿姨/);
  assert.equal(await b.page.evaluate(() => location.hash), '', 'the code wiped from the address');
  assert.equal(JSON.parse(await b.page.evaluate(() => localStorage.getItem('paiju.player') ?? 'null')), code);
  await b.page.waitForSelector(`#history tr[data-set="${id}"]`);
  assert.match(await b.page.textContent(`#history tr[data-set="${id}"]`) ?? '', /3 \/ 8/);
  await b.page.click(`#history tr[data-set="${id}"] a`);
  await b.page.waitForSelector('#play[data-board="4"]');
  await b.page.click('#play');
  for (const n of [4, 5, 6, 7, 8]) {
    await playOut(b.page, n);
    if (n < 8) {
      await b.page.waitForSelector(`#practice-next[data-board="${n + 1}"]`, { timeout: 30_000 });
      await b.page.click('#practice-next');
    }
  }
  // The last board: 「都打完了 · 看成绩」, and the set's page says what the server says.
  await b.page.waitForSelector('#practice-done', { timeout: 30_000 });
  await b.page.click('#practice-done');
  await b.page.waitForSelector('#run-summary[data-done="true"]');
  run = await runOf(id, code);
  assert.ok(run.done && typeof run.percent === 'number' && run.place, JSON.stringify(run));
  assert.equal(Number(await b.page.getAttribute('#run-summary', 'data-percent')), run.percent);
  assert.equal(Number(await b.page.getAttribute('#run-summary', 'data-place')), run.place);
  const summary = await b.page.textContent('#run-summary') ?? '';
  assert.ok(summary.includes(`打完了：${pctText(run.percent)}`) && summary.includes(`第 ${run.place} 名，共 ${run.of} 人`), summary);
  assert.equal(await b.page.locator('#play').count(), 0, 'nothing left to play');
  // Her line in the set's ranking, marked, as the server ranks it.
  const mine = b.page.locator(`[data-ranking="all"] tr[data-run="${run.run}"]`);
  assert.equal(await mine.getAttribute('class'), 'mine');
  assert.equal(Number(await mine.getAttribute('data-place')), run.place);
  await shot(b.page, 'practice-set-done-375x667');

  // Board 1's field: every result on it, as the server scores them, hers marked.
  await b.page.click('[data-field="1"]');
  await b.page.waitForSelector('#field li');
  const board1 = run.boards[0];
  assert.equal(await b.page.locator('#field li').count(), board1.field.length);
  assert.ok(board1.field.length >= 2, 'the reference and hers');
  for (const f of board1.field) {
    const li = b.page.locator(`#field li[data-run="${f.run}"]`);
    assert.equal(Number(await li.getAttribute('data-percent')), f.percent, `run ${f.run}'s percentage`);
    assert.equal(Number(await li.getAttribute('data-mp')), f.mp);
    assert.equal(Number(await li.getAttribute('data-defenders')), f.result.defenders);
    assert.equal(await li.getAttribute('data-declarer'), f.result.declarer);
    assert.equal(await li.getAttribute('data-mine'), String(!!f.mine));
    assert.match(await li.textContent() ?? '', new RegExp(`${f.name}.*${pctText(f.percent).replace('.', '\\.')}.*比赛分 ${f.mp} / ${f.top}.*闲家 ${f.result.defenders} 分`));
  }
  await shot(b.page, 'practice-field-375x667');

  // The reference's replay beside hers (one above the other on the phone), every hand.
  const ref = board1.field.find((/** @type {any} */ f) => !f.mine);
  const hers = board1.field.find((/** @type {any} */ f) => f.mine);
  await b.page.click(`[data-replay="${ref.table_id}"]`);
  await b.page.waitForSelector('.replay-view[data-pos="0"] .replay-body[aria-busy="false"]');
  await until(async () => (await b.page.locator('.replay-view .replay-body[aria-busy="false"]').count()) === 2, 10_000, 'both replays drawn');
  assert.equal(await b.page.getAttribute('.replay-view >> nth=0', 'data-table'), ref.table_id, 'the other table first');
  assert.equal(await b.page.getAttribute('.replay-view >> nth=1', 'data-table'), hers.table_id, 'then mine');
  const replays = await Promise.all([ref, hers].map(async (f) => (await post(`/api/practice/${id}/replay`, { token: code, table: f.table_id })).data));
  for (const [i, r] of replays.entries()) {
    const view = b.page.locator('.replay-view').nth(i);
    assert.match(await view.locator('.step-of').textContent() ?? '', new RegExp(`第 0 步，共 ${r.steps.length} 步`));
    assert.deepEqual(await view.locator('[data-hand]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count')))), ['N', 'E', 'S', 'W'].map((s) => r.deal.hands[s].length), 'every hand as dealt');
  }
  // Side by side on a wide screen, one above the other here.
  const [top0, top1] = await b.page.$$eval('.replay-col', (els) => els.map((e) => e.getBoundingClientRect().top));
  assert.ok(top1 > top0, 'one above the other on a phone');
  // 两边一起: both at the end of the bury, then of trick 1, their hands as their replays say.
  const ends = replays.map((r) => r.steps.flatMap((/** @type {any} */ s, /** @type {number} */ i) => (s.events.some((/** @type {any} */ e) => e.type === 'trick_won' || e.type === 'buried') ? [i + 1] : [])));
  // Trick 1 takes one card from each hand, or two or more when it was led with a pair, a
  // tractor or a throw: as many as its plays, by the replay.
  const trick1 = replays.map((r) => r.steps.flatMap((/** @type {any} */ s) => s.events).filter((/** @type {any} */ e) => e.type === 'played' && e.trick === 1).reduce((/** @type {number} */ n, /** @type {any} */ e) => n + e.cards.length, 0));
  for (const k of [1, 2]) {
    await b.page.click('#together-next');
    for (const i of [0, 1]) {
      const view = b.page.locator('.replay-view').nth(i);
      await until(async () => (await view.getAttribute('data-pos')) === String(ends[i][k - 1]), 10_000, `replay ${i} at its trick ${k}`);
      await view.locator('.replay-body[aria-busy="false"]').waitFor();
      const total = (await view.locator('[data-hand]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))))).reduce((x, y) => x + y, 0);
      assert.equal(total, k === 1 ? 100 : 100 - trick1[i], `replay ${i}: the hands after ${k === 1 ? 'the bury' : 'trick 1'}`);
    }
  }
  assert.match(await b.page.textContent('#together-at') ?? '', /两边都停在第 2 轮打完/);
  await shot(b.page, 'practice-replays-375x667');
  // On a wide screen the two sit side by side.
  await b.page.setViewportSize({ width: 1440, height: 900 });
  const [left, right] = await b.page.$$eval('.replay-col', (els) => els.map((e) => e.getBoundingClientRect()));
  assert.ok(Math.abs(left.top - right.top) < 1 && right.left > left.right - 1, 'side by side on a wide screen');
  await shot(b.page, 'practice-replays-1440x900');

  // --- 李叔叔, his own phone: a wrong code refused in the server's words, then his own identity.
  const c = await phone();
  await c.page.goto(`${url}/practice.html`);
  await c.page.fill('#code', '2222 3333 4444');
  await c.page.click('#sign-in');
  const refused = await post('/api/players/me', { token: '2222-3333-4444' });
  assert.equal(refused.status, 403);
  assert.equal(refused.data.code, 'bad_player_code');
  await c.page.waitForSelector('section:has(#code-h) .error-text:visible');
  assert.equal((await c.page.textContent('section:has(#code-h) .error-text'))?.trim(), refused.data.zh);
  await c.page.fill('#name', '李叔叔');
  await c.page.click('#start');
  await c.page.waitForSelector(`#sets li[data-set="${id}"][data-players="1"]`);
  const hisCode = JSON.parse(await c.page.evaluate(() => localStorage.getItem('paiju.player') ?? 'null'));
  assert.notEqual(hisCode, code);
  await c.page.click(`[data-go="${id}"]`);
  await c.page.click('#play');
  await playOut(c.page, 1);
  await c.page.waitForSelector('#practice-next[data-board="2"]', { timeout: 30_000 });
  // From the table's result to the board's field: 王阿姨's result is in it.
  await c.page.click('#result-field');
  await c.page.waitForSelector('#field li');
  const his = await runOf(id, hisCode);
  const field = his.boards[0].field;
  assert.equal(field.length, board1.field.length + 1, 'the reference, 王阿姨 and him');
  const wang = field.find((/** @type {any} */ f) => f.name === '王阿姨');
  assert.ok(wang && !wang.mine);
  const wangLine = c.page.locator(`#field li[data-run="${wang.run}"]`);
  assert.equal(Number(await wangLine.getAttribute('data-percent')), wang.percent);
  assert.equal(await wangLine.getAttribute('data-mine'), 'false');
  assert.match(await wangLine.textContent() ?? '', /王阿姨/);
  assert.equal(await c.page.locator('#field li.mine').count(), 1);
  assert.match(await c.page.textContent('#field li.mine') ?? '', /李叔叔（我）/);
  await shot(c.page, 'practice-field-second-375x667');

  // The set closes (its organiser, early) while his page offers board 2: the server's words.
  await c.page.click('#back-set');
  await c.page.waitForSelector('#play[data-board="2"]');
  await director('POST', `/api/practice/${id}/close`, {});
  await c.page.click('#play');
  const closed = await post(`/api/practice/${id}/join`, { token: hisCode });
  assert.equal(closed.status, 409);
  assert.equal(closed.data.code, 'practice_closed');
  await c.page.waitForSelector('section:has(#run-h) .error-text:visible');
  assert.equal((await c.page.textContent('section:has(#run-h) .error-text'))?.trim(), closed.data.zh);
  await c.page.reload();
  await c.page.waitForSelector('#set-closed');
  assert.equal(await c.page.locator('#play').count(), 0, 'nothing to play in a closed set');

  for (const d of [a, b, c]) assert.deepEqual(d.errors.map(String), []);
});
