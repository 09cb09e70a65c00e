//! The table protocol end to end, over real sockets, with the infrastructure double `tally`:
//! whole games, the log replay, action ids, refusals, seats, reconnection, the spy test, clocks
//! and 托管, referee rulings, restart and tamper detection.

use std::collections::HashSet;
use std::time::Duration;

use paiju_tests::tally::{Tally, TallyEvent, TallyView};
use paiju_tests::{
    bots_play_out, eventually, temp_dir, test_config, Closed, TestServer, REFEREE_TOKEN,
};
use protocol::{close, Actor, ClientIn, ClientOut, Role, TableState};
use rules::{Engine, Viewer};
use serde_json::{json, Value};
use server::store::{self, SqliteStore, Store};

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

async fn seat_everyone(s: &TestServer, table: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    for seat in 0..4 {
        tokens.push(s.join(table, seat, &format!("玩家{seat}")).await.token);
    }
    tokens
}

/// Replays the stored log of a table into a fresh engine (after verifying its chain).
fn replay(db: &std::path::Path, table: &str) -> (Tally, Vec<store::LogEntry>) {
    let mut st = SqliteStore::open(db).unwrap();
    let t = st.table(table).unwrap().expect("stored");
    store::verify(&t.header, &t.log).expect("the chain verifies");
    let seed = rules::deal::Seed::from_hex(&t.header.seed).unwrap();
    let mut engine = Tally::deal(&seed, t.header.board);
    for e in &t.log {
        engine
            .apply(e.seat, e.actor, serde_json::from_str(&e.action).unwrap())
            .expect("stored actions replay");
    }
    (engine, t.log)
}

