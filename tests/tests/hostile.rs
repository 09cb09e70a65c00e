//! Hostile and unlucky clients at the table (issue 8): what a raw WebSocket client sends that no
//! page would, against the real server over real sockets. Each test here failed on the server
//! before the fix it is named after. The last one runs a bot-only canary table while hostile
//! clients attack other tables: the canary finishes its board and no server task panics.
//! (HTTP-level abuse — slow clients, bodies, origins, the connection cap — is in
//! hostile_http.rs.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use paiju_tests::tally::Tally;
use paiju_tests::{bots_play_out, Client, Closed, TestServer, REFEREE_TOKEN};
use protocol::{close, Actor, ClientIn, ClientOut, TableState, TableSummary};
use rules::Engine;
use serde_json::{json, Value};
use server::store::{SqliteStore, Store};

const SEED: &str = "0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a090807060504030201000";

async fn seat_everyone(s: &TestServer, table: &str, n: usize) -> Vec<String> {
    let mut tokens = Vec::new();
    for seat in 0..n {
        tokens.push(s.join(table, seat, &format!("P{seat}")).await.token);
    }
    tokens
}

/// A seated client that has read its snapshot (so it knows the table's seq).
async fn seated(s: &TestServer, table: &str, token: &str) -> Client {
    let mut c = s.client(table).await;
    c.hello(Some(token), None).await;
    c.recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await;
    c
}

