// A 够级 team's own page (pair.html?e=ID#TOKEN with a team token) against the real server, on a
// phone and a desktop: before the event starts it names the team; in the final (six teams: round
// 1 is the final) it shows the team's group, the game played now with its table and side, the
// tables of its rotation; once the team's first game is played (three `paiju bot` processes in
// its seats) that game's result from the team's side and its totals; 「入座打牌」 seats a player
// at the team's next game. Only the team's own games are listed. Every view passes axe (no serious
// or critical violation) and its buttons and links are at least 48 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { directorCaller, liveServerAndBrowser, newPage, shot, axeViolations, smallTargets, until, paijuBin } from './harness.js';

const DIRECTOR = '3e6b9d2f5a8c1e4b7d0a3f6c9e2b5d8a';
const live = liveServerAndBrowser({ extra: ['--director-token', DIRECTOR] });

const director = directorCaller(live, DIRECTOR);

/** A team's call (its token in the body). @param {string} path @param {unknown} body */
async function teamCall(path, body) {
  const res = await fetch(`${live.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, data: await res.json() };
}

test('a 够级 team follows its own match on its page', { timeout: 420_000 }, async () => {
  const orgs = ['峄城', '台儿庄', '薛城', '市中', '滕州'];
  const entries = [
    { team: '山亭1队', names: ['张三', '李四', '王五'], organisation: '山亭' },
    ...orgs.map((o) => ({ names: [], bot: true, organisation: o })),
  ];
  const ev = await director('POST', '/api/events', { game: 'gouji', name: '够级周末练习赛', entries });
  const id = ev.id;
  const cards = await director('GET', `/api/events/${id}/cards`);
  // Each player's own token: the first (张三) follows the team's page; each sits in their own seat.
  const tokens = cards.teams.find((/** @type {any} */ c) => c.players?.length).players.map((/** @type {any} */ p) => p.token);
  const token = tokens[0];

  const phone = await newPage(live.browser, { width: 390, height: 844 });
  await phone.page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
  await phone.page.waitForSelector('[data-team="1"]');
  assert.match(await phone.page.textContent('[data-team]') ?? '', /本队：第 1 队 · 山亭1队 · 张三 \/ 李四 \/ 王五/);
  assert.match(await phone.page.textContent('main') ?? '', /比赛还没开始/);
  assert.equal(await phone.page.textContent('.topbar .title'), '本队比赛');
  assert.equal(await phone.page.locator('#sit').count(), 0);

  // The final: the team's group, the game now, its table and side, the three tables it plays.
  await director('POST', `/api/events/${id}/rounds/1/start`, {});
  await phone.page.waitForSelector('[data-team-stage="final"]', { timeout: 15_000 });
  await phone.page.waitForSelector('[data-now]', { timeout: 15_000 });
  const group = await phone.page.getAttribute('[data-group]', 'data-group');
  const [table1, game1, side] = (await phone.page.getAttribute('[data-now]', 'data-now') ?? '').split(':');
  assert.equal(game1, '1');
  // The final is seated balanced (docs/tournaments.md): a group sits either side, by table and
  // rotation, so the page's side is the server's, whichever it is.
  assert.ok(side === 'a' || side === 'b', side);
  assert.match(await phone.page.textContent('[data-now]') ?? '', new RegExp(`现在打第 1 局 · 第 ${table1} 桌 · 本队坐 ${side.toUpperCase()} 方`));
  assert.match(await phone.page.textContent('main') ?? '', /A 组：.*；B 组：/);
  const rows = phone.page.locator('[data-team-games] tbody tr');
  assert.equal(await rows.count(), 3, 'its three games of the final, no other team’s');
  const tables = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[1].textContent));
  const t0 = Number(table1);
  const step = group === 'A' ? 1 : -1;
  assert.deepEqual(tables, [0, 1, 2].map((k) => String(((t0 - 1 + step * k + 3) % 3) + 1)), 'A moves 1→2→3, B 3→2→1');
  assert.ok(await phone.page.isVisible('#sit'));
  await shot(phone.page, 'pair-team-final-390x844');
  assert.deepEqual(await axeViolations(phone.page), [], 'the team page on a phone');
  assert.deepEqual(await smallTargets(phone.page, 48), [], 'large enough to press');

  // The team's three players sit down, each with their own token (computer players for them), and play game 1.
  const seats = side === 'a' ? [0, 2, 4] : [1, 3, 5];
  const bots = [];
  for (const [k, seat] of seats.entries()) {
    const { status, data } = await teamCall(`/api/events/${id}/join`, { token: tokens[k], seat });
    assert.equal(status, 200, JSON.stringify(data));
    assert.equal(data.table_no, t0);
    bots.push(spawn(paijuBin(), ['bot', '--url', live.server.url, '--table', data.table, '--seat', String(seat), '--level', 'beginner', '--token', data.token, '--minutes', '6'], { stdio: 'ignore' }));
  }
  try {
    await phone.page.waitForSelector('[data-team-games] tr[data-game="1"][data-done="yes"]', { timeout: 300_000 });
  } finally {
    for (const b of bots) b.kill();
  }
  // Its result, from its side (us : them), and its totals; no other match's.
  const score = await phone.page.textContent('[data-team-games] tr[data-game="1"] td:nth-child(5)') ?? '';
  assert.match(score, /^-?\d+ : -?\d+/);
  await phone.page.waitForSelector('[data-totals] tr[data-total="山亭1队"]');
  const pts = await phone.page.textContent('[data-totals] tr[data-total="山亭1队"] td:nth-child(2)');
  assert.equal(pts, score.split(' : ')[0], 'the totals are its game’s points');
  const me = await teamCall(`/api/events/${id}/pair`, { token });
  assert.equal(me.data.team.games.length, 3);
  assert.ok(me.data.team.games.every((/** @type {any} */ x) => x.opponent !== '山亭1队'));
  // The public still sees no result.
  const pub = await (await fetch(`${live.server.url}/api/events/${id}`)).json();
  assert.ok(pub.gouji.stages[0].games.every((/** @type {any} */ x) => x.result === undefined));
  // The captain signs game 1 (「由队长或领队签字确认该局比赛结果」): the line says so.
  assert.match(await phone.page.textContent('[data-team-games] tr[data-game="1"] [data-signed]') ?? '', /待本队确认/);
  await phone.page.click('#confirm');
  await phone.page.waitForSelector('[data-team-games] tr[data-game="1"] [data-signed="agreed"]');
  const signed = await teamCall(`/api/events/${id}/pair`, { token });
  assert.equal(signed.data.team.games.find((/** @type {any} */ x) => x.game === 1).signed, 'agreed');

  // Desktop: game 2 opens once the other tables have played game 1; 入座打牌 seats a player there.
  const desk = await newPage(live.browser, { width: 1280, height: 900 });
  await desk.page.goto(`${live.server.url}/pair.html?e=${id}#${token}`);
  await desk.page.waitForSelector('[data-now^="' + tables[1] + ':2:"]', { timeout: 300_000 });
  await shot(desk.page, 'pair-team-final-1280x900');
  assert.deepEqual(await axeViolations(desk.page), [], 'the team page on a desktop');
  assert.deepEqual(await smallTargets(desk.page, 48), [], 'large enough to press');
  await desk.page.click('#sit');
  await desk.page.waitForURL(/#\/t\/\d+/);
  // English is a switch.
  await phone.page.click('#lang');
  await phone.page.waitForFunction(() => /We are team 1/.test(document.body.textContent ?? ''), null, { timeout: 15_000 });
  assert.deepEqual(phone.errors.map(String), []);
  assert.deepEqual(desk.errors.map(String), []);
});
