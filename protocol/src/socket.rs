//! The table's WebSocket, `GET /ws/{table}`: what a client sends ([`ClientIn`], read by
//! [`parse_client_in`]) and what the server sends back ([`ClientOut`]), with who a connection is
//! ([`Role`]) and whose clock runs ([`Clock`]). JSON text frames, one message a frame, tagged by
//! `"type"`; the close codes that end a socket are in [`crate::close`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::lobby::{SeatIndex, SeatInfo, TableState};
use crate::problem::Problem;
use crate::refusal::{BadMessage, Refusal};

/// Bumped when a message changes incompatibly; sent in [`ClientOut::Welcome`].
pub const PROTOCOL_VERSION: u32 = 1;

/// The largest frame the server reads (8 KiB). Larger frames close the socket with
/// [`close::TOO_BIG`](crate::close::TOO_BIG).
pub const MAX_FRAME_BYTES: usize = 8 * 1024;

/// What a client sends. The first message must be [`ClientIn::Hello`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ClientIn {
    /// Who I am and what I last saw. `token`: a seat token (plays that seat), the referee token
    /// (full view, rulings), or absent (spectator). `last_seq`: the last event seq this client
    /// processed; the server sends what came after it, or a snapshot. Absent: a snapshot.
    Hello {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        last_seq: Option<u64>,
        /// A random id this device keeps (the page makes one and stores it): 8 to 64 letters,
        /// digits, `-` or `_`. A competition's table logs a mark of it with the seat's
        /// connections, so the director sees one device on two seats.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        device: Option<String>,
    },
    /// An action for the engine (its JSON form, e.g. `{"type":"play","cards":["S10"]}`).
    /// `id`: chosen by the client, unique per seat token; resending the same id (after a dropped
    /// connection) is answered from a cache and never applied twice. `seq`: the table's seq the
    /// player saw when deciding; if the table has moved on since (the clock or 托管 played, a
    /// ruling came), the action is refused with `stale` and nothing is applied. `seat`: may be
    /// omitted by a player (their token's seat; another seat is refused with `not_your_seat`); a
    /// referee names the seat a ruling is applied to (or that they move for). `reason`: required
    /// of a referee (a ruling's grounds, or why they move on a seat's behalf), logged and shown to
    /// the players; refused from anyone else.
    ///
    /// An action the engine treats as a question (够级 `ask_count`, 问牌) is answered with
    /// [`ClientOut::Answer`] to the asker alone: not logged, no clock touched.
    Act {
        id: u64,
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        action: Value,
        seq: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        seat: Option<SeatIndex>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        reason: Option<String>,
    },
    /// Send me a fresh snapshot (e.g. the client's state looks wrong). A struct variant with no
    /// fields, not a unit variant: serde's `deny_unknown_fields` is not applied to a unit
    /// variant of an internally tagged enum, so `{"type":"resync","x":1}` would be read as a
    /// resync instead of refused (`bad_message`) like every other message with a stray field.
    Resync {},
    /// 托管 by choice: `on` asks the table to play for my seat (as it does for a seat whose
    /// clock ran out while away) until I send `on: false`, or connect again. A player's only;
    /// the new state comes back in `seats` (`auto`).
    Auto { on: bool },
    /// The referee marks the table under review (`on: true`, with a `reason` the players are
    /// shown) or takes it off (`on: false`). Under review the move clock stands still (it
    /// resumes with what was left), bots and 托管 wait, and players' acts are refused
    /// (`under_review`); a referee may still rule. Anyone else is refused (`error`
    /// `referee_only`). Everyone is told with [`ClientOut::Review`].
    Review {
        on: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        reason: Option<String>,
    },
    /// Application-level ping (browsers cannot send WebSocket pings); answered by `pong`.
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        nonce: Option<u64>,
    },
}

impl ClientIn {
    /// The `"type"` names a client may send (for telling `unknown_type` from `bad_message`).
    pub const TYPES: [&'static str; 6] = ["hello", "act", "resync", "auto", "ping", "review"];
}

/// Who a connection is at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Role {
    Seat,
    Spectator,
    Referee,
}

/// Who caused a logged action: defined by the rules crate, which refuses rulings from anyone but
/// the referee and timeouts from anyone but the clock.
pub use rules::Actor;

