// Issue 23's matrix: both games at nine screen sizes (phones upright from 4.7" to 6.5", a phone
// sideways, tablets both ways, a 1366×768 laptop, a desktop), with 大字 off and on, at the
// moments that matter — a trick under way, 扣底 (33 cards), leading, following a five-card throw,
// answering a ten-card 够级 set with fifteen rank groups (and with 问牌's answer on the felt and a
// refusal showing), a 够级 game's first minutes without a clock (told), the clock's notice, back after a dropped line, the result. At each: every
// hand card (every 够级 rank group) has a point where a tap reaches it, with no scrolling;
// 出牌 and 知道了 (the result's buttons) can be tapped; the page is no wider than the screen; no
// text is under 18 px. One page a size, states sent by the mock server (tests/matrix.js).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './harness.js';
import { mockServerAndBrowser } from './mock.js';
import { SIZES, scriptedTable, measure, seatBoth, bigText } from './matrix.js';

const live = mockServerAndBrowser();

/** The hand's card width at a trick under way, by size and 大字: for the laptop-against-tablet check. */
const cardWidth = new Map();

for (const [width, height] of SIZES) {
  test(`matrix: both games at ${width}×${height}, 大字 off and on`, async (t) => {
    const { page, context, errors } = await newPage(live.browser, { width, height });
    await seatBoth(context);
    await page.route('**/api/tables', (r) => r.fulfill({ json: [] }));
    const tables = { shengji: await scriptedTable(page, 'shengji', 'm80'), gouji: await scriptedTable(page, 'gouji', 'mgj') };
    /** @type {Record<string, string[]>} */
    const problems = {};
    /** @type {string[]} */
    const sizes = [];
    for (const game of /** @type {const} */ (['shengji', 'gouji'])) {
      const table = tables[game];
      await page.goto(`${live.server.url}/#/t/${game === 'shengji' ? 'm80' : 'mgj'}`);
      await page.waitForSelector('#hand');
      for (const big of [false, true]) {
        await bigText(page, big);
        const at = async (/** @type {string} */ moment, /** @type {string[]} */ controls) => {
          const m = await measure(page, controls);
          if (m.problems.length) problems[`${game}${big ? ' 大字' : ''} · ${moment} (${m.fit})`] = m.problems;
          return m;
        };
        for (const moment of game === 'shengji' ? ['mid', 'bury', 'lead', 'throw'] : ['mid', 'untimed', 'lead', 'answer']) {
          await table.show(moment);
          if (moment === 'untimed') assert.match(await page.textContent('#free-clock') ?? '', /每局开始 10 分钟内不计时，之后每套 20 秒/);
          const m = await at(moment, ['#play']);
          if (game === 'gouji' && moment === 'answer' && !big) {
            // A hand sent suit by suit is laid out as players do: 3 … A, then 2, 小王, 大王.
            const ranks = await page.$$eval('#hand .group-btn', (els) => els.map((e) => /** @type {HTMLElement} */ (e).dataset.rank));
            assert.deepEqual(ranks, ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2', 'BJ', 'RJ']);
          }
          if (moment === 'mid') {
            sizes.push(`${game}${big ? ' 大字' : ''} ${m.card} px (${m.fit})`);
            if (game === 'shengji') cardWidth.set(`${width}x${height}${big ? ' big' : ''}`, m.card);
          }
        }
        if (game === 'gouji') {
          // Answering with 问牌's answer on the felt, then a refused set: the groups stay in reach.
          await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#ask')).click());
          await page.waitForSelector('#count-note');
          await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#hand button[data-rank="A"]')).click());
          await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#play')).click());
          await page.waitForSelector('#refusal.refusal');
          await at('answer, 问牌 answered, a refusal', ['#play']);
          // The next action clears the refusal (问牌 again): the moments after start without it.
          await page.evaluate(() => /** @type {HTMLElement} */ (document.querySelector('#ask')).click());
          await page.waitForSelector('#refusal.refusal', { state: 'detached' });
        }
        // The clock's notice, read and dismissed where it is (a real tap on 知道了).
        await table.show('mid');
        await table.clock();
        await page.waitForSelector('#notices [data-notice="clock"]');
        await at('the clock\'s notice', ['#play', '#notices-ok']);
        await page.click('#notices-ok', { timeout: 2000 });
        await page.waitForSelector('#notices', { state: 'hidden' });
        // Back after a dropped line: one line says what the clock did meanwhile.
        await table.drop();
        await at('back after a drop', ['#play', '#notices-ok']);
        await page.click('#notices-ok', { timeout: 2000 });
        await table.show('result');
        await page.waitForSelector('#result');
        await at('the result', ['#next-board', '#result-close']);
      }
    }
    t.diagnostic(`card width at a trick under way: ${sizes.join('; ')}`);
    assert.deepEqual(problems, {}, `${width}×${height}: every card in reach, nothing wider than the screen, no small text`);
    assert.deepEqual(errors.map(String), []);
    await context.close();
  });
}

test('a 1366×768 laptop gets cards at least as large as a 768×1024 tablet', () => {
  for (const big of ['', ' big']) {
    const laptop = cardWidth.get(`1366x768${big}`);
    const tablet = cardWidth.get(`768x1024${big}`);
    assert.ok(laptop && tablet && laptop >= tablet, `laptop ${laptop} px, tablet ${tablet} px${big}`);
  }
});
