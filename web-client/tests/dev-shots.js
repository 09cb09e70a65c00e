// Development aid (not a test): screenshots of the mock tables at the three sizes.
// node tests/dev-shots.js → tests/artifacts/dev-*.png
import { launchBrowser, newPage, shot } from './harness.js';
import { staticServer, mockTable } from './mock.js';
import { shengjiTable, goujiTable } from './fixtures.js';

const server = await staticServer();
const browser = await launchBrowser();
const sizes = { phone: { width: 390, height: 844 }, tablet: { width: 1024, height: 768 }, desktop: { width: 1440, height: 900 } };
for (const [game, table] of [['shengji', shengjiTable], ['gouji', goujiTable]]) {
  for (const [name, size] of Object.entries(sizes)) {
    const { page, context, errors } = await newPage(browser, size);
    await context.addInitScript((seat) => localStorage.setItem('paiju.seat.demo', JSON.stringify({ token: 'x', seat: seat[0], game: seat[1] })), [table.welcome.seat, table.welcome.game]);
    await mockTable(page, 'demo', table);
    await page.goto(`${server.url}/#/t/demo`);
    await page.waitForSelector('#hand');
    if (process.argv.includes('--select')) await page.locator('#hand button').first().click();
    console.log(await shot(page, `dev-${game}-${name}`), errors.map(String));
    await context.close();
  }
}
{
  const { page, context } = await newPage(browser, sizes.tablet);
  await page.route('**/api/tables', (r) => r.fulfill({ json: [] }));
  await page.goto(`${server.url}/`);
  await page.waitForSelector('#create');
  console.log(await shot(page, 'dev-lobby-tablet'));
  await context.close();
}
await browser.close();
await server.close();
