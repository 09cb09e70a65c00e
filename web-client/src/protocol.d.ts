// paiju wire types (protocol version 1), declared for the web client.
//
// These mirror `protocol/src/lib.rs` (the envelope) and the engines' JSON (`rules::shengji`,
// `rules::gouji`: actions, events, views). They are checked against the server's real serde
// output: a Rust test (`protocol/tests/web_client_types.rs`) writes `protocol-samples.js`, every
// message and view as serde prints it, each annotated with its type here; `tsc --checkJs` then
// fails on any field, variant or type that does not match. See docs/web-client.md.

/** Seat index in the game's seat order (80分 0 N, 1 E, 2 S, 3 W; 够级 0 A1 … 5 B3). */
export type SeatIndex = number;

export type GameName = 'shengji' | 'gouji';

// ---- Lobby (HTTP) ---------------------------------------------------------------------------

export interface CreateTable {
  game: string;
  ruleset?: string;
  seed?: string;
  board?: number;
  bots?: SeatIndex[];
}

export type TableState = 'waiting' | 'playing' | 'over' | 'closed';

export interface SeatInfo {
  seat: SeatIndex;
  name: string | null;
  bot: boolean;
  connected: boolean;
  auto: boolean;
}

export interface TableSummary {
  id: string;
  game: string;
  ruleset: string;
  board: number;
  state: TableState;
  seats: SeatInfo[];
  spectators: number;
  seq: number;
  seed_commitment: string;
  deal_algorithm: string;
  seed?: string;
}

export interface JoinSeat {
  seat: SeatIndex;
  name: string;
}

export interface Joined {
  table: string;
  seat: SeatIndex;
  token: string;
}

export interface LeaveSeat {
  token: string;
}

export interface Problem {
  code: string;
  zh: string;
  en: string;
}

// ---- WebSocket ------------------------------------------------------------------------------

export type ClientIn =
  | { type: 'hello'; token?: string; last_seq?: number }
  | { type: 'act'; id: number; action: unknown; seat?: SeatIndex }
  | { type: 'resync' }
  | { type: 'ping'; nonce?: number };

export type Role = 'seat' | 'spectator' | 'referee';
export type Actor = 'player' | 'bot' | 'clock' | 'auto' | 'referee';

export interface Clock {
  seats: SeatIndex[];
  remaining_ms: number;
  limit_ms: number;
}

export interface Welcome {
  type: 'welcome';
  protocol: number;
  table: string;
  game: string;
  ruleset: string;
  board: number;
  role: Role;
  seat?: SeatIndex;
  seats: SeatInfo[];
  state: TableState;
  seq: number;
  seed_commitment: string;
  deal_algorithm: string;
  seed?: string;
}

export interface Snapshot {
  type: 'snapshot';
  seq: number;
  view: unknown;
  to_act: SeatIndex[];
  clock?: Clock;
  state: TableState;
}

export interface Events {
  type: 'events';
  seq: number;
  seat: SeatIndex;
  by: Actor;
  events: unknown[];
  view?: unknown;
  to_act: SeatIndex[];
  clock?: Clock;
  state: TableState;
}

export type ClientOut =
  | Welcome
  | Snapshot
  | Events
  | { type: 'ack'; id: number; seq: number }
  | ({ type: 'rejected'; id: number } & Problem)
  | ({ type: 'error' } & Problem)
  | { type: 'seats'; seats: SeatInfo[] }
  | { type: 'pong'; nonce?: number };

// ---- The engines' JSON (carried as `view`, `events[]`, `action`) ------------------------------

/** A card in the notation of the rules: `S10`, `HA`, `C2`, `BJ` 小王, `RJ` 大王. */
export type Card = string;
/** The viewer a view was cut for (rules::Viewer). */
export type Viewer = { seat: number } | 'spectator' | 'referee';
/** A ruleset with its options; the client reads only the name. */
export type RulesetJson = { name: string } & Record<string, unknown>;

// 80分 (rules::shengji)

export type ShengjiSeat = 'N' | 'E' | 'S' | 'W';
export type ShengjiPhase = 'bury' | 'play' | 'choose' | 'over';
export interface SeatPlay { seat: ShengjiSeat; cards: Card[] }
export interface TrickRecord { trick: number; plays: SeatPlay[]; winner: ShengjiSeat; points: number }

export interface ShengjiView {
  viewer: Viewer;
  board: number;
  ruleset: RulesetJson;
  declarer: ShengjiSeat;
  /** The level's rank symbol: "2"…"10", "J", "Q", "K", "A". */
  level: string;
  /** "S" | "H" | "D" | "C", or "NT" (无主). */
  trump: string;
  phase: ShengjiPhase;
  to_act: ShengjiSeat | null;
  hand?: Card[];
  hands?: [Card[], Card[], Card[], Card[]];
  hand_sizes: [number, number, number, number];
  kitty?: Card[];
  trick: number;
  leader: ShengjiSeat;
  plays: SeatPlay[];
  /** Who is winning the current trick so far. */
  winning?: ShengjiSeat;
  last_trick?: TrickRecord;
  /** Every finished trick: once the board is over (review), or for a referee. */
  tricks?: TrickRecord[];
  choice?: { chooser: ShengjiSeat; single: Card[]; pair: Card[] };
  defenders: number;
  timeouts: [number, number, number, number];
  result?: number;
}

export type ShengjiAction =
  | { type: 'bury'; cards: Card[] }
  | { type: 'play'; cards: Card[] }
  | { type: 'choose'; unit: 'single' | 'pair' }
  | { type: 'timeout' }
  | { type: 'penalty'; points: number }
  | { type: 'end_board' };

