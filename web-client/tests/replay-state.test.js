// The practice page's replays draw each step from the replay alone (`src/replay-state.js`: the
// deal and the engine's announced events), since a set's tables have no public `?at=N`. Here a
// whole 80分 board and a whole 够级 game played by bots alone on a public table are drawn that way
// at every step and compared with the server's own state after the same step (`?at=N`): every
// hand card for card, 80分's trick open and the last one won, the defenders' points, the kitty and
// whose turn; 够级's top set and its owner, places, 开点, 烧 and whose turn. No browser: the module
// is plain JavaScript.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, until } from './harness.js';
import { stateAt } from '../src/replay-state.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

/** A table of bots alone, played to the end: its id and replay. @param {'shengji' | 'gouji'} game */
async function finishedByBots(game) {
  const res = await fetch(`${server.url}/api/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ game, bots: game === 'gouji' ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3] }),
  });
  const table = await res.json();
  await until(async () => (await (await fetch(`${server.url}/api/tables/${table.id}`)).json()).state === 'over', 150_000, `the bots finish the ${game} table`);
  return { id: table.id, replay: await (await fetch(`${server.url}/api/tables/${table.id}/replay`)).json() };
}

/** What the two states are compared on. @param {string} game @param {any} v */
function essentials(game, v) {
  if (game === 'gouji') {
    return {
      hands: v.players.map((/** @type {any} */ p) => [...p.hand].sort()),
      top: v.top ? { owner: v.top.owner, cards: v.top.cards } : null,
      places: v.players.map((/** @type {any} */ p) => p.place ?? null),
      opened: v.players.map((/** @type {any} */ p) => p.opened),
      burning: v.players.map((/** @type {any} */ p) => p.burning),
      status: v.players.map((/** @type {any} */ p) => p.status),
      turn: v.turn ?? null,
    };
  }
  return {
    hands: v.hands,
    plays: v.plays,
    last: v.last_trick ?? null,
    trick: v.trick,
    defenders: v.defenders,
    kitty: v.kitty ? [...v.kitty].sort() : null,
    to_act: v.to_act ?? null,
  };
}

for (const game of /** @type {const} */ (['shengji', 'gouji'])) {
  test(`${game}: every step drawn from the replay equals the server's state`, { timeout: 300_000 }, async () => {
    const { id, replay } = await finishedByBots(game);
    const n = replay.steps.length;
    assert.ok(n > 20, `a whole ${game} played (${n} steps)`);
    // Every step, asked a few at a time.
    const at = Array.from({ length: n + 1 }, (_, k) => k);
    /** @type {any[]} */
    const states = [];
    for (let i = 0; i < at.length; i += 16) {
      const batch = await Promise.all(at.slice(i, i + 16).map(async (k) => (await (await fetch(`${server.url}/api/tables/${id}/replay?at=${k}`)).json()).view));
      states.push(...batch);
    }
    for (let k = 0; k <= n; k++) {
      const mine = stateAt(replay, k);
      assert.ok(mine, 'the replay has its deal');
      assert.deepEqual(essentials(game, mine.view), essentials(game, states[k]), `${game} after step ${k} of ${n}`);
    }
  });
}
