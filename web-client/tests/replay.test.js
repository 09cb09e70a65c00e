// 复盘 (the replay viewer) against the real server: a whole 80分 board and a whole 够级 game
// played by bots alone, then opened at `#/t/CODE/replay` by anyone (the tables are over and
// their seeds public). The viewer steps by action, trick and 够级 set with the keys and the
// buttons; what it shows at each step is what the server's replay says (every hand: the counts
// drawn equal the `?at=N` state's hands), each step with the engine's verdict from `explain`;
// Chinese first, English under 设置. Screenshots at phone and desktop sizes; axe-core finds no
// serious or critical violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveServerAndBrowser, newPage, shot, axeViolations, until } from './harness.js';

const live = liveServerAndBrowser();

/** A table of bots alone, played to the end. @param {'shengji' | 'gouji'} game */
async function finishedByBots(game) {
  const url = live.server.url;
  const res = await fetch(`${url}/api/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game, bots: game === 'gouji' ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3] }),
  });
  const table = await res.json();
  await until(async () => (await (await fetch(`${url}/api/tables/${table.id}`)).json()).state === 'over', 150_000, `the bots finish the ${game} table`);
  const replay = await (await fetch(`${url}/api/tables/${table.id}/replay`)).json();
  return { id: table.id, replay };
}

/** Waits until the viewer shows position k (the state after action k), its state loaded. @param {import('playwright-core').Page} page @param {number} k */
async function expectPos(page, k) {
  await page.waitForSelector(`.replay-page[data-pos="${k}"] .replay-body[aria-busy="false"]`, { timeout: 15_000 });
}

/** The step after `from` (0-based index into steps) whose events include one of `types`, as a position. @param {any} replay @param {number} from @param {string[]} types */
function nextWith(replay, from, types) {
  const i = replay.steps.findIndex((/** @type {any} */ s, /** @type {number} */ i) => i >= from && s.events.some((/** @type {any} */ e) => types.includes(e.type)));
  return i < 0 ? replay.steps.length : i + 1;
}

/** Every hand's count as drawn, by seat. @param {import('playwright-core').Page} page */
function drawnCounts(page) {
  return page.$$eval('[data-hand]', (els) => els.map((e) => Number(e.getAttribute('data-count'))));
}

/** The hands' sizes in the server's state after action k (the referee's view: every hand). @param {string} id @param {number} k */
async function serverCounts(id, k) {
  const s = await (await fetch(`${live.server.url}/api/tables/${id}/replay?at=${k}`)).json();
  return s.view.hands.map((/** @type {string[]} */ h) => h.length);
}

test('an 80分 board played by bots: stepping by action and by trick, every hand, the verdicts', { timeout: 240_000 }, async () => {
  const { id, replay } = await finishedByBots('shengji');
  const n = replay.steps.length;
  const { page, errors } = await newPage(live.browser, { width: 1440, height: 900 });
  // From the table's page once the board is over: 全盘复盘 in the result.
  await page.goto(`${live.server.url}/#/t/${id}/watch`);
  await page.click('#result-replay');
  await page.waitForURL(new RegExp(`#/t/${id}/replay`));
  await expectPos(page, 0);
  assert.match(await page.textContent('#step') ?? '', new RegExp(`第 0 步，共 ${n} 步`));
  // Every hand as dealt, the declarer's with the kitty in it: as the server's state has them.
  assert.deepEqual(await drawnCounts(page), await serverCounts(id, 0));
  assert.equal((await drawnCounts(page)).reduce((a, b) => a + b, 0), 108);

  // → one action: the bury, with the engine's verdict.
  await page.keyboard.press('ArrowRight');
  await expectPos(page, 1);
  assert.equal(await page.getAttribute('.step-line', 'data-seq'), '1');
  await page.waitForSelector('#verdict[data-legal="true"]');
  assert.match(await page.textContent('#verdict') ?? '', /合法/);

  // PageDown: to the end of the first trick, the whole trick shown with who won it.
  const firstTrickEnd = nextWith(replay, 0, ['trick_won']);
  await page.keyboard.press('PageDown');
  await expectPos(page, firstTrickEnd);
  assert.equal(await page.locator('.desk-plays tr').count(), 4);
  assert.equal(await page.locator('.desk-plays tr[data-winning]').count(), 1);
  assert.deepEqual(await drawnCounts(page), await serverCounts(id, firstTrickEnd), 'the hands are the server’s state');
  // The verdict names the rules the engine applied and what it would have refused.
  await page.waitForSelector('#verdict[data-legal="true"] [data-rule]');
  await shot(page, 'replay-shengji-1440x900');
  assert.deepEqual(await axeViolations(page), [], 'the viewer at a finished trick');

  // PageDown again, then PageUp back; the buttons step too.
  await page.keyboard.press('PageDown');
  await expectPos(page, nextWith(replay, firstTrickEnd, ['trick_won']));
  await page.keyboard.press('PageUp');
  await expectPos(page, firstTrickEnd);
  await page.click('#next');
  await expectPos(page, firstTrickEnd + 1);
  await page.click('#prev');
  await expectPos(page, firstTrickEnd);
  assert.deepEqual(await drawnCounts(page), await serverCounts(id, firstTrickEnd));

  // End: the result as the replay reports it.
  await page.keyboard.press('End');
  await expectPos(page, n);
  assert.match(await page.textContent('#replay-result') ?? '', new RegExp(`闲家得分 ${replay.result.defenders}`));
  assert.match(await page.textContent('#replay-result') ?? '', /哈希链完整/);
  await page.keyboard.press('Home');
  await expectPos(page, 0);

  // A link to a step opens there; English under 设置.
  await page.goto(`${live.server.url}/#/t/${id}/replay/${firstTrickEnd}`);
  await expectPos(page, firstTrickEnd);
  await page.click('#settings');
  await page.click('#lang');
  await page.waitForFunction(() => /Step \d+ of \d+/.test(document.querySelector('#step')?.textContent ?? ''));
  await page.click('#lang');
  await page.click('#settings');

  assert.deepEqual(errors.map(String), []);
  await page.context().close();

  // The phone, as a phone opens it: a page of its own at 390×844, from the link to a step; its
  // button steps on. (Not the desktop's page resized: on a loaded CI machine a resized page
  // once drew no frame for 30 s, and a click waits for one.)
  const phone = await newPage(live.browser, { width: 390, height: 844 });
  await phone.page.goto(`${live.server.url}/#/t/${id}/replay/${firstTrickEnd}`);
  await expectPos(phone.page, firstTrickEnd);
  await phone.page.click('#next');
  await expectPos(phone.page, firstTrickEnd + 1);
  await phone.page.waitForSelector('#verdict[data-legal]');
  // The fair-play question at this lead, on a tap: every choice valued with every hand known
  // and on the seat's own view, the lead made marked, the answer in a sentence.
  await phone.page.click('#all-seeing');
  await phone.page.waitForSelector('[data-all-seeing="exact"], [data-all-seeing="played-out"]', { timeout: 30_000 });
  assert.match(await phone.page.textContent('#all-seeing-summary') ?? '', /看得见所有牌时.*只凭自己看到的/);
  assert.equal(await phone.page.locator('[data-all-seeing] tr[data-made="true"]').count(), 1, 'the lead made is among the choices');
  assert.ok(await phone.page.locator('[data-all-seeing] tbody tr').count() >= 2);
  await shot(phone.page, 'replay-shengji-390x844');
  assert.deepEqual(await axeViolations(phone.page), [], 'the viewer on a phone');
  assert.deepEqual(phone.errors.map(String), []);
  await phone.context.close();
});