export type ShengjiOffence = 'failed_throw' | 'timeout' | 'ruling' | 'board_ended';

export type ShengjiEvent =
  | { type: 'buried'; seat: ShengjiSeat; cards?: Card[]; count: number; auto?: boolean }
  | { type: 'played'; seat: ShengjiSeat; trick: number; cards: Card[]; lead: boolean; auto?: boolean }
  | {
      type: 'throw_failed'; seat: ShengjiSeat; trick: number; attempt: Card[];
      blocked: { cards: Card[]; by: ShengjiSeat[] }[]; penalty: number;
      forced?: Card[]; choices?: [Card[], Card[]]; chooser?: ShengjiSeat;
    }
  | { type: 'chosen'; seat: ShengjiSeat; unit: 'single' | 'pair'; cards: Card[]; auto?: boolean }
  | { type: 'trick_won'; trick: number; winner: ShengjiSeat; points: number; to_defenders: boolean; defenders: number }
  | { type: 'kitty_captured'; seat: ShengjiSeat; kitty: Card[]; points: number; multiplier: number; gain: number; defenders: number }
  | { type: 'warning'; seat: ShengjiSeat; reason: ShengjiOffence }
  | { type: 'penalty'; seat: ShengjiSeat; reason: ShengjiOffence; points: number; delta: number; defenders: number }
  | { type: 'board_over'; result: number; kitty: Card[]; defender_tricks: number; by_ruling?: boolean };

// 够级 (rules::gouji)

export type GoujiSeat = 'A1' | 'B1' | 'A2' | 'B2' | 'A3' | 'B3';
export type Place = 'first' | 'second' | 'third' | 'fourth' | 'second_last' | 'last';
export type CardCount = { kind: 'exact'; n: number } | { kind: 'more_than'; n: number };
export interface GoujiShape { base: number; naturals: number; twos: number; small: number; big: number }
export type Outcome = 'places' | { sweep: { team: 'a' | 'b' } } | { forfeit: { team: 'a' | 'b' } };

export interface GoujiPlayer {
  seat: GoujiSeat;
  cards: CardCount;
  status: 'playing' | 'out' | 'failed';
  place: Place | null;
  has_head: boolean;
  opened: boolean;
  marked: boolean;
  burning: boolean;
  passed: boolean;
  yielded: boolean;
  hand: Card[] | null;
}

export type GoujiPrompt =
  | { kind: 'lead'; joker_required: boolean }
  | { kind: 'respond'; may_beat: boolean; may_yield: boolean }
  | { kind: 'burn_offer'; queue: GoujiSeat[] };

export interface GoujiView {
  viewer: Viewer;
  game: number;
  ruleset: RulesetJson;
  hand: Card[] | null;
  players: GoujiPlayer[];
  top: { cards: Card[]; shape: GoujiShape; owner: GoujiSeat; gouji: boolean; burn: boolean } | null;
  turn: GoujiSeat | null;
  prompt: GoujiPrompt | null;
  free_play: boolean;
  finish: GoujiSeat[];
  score: { a: number; b: number } | null;
  outcome: Outcome | null;
  deductions: [number, number];
}

export type GoujiRuling = 'warning' | 'deduction' | 'forfeit';
export type GoujiOffence =
  | 'signals' | 'peeking_folded' | 'leaving_seat' | 'wrong_card_count'
  | 'wrong_count_answer' | 'cheating' | 'refusing_referee' | 'other';

export type GoujiAction =
  | { type: 'play'; cards: Card[] }
  | { type: 'pass' }
  | { type: 'yield' }
  | { type: 'burn'; cards: Card[] }
  | { type: 'decline' }
  | { type: 'ask_count' }
  | { type: 'timeout' }
  | { type: 'ruling'; ruling: GoujiRuling; offence: GoujiOffence };

export type GoujiEvent =
  | { type: 'led'; seat: GoujiSeat; cards: Card[]; gouji: boolean }
  | { type: 'beat'; seat: GoujiSeat; cards: Card[]; gouji: boolean; unburn: boolean }
  | { type: 'burned'; seat: GoujiSeat; cards: Card[]; gouji: boolean; counter: boolean }
  | { type: 'passed'; seat: GoujiSeat; kou: boolean }
  | { type: 'yielded'; seat: GoujiSeat }
  | { type: 'yield_returned'; seat: GoujiSeat }
  | { type: 'opened'; seat: GoujiSeat }
  | { type: 'burn_offered'; seat: GoujiSeat }
  | { type: 'burn_declined'; seat: GoujiSeat }
  | { type: 'burn_stood'; seat: GoujiSeat }
  | { type: 'burn_ended'; seat: GoujiSeat }
  | { type: 'burn_failed'; seat: GoujiSeat; void: Card[] | null; void_count: number; owner: GoujiSeat; restored: Card[] }
  | { type: 'went_out'; seat: GoujiSeat; place: Place }
  | { type: 'trick_won'; winner: GoujiSeat; leader: GoujiSeat; takeover: boolean }
  | { type: 'free_play' }
  | { type: 'marked'; seat: GoujiSeat }
  | { type: 'count_answered'; asker: GoujiSeat; about: GoujiSeat; answer: CardCount }
  | { type: 'timed_out'; seat: GoujiSeat }
  | { type: 'ruled'; seat: GoujiSeat; ruling: GoujiRuling; offence: GoujiOffence }
  | { type: 'game_over'; places: [Place, Place, Place, Place, Place, Place]; score: { a: number; b: number }; outcome: Outcome };