async fn refusal(c: &mut Client) -> String {
    match c
        .recv_until(|m| matches!(m, ClientOut::Ack { .. } | ClientOut::Rejected { .. }))
        .await
    {
        ClientOut::Rejected { problem, .. } => problem.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn summary(s: &TestServer, id: &str) -> TableSummary {
    bots::http::get_json(s.addr, &format!("/api/tables/{id}"))
        .await
        .expect("summary")
}

async fn list(s: &TestServer) -> Vec<TableSummary> {
    bots::http::get_json(s.addr, "/api/tables")
        .await
        .expect("list")
}

fn log_of(s: &TestServer, id: &str) -> Vec<server::store::LogEntry> {
    SqliteStore::open(&s.db)
        .unwrap()
        .table(id)
        .unwrap()
        .unwrap()
        .log
}

/// 80分 board 1 of SEED as the engine deals it (the test knows the seed; a player does not).
fn shengji_board() -> rules::shengji::Board {
    let seed = rules::deal::Seed::from_hex(SEED).unwrap();
    let deal = rules::deal::deal_shengji(&seed, 1, Default::default());
    rules::shengji::Board::new(
        &deal,
        rules::shengji::Ruleset::by_name("fujian-2024").unwrap(),
    )
}

/// Failure 1: a seated player's ruling is refused by the engine itself (80分 and 够级); a
/// referee's needs a reason; a referee may move for a seat only as a logged, reasoned ruling.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_referee_rules_and_always_with_a_reason() {
    let s = TestServer::start("hostile-rulings").await;
    let t = s.create(json!({"game": "shengji", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id, 4).await;
    let mut p0 = seated(&s, &t.id, &tokens[0]).await;
    for (id, action) in [
        (1, json!({"type": "end_board"})),
        (2, json!({"type": "penalty", "points": 40})),
        (3, json!({"type": "timeout"})),
    ] {
        p0.act_with_id(id, action.clone(), None).await;
        let code = refusal(&mut p0).await;
        assert!(
            code == "referee_only" || code == "clock_only",
            "{action}: {code}"
        );
    }
    // A player's act may not carry a reason either.
    p0.send(&ClientIn::Act {
        id: 4,
        action: json!({"type": "penalty", "points": 40}),
        seq: 0,
        seat: None,
        reason: Some("I say so".into()),
    })
    .await;
    assert_eq!(refusal(&mut p0).await, "reason");
    assert_eq!(summary(&s, &t.id).await.seq, 0, "nothing was applied");

    // The referee: no reason, no ruling.
    let mut r = s.client(&t.id).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    r.recv().await;
    r.act_with_id(1, json!({"type": "penalty", "points": 40}), Some(1))
        .await;
    assert_eq!(refusal(&mut r).await, "reason");
    // Nor one with control characters (a NUL cannot even be stored in PostgreSQL text).
    r.rule(
        9,
        json!({"type": "penalty", "points": 40}),
        Some(1),
        "信号\u{0}",
    )
    .await;
    assert_eq!(refusal(&mut r).await, "reason");
    // On a seat's behalf: the declarer's bury, logged as the referee's with the reason.
    let board = shengji_board();
    let to_act = Engine::to_act(&board)[0];
    let bury = board.legal_actions(to_act)[0].clone();
    r.rule(
        2,
        serde_json::to_value(&bury).unwrap(),
        Some(to_act),
        "庄家掉线，代为扣底",
    )
    .await;
    assert!(matches!(
        r.recv_until(|m| matches!(m, ClientOut::Ack { .. } | ClientOut::Rejected { .. }))
            .await,
        ClientOut::Ack { id: 2, seq: 1 }
    ));
    let log = log_of(&s, &t.id);
    assert_eq!(
        (log[0].actor, log[0].reason.as_deref()),
        (Actor::Referee, Some("庄家掉线，代为扣底"))
    );
    // Every player sees who moved and why.
    let ClientOut::Events { by, reason, .. } = p0
        .recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(
        (by, reason.as_deref()),
        (Actor::Referee, Some("庄家掉线，代为扣底"))
    );

    // 够级: a forfeit or a deduction from a seat is refused the same way.
    let g = s.create(json!({"game": "gouji", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &g.id, 6).await;
    let mut a1 = seated(&s, &g.id, &tokens[0]).await;
    for (id, ruling) in [(1, "forfeit"), (2, "deduction"), (3, "warning")] {
        a1.act_with_id(
            id,
            json!({"type": "ruling", "ruling": ruling, "offence": "cheating"}),
            None,
        )
        .await;
        assert_eq!(refusal(&mut a1).await, "referee_only", "{ruling}");
    }
    assert_eq!(summary(&s, &g.id).await.seq, 0);
    s.running.shutdown().await;
}

/// Failure 2: two tables deal from one seed; while one still plays, nothing the server serves
/// about the finished one reveals the seed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_seed_stays_hidden_until_no_open_table_deals_from_it() {
    let s = TestServer::start("hostile-seed").await;
    let a = s.create(json!({"game": "tally", "seed": SEED})).await;
    let b = s
        .create(json!({"game": "tally", "seed": SEED, "board": 2}))
        .await;
    let tokens_a = seat_everyone(&s, &a.id, 4).await;
    let tokens_b = seat_everyone(&s, &b.id, 4).await;
    bots_play_out::<Tally>(&s, &a.id, &tokens_a).await;
    let over = summary(&s, &a.id).await;
    assert_eq!(over.state, TableState::Over);
    assert_eq!(over.seed, None, "table {} still deals from it", b.id);
    assert!(list(&s).await.iter().all(|t| t.seed.is_none()));
    let mut spy = s.client(&a.id).await;
    let ClientOut::Welcome { seed, .. } = spy.hello(None, None).await else {
        panic!()
    };
    assert_eq!(seed, None);
    let snapshot = spy.recv().await;
    assert!(!serde_json::to_string(&snapshot).unwrap().contains(SEED));
    // The finished table publishes its log's head hash.
    let log = log_of(&s, &a.id);
    assert_eq!(
        over.head_hash.as_deref(),
        Some(log.last().unwrap().hash.as_str())
    );

    // Once the other table ends too, the seed is public on both.
    bots_play_out::<Tally>(&s, &b.id, &tokens_b).await;
    assert_eq!(summary(&s, &a.id).await.seed.as_deref(), Some(SEED));
    assert_eq!(summary(&s, &b.id).await.seed.as_deref(), Some(SEED));
    s.running.shutdown().await;
}

/// Failure 3: 问牌 is answered to the asker alone, once per state, and is never logged (so it
/// cannot restart a clock or grow the log).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asking_the_card_count_is_not_a_move() {
    let s = TestServer::start("hostile-ask").await;
    let g = s.create(json!({"game": "gouji", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &g.id, 6).await;
    let mut asker = seated(&s, &g.id, &tokens[0]).await;
    let mut other = seated(&s, &g.id, &tokens[1]).await;
    asker
        .act_with_id(1, json!({"type": "ask_count"}), None)
        .await;
    let ClientOut::Answer { id: 1, events } = asker
        .recv_until(|m| matches!(m, ClientOut::Answer { .. } | ClientOut::Rejected { .. }))
        .await
    else {
        panic!("no answer")
    };
    assert_eq!(events[0]["type"], "count_answered");
    // (Within the per-connection rate limit: more would be dropped as `rate_limited`.)
    for id in 2..8 {
        asker
            .act_with_id(id, json!({"type": "ask_count"}), None)
            .await;
        assert_eq!(refusal(&mut asker).await, "already_asked");
    }
    // Flush the other seat's queue with a ping: it heard nothing of the question.
    other.send(&ClientIn::Ping { nonce: Some(7) }).await;
    other
        .recv_until(|m| matches!(m, ClientOut::Pong { .. }))
        .await;
    assert!(other.frames.iter().all(|f| !f.contains("count_answered")));
    assert_eq!(summary(&s, &g.id).await.seq, 0, "no log entry");
    assert!(log_of(&s, &g.id).is_empty());
    s.running.shutdown().await;
}

/// Failure 4: a stranger who takes a seat someone left and reuses their action id gets their
/// own action applied, not the previous occupant's ack.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_occupant_is_not_answered_with_the_old_acks() {
    let s = TestServer::start("hostile-occupant").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id, 4).await;
    let seed = rules::deal::Seed::from_hex(SEED).unwrap();
    let mut engine = Tally::deal(&seed, 1);
    // One round: each seat plays its lowest tile with action id 1.
    for (seat, token) in tokens.iter().enumerate() {
        let mut c = seated(&s, &t.id, token).await;
        let tile = format!("T{}", engine.hands[seat][0]);
        c.act_with_id(1, json!({"type": "play", "tile": tile}), None)
            .await;
        let ack = c
            .recv_until(|m| matches!(m, ClientOut::Ack { .. } | ClientOut::Rejected { .. }))
            .await;
        assert_eq!(
            ack,
            ClientOut::Ack {
                id: 1,
                seq: seat as u64 + 1
            }
        );
        Engine::apply(
            &mut engine,
            seat,
            Actor::Player,
            paiju_tests::tally::TallyAction::Play { tile },
        )
        .unwrap();
    }
    bots::http::post_json::<Value>(
        s.addr,
        &format!("/api/tables/{}/leave", t.id),
        &json!({"token": tokens[0]}),
    )
    .await
    .unwrap();
    let stranger = s.join(&t.id, 0, "Stranger").await;
    let mut c = seated(&s, &t.id, &stranger.token).await;
    let tile = format!("T{}", engine.hands[0][0]);
    c.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    assert_eq!(
        c.recv_until(|m| matches!(m, ClientOut::Ack { .. } | ClientOut::Rejected { .. }))
            .await,
        ClientOut::Ack { id: 1, seq: 5 },
        "the stranger's play is applied as entry 5"
    );
    assert_eq!(log_of(&s, &t.id).len(), 5);
    s.running.shutdown().await;
}

/// Failure 5: a reconnect from any distance behind gets every entry it missed, or a snapshot,
/// and is never cut off as a slow reader: no gap in seq, the same state as a fresh client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_from_far_behind_never_skips_a_seq() {
    let s = TestServer::start("hostile-catch-up").await;
    for (game, seats, behind) in [
        ("shengji", 4, vec![1u64, 63, 64]),
        // Around the kept history (48 entries) and the outbound queue (64), and far beyond:
        // a game of six 普通 computers is about 240 entries.
        ("gouji", 6, vec![1, 47, 48, 49, 63, 64, 200]),
    ] {
        let t = s
            .create(json!({"game": game, "seed": SEED, "bots": (0..seats).collect::<Vec<_>>()}))
            .await;
        // Bots alone play the whole game.
        s.until_over(&t.id, Duration::from_secs(60)).await;
        let end = summary(&s, &t.id).await;
        assert_eq!(end.state, TableState::Over, "{game}: the bots finished");
        let mut fresh = s.client(&t.id).await;
        fresh.hello(None, None).await;
        let ClientOut::Snapshot { view: want, .. } = fresh.recv().await else {
            panic!()
        };
        for k in behind {
            assert!(end.seq > k, "{game}: {} entries", end.seq);
            let from = end.seq - k;
            let mut c = s.client(&t.id).await;
            c.hello(None, Some(from)).await;
            let mut next = from + 1;
            let view = loop {
                match c.recv().await {
                    ClientOut::Snapshot { seq, view, .. } => {
                        assert_eq!(seq, end.seq);
                        break view;
                    }
                    ClientOut::Events { seq, view, .. } => {
                        assert_eq!(seq, next, "{game}, {k} behind: no gap");
                        next += 1;
                        if let Some(v) = view {
                            assert_eq!(seq, end.seq);
                            break v;
                        }
                    }
                    _ => {}
                }
            };
            assert_eq!(view, want, "{game}, {k} behind: the same state");
            // Still connected: a ping is answered.
            c.send(&ClientIn::Ping { nonce: Some(k) }).await;
            c.recv_until(|m| matches!(m, ClientOut::Pong { .. })).await;
        }
    }
    s.running.shutdown().await;
}

/// Failure 6: an act decided on an older state (the clock, 托管 or another seat moved since)
/// is refused with `stale` and never applied; decided on the current state, it is applied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_decided_on_a_stale_state_is_refused() {
    let s = TestServer::start("hostile-stale").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id, 4).await;
    let engine = Tally::deal(&rules::deal::Seed::from_hex(SEED).unwrap(), 1);
    let mut c0 = seated(&s, &t.id, &tokens[0]).await;
    let mut c1 = seated(&s, &t.id, &tokens[1]).await;
    c0.act(json!({"type": "play", "tile": format!("T{}", engine.hands[0][0])}))
        .await;
    c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await;
    // Seat 1 decided before it saw seat 0's play (its last seq is still 0).
    assert_eq!(c1.last_seq, 0);
    let tile1 = format!("T{}", engine.hands[1][0]);
    c1.act_with_id(1, json!({"type": "play", "tile": tile1}), None)
        .await;
    let ClientOut::Rejected { problem, .. } = c1
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. } | ClientOut::Ack { .. }))
        .await
    else {
        panic!("a stale act was applied")
    };
    assert_eq!(problem.code, "stale");
    assert!(problem.zh.contains("局面已变"));
    assert_eq!(log_of(&s, &t.id).len(), 1);
    // Resending the same id stays refused; a fresh decision on the current state is applied.
    // (The client read seat 0's play while waiting for its answer.)
    assert_eq!(c1.last_seq, 1);
    c1.act_with_id(1, json!({"type": "play", "tile": tile1}), None)
        .await;
    assert_eq!(refusal(&mut c1).await, "stale");
    c1.act_with_id(2, json!({"type": "play", "tile": tile1}), None)
        .await;
    assert_eq!(
        c1.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await,
        ClientOut::Ack { id: 2, seq: 2 }
    );
    s.running.shutdown().await;
}

