// Development aid (not a test): docs/web-client.md's screenshots of a trick under way at my turn,
// with 大字 on, at each of the matrix's sizes (80分), and 够级 answering a set on the small phone.
// node tests/matrix-shots.js → docs/img/matrix-*.png (in 256 colours: png-small.js)
import { join } from 'node:path';
import { launchBrowser, newPage, repoRoot } from './harness.js';
import { staticServer } from './mock.js';
import { SIZES, scriptedTable, seatBoth, bigText } from './matrix.js';
import { smallPng } from './png-small.js';

const server = await staticServer();
const browser = await launchBrowser();
const shots = [...SIZES.map(([w, h]) => /** @type {const} */ (['shengji', w, h])), /** @type {const} */ (['gouji', 375, 667])];
for (const [game, width, height] of shots) {
  const { page, context, errors } = await newPage(browser, { width, height });
  await seatBoth(context);
  await page.route('**/api/tables', (r) => r.fulfill({ json: [] }));
  const id = game === 'shengji' ? 'm80' : 'mgj';
  await scriptedTable(page, game, id);
  await page.goto(`${server.url}/#/t/${id}`);
  await page.waitForSelector('#hand');
  await bigText(page, true);
  const path = join(repoRoot, 'docs', 'img', `matrix-${game === 'shengji' ? '' : 'gouji-'}${width}x${height}.png`);
  await page.screenshot({ path });
  console.log(path, smallPng(path), errors.map(String));
  await context.close();
}
await browser.close();
await server.close();
