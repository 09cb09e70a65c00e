// The browser tests' tools: the real `paiju serve` on a free loopback port with a fresh database,
// Debian's Chromium driven by playwright-core, screenshots and axe-core.
//
// PAIJU_BIN: the server binary (default ../target/debug/paiju from the repository root, i.e.
// CARGO_TARGET_DIR's debug build when that is set). CHROMIUM: the browser (default
// /usr/bin/chromium).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const webRoot = resolve(here, '..');
export const repoRoot = resolve(webRoot, '..');
export const artifacts = join(here, 'artifacts');

/** The paiju binary to test. */
export function paijuBin() {
  if (process.env.PAIJU_BIN) return resolve(process.env.PAIJU_BIN);
  const target = process.env.CARGO_TARGET_DIR ? resolve(repoRoot, process.env.CARGO_TARGET_DIR) : join(repoRoot, 'target');
  return join(target, 'debug', 'paiju');
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => res(port));
    });
  });
}

/**
 * Starts `paiju serve` with a fresh database in a temp dir. Resolves once it answers HTTP.
 * Extra arguments (e.g. a clock scale) come from PAIJU_SERVE_ARGS and `extra`.
 * @param {{ extra?: string[] }} [opts]
 */
export async function startServer(opts = {}) {
  const bin = paijuBin();
  if (!existsSync(bin)) throw new Error(`paiju binary not found at ${bin}: build it with cargo build -p server, or set PAIJU_BIN`);
  const dir = mkdtempSync(join(tmpdir(), 'paiju-web-'));
  const port = await freePort();
  const args = [
    'serve',
    '--listen', `127.0.0.1:${port}`,
    '--db', join(dir, 'paiju.db'),
    '--web', webRoot,
    // Bots answer at once: the tests wait for the page, not for a bot's thinking pause.
    '--bot-delay-ms', process.env.PAIJU_BOT_DELAY_MS ?? '20',
    // A test makes the practice sets it plays (the day's would play their reference runs beside it).
    '--practice-daily', 'off',
    ...(process.env.PAIJU_SERVE_ARGS ? process.env.PAIJU_SERVE_ARGS.split(/\s+/).filter(Boolean) : []),
    ...(opts.extra ?? []),
  ];
  const child = spawn(bin, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? 'warn' } });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`paiju serve exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/api/tables`);
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`paiju serve did not answer on ${url}:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Debian's Chromium, headless. A browser that dies while starting (seen once on a loaded CI
 * machine: SIGSEGV before its first page, no page of ours loaded) is started once more; a
 * second failure fails the test.
 */
export async function launchBrowser() {
  const launch = () => chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--autoplay-policy=no-user-gesture-required'],
  });
  try {
    return await launch();
  } catch (e) {
    console.error(`Chromium did not start (${String(e).split('\n')[0]}); starting it once more`);
    return launch();
  }
}

/**
 * A page that records every WebSocket the app opens (so a test can kill one from outside the
 * app's own code) and every frame the app sends (`window.__sent`), and fails the test on any
 * uncaught page error. A socket can be made to fail silently, as a phone's Wi-Fi does: `mute`
 * (nothing goes out, nothing comes in, no close) or `hold` (what the page sends waits until
 * released; what the server sends arrives) — see `lineMode`.
 * @param {import('playwright-core').Browser} browser
 * @param {{ width?: number, height?: number }} [size]
 */
export async function newPage(browser, size = { width: 1024, height: 768 }) {
  const context = await browser.newContext({ viewport: { width: size.width ?? 1024, height: size.height ?? 768 }, locale: 'zh-CN' });
  await context.addInitScript(() => {
    const Native = window.WebSocket;
    /** @type {WebSocket[]} */
    const sockets = [];
    /** @type {{ socket: number, mode: string, frame: any }[]} */
    const sent = [];
    // @ts-ignore
    window.__sockets = sockets;
    // @ts-ignore
    window.__sent = sent;
    // @ts-ignore
    window.WebSocket = class extends Native {
      /** @param {any[]} args */
      constructor(...args) {
        // @ts-ignore
        super(...args);
        sockets.push(this);
        /** 'live', 'mute' or 'hold'. */
        this.__mode = 'live';
        /** @type {any[]} */
        this.__held = [];
        // Registered before the app's onmessage, so a muted line swallows what arrives.
        this.addEventListener('message', (e) => {
          if (this.__mode === 'mute') e.stopImmediatePropagation();
        });
      }

      /** @param {any} data */
      send(data) {
        let frame;
        try {
          frame = JSON.parse(String(data));
        } catch {
          frame = String(data);
        }
        sent.push({ socket: sockets.indexOf(this), mode: this.__mode, frame });
        if (this.__mode === 'mute') return;
        if (this.__mode === 'hold') {
          this.__held.push(data);
          return;
        }
        super.send(data);
      }

      /** Sends what was held, in order (the line is back). */
      __flush() {
        for (const d of this.__held.splice(0)) super.send(d);
      }
    };
  });
  const page = await context.newPage();
  /** @type {Error[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  return { page, context, errors };
}

/** Kills the page's live table socket from outside the app. @param {import('playwright-core').Page} page */
export function killSocket(page) {
  return page.evaluate(() => {
    // @ts-ignore
    const live = window.__sockets.filter((s) => s.readyState === 1);
    for (const s of live) s.close(4998, 'killed by test');
    return live.length;
  });
}

/**
 * Sets how the page's live table socket behaves: 'mute' (a dead line that nobody noticed yet),
 * 'hold' (frames the page sends wait), or 'live' again (held frames go out then, in order).
 * @param {import('playwright-core').Page} page @param {'live' | 'mute' | 'hold'} mode
 */
export function lineMode(page, mode) {
  return page.evaluate((mode) => {
    // @ts-ignore
    const live = window.__sockets.filter((s) => s.readyState === 1);
    for (const s of live) {
      s.__mode = mode;
      if (mode === 'live') s.__flush();
    }
    return live.length;
  }, mode);
}

/** The `act` frames the page has tried to send (muted or held ones included). @param {import('playwright-core').Page} page */
export function sentActs(page) {
  // @ts-ignore
  return page.evaluate(() => window.__sent.filter((s) => s.frame?.type === 'act'));
}

/** Saves a screenshot under tests/artifacts/. @param {import('playwright-core').Page} page @param {string} name */
export async function shot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** Runs axe-core on the page; returns the serious and critical violations. @param {import('playwright-core').Page} page */
export async function axeViolations(page) {
  const source = readFileSync(join(webRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(source);
  const results = await page.evaluate(async () => {
    // @ts-ignore
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')) }));
  });
  return results.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Every text node's computed font size below `min` px (for "no text under 18 px").
 * @param {import('playwright-core').Page} page @param {number} min
 */
export function smallText(page, min) {
  return page.evaluate((min) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent || !n.textContent.trim()) continue;
      const el = /** @type {Element} */ (n.parentElement);
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const size = parseFloat(style.fontSize);
      if (size < min) out.push({ text: n.textContent.trim().slice(0, 30), size });
    }
    return out;
  }, min);
}

/**
 * Every visible control (button, input, select, link) smaller than `min` px either way.
 * @param {import('playwright-core').Page} page @param {number} min
 */
export function smallTargets(page, min) {
  return page.evaluate((min) => {
    const out = [];
    for (const el of document.querySelectorAll('button, input:not([type=radio]):not([type=checkbox]), select, a[href], label:has(input)')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.width < min - 0.5 || r.height < min - 0.5) out.push({ what: el.outerHTML.slice(0, 80), w: Math.round(r.width), h: Math.round(r.height) });
    }
    return out;
  }, min);
}

/** Polls `f` until it returns a truthy value. @template T @param {() => Promise<T>} f @param {number} ms @param {string} what */
export async function until(f, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until the clock in the dock has counted down a second: the page has lived on (its timers
 * ran, it redrew) since the call, so whatever it would take away by itself it would have.
 * @param {import('playwright-core').Page} page
 */
export async function clockMoves(page) {
  const now = await page.textContent('.dock [data-clock]', { timeout: 2000 });
  await page.waitForFunction((now) => document.querySelector('.dock [data-clock]')?.textContent !== now, now, { timeout: 2500 });
}

/**
 * What is wrong with the table's layout at the current size: a seat or any card of the current
 * trick (and its marks) outside the viewport or under the dock, a felt or page that would need
 * scrolling, a hand card without a 48×48 px visible patch to tap, 出牌 out of reach. With
 * `dockMayScroll` the hand may scroll inside the dock (the phone's last resort). Empty when fine.
 * @param {import('playwright-core').Page} page
 */
export function layoutProblems(page, dockMayScroll = false) {
  return page.evaluate((dockMayScroll) => {
    const out = [];
    const W = window.innerWidth;
    const H = window.innerHeight;
    const dock = document.querySelector('.dock');
    const dockTop = dock ? dock.getBoundingClientRect().top : H;
    const describe = (/** @type {Element} */ el) => `${el.className} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 20) ?? ''}`;
    const felt = document.querySelectorAll('.felt .seat, .felt .trick .card, .felt .trick .who, .felt .trick .win-tag, .felt .trick .play');
    if (!felt.length) out.push('nothing on the felt');
    for (const el of felt) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) out.push(`outside the viewport: ${describe(el)} ${JSON.stringify(r)}`);
      else if (r.bottom > dockTop + 0.5) out.push(`under the dock: ${describe(el)} bottom ${Math.round(r.bottom)} > dock top ${Math.round(dockTop)}`);
    }
    const scroller = document.scrollingElement;
    if (scroller && scroller.scrollHeight > H + 1) out.push(`the page scrolls: ${scroller.scrollHeight} > ${H}`);
    if (dock && !dockMayScroll && dock.scrollHeight > dock.clientHeight + 1) out.push(`the dock scrolls: ${dock.scrollHeight} > ${dock.clientHeight}`);
    // Hit-test: the point is this control (not covered by a neighbour, the buttons or the edge).
    const hits = (/** @type {Element} */ el, /** @type {number} */ x, /** @type {number} */ y) => {
      if (x < 0 || y < 0 || x >= W || y >= H) return false;
      const at = document.elementFromPoint(x, y);
      return !!at && (at === el || el.contains(at));
    };
    for (const el of document.querySelectorAll('#hand button')) {
      if (dockMayScroll) el.scrollIntoView({ block: 'nearest' });
      const r = el.getBoundingClientRect();
      for (const [x, y] of [[r.left + 4, r.top + 4], [r.left + 44, r.top + 44]]) {
        if (!hits(el, x, y)) {
          const at = document.elementFromPoint(x, y);
          out.push(`hand card without a 48 px patch to tap: ${describe(el)} (at ${Math.round(x)},${Math.round(y)}: ${at ? describe(at) : 'nothing'})`);
          break;
        }
      }
    }
    const play = document.querySelector('#play');
    if (play) {
      const r = play.getBoundingClientRect();
      if (!hits(play, r.left + r.width / 2, r.top + r.height / 2)) out.push('出牌 out of reach');
    }
    return out;
  }, dockMayScroll);
}

/**
 * For a test file that plays against the real server: starts `paiju serve` and Chromium before
 * the file's tests and stops both after them. Read `live.server` and `live.browser` in the tests.
 */
export function liveServerAndBrowser(/** @type {{ extra?: string[] }} */ opts = {}) {
  /** @type {{ server: Awaited<ReturnType<typeof startServer>>, browser: import('playwright-core').Browser }} */
  const live = /** @type {any} */ ({});
  before(async () => {
    live.server = await startServer(opts);
    live.browser = await launchBrowser();
  });
  after(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
  return live;
}

/**
 * A director's call to the live server (the events' HTTP API, `Authorization: Bearer token`):
 * its JSON, the test failing on any refusal.
 * @param {{ server: { url: string } }} live @param {string} token
 */
export function directorCaller(live, token) {
  /** @param {string} method @param {string} path @param {unknown} [body] */
  return async (method, path, body) => {
    const res = await fetch(`${live.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(data)}`);
    return data;
  };
}
