//! The web client's TypeScript declarations are generated from the Rust wire types and checked
//! against what serde really prints.
//!
//! - [`web_client_declarations_are_current`] writes `web-client/src/protocol.generated.d.ts`
//!   from the `ts_rs::TS` derives (the `ts` feature of this crate and of `rules`, on for these
//!   tests): the envelope (`ClientIn`, `ClientOut`, the lobby) and the engines' actions, events
//!   and views, every type they hold declared once under its TypeScript name.
//! - [`web_client_samples_are_current`] writes every message kind and real engine views, events
//!   and actions to `web-client/typecheck/protocol-samples.js`, each array annotated with its declared
//!   type, and `tsc --checkJs` (the client's `npm test`) rejects any field, variant or type the
//!   generated declarations do not match (object literals get excess-property checks): the proof
//!   that ts-rs read the serde attributes as serde does.
//!
//! Both files on disk must equal what these tests would write, so a changed message fails here
//! until they are regenerated:
//!
//! ```sh
//! PAIJU_BLESS=1 cargo test -p protocol --test web_client_types
//! ```

use std::any::TypeId;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use protocol::{
    Actor, ClientIn, ClientOut, Clock, CreateTable, JoinSeat, Joined, LeaveSeat, Problem, Role,
    SeatInfo, TableState, TableSummary,
};
use rules::{Engine, Viewer};
use serde::Serialize;
use serde_json::{json, Value};
use ts_rs::{Config, TypeVisitor, TS};

fn v<T: Serialize>(x: &T) -> Value {
    serde_json::to_value(x).expect("serialisable")
}

/// Every `ClientOut` variant, so a new one cannot go without a sample.
fn out_kind(m: &ClientOut) -> &'static str {
    match m {
        ClientOut::Welcome { .. } => "welcome",
        ClientOut::Snapshot { .. } => "snapshot",
        ClientOut::Events { .. } => "events",
        ClientOut::Ack { .. } => "ack",
        ClientOut::Answer { .. } => "answer",
        ClientOut::Rejected { .. } => "rejected",
        ClientOut::Error { .. } => "error",
        ClientOut::Seats { .. } => "seats",
        ClientOut::Pong { .. } => "pong",
        ClientOut::Review { .. } => "review",
    }
}

fn in_kind(m: &ClientIn) -> &'static str {
    match m {
        ClientIn::Hello { .. } => "hello",
        ClientIn::Act { .. } => "act",
        ClientIn::Resync {} => "resync",
        ClientIn::Auto { .. } => "auto",
        ClientIn::Ping { .. } => "ping",
        ClientIn::Review { .. } => "review",
    }
}

/// Plays a whole deal with the engine's own legal actions (the middle one, for variety),
/// keeping the views seen by seat 0 and a spectator at a few points, the first event of each
/// kind and the first action of each kind.
fn play<E: Engine>(
    mut game: E,
    views: &mut Vec<Value>,
    events: &mut BTreeMap<String, Value>,
    actions: &mut BTreeMap<String, Value>,
) {
    views.push(v(&game.view(Viewer::Seat(0))));
    views.push(v(&game.view(Viewer::Spectator)));
    let mut n = 0;
    while !game.is_over() && n < 5000 {
        let Some(&seat) = game.to_act().first() else {
            break;
        };
        let legal = game.legal_actions(seat);
        let Some(action) = legal.get(legal.len() / 2).cloned() else {
            break;
        };
        let av = v(&action);
        actions
            .entry(av["type"].as_str().unwrap_or("").to_string())
            .or_insert(av);
        for e in game
            .apply(seat, rules::Actor::Player, action)
            .expect("a legal action")
        {
            if let Some(e) = game.redact(&e, Viewer::Seat(0)) {
                let ev = v(&e);
                events
                    .entry(ev["type"].as_str().unwrap_or("").to_string())
                    .or_insert(ev);
            }
        }
        n += 1;
        if n == 7 || n == 40 {
            views.push(v(&game.view(Viewer::Seat(seat))));
        }
    }
    views.push(v(&game.view(Viewer::Seat(0))));
}

fn seats(n: usize) -> Vec<SeatInfo> {
    (0..n)
        .map(|seat| SeatInfo {
            seat,
            name: (seat != 2).then(|| match seat {
                0 => "老王".into(),
                1 => "电脑·东".into(),
                _ => "电脑·西".into(),
            }),
            bot: seat % 2 == 1,
            connected: seat != 2,
            auto: false,
        })
        .collect()
}

