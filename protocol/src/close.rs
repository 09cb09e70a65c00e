//! WebSocket close codes the server uses. 1000–1015 are the standard ones; 4000–4999 are ours.
//! The socket ends with them and every refusal names the one it closes with, so they are a
//! module of their own, below both.

/// Normal close (e.g. the table was closed after the game).
pub const NORMAL: u16 = 1000;
/// The server is shutting down (SIGTERM, Ctrl-C): reconnect later and resume.
pub const GOING_AWAY: u16 = 1001;
/// A WebSocket protocol violation: an unmasked client frame, reserved bits set, an unknown
/// opcode, a fragmented control frame. The reason names the violation.
pub const PROTOCOL_ERROR: u16 = 1002;
/// A binary frame: we speak JSON text only.
pub const UNSUPPORTED: u16 = 1003;
/// A text frame that is not valid UTF-8.
pub const INVALID_PAYLOAD: u16 = 1007;
/// A frame over [`crate::MAX_FRAME_BYTES`].
pub const TOO_BIG: u16 = 1009;
/// Something broke on our side.
pub const INTERNAL: u16 = 1011;
/// Connection cap reached: try again later.
pub const TRY_AGAIN_LATER: u16 = 1013;
/// The first message was not a valid `hello`, or a second `hello` came.
pub const BAD_HELLO: u16 = 4000;
/// Silent too long: no frame (not even a pong) within the broom's window.
pub const SILENT: u16 = 4001;
/// The token is not (or no longer) valid for this table.
pub const BAD_TOKEN: u16 = 4003;
/// No such table (or it was closed).
pub const NO_TABLE: u16 = 4004;
/// The outbound queue filled up (a slow reader): reconnect with `last_seq` to catch up.
pub const SLOW_READER: u16 = 4008;
/// Flood: far over the per-connection rate limit.
pub const FLOOD: u16 = 4029;
/// The table stopped after a storage failure (e.g. a full disk) and is being rebuilt from
/// its log: reconnect in a few seconds with `last_seq`; nothing acknowledged was lost.
pub const RETRY: u16 = 4503;
/// Past one machine: another node serves this table. The close reason is that node's
/// address (its `--advertise`, e.g. `http://10.0.0.2:8080`): connect to `/ws/{table}` there
/// with the same token and `last_seq`; if it cannot be reached, retry here with backoff.
pub const ELSEWHERE: u16 = 4307;
/// Too many refused tokens from this client address: wait before trying again (a `hello`
/// with a token is refused without being checked while the address is throttled).
pub const RATE_LIMITED: u16 = 4030;
/// A competition's table: the seat is held by a live connection on another device, and the
/// competition refuses a second one. Do not reconnect by yourself: the player closes the page
/// there first (or asks the director).
pub const SEAT_IN_USE: u16 = 4009;
/// A competition's table: the seat was taken by a newer connection (another device, or
/// another tab). Do not reconnect by yourself, or the two would take it in turns.
pub const SEAT_MOVED: u16 = 4010;
