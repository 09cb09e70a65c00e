// Rules live in Rust only (docs/web-client.md, "The page asks the engine"): no file under
// web-client/src re-implements a rule of either game, and the page tells computers from people
// by the protocol's `bot` flag, never by a name. This reads the sources; no browser, no server.
//
// The list names what the page once had and must not grow back: the 够级 set judge
// (gouji-rules.js: 级牌 thresholds, beating, 大花两打一), the 80分 trump order and trump test,
// the 够级 rank values, the kitty size, the name-matching bot test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { webRoot } from './harness.js';

const src = join(webRoot, 'src');
/** The page's own code: every JS file under src/ (the generated samples live in typecheck/). */
const files = readdirSync(src, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.js'));

/** [what, pattern]: a rule the page must not know. */
const FORBIDDEN = [
  ['the 够级 set judge', /\bverdict\s*\(|\bbeats\s*\(|\bisGoujiSet\b|\bshape\s*\(/],
  ['级牌 thresholds', /GOUJI_AT|\{\s*10\s*:\s*5\s*,\s*11\s*:\s*4/],
  ['大花两打一', /two.?for.?one|dropBig|两打一/i],
  ['够级 rank values (2 above A, jokers above 2)', /goujiValue|\brank\s*===\s*2\s*\?\s*15/],
  ['the 80分 trump order', /sortShengji|shengjiKey|sideSuitOrder/],
  ['which 80分 cards are trumps', /\bisTrump\b|shengjiGroup/],
  ['the kitty size', /buryCount|\bBURY_COUNT\b|=== ?8\b/],
  ['telling bots by their name', /isBotName|机器人|\/[^/\n]*\bbot\b[^/\n]*\/i/],
];

test('gouji-rules.js is gone', () => {
  assert.equal(existsSync(join(src, 'gouji-rules.js')), false);
  assert.ok(files.length >= 10, `the sources are found (${files.length})`);
});

for (const [what, pattern] of FORBIDDEN) {
  test(`no file under src/ knows ${what}`, () => {
    const hits = [];
    for (const f of files) {
      const lines = readFileSync(join(src, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        // Comments may name a rule (to say the engine decides it); code may not apply it.
        const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '').replace(/\/\*\*.*?\*\//g, '');
        if (pattern.test(code)) hits.push(`${f}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(hits, []);
  });
}