/// Whose clock runs and how long they have left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Clock {
    /// The seats that may act now.
    pub seats: Vec<SeatIndex>,
    /// Milliseconds left when the message was sent (already scaled by the server's clock scale).
    pub remaining_ms: u64,
    /// The whole allowance for this move.
    pub limit_ms: u64,
}

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ClientOut {
    /// The answer to `hello`: who you are here and what the table is. Followed by the missed
    /// `events` or a `snapshot`.
    Welcome {
        protocol: u32,
        table: String,
        game: String,
        ruleset: String,
        board: u32,
        role: Role,
        /// Your seat (role `seat`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        seat: Option<SeatIndex>,
        seats: Vec<SeatInfo>,
        state: TableState,
        /// The table's last seq now.
        seq: u64,
        seed_commitment: String,
        deal_algorithm: String,
        /// How strong the computer seats play: `"beginner"`, `"club"` or `"expert"`
        /// (`CreateTable::bot_level`).
        bot_level: String,
        /// The seed: to a referee always, to everyone once the table is over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        seed: Option<String>,
        /// A competition's table: which competition, round and table, and its terms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        competition: Option<AtCompetition>,
    },
    /// The whole table as you may see it, as of `seq`. Replace your state with it.
    Snapshot {
        seq: u64,
        /// The engine's view for you (`Engine::view`): your hand, public cards, counts.
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        view: Value,
        to_act: Vec<SeatIndex>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        clock: Option<Clock>,
        state: TableState,
    },
    /// One stored action and what it caused, cut to what you may see (`Engine::redact`).
    /// `events` may be empty when nothing of it is your business; `seq` still advances by one.
    Events {
        seq: u64,
        /// The seat that acted (or whose clock ran out, or who was ruled against).
        seat: SeatIndex,
        by: Actor,
        /// A referee's stated reason (rulings and moves made on a seat's behalf).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        reason: Option<String>,
        #[cfg_attr(feature = "ts", ts(type = "unknown[]"))]
        events: Vec<Value>,
        /// Your view after this action. Live updates always carry it; when missed events are
        /// replayed only the last one does.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
        view: Option<Value>,
        to_act: Vec<SeatIndex>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        clock: Option<Clock>,
        state: TableState,
    },
    /// Your action `id` is stored as entry `seq` (sent before its `events`).
    Ack { id: u64, seq: u64 },
    /// The answer to a question (`act` with 够级 `ask_count`), to you alone: the engine's
    /// events (e.g. `count_answered`). Nothing was logged and no clock moved.
    Answer {
        id: u64,
        #[cfg_attr(feature = "ts", ts(type = "unknown[]"))]
        events: Vec<Value>,
    },
    /// Your action `id` was refused by the rules; nothing changed. The code and messages are the
    /// engine's (`rules::Explain`) or the server's (`not_your_turn`, `not_your_seat`, ...).
    Rejected {
        id: u64,
        #[serde(flatten)]
        problem: Problem,
    },
    /// A message could not be handled (malformed JSON, unknown type, rate limit, ...). The
    /// connection stays open unless a close frame follows.
    Error {
        #[serde(flatten)]
        problem: Problem,
    },
    /// Someone sat down, left, connected, went away or came back.
    Seats { seats: Vec<SeatInfo> },
    /// The table went under review (`on`: the referee's `reason`; the move clock stands still
    /// at `clock.remaining_ms` until the review ends) or came off it (`clock`: the move clock
    /// running again). Sent to every connection when it changes, and after the catch-up to a
    /// connection that attaches while the table is under review.
    Review {
        on: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        reason: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        clock: Option<Clock>,
    },
    /// The answer to `ping`.
    Pong {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        nonce: Option<u64>,
    },
}

