// A stand-in server for the page's own tests: serves web-client/ over HTTP and plays scripted
// protocol messages over a mocked WebSocket (playwright's routeWebSocket). It checks what the
// page itself does — layout, reconnection, refusals — where the real server is not needed;
// the games themselves are tested against the real `paiju serve` (see the other test files).

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { before, after } from 'node:test';
import { webRoot, launchBrowser } from './harness.js';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.png': 'image/png' };

/** Serves web-client/ as it is, on a free loopback port. */
export function staticServer() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(webRoot, path === '/' ? 'index.html' : path);
    if (!file.startsWith(webRoot) || file.includes('node_modules') || file.includes('/tests/')) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[/** @type {keyof TYPES} */ (extname(file))] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/**
 * For a test file on scripted tables: serves web-client/ and starts Chromium before the file's
 * tests, stops both after them. Read `mock.server` and `mock.browser` in the tests.
 */
export function mockServerAndBrowser() {
  /** @type {{ server: { url: string, close: () => Promise<unknown> }, browser: import('playwright-core').Browser }} */
  const mock = /** @type {any} */ ({});
  before(async () => {
    mock.server = /** @type {any} */ (await staticServer());
    mock.browser = await launchBrowser();
  });
  after(async () => {
    await mock.browser?.close();
    await mock.server?.close();
  });
  return mock;
}

/**
 * A table the mock serves: the welcome, and a function that gives the snapshot for a hello.
 * `onHello` (optional) answers a hello itself instead (`n`: how many hellos came before it).
 * `deaf` (optional): while it returns true, pings go unanswered (a line that died silently).
 * `onOther` (optional): any other message the page sends (e.g. `auto`).
 * @typedef {{ welcome: object, snapshot: () => object, onHello?: (msg: any, ws: any, n: number) => void, onAct?: (msg: any, ws: any) => void, onOther?: (msg: any, ws: any) => void, deaf?: () => boolean, summary?: object }} MockTable
 */

/**
 * Routes /api/tables/{id} and /ws/{id} of a page to a mock table. Returns the live sockets.
 * @param {import('playwright-core').Page} page @param {string} id @param {MockTable} table
 */
export async function mockTable(page, id, table) {
  /** @type {any[]} */
  const sockets = [];
  /** @type {any[]} */
  const received = [];
  await page.routeWebSocket(new RegExp(`/ws/${id}$`), (ws) => {
    sockets.push(ws);
    ws.onMessage((text) => {
      const msg = JSON.parse(String(text));
      received.push(msg);
      if (msg.type === 'hello') {
        const n = received.filter((m) => m.type === 'hello').length - 1;
        if (table.onHello) table.onHello(msg, ws, n);
        else {
          ws.send(JSON.stringify(table.welcome));
          ws.send(JSON.stringify(table.snapshot()));
        }
      } else if (msg.type === 'act') {
        table.onAct?.(msg, ws);
      } else if (msg.type === 'ping') {
        // A dead line answers nothing (`table.deaf`): the page must notice by itself.
        if (!table.deaf?.()) ws.send(JSON.stringify({ type: 'pong' }));
      } else {
        table.onOther?.(msg, ws);
      }
    });
  });
  return { sockets, received };
}
