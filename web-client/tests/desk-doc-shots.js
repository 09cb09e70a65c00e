// Development aid (not a test): the example session of docs/referee.md, "Replaying and ruling
// from the browser", played against the real server and photographed into docs/img/desk-*.png.
// node tests/desk-doc-shots.js   (PAIJU_BIN as for the tests)
//
// A player (王阿姨, North) plays an 80分 board with three computers; after a few tricks South
// complains that East knocked on the table. The referee opens the desk, officiates the table,
// puts it under review, replays the last trick, rules a penalty of 40 against East with the
// reason, and ends the review; the player sees why at each step. Then a 够级 game in the viewer.

import { join } from 'node:path';
import { startServer, launchBrowser, newPage, repoRoot, until } from './harness.js';
import { openTableFromLobby, waitMyTurnOrOver, shengjiTurn } from './play.js';

const TOKEN = '7c1e4b9a2d5f8e3b6a9c2f5d8e1b4a7c';
const out = (/** @type {string} */ name) => join(repoRoot, 'docs', 'img', `${name}.png`);

const server = await startServer({ extra: ['--referee-token', TOKEN] });
const browser = await launchBrowser();
try {
  const player = await newPage(browser, { width: 1024, height: 768 });
  const id = await openTableFromLobby(player.page, server.url, 'shengji', '王阿姨');
  // A few tricks through the page.
  for (;;) {
    const m = await waitMyTurnOrOver(player.page);
    if (m.view.trick >= 5 && m.view.phase === 'play' && m.view.plays.length === 0) break;
    await shengjiTurn(player.page, m.view);
  }

  const ref = await newPage(browser, { width: 1280, height: 800 });
  const p = ref.page;
  await p.goto(`${server.url}/#/referee`);
  await p.fill('#referee-token', TOKEN);
  await p.click('#use-token');
  await p.waitForSelector(`[data-officiate="${id}"]`);
  await p.screenshot({ path: out('desk-1-tables') });

  await p.click(`[data-officiate="${id}"]`);
  await p.waitForSelector('.ref-board [data-hand]');
  await p.fill('#review-reason', '南家申诉：东家出牌时敲桌子');
  await p.click('#review-on');
  await p.waitForSelector('#review-off');
  await p.evaluate(() => scrollTo(0, 0));
  await p.screenshot({ path: out('desk-2-review') });

  await player.page.waitForSelector('#review-banner');
  await player.page.screenshot({ path: out('desk-3-player-review') });

  // The last trick, step by step, with the engine's verdicts.
  await p.click('#open-replay');
  await p.waitForSelector('.replay-body[aria-busy="false"]');
  await p.keyboard.press('End');
  await p.keyboard.press('PageUp');
  await p.keyboard.press('ArrowRight');
  await p.keyboard.press('ArrowRight');
  await p.waitForSelector('.replay-body[aria-busy="false"]');
  await p.waitForSelector('#verdict[data-legal]');
  await p.screenshot({ path: out('desk-4-replay') });

  // Back at the table: the ruling, confirmed once.
  await p.click('#back-desk');
  await p.waitForSelector('.ref-board [data-hand]');
  await p.check('input[name="ruling-seat"][value="1"]');
  await p.check('input[name="ruling-kind"][value="penalty"]');
  await p.fill('#ruling-points', '40');
  await p.fill('#ruling-reason', '出牌时敲桌子示意同伴（南家申诉，东家承认）');
  await p.click('#ruling-submit');
  await p.locator('#ruling-h').evaluate((el) => el.scrollIntoView());
  await p.screenshot({ path: out('desk-5-ruling') });
  await p.click('#ruling-yes');
  await p.waitForSelector('#ruling-ok:not([hidden])');
  await p.click('#review-off');
  await player.page.waitForSelector('[data-notice="referee"]');
  await player.page.waitForSelector('#review-banner', { state: 'detached' });
  await player.page.screenshot({ path: out('desk-6-player-notice') });

  // The viewer on a phone, at the ruling.
  const phone = await newPage(browser, { width: 390, height: 844 });
  await phone.context.addInitScript((t) => sessionStorage.setItem('paiju.referee', t), TOKEN);
  const steps = (await (await fetch(`${server.url}/api/tables/${id}/replay`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).steps;
  const ruling = steps.findIndex((/** @type {any} */ s) => s.actor === 'referee') + 1;
  await phone.page.goto(`${server.url}/#/t/${id}/replay/${ruling}`);
  await phone.page.waitForSelector('#verdict[data-legal]');
  await phone.page.screenshot({ path: out('desk-7-replay-phone') });

  // A 够级 game of computers, in the viewer.
  const res = await fetch(`${server.url}/api/tables`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ game: 'gouji', bots: [0, 1, 2, 3, 4, 5] }) });
  const gouji = await res.json();
  await until(async () => (await (await fetch(`${server.url}/api/tables/${gouji.id}`)).json()).state === 'over', 150_000, 'the 够级 game');
  const g = await newPage(browser, { width: 1280, height: 800 });
  await g.page.goto(`${server.url}/#/t/${gouji.id}/replay/200`);
  await g.page.waitForSelector('.replay-body[aria-busy="false"]');
  await g.page.keyboard.press('Shift+ArrowRight');
  await g.page.waitForSelector('#verdict[data-legal]');
  await g.page.screenshot({ path: out('desk-8-replay-gouji') });
  console.log('written docs/img/desk-*.png');
} finally {
  await browser.close();
  await server.stop();
}
