// paiju wire types for the web client.
//
// The types themselves are GENERATED from the Rust wire types into protocol.generated.d.ts
// (protocol/tests/web_client_types.rs, ts-rs; regenerate with
// `PAIJU_BLESS=1 cargo test -p protocol --test web_client_types`). This file only re-exports
// them and adds aliases for names the client uses: no type is declared here by hand.
// See docs/web-client.md.

export * from './protocol.generated';

import type { ClientOut } from './protocol.generated';

// ---- Aliases only ---------------------------------------------------------------------------

/** `ClientOut` of type `welcome`. */
export type Welcome = Extract<ClientOut, { type: 'welcome' }>;
/** `ClientOut` of type `snapshot`. */
export type Snapshot = Extract<ClientOut, { type: 'snapshot' }>;
/** `ClientOut` of type `events`. */
export type Events = Extract<ClientOut, { type: 'events' }>;