fn samples() -> String {
    let seed = rules::deal::Seed::from_hex(&"00".repeat(32)).expect("seed");

    let mut sj_views = Vec::new();
    let mut sj_events = BTreeMap::new();
    let mut sj_actions = BTreeMap::new();
    let deal = rules::deal::deal_shengji(
        &seed,
        1,
        rules::deal::Fixed {
            level: None,
            trump: None,
        },
    );
    play(
        rules::shengji::Board::new(&deal, rules::shengji::Ruleset::fujian_2024()),
        &mut sj_views,
        &mut sj_events,
        &mut sj_actions,
    );

    let mut gj_views = Vec::new();
    let mut gj_events = BTreeMap::new();
    let mut gj_actions = BTreeMap::new();
    let deal = rules::deal::deal_gouji(&seed, 1);
    play(
        rules::gouji::Game::new(&deal, rules::gouji::Ruleset::default()),
        &mut gj_views,
        &mut gj_events,
        &mut gj_actions,
    );

    let problem = Problem::new(
        "must_follow_suit",
        "有同花色的牌必须跟出",
        "you must follow suit",
    );
    let clock = Clock {
        seats: vec![2],
        remaining_ms: 27000,
        limit_ms: 30000,
    };
    let summary = TableSummary {
        id: "k3m9qz7a".into(),
        game: "shengji".into(),
        ruleset: "fujian-2024".into(),
        board: 1,
        state: TableState::Over,
        seats: seats(4),
        spectators: 1,
        seq: 17,
        seed_commitment: "66".repeat(32),
        deal_algorithm: rules::deal::ALGORITHM.into(),
        bot_level: "expert".into(),
        seed: Some("00".repeat(32)),
        head_hash: Some("ab".repeat(32)),
        node: Some("http://10.0.0.2:8080".into()),
    };
    let client_in = vec![
        ClientIn::Hello {
            token: Some("9f".repeat(32)),
            last_seq: Some(17),
            device: Some("d3v1c3-k3pt-h3r3".into()),
        },
        ClientIn::Hello {
            token: None,
            last_seq: None,
            device: None,
        },
        ClientIn::Act {
            id: 42,
            action: sj_actions.values().next().cloned().unwrap_or(json!({})),
            seq: 17,
            seat: None,
            reason: None,
        },
        ClientIn::Act {
            id: 43,
            action: json!({"type": "penalty", "points": 40}),
            seq: 18,
            seat: Some(3),
            reason: Some("信号：敲桌子".into()),
        },
        ClientIn::Resync {},
        ClientIn::Auto { on: true },
        ClientIn::Ping { nonce: Some(5) },
        ClientIn::Ping { nonce: None },
        ClientIn::Review {
            on: true,
            reason: Some("查牌：核对出过的牌".into()),
        },
        ClientIn::Review {
            on: false,
            reason: None,
        },
    ];
    let client_out = vec![
        ClientOut::Welcome {
            protocol: protocol::PROTOCOL_VERSION,
            table: "k3m9qz7a".into(),
            game: "shengji".into(),
            ruleset: "fujian-2024".into(),
            board: 1,
            role: Role::Seat,
            seat: Some(2),
            seats: seats(4),
            state: TableState::Playing,
            seq: 17,
            seed_commitment: "66".repeat(32),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            bot_level: "club".into(),
            seed: None,
            competition: None,
        },
        ClientOut::Welcome {
            protocol: protocol::PROTOCOL_VERSION,
            table: "k3m9qz7b".into(),
            game: "shengji".into(),
            ruleset: "fujian-2024".into(),
            board: 3,
            role: Role::Seat,
            seat: Some(0),
            seats: seats(4),
            state: TableState::Waiting,
            seq: 0,
            seed_commitment: "66".repeat(32),
            deal_algorithm: rules::deal::ALGORITHM.into(),
            bot_level: "club".into(),
            seed: None,
            competition: Some(protocol::AtCompetition {
                id: "e7x2".into(),
                round: 2,
                table: 3,
                auto_play: false,
                one_device_refuses: false,
                practice: false,
            }),
        },
        ClientOut::Snapshot {
            seq: 17,
            view: sj_views[0].clone(),
            to_act: vec![0],
            clock: Some(clock.clone()),
            state: TableState::Playing,
        },
        ClientOut::Events {
            seq: 18,
            seat: 1,
            by: Actor::Bot,
            reason: None,
            events: sj_events.values().take(2).cloned().collect(),
            view: Some(sj_views[2].clone()),
            to_act: vec![2],
            clock: Some(clock),
            state: TableState::Playing,
        },
        ClientOut::Events {
            seq: 19,
            seat: 3,
            by: Actor::Referee,
            reason: Some("信号：敲桌子".into()),
            events: vec![],
            view: None,
            to_act: vec![],
            clock: None,
            state: TableState::Over,
        },
        ClientOut::Ack { id: 42, seq: 18 },
        ClientOut::Answer {
            id: 44,
            events: rules::gouji::Game::new(
                &rules::deal::deal_gouji(&seed, 1),
                rules::gouji::Ruleset::default(),
            )
            .ask_count(rules::gouji::Seat::A1)
            .iter()
            .map(v)
            .collect(),
        },
        ClientOut::Rejected {
            id: 43,
            problem: problem.clone(),
        },
        ClientOut::Error {
            problem: Problem::new("rate_limited", "太快了", "too fast"),
        },
        ClientOut::Seats { seats: seats(6) },
        ClientOut::Pong { nonce: Some(5) },
        ClientOut::Pong { nonce: None },
        ClientOut::Review {
            on: true,
            reason: Some("查牌：核对出过的牌".into()),
            clock: Some(Clock {
                seats: vec![0],
                remaining_ms: 21_500,
                limit_ms: 30_000,
            }),
        },
        ClientOut::Review {
            on: false,
            reason: None,
            clock: None,
        },
    ];
    for kind in [
        "welcome", "snapshot", "events", "ack", "rejected", "error", "seats", "pong", "review",
    ] {
        assert!(
            client_out.iter().any(|m| out_kind(m) == kind),
            "no ClientOut sample of {kind}"
        );
    }
    for kind in ["hello", "act", "resync", "ping", "review"] {
        assert!(
            client_in.iter().any(|m| in_kind(m) == kind),
            "no ClientIn sample of {kind}"
        );
    }

    let lobby = [
        (
            "CreateTable[]",
            v(&vec![
                CreateTable {
                    game: "shengji".into(),
                    ruleset: Some("fujian-2024".into()),
                    seed: Some("00".repeat(32)),
                    board: Some(3),
                    bots: vec![1, 3],
                    level: Some("7".into()),
                    trump: Some("NT".into()),
                    play_seconds: Some(60),
                    bot_level: Some("expert".into()),
                },
                CreateTable {
                    game: "gouji".into(),
                    ruleset: None,
                    seed: None,
                    board: None,
                    bots: vec![],
                    level: None,
                    trump: None,
                    play_seconds: None,
                    bot_level: None,
                },
            ]),
        ),
        ("TableSummary[]", v(&vec![summary])),
        (
            "JoinSeat[]",
            v(&vec![JoinSeat {
                seat: 2,
                name: "老李".into(),
            }]),
        ),
        (
            "Joined[]",
            v(&vec![Joined {
                table: "k3m9qz7a".into(),
                seat: 2,
                token: "9f".repeat(32),
            }]),
        ),
        (
            "LeaveSeat[]",
            v(&vec![LeaveSeat {
                token: "9f".repeat(32),
            }]),
        ),
        ("Problem[]", v(&vec![problem])),
    ];

    let mut out = String::from(
        "// @ts-check\n// Generated by protocol/tests/web_client_types.rs from the server's serde output: do not edit.\n// Regenerate: PAIJU_BLESS=1 cargo test -p protocol --test web_client_types\n// `tsc` checks every sample below against its declared type (protocol.generated.d.ts, via protocol.d.ts).\n\n",
    );
    // Each export is named after its type: `ClientIn[]` → `clientInSamples`.
    let mut put = |ty: &str, value: &Value| {
        let base = ty.trim_end_matches("[]");
        let name = format!("{}{}Samples", base[..1].to_lowercase(), &base[1..]);
        out.push_str(&format!(
            "/** @type {{import('../src/protocol').{ty}}} */\nexport const {name} = {};\n\n",
            serde_json::to_string_pretty(value).expect("json")
        ));
    };
    put("ClientIn[]", &v(&client_in));
    put("ClientOut[]", &v(&client_out));
    for (ty, value) in &lobby {
        put(ty, value);
    }
    put("ShengjiView[]", &Value::Array(sj_views));
    put(
        "ShengjiEvent[]",
        &Value::Array(sj_events.into_values().collect()),
    );
    put(
        "ShengjiAction[]",
        &Value::Array(sj_actions.into_values().collect()),
    );
    put("GoujiView[]", &Value::Array(gj_views));
    put(
        "GoujiEvent[]",
        &Value::Array(gj_events.into_values().collect()),
    );
    put(
        "GoujiAction[]",
        &Value::Array(gj_actions.into_values().collect()),
    );
    out
}

