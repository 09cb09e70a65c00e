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
