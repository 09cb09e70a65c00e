// Scripted tables for the mock server: a mid-trick 80分 board and a mid-game 够级 game, as the
// engines' views look on the wire.

const seats4 = ['老王', '电脑', '我', '电脑'].map((name, seat) => ({ seat, name, bot: name === '电脑', connected: true, auto: false }));
const seats6 = ['我', '电脑', '李阿姨', '电脑', '张叔', '电脑'].map((name, seat) => ({ seat, name, bot: name === '电脑', connected: true, auto: false }));

export function welcome(game, seat, seats) {
  return {
    type: 'welcome', protocol: 1, table: 'demo', game, ruleset: game === 'gouji' ? 'zaozhuang-2017' : 'fujian-2024', board: 1,
    role: seat === null ? 'spectator' : 'seat', ...(seat === null ? {} : { seat }), seats, state: 'playing', seq: 12,
    seed_commitment: '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925', deal_algorithm: 'paiju-deal-1', bot_level: 'expert',
  };
}

export const shengjiView = {
  viewer: { seat: 2 }, board: 1, ruleset: { name: 'fujian-2024' }, declarer: 'S', level: '2', trump: 'H', phase: 'play', to_act: 'S',
  hand: ['RJ', 'H2', 'S2', 'HA', 'HK', 'HK', 'H10', 'H5', 'SA', 'SQ', 'SQ', 'SJ', 'S9', 'S5', 'CK', 'C10', 'C8', 'C8', 'C4', 'DA', 'DJ', 'D7', 'D3'],
  hand_sizes: [24, 23, 23, 24], trick: 3, leader: 'E',
  plays: [{ seat: 'E', cards: ['SK'] }, { seat: 'N', cards: ['S10'] }], winning: 'E',
  last_trick: { trick: 2, plays: [{ seat: 'S', cards: ['DK'] }, { seat: 'E', cards: ['D4'] }, { seat: 'N', cards: ['D10'] }, { seat: 'W', cards: ['D6'] }], winner: 'S', points: 20 },
  defenders: 15, timeouts: [0, 0, 0, 0],
  // Issue 13: the point cards the defenders took, the points still out, the trumps at the hand's head.
  defender_point_cards: ['DK', 'D10'], points_left: 160, hand_trumps: 8,
};

export const shengjiTable = {
  welcome: welcome('shengji', 2, seats4),
  snapshot: () => ({ type: 'snapshot', seq: 12, view: shengjiView, to_act: [2], clock: { seats: [2], remaining_ms: 24000, limit_ms: 30000 }, state: 'playing' }),
};

const player = (seat, n, more = {}) => ({
  seat, cards: n > 10 ? { kind: 'more_than', n: 10 } : { kind: 'exact', n }, status: 'playing', place: null,
  has_head: true, opened: false, marked: false, burning: false, passed: false, yielded: false, ...more,
});

export const goujiView = {
  viewer: { seat: 0 }, game: 1, ruleset: { name: 'zaozhuang-2017' },
  hand: ['RJ', 'BJ', 'S2', 'H2', 'D2', 'SA', 'HA', 'SK', 'HK', 'DK', 'CK', 'SQ', 'SJ', 'HJ', 'S10', 'H10', 'D10', 'S9', 'S8', 'H8', 'S7', 'S6', 'H6', 'D6', 'C6', 'S5', 'S4', 'H4'],
  players: [player('A1', 28), player('B1', 31, { passed: true }), player('A2', 22, { passed: true }), player('B2', 7, { opened: true }), player('A3', 19, { passed: true }), player('B3', 25)],
  top: { cards: ['SQ', 'HQ', 'DQ'], shape: { base: 12, naturals: 3, twos: 0, small: 0, big: 0 }, owner: 'B2', gouji: true, burn: false },
  turn: 'A1', prompt: { kind: 'respond', may_beat: true, may_yield: true },
  free_play: false, finish: [], score: null, outcome: null, deductions: [0, 0],
};

export const goujiTable = {
  welcome: welcome('gouji', 0, seats6),
  snapshot: () => ({ type: 'snapshot', seq: 40, view: goujiView, to_act: [0], clock: { seats: [0], remaining_ms: 8000, limit_ms: 20000 }, state: 'playing' }),
};

// The largest tables the layout must hold without scrolling the felt: a trick of three 10-card
// plays (a thrown set followed), the declarer's 33 cards while burying, a 10-card top set in 够级.
const ten = (suit) => ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5'].map((r) => suit + r);

export const shengjiBigTrickTable = {
  welcome: welcome('shengji', 2, seats4),
  snapshot: () => ({
    type: 'snapshot', seq: 12, state: 'playing', to_act: [2], clock: { seats: [2], remaining_ms: 24000, limit_ms: 30000 },
    view: {
      ...shengjiView, hand_sizes: [13, 13, 23, 13],
      plays: [{ seat: 'W', cards: ten('C') }, { seat: 'N', cards: ten('D') }, { seat: 'E', cards: ten('S') }], leader: 'W', winning: 'W',
    },
  }),
};

export const shengjiBuryTable = {
  welcome: welcome('shengji', 2, seats4),
  snapshot: () => ({
    type: 'snapshot', seq: 12, state: 'playing', to_act: [2], clock: { seats: [2], remaining_ms: 24000, limit_ms: 30000 },
    view: {
      ...shengjiView, phase: 'bury', trick: 0, leader: null, plays: [], winning: null, last_trick: null, defenders: 0, hand_sizes: [25, 25, 33, 25],
      hand: ['RJ', 'BJ', 'H2', 'S2', 'HA', 'HK', 'HK', 'HQ', 'H10', 'H5', 'H3', 'SA', 'SK', 'SQ', 'SQ', 'SJ', 'S9', 'S5', 'S3', 'CA', 'CK', 'C10', 'C9', 'C8', 'C8', 'C4', 'C3', 'DA', 'DJ', 'D8', 'D7', 'D5', 'D3'], hand_trumps: 11,
    },
  }),
};

export const goujiBigTopTable = {
  welcome: welcome('gouji', 0, seats6),
  snapshot: () => ({
    type: 'snapshot', seq: 40, state: 'playing', to_act: [0], clock: { seats: [0], remaining_ms: 8000, limit_ms: 20000 },
    view: {
      ...goujiView, hand: [...goujiView.hand, 'S3', 'H3'],
      top: { cards: ['SK', 'HK', 'DK', 'CK', 'SK', 'HK', 'S2', 'H2', 'BJ', 'RJ'], shape: { base: 13, naturals: 6, twos: 2, small: 1, big: 1 }, owner: 'B2', gouji: true, burn: false },
    },
  }),
};