/// Collects the declaration of every type reachable from the roots, once, by TypeScript name.
struct Declarations {
    cfg: Config,
    /// TypeScript name -> (Rust type, `export type ...` with its doc comment).
    decls: BTreeMap<String, (TypeId, &'static str, String)>,
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Primitives and wrappers (`Vec`, `Option`, arrays) have nothing to declare.
        if T::output_path().is_none() {
            return;
        }
        let name = T::ident(&self.cfg);
        if let Some((id, rust, _)) = self.decls.get(&name) {
            assert!(
                *id == TypeId::of::<T>(),
                "{rust} and {} are both `{name}` in TypeScript: give one a #[ts(rename)]",
                std::any::type_name::<T>()
            );
            return;
        }
        let decl = format!(
            "{}export {}",
            T::docs().unwrap_or_default(),
            T::decl(&self.cfg)
        );
        self.decls
            .insert(name, (TypeId::of::<T>(), std::any::type_name::<T>(), decl));
        T::visit_dependencies(self);
    }
}

fn declarations() -> String {
    let mut d = Declarations {
        // u64 fields (seq, ids, milliseconds) stay far below 2^53: plain numbers in JSON.
        cfg: Config::new().with_large_int("number"),
        decls: BTreeMap::new(),
    };
    d.visit::<ClientIn>();
    d.visit::<ClientOut>();
    d.visit::<CreateTable>();
    d.visit::<TableSummary>();
    d.visit::<JoinSeat>();
    d.visit::<Joined>();
    d.visit::<LeaveSeat>();
    d.visit::<Problem>();
    d.visit::<rules::shengji::View>();
    d.visit::<rules::shengji::Action>();
    d.visit::<rules::shengji::Event>();
    d.visit::<rules::gouji::View>();
    d.visit::<rules::gouji::Action>();
    d.visit::<rules::gouji::Event>();
    let mut out = String::from(
        "// Generated by protocol/tests/web_client_types.rs from the Rust wire types (ts-rs): do not edit.\n// Regenerate: PAIJU_BLESS=1 cargo test -p protocol --test web_client_types\n// The envelope is `protocol` (ClientIn, ClientOut, the lobby); the engines' JSON, carried in\n// `action`, `view` and `events` (typed `unknown` there), is `rules::shengji` and `rules::gouji`.\n// Hand-written aliases live in protocol.d.ts.\n",
    );
    for (_, _, decl) in d.decls.values() {
        out.push('\n');
        out.push_str(decl);
        out.push('\n');
    }
    out
}

