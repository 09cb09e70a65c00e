// A 够级 team event through the pages against the real server: the director's console creates
// it (one team of people pasted, computers filling up to six), prints the team cards (one a player), replaces
// the list by six computer teams (asked first, the team of people named), starts the final (drawn from the seed: groups A and B on three
// tables), records a 4-point team deduction, watches the games play themselves, closes the
// final and reveals the seed; the standings page then shows the team ranking (total, 头科,
// 大落, deductions) and every game. Phone and desktop screenshots; no serious or critical axe
// violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, until } from './harness.js';

const DIRECTOR = '8c1f4a7d0e3b6c9f2a5d8e1b4c7f0a3d';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });

test('the director runs a 够级 team event in the console; the standings page ranks the teams', { timeout: 420_000 }, async () => {
  const { page, errors } = await newPage(live.browser, { width: 1280, height: 900 });
  /** What each confirm() said (every one accepted). */
  const asked = [];
  page.on('dialog', (dlg) => {
    asked.push(dlg.message());
    dlg.accept();
  });
  await page.goto(live.server.url + '/director.html');
  await page.waitForSelector('#create-event');
  await page.fill('#director-token', DIRECTOR);
  await page.click('#use-token');

  // A 够级 event: the form changes to teams, groups and the final's games.
  await page.selectOption('#ev-game', 'gouji');
  await page.waitForSelector('#ev-final-games');
  assert.equal(await page.isVisible('#ev-tables'), false);
  assert.match(await page.textContent('label[for="ev-entries"]') ?? '', /每行一队/);
  assert.deepEqual(await axeViolations(page), [], 'the new-event form for 够级');
  await page.fill('#ev-name', '够级周末练习赛');
  await page.fill('#ev-entries', '山亭1队：张三 李四 王五 / 山亭');
  await page.click('#create-event');
  await page.waitForURL(/director\.html\?e=/);
  const id = new URL(page.url()).searchParams.get('e') ?? '';
  await page.waitForSelector('[data-teams] tbody tr');
  assert.equal(await page.locator('[data-teams] tbody tr').count(), 6);
  assert.match(await page.textContent('[data-next]') ?? '', /决赛/);

  // The team cards: one a player of the one team of people, each with its own token.
  await page.evaluate(() => { window.print = () => {}; });
  await page.click('#print-cards');
  await page.waitForSelector('#print-area [data-token]');
  const cardTokens = await page.locator('#print-area [data-token]').allTextContents();
  assert.equal(cardTokens.length, 3, 'three players, three cards');
  assert.equal(new Set(cardTokens).size, 3, 'each player has a token of their own');
  const printed = await page.textContent('#print-area') ?? '';
  for (const who of ['山亭1队', '张三', '李四', '王五']) assert.ok(printed.includes(who), `the cards name ${who}`);

  // The whole list replaced before round 1: six computer teams (a practice final). It asks
  // first, naming the team of people it drops.
  await page.fill('#reg-entries', '');
  await page.click('#replace-entries');
  assert.match(asked.at(-1) ?? '', /山亭1队（张三 \/ 李四 \/ 王五）/);
  await page.waitForSelector('.ok-text:not([hidden])');
  await page.waitForFunction(() => /第6队/.test(document.querySelector('[data-teams]')?.textContent ?? ''));

  // The final: drawn from the seed; A and B groups on three tables.
  await page.waitForSelector('#start-round:not([disabled])');
  await page.click('#start-round');
  await page.waitForSelector('[data-stage="1"][data-kind="final"] [data-game="3-1"]');
  assert.match(await page.textContent('[data-stage="1"]') ?? '', /A 组/);
  await shot(page, 'director-gouji-1280x900');
  assert.deepEqual(await axeViolations(page), [], 'the console with the final in play');

  // 扣该队4分.
  await page.waitForSelector('#submit-team-deduct');
  await page.fill('#tded-team', '2');
  await page.fill('#tded-reason', '同组队员交流牌型');
  const before = asked.length;
  await page.click('#submit-team-deduct');
  // Asked first (the server's preview comes back), with what it does to the standings: team 2
  // loses 4 points; then recorded.
  await until(async () => asked.length > before, 15_000, 'the deduction previewed');
  await page.waitForSelector('#act-done:not([hidden])');
  assert.match(asked.at(-1) ?? '', /登记后，成绩表会这样变/);
  const [, was, now] = /(?:^|\n)第2队：(-?\d+) 分 [^\n]* → (-?\d+) 分/.exec(asked.at(-1) ?? '') ?? [];
  assert.equal(Number(now), Number(was) - 4, 'the preview takes the 4 points off');

  // 改判: once game 1 at table 1 is over, the director replaces its result; the console's game
  // results show the ruling with its reason.
  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
    return v.gouji.stages[0].games.some((/** @type {any} */ x) => x.table === 1 && x.game === 1 && x.done);
  }, 240_000, 'game 1 at table 1');
  await page.fill('#rule-table', '1');
  await page.fill('#rule-game', '1');
  // 5 : −5 is no game's result (a game's points are even): refused in words, nothing changed.
  await page.fill('#rule-a', '5');
  await page.fill('#rule-b', '-5');
  await page.selectOption('#rule-first', 'a');
  await page.selectOption('#rule-last', 'b');
  await page.fill('#rule-reason', '裁判改判：B 队打暗号');
  await page.click('#submit-rule-game');
  await page.waitForFunction(() => /5 : -5 不可能出现/.test(document.body.textContent ?? ''));
  assert.equal(await page.locator('[data-adjusted]').count(), 0, 'the refused ruling changed nothing');
  await page.fill('#rule-a', '4');
  await page.fill('#rule-b', '-4');
  await page.click('#submit-rule-game');
  await page.waitForSelector('[data-adjusted]', { timeout: 10_000 });
  assert.match(asked.at(-1) ?? '', /登记后，成绩表会这样变/, 'the ruling was previewed before it was saved');
  assert.match(await page.textContent('[data-adjusted]') ?? '', /改判：裁判改判：B 队打暗号/);

  await until(async () => {
    const v = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
    const s = v.gouji.stages[0];
    return s.games.length >= 9 && s.games.every((/** @type {any} */ x) => x.done);
  }, 360_000, 'every game of the final');
  await page.waitForSelector('#close-round:not([disabled])');
  await page.click('#close-round');
  await page.waitForSelector('#reveal:not([disabled])');
  await page.click('#reveal');
  await page.waitForSelector('[data-seed]');
  assert.equal(await page.getAttribute('[data-state]', 'data-state'), 'finished');

  // The standings: six teams placed, the deduction shown, every game.
  for (const [width, height, name] of [[1024, 768, 'standings-gouji-1024x768'], [390, 844, 'standings-gouji-390x844']]) {
    const st = await newPage(live.browser, { width: Number(width), height: Number(height) });
    await st.page.goto(`${live.server.url}/standings.html?e=${id}`);
    await st.page.waitForSelector('[data-ranking="teams"] tbody tr');
    assert.equal(await st.page.locator('[data-ranking="teams"] tbody tr').count(), 6);
    assert.match(await st.page.textContent('[data-ranking="teams"]') ?? '', /头科/);
    assert.match(await st.page.textContent('[data-ranking="teams"]') ?? '', /4/);
    assert.ok((await st.page.locator('[data-results] tbody tr').count()) >= 9);
    assert.match(await st.page.textContent('body') ?? '', /最终成绩/);
    // A team's captain signs its games' results here (「由队长或领队签字确认该局比赛结果」).
    assert.equal(await st.page.isVisible('#confirm'), true);
    assert.equal(await st.page.isVisible('#dispute'), true);
    await shot(st.page, String(name));
    // Nothing sticks out sideways (the revealed seed and its commitment wrap; wide tables scroll
    // inside their own box).
    const wide = await st.page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className}: ${Math.round(e.getBoundingClientRect().right)}`),
    );
    assert.deepEqual(wide, [], `nothing wider than the screen at ${width}`);
    assert.deepEqual(await axeViolations(st.page), [], `the standings page at ${width}×${height}`);
    assert.deepEqual(st.errors.map(String), []);
  }
  assert.deepEqual(errors.map(String), []);
});