test('a 够级 game played by bots: stepping by action, set and trick, hands as rank groups', { timeout: 240_000 }, async () => {
  const { id, replay } = await finishedByBots('gouji');
  const n = replay.steps.length;
  const { page, errors } = await newPage(live.browser, { width: 1440, height: 900 });
  // From the table's page once the game is over: 全盘复盘 in the top bar (the result closed).
  await page.goto(`${live.server.url}/#/t/${id}/watch`);
  await page.click('#result-close');
  await page.click('#replay');
  await page.waitForURL(new RegExp(`#/t/${id}/replay`));
  await expectPos(page, 0);
  assert.deepEqual(await drawnCounts(page), [50, 50, 50, 50, 50, 50]);
  // The groups add up to the hand.
  const sums = await page.$$eval('[data-hand]', (els) => els.map((e) => [...e.querySelectorAll('.desk-group small')].reduce((a, s) => a + Number((s.textContent ?? '').replace('×', '')), 0)));
  assert.deepEqual(sums, [50, 50, 50, 50, 50, 50]);

  // Shift+→: to the next set played (the engine's `led`, `beat` or `burned`).
  const setAt = (/** @type {number} */ from) => nextWith(replay, from, ['led', 'beat', 'burned']);
  await page.keyboard.press('Shift+ArrowRight');
  await expectPos(page, setAt(0));
  await page.keyboard.press('Shift+ArrowRight');
  const second = setAt(setAt(0));
  await expectPos(page, second);
  await page.waitForSelector('#top-set');
  // PageDown: the end of the trick (the engine's `trick_won`).
  const trickEnd = nextWith(replay, second, ['trick_won']);
  await page.keyboard.press('PageDown');
  await expectPos(page, trickEnd);
  assert.deepEqual(await drawnCounts(page), await serverCounts(id, trickEnd));
  await page.click('#next-set');
  await expectPos(page, setAt(trickEnd));
  await page.waitForSelector('#verdict[data-legal="true"]');
  // The fair-play question at this lead: each choice valued in the team's points with every
  // hand known and on the seat's own view (its notes rebuilt from the log), the set led marked.
  await page.click('#all-seeing');
  await page.waitForSelector('[data-all-seeing="played-out"]', { timeout: 60_000 });
  assert.match(await page.textContent('#all-seeing-summary') ?? '', /看得见所有牌时.*本队.*只凭自己看到的/);
  assert.match(await page.textContent('[data-all-seeing] thead') ?? '', /本队最终得分/);
  assert.equal(await page.locator('[data-all-seeing] tr[data-made="true"]').count(), 1, 'the set led is among the choices');
  assert.ok(await page.locator('[data-all-seeing] tbody tr').count() >= 2);
  await shot(page, 'replay-gouji-1440x900');
  assert.deepEqual(await axeViolations(page), [], 'the 够级 viewer');

  assert.deepEqual(errors.map(String), []);
  await page.context().close();

  // On a phone, a page of its own (as in the 80分 test): the slider goes anywhere; the end
  // shows the places and the score.
  const phone = await newPage(live.browser, { width: 390, height: 844 });
  await phone.page.goto(`${live.server.url}/#/t/${id}/replay`);
  await expectPos(phone.page, 0);
  const mid = Math.floor(n / 2);
  await phone.page.$eval('#step-slider', (el, v) => {
    /** @type {HTMLInputElement} */ (el).value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, String(mid));
  await expectPos(phone.page, mid);
  assert.deepEqual(await drawnCounts(phone.page), await serverCounts(id, mid));
  await phone.page.waitForSelector('#verdict[data-legal]');
  await shot(phone.page, 'replay-gouji-390x844');
  assert.deepEqual(await axeViolations(phone.page), [], 'the 够级 viewer on a phone');

  await phone.page.click('#last');
  await expectPos(phone.page, n);
  assert.match(await phone.page.textContent('#replay-result') ?? '', new RegExp(`A 队 ${replay.result.score.a} : ${replay.result.score.b} B 队`));
  assert.match(await phone.page.textContent('#replay-result') ?? '', /头科/);
  await phone.page.click('#prev');
  await expectPos(phone.page, n - 1);
  assert.deepEqual(phone.errors.map(String), []);
  await phone.context.close();
});