async fn referee_view(s: &TestServer, table: &str) -> (Value, Option<String>) {
    let mut r = s.client(table).await;
    let ClientOut::Welcome { role, seed, .. } = r.hello(Some(REFEREE_TOKEN), None).await else {
        panic!("welcome first")
    };
    assert_eq!(role, Role::Referee);
    let ClientOut::Snapshot { view, .. } = r.recv().await else {
        panic!("snapshot")
    };
    (view, seed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_by_four_clients_replays_from_the_log() {
    let s = TestServer::start("whole").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    assert_eq!(t.state, TableState::Waiting);
    assert_eq!(t.seed, None, "the seed stays secret until the end");
    let tokens = seat_everyone(&s, &t.id).await;
    let reports = bots_play_out::<Tally>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    assert_eq!(reports.iter().map(|r| r.actions).sum::<u64>(), 12);

    let (final_view, seed) = referee_view(&s, &t.id).await;
    assert_eq!(seed.as_deref(), Some(SEED));
    let (engine, log) = replay(&s.db, &t.id);
    assert_eq!(log.len(), 12);
    assert!(log
        .iter()
        .all(|e| e.actor == Actor::Player && e.client_id.is_some()));
    assert_eq!(
        serde_json::to_value(engine.view(Viewer::Referee)).unwrap(),
        final_view
    );
    // Once over, everyone may see the seed and check the commitment.
    let (status, body) = bots::http::request(s.addr, "GET", &format!("/api/tables/{}", t.id), None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    let summary: protocol::TableSummary = serde_json::from_str(&body).unwrap();
    assert_eq!(summary.state, TableState::Over);
    assert_eq!(summary.seed.as_deref(), Some(SEED));
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_refusals_and_seats() {
    let s = TestServer::start("ids").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut c0 = s.client(&t.id).await;
    let ClientOut::Welcome { seat, .. } = c0.hello(Some(&tokens[0]), None).await else {
        panic!()
    };
    assert_eq!(seat, Some(0));
    let ClientOut::Snapshot { view, .. } = c0.recv().await else {
        panic!()
    };
    let view: TallyView = serde_json::from_value(view).unwrap();
    let my_tile = view.hands[0].as_ref().unwrap()[0].clone();
    assert!(view.hands[1].is_none(), "no other hand in a seat's view");

    // An action is acknowledged once stored, then broadcast.
    c0.act_with_id(7, json!({"type": "play", "tile": my_tile}), None)
        .await;
    let ack = c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await;
    assert_eq!(ack, ClientOut::Ack { id: 7, seq: 1 });
    c0.recv_until(|m| matches!(m, ClientOut::Events { seq: 1, .. }))
        .await;

    // The same id again: answered from the cache, never applied twice.
    c0.act_with_id(7, json!({"type": "play", "tile": my_tile}), None)
        .await;
    let again = c0.recv().await;
    assert_eq!(again, ClientOut::Ack { id: 7, seq: 1 });
    c0.send(&protocol::ClientIn::Resync {}).await;
    let ClientOut::Snapshot { seq, .. } = c0.recv().await else {
        panic!()
    };
    assert_eq!(seq, 1, "applied once");

    // An illegal play: the engine's code and words, and nothing changes.
    let mut c1 = s.client(&t.id).await;
    c1.hello(Some(&tokens[1]), None).await;
    let ClientOut::Snapshot { view: before, .. } = c1.recv().await else {
        panic!()
    };
    c1.act_with_id(1, json!({"type": "play", "tile": "T99"}), None)
        .await;
    let ClientOut::Rejected { id, problem } = c1
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!((id, problem.code.as_str()), (1, "not_in_hand"));
    assert!(problem.zh.contains("T99") && problem.en.contains("T99"));
    c1.send(&protocol::ClientIn::Resync {}).await;
    let ClientOut::Snapshot {
        view: after, seq, ..
    } = c1
        .recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(
        (before, seq),
        (after, 1),
        "the refused play changed nothing"
    );

    // Acting in another seat with your token is refused.
    c1.act_with_id(2, json!({"type": "play", "tile": "T1"}), Some(2))
        .await;
    let ClientOut::Rejected { problem, .. } = c1
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "not_your_seat");

    // Out of turn: the engine says so.
    c0.act_with_id(8, json!({"type": "play", "tile": "T1"}), None)
        .await;
    let ClientOut::Rejected { problem, .. } = c0
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "not_your_turn");

    // Only the clock times a seat out: a player sending the timeout action is refused by the
    // engine itself.
    c0.act_with_id(9, json!({"type": "timeout"}), None).await;
    let ClientOut::Rejected { problem, .. } = c0
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "clock_only");

    // A spectator cannot act; a bad token cannot even say hello.
    let mut spectator = s.client(&t.id).await;
    let ClientOut::Welcome { role, .. } = spectator.hello(None, None).await else {
        panic!()
    };
    assert_eq!(role, Role::Spectator);
    spectator
        .act_with_id(1, json!({"type": "timeout"}), None)
        .await;
    let ClientOut::Rejected { problem, .. } = spectator
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "spectator");
    let mut thief = s.client(&t.id).await;
    let ClientOut::Error { problem } = thief.hello(Some("not-a-token"), None).await else {
        panic!()
    };
    assert_eq!(problem.code, "bad_token");
    assert_eq!(thief.closed().await, Closed::Code(close::BAD_TOKEN));

    // A taken seat cannot be joined again (no name-based takeover).
    let (status, body) = bots::http::request(
        s.addr,
        "POST",
        &format!("/api/tables/{}/join", t.id),
        Some(r#"{"seat":0,"name":"玩家0"}"#),
    )
    .await
    .unwrap();
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("seat_taken"));

    // Leaving closes the seat's connections with 4003 and frees the seat.
    let (status, _) = bots::http::request(
        s.addr,
        "POST",
        &format!("/api/tables/{}/leave", t.id),
        Some(&json!({"token": tokens[0]}).to_string()),
    )
    .await
    .unwrap();
    assert_eq!(status, 200);
    assert_eq!(c0.closed().await, Closed::Code(close::BAD_TOKEN));
    // The table published the change to the lobby before it closed the leaver's connection:
    // asked at once, the lobby shows the seat free and nobody on it.
    let (status, body) = bots::http::request(s.addr, "GET", &format!("/api/tables/{}", t.id), None)
        .await
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let summary: protocol::TableSummary = serde_json::from_str(&body).unwrap();
    assert_eq!(summary.seats[0].name, None, "{body}");
    assert!(!summary.seats[0].connected, "{body}");
    let rejoined = s.join(&t.id, 0, "新人").await;
    assert_ne!(rejoined.token, tokens[0]);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_in_the_middle_resumes_from_the_last_seq() {
    let s = TestServer::start("reconnect").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut clients = Vec::new();
    for token in &tokens {
        let mut c = s.client(&t.id).await;
        c.hello(Some(token), None).await;
        c.recv().await; // snapshot
        clients.push(c);
    }
    let lowest = |c: &paiju_tests::Client| -> String {
        // The last view this client saw.
        for f in c.frames.iter().rev() {
            let m: ClientOut = serde_json::from_str(f).unwrap();
            let v = match m {
                ClientOut::Snapshot { view, .. } => view,
                ClientOut::Events {
                    view: Some(view), ..
                } => view,
                _ => continue,
            };
            let v: TallyView = serde_json::from_value(v).unwrap();
            return v.hands[v.seat.unwrap()].as_ref().unwrap()[0].clone();
        }
        panic!("no view")
    };
    // Seat 0 leads the first round, then its connection drops.
    let tile = lowest(&clients[0]);
    clients[0].act(json!({"type": "play", "tile": tile})).await;
    clients[0]
        .recv_until(|m| matches!(m, ClientOut::Events { seq: 1, .. }))
        .await;
    let last_seq = clients[0].last_seq;
    assert_eq!(last_seq, 1);
    drop(clients.remove(0));
    // Seats 1 and 2 play on meanwhile.
    for (i, seq) in [(0usize, 2u64), (1, 3)] {
        // Each decides on the state after the previous play.
        clients[i]
            .recv_until(move |m| matches!(m, ClientOut::Events { seq: s, .. } if *s == seq - 1))
            .await;
        let tile = lowest(&clients[i]);
        clients[i].act(json!({"type": "play", "tile": tile})).await;
        clients[i]
            .recv_until(move |m| matches!(m, ClientOut::Events { seq: s, .. } if *s == seq))
            .await;
    }
    // Back with the last seq: exactly the missed events, the last with the current view.
    let mut back = s.client(&t.id).await;
    let ClientOut::Welcome { seq, .. } = back.hello(Some(&tokens[0]), Some(last_seq)).await else {
        panic!()
    };
    assert_eq!(seq, 3);
    let mut seen = Vec::new();
    while seen.len() < 2 {
        match back.recv().await {
            ClientOut::Events {
                seq, view, events, ..
            } => {
                seen.push((seq, view.is_some()));
                // Seat 0 sees the plays but not the others' hands.
                for e in events {
                    let e: TallyEvent = serde_json::from_value(e).unwrap();
                    assert!(!matches!(e, TallyEvent::Hand { seat, .. } if seat != 0));
                }
            }
            ClientOut::Seats { .. } => {}
            other => panic!("expected missed events, got {other:?}"),
        }
    }
    assert_eq!(seen, vec![(2, false), (3, true)]);
    drop(back);
    drop(clients);
    // Everyone finishes with fresh connections.
    let reports = bots_play_out::<Tally>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    let (engine, log) = replay(&s.db, &t.id);
    assert!(engine.is_over());
    assert_eq!(log.len(), 12);
    s.running.shutdown().await;
}

/// Every frame sent to seat 0 through a whole game: no tile of another seat's hand appears
/// before it is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_never_sees_another_hand_before_it_is_played() {
    let s = TestServer::start("spy").await;
    let t = s
        .create(json!({"game": "tally", "seed": SEED, "bots": [1, 2, 3]}))
        .await;
    let me = s.join(&t.id, 0, "间谍").await;
    let opts = bots::client::BotOptions {
        record: true,
        ..Default::default()
    };
    let report = bots::client::play::<Tally>(&s.ws_url(&t.id), &me.token, opts)
        .await
        .unwrap();
    assert!(report.over);
    let deal = Tally::deal(&rules::deal::Seed::from_hex(SEED).unwrap(), 1);
    let secret: Vec<String> = (1..4)
        .flat_map(|s| deal.hands[s].iter().map(|t| format!("T{t}")))
        .collect();
    let mut revealed: HashSet<String> = HashSet::new();
    let mut checked = 0;
    for frame in &report.frames {
        let m: ClientOut = serde_json::from_str(frame).unwrap();
        if let ClientOut::Events { events, .. } = &m {
            for e in events {
                if let Ok(TallyEvent::Played { tile, .. }) = serde_json::from_value(e.clone()) {
                    revealed.insert(tile);
                }
            }
        }
        for tile in &secret {
            if !revealed.contains(tile) {
                assert!(
                    !frame.contains(&format!("\"{tile}\"")),
                    "{tile} leaked before it was played: {frame}"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 12);
    assert_eq!(revealed.len(), 12, "every tile was played in the end");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_play_for_an_absent_player_and_bots_fill_seats() {
    let dir = temp_dir("clock");
    let mut config = test_config(dir.path().join("paiju.db"));
    config.clock_scale = 0.002; // 30 s → 60 ms
    let s = TestServer::start_with(config).await;
    let t = s
        .create(json!({"game": "tally", "seed": SEED, "bots": [1, 2, 3]}))
        .await;
    // Seat 0 sits down and never connects: its clock runs out, then the table plays for it.
    s.join(&t.id, 0, "缺席").await;
    let mut watcher = s.client(&t.id).await;
    watcher.hello(None, None).await;
    watcher
        .recv_until(|m| {
            matches!(
                m,
                ClientOut::Events {
                    state: TableState::Over,
                    ..
                }
            )
        })
        .await;
    let (_, log) = replay(&s.db, &t.id);
    let seat0: Vec<Actor> = log
        .iter()
        .filter(|e| e.seat == 0)
        .map(|e| e.actor)
        .collect();
    assert_eq!(seat0, vec![Actor::Clock, Actor::Auto, Actor::Auto]);
    assert!(log
        .iter()
        .filter(|e| e.seat != 0)
        .all(|e| e.actor == Actor::Bot));
    let (status, body) = bots::http::request(s.addr, "GET", &format!("/api/tables/{}", t.id), None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("\"auto\":true"), "{body}");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connected_player_who_times_out_is_not_taken_over_and_a_referee_rules() {
    let dir = temp_dir("clock2");
    let mut config = test_config(dir.path().join("paiju.db"));
    config.clock_scale = 0.002;
    let s = TestServer::start_with(config).await;
    let t = s
        .create(json!({"game": "tally", "seed": SEED, "bots": [1, 2, 3]}))
        .await;
    let me = s.join(&t.id, 0, "慢").await;
    let mut c = s.client(&t.id).await;
    c.hello(Some(&me.token), None).await;
    // Never act: every move of seat 0 is the clock's, none is 托管 (the player is here).
    c.recv_until(|m| {
        matches!(
            m,
            ClientOut::Events {
                state: TableState::Over,
                ..
            }
        )
    })
    .await;
    let (_, log) = replay(&s.db, &t.id);
    let seat0: Vec<Actor> = log
        .iter()
        .filter(|e| e.seat == 0)
        .map(|e| e.actor)
        .collect();
    assert_eq!(seat0, vec![Actor::Clock; 3]);

    // A referee's ruling is a logged action against the named seat.
    let mut r = s.client(&t.id).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    r.recv().await; // the snapshot
    r.rule(1, json!({"type": "fine", "points": 10}), Some(2), "信号")
        .await;
    // The game is over: the ruling is refused like any action after the end.
    let ClientOut::Rejected { problem, .. } = r
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. } | ClientOut::Ack { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "game_over");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn referee_rulings_are_logged_against_the_seat() {
    let s = TestServer::start("ruling").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut r = s.client(&t.id).await;
    let ClientOut::Welcome { seed, .. } = r.hello(Some(REFEREE_TOKEN), None).await else {
        panic!()
    };
    assert_eq!(seed.as_deref(), Some(SEED), "the referee sees the seed");
    let ClientOut::Snapshot { view, .. } = r.recv().await else {
        panic!()
    };
    let view: TallyView = serde_json::from_value(view).unwrap();
    assert!(
        view.hands.iter().all(Option::is_some),
        "the referee sees every hand"
    );
    r.rule(
        1,
        json!({"type": "fine", "points": 40}),
        Some(2),
        "信号：敲桌子",
    )
    .await;
    assert_eq!(
        r.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await,
        ClientOut::Ack { id: 1, seq: 1 }
    );
    let ClientOut::Events {
        seat, by, reason, ..
    } = r
        .recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!((seat, by), (2, Actor::Referee));
    assert_eq!(
        reason.as_deref(),
        Some("信号：敲桌子"),
        "the reason is shown"
    );
    // Without a seat a ruling is refused.
    r.rule(2, json!({"type": "fine", "points": 40}), None, "信号")
        .await;
    let ClientOut::Rejected { problem, .. } = r
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "bad_seat");
    let reports = bots_play_out::<Tally>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    let (engine, log) = replay(&s.db, &t.id);
    assert_eq!(engine.fines, vec![0, 0, 40, 0]);
    assert_eq!(log[0].actor, Actor::Referee);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_rebuilds_tables_and_a_tampered_log_is_refused() {
    let dir = temp_dir("restart");
    let db = dir.path().join("paiju.db");
    let s = TestServer::start_with(test_config(db.clone())).await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let other = s
        .create(json!({"game": "tally", "seed": SEED, "board": 2}))
        .await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut c0 = s.client(&t.id).await;
    c0.hello(Some(&tokens[0]), None).await;
    let ClientOut::Snapshot { view, .. } = c0.recv().await else {
        panic!()
    };
    let view: TallyView = serde_json::from_value(view).unwrap();
    let tile = view.hands[0].as_ref().unwrap()[0].clone();
    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await;
    // Graceful shutdown closes sockets with 1001.
    let shutdown = tokio::spawn(async move { s.running.shutdown().await });
    assert_eq!(c0.closed().await, Closed::Code(close::GOING_AWAY));
    shutdown.await.unwrap();

    // Restart: the table is back with its log; the acknowledged id is still known.
    let s = TestServer::start_with(test_config(db.clone())).await;
    assert!(s.running.not_recovered.is_empty());
    let mut c0 = s.client(&t.id).await;
    let ClientOut::Welcome { seq, .. } = c0.hello(Some(&tokens[0]), Some(1)).await else {
        panic!()
    };
    assert_eq!(seq, 1);
    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    assert_eq!(
        c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await,
        ClientOut::Ack { id: 1, seq: 1 },
        "a resent id is answered from the log, not applied again"
    );
    drop(c0);
    let reports = bots_play_out::<Tally>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    let (engine, log) = replay(&db, &t.id);
    assert!(engine.is_over());
    assert_eq!(log.len(), 12);
    s.running.shutdown().await;

    // Someone edits one stored action: verify catches it and the table is not served again.
    {
        let st = SqliteStore::open(&db).unwrap();
        let changed = st
            .connection()
            .execute(
                "UPDATE log SET action = '{\"type\":\"timeout\"}' WHERE table_id = ?1 AND seq = 5",
                [&t.id],
            )
            .unwrap();
        assert_eq!(changed, 1);
    }
    let mut st = SqliteStore::open(&db).unwrap();
    let stored = st.table(&t.id).unwrap().unwrap();
    assert_eq!(
        store::verify(&stored.header, &stored.log),
        Err(store::Tampered::Hash { seq: 5 })
    );
    let s = TestServer::start_with(test_config(db.clone())).await;
    assert_eq!(s.running.not_recovered.len(), 1);
    assert_eq!(s.running.not_recovered[0].0, t.id);
    let (status, _) = bots::http::request(s.addr, "GET", &format!("/api/tables/{}", t.id), None)
        .await
        .unwrap();
    assert_eq!(status, 404);
    // The untouched table is served as before.
    let (status, _) =
        bots::http::request(s.addr, "GET", &format!("/api/tables/{}", other.id), None)
            .await
            .unwrap();
    assert_eq!(status, 200);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_tables_are_closed_and_their_logs_kept() {
    let dir = temp_dir("idle");
    let mut config = test_config(dir.path().join("paiju.db"));
    config.idle_after = Duration::from_millis(100);
    let s = TestServer::start_with(config).await;
    let t = s.create(json!({"game": "tally"})).await;
    let path = format!("/api/tables/{}", t.id);
    // Idle for 100 ms: closed soon after.
    eventually(
        Duration::from_secs(2),
        "the idle table was closed",
        async || {
            let (status, _) = bots::http::request(s.addr, "GET", &path, None)
                .await
                .unwrap();
            (status == 404).then_some(())
        },
    )
    .await;
    let mut st = SqliteStore::open(&s.db).unwrap();
    assert_eq!(st.table(&t.id).unwrap().unwrap().state, TableState::Closed);
    s.running.shutdown().await;
}

/// A write the store refuses (a failing disk, made here with a SQLite trigger) is never
/// acknowledged or broadcast: the player is told `store_failed`, the table closes its sockets
/// with 4503 (retry) rather than run ahead of its log. Once the disk is mended the table comes
/// back from its log by itself, without that action, and the same action id is applied once;
/// after a restart it is there too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_is_never_acknowledged_and_a_restart_recovers() {
    let dir = temp_dir("store-failure");
    let db = dir.path().join("paiju.db");
    let s = TestServer::start_with(test_config(db.clone())).await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut c0 = s.client(&t.id).await;
    c0.hello(Some(&tokens[0]), None).await;
    let ClientOut::Snapshot { view, .. } = c0.recv().await else {
        panic!()
    };
    let view: TallyView = serde_json::from_value(view).unwrap();
    let tile = view.hands[0].as_ref().unwrap()[0].clone();
    let mut watcher = s.client(&t.id).await;
    watcher.hello(None, None).await;

    let disk = SqliteStore::open(&db).unwrap();
    disk.connection()
        .execute_batch(
            "CREATE TRIGGER broken_disk BEFORE INSERT ON log
             BEGIN SELECT RAISE(ABORT, 'disk failure (test)'); END;",
        )
        .unwrap();
    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    let reply = c0
        .recv_until(|m| matches!(m, ClientOut::Ack { .. } | ClientOut::Rejected { .. }))
        .await;
    let ClientOut::Rejected { id: 1, problem } = reply else {
        panic!("{reply:?}")
    };
    assert_eq!(problem.code, "store_failed");
    assert_eq!(c0.closed().await, Closed::Code(close::RETRY));
    // The spectator saw no event of the lost action before its socket closed.
    assert_eq!(watcher.closed().await, Closed::Code(close::RETRY));
    assert!(
        watcher
            .frames
            .iter()
            .all(|f| !f.contains(r#""type":"events""#)),
        "an unstored action was broadcast: {:?}",
        watcher.frames
    );
    assert!(replay(&db, &t.id).1.is_empty(), "nothing was stored");
    // While the disk still fails, the table is not gone: a page is told to come back.
    let mut early = s.client(&t.id).await;
    early
        .send(&ClientIn::Hello {
            token: Some(tokens[0].clone()),
            last_seq: Some(0),
            device: None,
        })
        .await;
    assert_eq!(early.closed().await, Closed::Code(close::RETRY));

    disk.connection()
        .execute_batch("DROP TRIGGER broken_disk")
        .unwrap();
    drop(disk);
    // Mended: the table rebuilds itself from its log, no restart needed, at its next retry
    // (the retries back off from 200 ms, doubling: the next is due within a few seconds).
    let (mut c0, seq) = eventually(
        Duration::from_secs(10),
        "the table came back by itself",
        async || {
            let mut c = s.client(&t.id).await;
            c.send(&ClientIn::Hello {
                token: Some(tokens[0].clone()),
                last_seq: Some(0),
                device: None,
            })
            .await;
            match c.next_message().await {
                Some(ClientOut::Welcome { seq, .. }) => Some((c, seq)),
                _ => None,
            }
        },
    )
    .await;
    assert_eq!(seq, 0, "the table is back as its log has it");
    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    assert_eq!(
        c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await,
        ClientOut::Ack { id: 1, seq: 1 }
    );
    drop(c0);
    s.running.shutdown().await;
    let s = TestServer::start_with(test_config(db.clone())).await;
    assert!(s.running.not_recovered.is_empty());
    let mut c0 = s.client(&t.id).await;
    let ClientOut::Welcome { seq, .. } = c0.hello(Some(&tokens[0]), Some(1)).await else {
        panic!()
    };
    assert_eq!(seq, 1, "after a restart too");
    // The same id again: answered from the log, never applied twice.
    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    assert_eq!(
        c0.recv_until(|m| matches!(m, ClientOut::Ack { .. })).await,
        ClientOut::Ack { id: 1, seq: 1 }
    );
    assert_eq!(replay(&db, &t.id).1.len(), 1);
    s.running.shutdown().await;
}

/// An action's frame is written once for each kind of viewer and handed to every connection
/// of that kind (docs/performance.md, "Sixteenth round"): two spectators get the same frame,
/// neither with a hand in it, in its view or its events; the seat that acted gets its own, with
/// its hand and nobody else's (the events compared as they are redacted: "Seventeenth round").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn viewers_of_one_kind_get_one_frame_and_each_seat_its_own() {
    let s = TestServer::start("one-frame").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let tokens = seat_everyone(&s, &t.id).await;
    let mut c0 = s.client(&t.id).await;
    c0.hello(Some(&tokens[0]), None).await;
    let ClientOut::Snapshot { view, .. } = c0.recv().await else {
        panic!("snapshot")
    };
    let tile = serde_json::from_value::<TallyView>(view).unwrap().hands[0]
        .as_ref()
        .unwrap()[0]
        .clone();
    let mut watchers = Vec::new();
    for _ in 0..2 {
        let mut w = s.client(&t.id).await;
        let ClientOut::Welcome { role, .. } = w.hello(None, None).await else {
            panic!("welcome")
        };
        assert_eq!(role, Role::Spectator);
        w.recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
            .await;
        watchers.push(w);
    }

    c0.act_with_id(1, json!({"type": "play", "tile": tile}), None)
        .await;
    let events = |m: &ClientOut| matches!(m, ClientOut::Events { seq: 1, .. });
    let mine = c0.recv_until(events).await;
    let ClientOut::Events {
        view: Some(my_view),
        ..
    } = &mine
    else {
        panic!("a live update carries the view: {mine:?}")
    };
    let my_view: TallyView = serde_json::from_value(my_view.clone()).unwrap();
    assert!(my_view.hands[0].is_some(), "the seat sees its own hand");
    assert!(
        my_view.hands[1..].iter().all(Option::is_none),
        "and no other"
    );
    assert_eq!(my_view.played, vec![(0, tile)]);

    let first = watchers[0].recv_until(events).await;
    let second = watchers[1].recv_until(events).await;
    assert_eq!(first, second, "both spectators get the same frame");
    let ClientOut::Events {
        view: Some(theirs), ..
    } = &first
    else {
        panic!("a live update carries the view: {first:?}")
    };
    let theirs: TallyView = serde_json::from_value(theirs.clone()).unwrap();
    assert!(
        theirs.hands.iter().all(Option::is_none),
        "a spectator sees no hand"
    );
    assert_eq!(theirs.played, my_view.played);
    assert_ne!(first, mine, "the seat's frame is its own");
    // The play's events are redacted per viewer too: what is left in the seat's hand goes to
    // the seat alone, though the spectators' events are written from the same entry.
    let hands_told = |m: &ClientOut| match m {
        ClientOut::Events { events, .. } => events.iter().filter(|e| e["type"] == "hand").count(),
        _ => 0,
    };
    assert_eq!(
        hands_told(&mine),
        1,
        "the seat hears what is left in its hand"
    );
    assert_eq!(hands_told(&first), 0, "a spectator does not");
    s.running.shutdown().await;
}
