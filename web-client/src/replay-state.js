// @ts-check
//! The table after step k of a replay, from the replay alone: its `deal` (every hand as dealt,
//! in the engine's display order) and the engine's announced events, step by step. The practice
//! page has no `…/replay?at=N` to ask (a set's tables are not public while it runs; the set
//! gives a player the replay JSON of a board they have played, and nothing more), so the viewer
//! draws each step from this.
//!
//! No rule is judged here (docs/web-client.md, "The page asks the engine"): a card leaves a hand
//! when the engine announced it played, led, beat, burned or buried; a trick ends where the
//! engine announced `trick_won`, won by the seat it named; the defenders' points are the last
//! ones it announced; 够级 places, 开点, 点 and 烧 are the events that said so. Whose move comes
//! next is the next step's seat, read from the log. What the engine alone could say (80分's
//! `winning` mid-trick) is left out. `tests/replay-state.test.js` holds it equal to the server's
//! own `?at=N` state at every step of whole boards of both games.

/** The engines' seat names, in seat order. */
const SEATS = { shengji: ['N', 'E', 'S', 'W'], gouji: ['A1', 'B1', 'A2', 'B2', 'A3', 'B3'] };

/** @param {string} game @param {unknown} seat */
function seatIndex(game, seat) {
  if (typeof seat === 'number') return seat;
  const i = (game === 'gouji' ? SEATS.gouji : SEATS.shengji).indexOf(String(seat));
  return i < 0 ? 0 : i;
}

/** `hand` less one copy of each of `cards` (the order of what stays unchanged). @param {string[]} hand @param {string[]} cards */
function without(hand, cards) {
  const out = [...hand];
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i >= 0) out.splice(i, 1);
  }
  return out;
}

/**
 * The view after the first `k` steps of replay `r`, shaped as the engine's referee view the
 * viewer draws (`fullBoard`): 80分 `hands` by seat, the trick open (`plays`) and the last one won,
 * the defenders' points, the kitty once buried; 够级 `players` with their hands, places and
 * marks, and the top set. `null` when the replay has no deal.
 * @param {{ game: string, deal: any, steps: { seat: string, seat_index: number, events: any[] }[] }} r
 * @param {number} k
 * @returns {{ view: any } | null}
 */
export function stateAt(r, k) {
  if (!r.deal || !r.deal.hands) return null;
  const steps = r.steps.slice(0, Math.max(0, Math.min(k, r.steps.length)));
  const next = r.steps[k] ?? null;
  return { view: r.game === 'gouji' ? goujiView(r.deal, steps, next) : shengjiView(r.deal, steps, next) };
}

/**
 * @param {any} deal @param {{ events: any[] }[]} steps @param {{ seat: string } | null} next
 */
function shengjiView(deal, steps, next) {
  const hands = SEATS.shengji.map((s) => [...(deal.hands[s] ?? [])]);
  /** @type {{ seat: string, cards: string[] }[]} */
  let plays = [];
  /** @type {{ trick: number, plays: { seat: string, cards: string[] }[], winner: string, points: number } | null} */
  let lastTrick = null;
  let trick = 1;
  let defenders = 0;
  /** @type {string[] | null} */
  let kitty = null;
  let over = false;
  for (const step of steps) {
    for (const ev of step.events) {
      if (!ev || typeof ev !== 'object') continue;
      switch (ev.type) {
        case 'buried':
          if (Array.isArray(ev.cards)) {
            const i = seatIndex('shengji', ev.seat);
            hands[i] = without(hands[i], ev.cards);
            kitty = [...ev.cards];
          }
          break;
        case 'played': {
          const i = seatIndex('shengji', ev.seat);
          hands[i] = without(hands[i], ev.cards ?? []);
          if (ev.lead) plays = [];
          plays.push({ seat: ev.seat, cards: [...(ev.cards ?? [])] });
          if (typeof ev.trick === 'number') trick = ev.trick;
          break;
        }
        case 'trick_won':
          lastTrick = { trick: ev.trick, plays, winner: ev.winner, points: ev.points };
          plays = [];
          trick = ev.trick + 1;
          if (typeof ev.defenders === 'number') defenders = ev.defenders;
          break;
        case 'penalty':
        case 'kitty_captured':
          if (typeof ev.defenders === 'number') defenders = ev.defenders;
          break;
        case 'board_over':
          over = true;
          if (Array.isArray(ev.kitty)) kitty = ev.kitty;
          if (lastTrick) trick = lastTrick.trick;
          break;
      }
    }
  }
  return {
    viewer: 'referee',
    declarer: deal.declarer,
    level: deal.level,
    trump: deal.trump,
    phase: over ? 'over' : kitty ? 'play' : 'bury',
    to_act: over ? null : next?.seat ?? null,
    hands,
    hand_sizes: hands.map((x) => x.length),
    kitty,
    trick,
    plays,
    last_trick: lastTrick,
    defenders,
  };
}

/**
 * @param {any} deal @param {{ events: any[] }[]} steps @param {{ seat: string } | null} next
 */
function goujiView(deal, steps, next) {
  const players = SEATS.gouji.map((seat) => ({
    seat,
    hand: [...(deal.hands[seat] ?? [])],
    status: 'playing',
    /** @type {string | null} */
    place: null,
    opened: false,
    marked: false,
    burning: false,
  }));
  /** @type {{ owner: string, cards: string[], gouji: boolean } | null} */
  let top = null;
  let freePlay = false;
  /** @type {string[]} */
  const finish = [];
  /** @type {{ a: number, b: number } | null} */
  let score = null;
  let over = false;
  for (const step of steps) {
    for (const ev of step.events) {
      if (!ev || typeof ev !== 'object') continue;
      const p = ev.seat !== undefined ? players[seatIndex('gouji', ev.seat)] : null;
      switch (ev.type) {
        case 'led':
        case 'beat':
        case 'burned':
          if (p) {
            p.hand = without(p.hand, ev.cards ?? []);
            top = { owner: ev.seat, cards: [...(ev.cards ?? [])], gouji: !!ev.gouji };
          }
          break;
        case 'opened':
          if (p) p.opened = true;
          break;
        case 'marked':
          if (p) p.marked = true;
          break;
        case 'burn_stood':
          if (p) p.burning = true;
          break;
        case 'burn_ended':
          if (p) p.burning = false;
          break;
        case 'burn_failed':
          // The burner's cards are void; the burned set is the top set again.
          if (p) {
            p.hand = [];
            p.burning = false;
            p.status = 'failed';
          }
          top = { owner: ev.owner, cards: [...(ev.restored ?? [])], gouji: false };
          break;
        case 'went_out':
          if (p) {
            p.status = 'out';
            p.place = ev.place;
            p.burning = false;
            finish.push(ev.seat);
          }
          break;
        case 'trick_won':
          top = null;
          break;
        case 'free_play':
          freePlay = true;
          break;
        case 'game_over':
          over = true;
          if (Array.isArray(ev.places)) ev.places.forEach((/** @type {string} */ place, /** @type {number} */ i) => { if (players[i]) players[i].place = place; });
          if (ev.score) score = ev.score;
          break;
      }
    }
  }
  return {
    viewer: 'referee',
    players,
    top,
    turn: over ? null : next?.seat ?? null,
    free_play: freePlay,
    finish,
    score,
  };
}