/// Writes `want` to `file` (under web-client/) with PAIJU_BLESS=1, else fails if it differs.
fn bless_or_check(file: &str, want: &str, what: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../web-client")
        .join(file);
    if std::env::var_os("PAIJU_BLESS").is_some() {
        std::fs::write(&path, want).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is out of date with the {what}: run PAIJU_BLESS=1 cargo test -p protocol --test web_client_types, then the web client's npm test (tsc checks the samples against the generated declarations)",
        Path::new(file).display()
    );
}

#[test]
fn web_client_declarations_are_current() {
    // 够级 seats have a hand-written serde impl (`Seat::name`); their declaration comes from the
    // variant names. Both must print the same strings (80分 seats too, for good measure).
    let cfg = Config::new();
    let names = |seats: Vec<Value>| {
        seats
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    assert_eq!(
        <rules::gouji::Seat as TS>::inline(&cfg),
        names(rules::gouji::Seat::ALL.iter().map(v).collect())
    );
    assert_eq!(
        <rules::shengji::Seat as TS>::inline(&cfg),
        names(rules::shengji::Seat::ALL.iter().map(v).collect())
    );
    // The 80分 view's `level` and `trump` (serde `with`) are declared by hand as string unions:
    // every rank symbol and suit letter the serde helpers can print, nothing else.
    let view = <rules::shengji::View as TS>::inline(&cfg);
    let level = names(
        rules::cards::Rank::all()
            .map(|r| Value::from(r.symbol()))
            .collect(),
    );
    let trump = names(
        rules::cards::Suit::ALL
            .iter()
            .map(|s| Value::from(s.letter().to_string()))
            .chain([Value::from("NT")])
            .collect(),
    );
    assert!(view.contains(&format!("level: {level},")), "{view}");
    assert!(view.contains(&format!("trump: {trump},")), "{view}");
    bless_or_check(
        "src/protocol.generated.d.ts",
        &declarations(),
        "Rust wire types",
    );
}

#[test]
fn web_client_samples_are_current() {
    // A type-check fixture, outside src/: the server does not serve it.
    bless_or_check("typecheck/protocol-samples.js", &samples(), "protocol");
}