/// Parses one client frame, telling the three kinds of bad input apart: not JSON at all
/// (`bad_json`), a `"type"` we do not know (`unknown_type`), or a known type with wrong fields
/// (`bad_message`).
pub fn parse_client_in(text: &str) -> Result<ClientIn, Problem> {
    // Straight into the message when it is one (every frame a page sends), not through a
    // `Value` first: that was a twentieth of the instructions the server spent on an action.
    // The slow way below only tells what is wrong with a frame that is not.
    if let Ok(message) = serde_json::from_str(text) {
        return Ok(message);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Problem::from(Refusal::BadJson {
            detail: e.to_string(),
        })
    })?;
    let kind = value
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !ClientIn::TYPES.contains(&kind.as_str()) {
        return Err(Refusal::UnknownType { kind }.into());
    }
    serde_json::from_value(value).map_err(|e| {
        Refusal::BadMessage(BadMessage::Fields {
            kind,
            detail: e.to_string(),
        })
        .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refusal::codes;
    use serde_json::json;

    /// The way through a `Value` that [`parse_client_in`] keeps for telling errors apart.
    fn through_value(text: &str) -> Option<ClientIn> {
        serde_json::from_value(serde_json::from_str::<Value>(text).ok()?).ok()
    }

    #[test]
    fn the_straight_parse_takes_what_the_way_through_a_value_takes_and_reads_it_the_same() {
        let frames = [
            r#"{"type":"resync"}"#,
            r#"{"type":"resync","type":"resync"}"#,
            r#"{"type":"resync","type":"auto","on":true}"#,
            r#"{"type":"auto","on":true,"on":false}"#,
            r#"{"on":true,"type":"auto"}"#,
            r#"{"type":"act","id":1,"seq":2,"action":{"type":"play","cards":["S10"]}}"#,
            r#"{"type":"act","id":1,"seq":2,"action":{"a":1,"a":2}}"#,
            r#"{"type":"act","id":1,"id":2,"seq":2,"action":null}"#,
            r#"{"type":"act","id":1.0,"seq":2,"action":1}"#,
            r#"{"type":"act","id":-1,"seq":2,"action":1}"#,
            r#"{"type":"hello","token":null,"last_seq":18446744073709551615}"#,
            r#"{"type":"hello","last_seq":18446744073709551616}"#,
            r#"{"type":"hello","device":"\u0070hone-1234"}"#,
            r#"{"type":"ping","nonce":1,"extra":2}"#,
            r#"{"type":"review","on":true,"reason":"\ud83c\udca1"}"#,
            r#" {"type":"resync"} "#,
            r#"{"type":"resync"} x"#,
        ];
        for text in frames {
            if let Ok(m) = serde_json::from_str::<ClientIn>(text) {
                assert_eq!(through_value(text), Some(m), "{text}");
            }
            assert_eq!(parse_client_in(text).ok(), through_value(text), "{text}");
        }
    }

    #[test]
    fn client_in_round_trips() {
        let msgs = [
            ClientIn::Hello {
                token: Some("ab".into()),
                last_seq: Some(3),
                device: Some("phone-1234".into()),
            },
            ClientIn::Act {
                id: 7,
                action: json!({"type": "play", "cards": ["S10"]}),
                seq: 12,
                seat: None,
                reason: None,
            },
            ClientIn::Resync {},
            ClientIn::Auto { on: true },
            ClientIn::Ping { nonce: Some(1) },
            ClientIn::Review {
                on: true,
                reason: Some("查牌".into()),
            },
            ClientIn::Review {
                on: false,
                reason: None,
            },
        ];
        for m in msgs {
            let text = serde_json::to_string(&m).unwrap();
            assert_eq!(parse_client_in(&text).unwrap(), m, "{text}");
        }
    }

    #[test]
    fn bad_input_is_told_apart() {
        assert_eq!(parse_client_in("{nope").unwrap_err().code, codes::BAD_JSON);
        assert_eq!(
            parse_client_in(r#"{"type":"shout"}"#).unwrap_err().code,
            codes::UNKNOWN_TYPE
        );
        assert_eq!(
            parse_client_in(r#"[1,2]"#).unwrap_err().code,
            codes::UNKNOWN_TYPE
        );
        assert_eq!(
            parse_client_in(r#"{"type":"act","id":"x","action":{}}"#)
                .unwrap_err()
                .code,
            codes::BAD_MESSAGE
        );
        // Unknown fields are refused, not ignored (design principle 6).
        assert_eq!(
            parse_client_in(r#"{"type":"ping","extra":1}"#)
                .unwrap_err()
                .code,
            codes::BAD_MESSAGE
        );
        // Also on a message that has no fields at all.
        assert_eq!(
            parse_client_in(r#"{"type":"resync","x":1}"#)
                .unwrap_err()
                .code,
            codes::BAD_MESSAGE
        );
        assert_eq!(
            parse_client_in(r#"{"type":"resync"}"#),
            Ok(ClientIn::Resync {})
        );
    }

    #[test]
    fn rejected_flattens_the_problem() {
        let out = ClientOut::Rejected {
            id: 4,
            problem: Problem::new("not_your_turn", "还没轮到你", "it is not your turn"),
        };
        let v = serde_json::to_value(&out).unwrap();
        assert_eq!(
            v,
            json!({"type":"rejected","id":4,"code":"not_your_turn","zh":"还没轮到你","en":"it is not your turn"})
        );
        let back: ClientOut = serde_json::from_value(v).unwrap();
        assert_eq!(back, out);
    }
}

/// Where a competition's table is, for the page to say (「第2轮 第3桌」) and link back to the
/// player's own page, and what it plays under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AtCompetition {
    /// The competition's id (`pair.html?e={id}`).
    pub id: String,
    pub round: u32,
    /// The table of the round (80分: of the movement; 够级: the match, or the final's table).
    pub table: u32,
    /// 托管 allowed (off: the 托管 button is refused with `no_auto_play`).
    pub auto_play: bool,
    /// A second device on a seat is refused (`seat_in_use`), not taking the seat over
    /// (`seat_moved` to the older).
    pub one_device_refuses: bool,
    /// A practice set's table (`practice.html?s={id}`): the next board is the player's run's
    /// (`POST /api/practice/{id}/join`), their clock stands still while they are away.
    #[serde(default)]
    pub practice: bool,
}