/// Failure 11 (second part): `last_seq: 0` on a table still at seq 0 gets a snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn last_seq_zero_on_a_fresh_table_gets_a_snapshot() {
    let s = TestServer::start("hostile-seq0").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let mut c = s.client(&t.id).await;
    c.hello(None, Some(0)).await;
    assert!(matches!(c.recv().await, ClientOut::Snapshot { seq: 0, .. }));
    s.running.shutdown().await;
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// A bot-only canary table plays a whole 80分 board while hostile clients do everything above
/// at other tables (and at the canary itself): it finishes, every entry of its log is a bot's,
/// and no server task panicked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canary_table_finishes_while_hostile_clients_attack() {
    let hook = std::panic::take_hook();
    // Server tasks run on the runtimes' worker threads; a test's own failed assertion runs on
    // the test's thread and is not counted.
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("tokio-runtime-worker") {
            PANICS.fetch_add(1, Ordering::SeqCst);
        }
        hook(info);
    }));
    let s = TestServer::start_tuned("hostile-canary", |config| {
        config.bot_delay = Duration::from_millis(10);
    })
    .await;
    let canary = s
        .create(json!({"game": "shengji", "seed": SEED, "bots": [0, 1, 2, 3]}))
        .await;
    let victim = s.create(json!({"game": "shengji", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &victim.id, 4).await;
    for round in 0..5u64 {
        // A spectator of the canary tries to act, rule and ask.
        let mut spy = s.client(&canary.id).await;
        spy.hello(None, None).await;
        for (id, action) in [
            json!({"type": "end_board"}),
            json!({"type": "penalty", "points": 120}),
            json!({"type": "play", "cards": ["BJ"]}),
            json!({"type": "ask_count"}),
        ]
        .into_iter()
        .enumerate()
        {
            spy.act_with_id(id as u64, action, Some(0)).await;
        }
        // Garbage, unknown fields, acts before hello, huge ids, stale seqs.
        let mut rude = s.client(&victim.id).await;
        rude.send_text(r#"{"type":"act","id":1,"seq":0,"action":{"type":"end_board"}}"#)
            .await;
        assert_eq!(rude.closed().await, Closed::Code(close::BAD_HELLO));
        let mut p = seated(&s, &victim.id, &tokens[(round % 4) as usize]).await;
        for text in [
            r#"{"type":"act","id":18446744073709551615,"seq":18446744073709551615,"action":{"type":"play","cards":["S2"]}}"#,
            r#"{"type":"act","id":2,"seq":0,"action":{"type":"penalty","points":4294967295}}"#,
            r#"{"type":"act","id":3,"seq":0,"seat":3,"action":{"type":"end_board"}}"#,
            r#"{"type":"act","id":4,"seq":0,"reason":"x","action":{"type":"end_board"}}"#,
            r#"{"type":"act","id":5,"seq":0,"action":{"type":"bury","cards":[]}}"#,
            r#"{"type":"resync"}"#,
        ] {
            p.send_text(text).await;
        }
        p.send(&ClientIn::Ping { nonce: Some(round) }).await;
        p.recv_until(|m| matches!(m, ClientOut::Pong { .. })).await;
    }
    s.until_over(&canary.id, Duration::from_secs(60)).await;
    let end = summary(&s, &canary.id).await;
    assert_eq!(end.state, TableState::Over, "the canary finished its board");
    let log = log_of(&s, &canary.id);
    assert!(log.iter().all(|e| e.actor == Actor::Bot));
    assert_eq!(
        summary(&s, &victim.id).await.seq,
        0,
        "no hostile act landed"
    );
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a server task panicked");
    s.running.shutdown().await;
}
