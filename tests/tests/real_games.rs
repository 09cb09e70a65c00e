//! The real games over real sockets: a whole 80分 board by four WebSocket clients, a whole 够级
//! game by six seats, each replayed from the stored log to the same result, and the spy test on
//! an 80分 board.

use std::collections::HashSet;

use paiju_tests::{bots_play_out, TestServer, REFEREE_TOKEN};
use protocol::{Actor, ClientOut, TableState, TableSummary};
use rules::cards::Card;
use rules::Viewer;
use serde_json::{json, Value};
use server::store::{self, SqliteStore, Store};
use server::TableGame;

/// Bots with no thinking time act far faster than people: lift the per-connection rate limit
/// (the limits have their own tests).
async fn start(name: &str) -> TestServer {
    TestServer::start_tuned(name, |config| {
        config.limits.burst = 10_000.0;
        config.limits.per_second = 10_000.0;
    })
    .await
}

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

async fn seat_players(s: &TestServer, table: &str, seats: &[usize]) -> Vec<String> {
    let mut tokens = Vec::new();
    for &seat in seats {
        tokens.push(s.join(table, seat, &format!("玩家{seat}")).await.token);
    }
    tokens
}

/// Replays the stored log into a fresh engine after verifying the chain; its referee view.
fn replayed_referee_view<G: TableGame>(
    db: &std::path::Path,
    table: &str,
) -> (Value, Vec<store::LogEntry>) {
    let mut st = SqliteStore::open(db).unwrap();
    let t = st.table(table).unwrap().expect("stored");
    store::verify(&t.header, &t.log).expect("the chain verifies");
    let seed = rules::deal::Seed::from_hex(&t.header.seed).unwrap();
    let fixed = server::DealFixed::from_json(&t.header.fixed).unwrap();
    let mut engine = G::start(&t.header.ruleset, &seed, t.header.board, &fixed).unwrap();
    for e in &t.log {
        engine
            .apply(e.seat, e.actor, serde_json::from_str(&e.action).unwrap())
            .expect("stored actions replay");
    }
    assert!(engine.is_over());
    (
        serde_json::to_value(engine.view(Viewer::Referee)).unwrap(),
        t.log,
    )
}

async fn server_referee_view(s: &TestServer, table: &str) -> Value {
    let mut r = s.client(table).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    let ClientOut::Snapshot { view, state, .. } = r.recv().await else {
        panic!("snapshot")
    };
    assert_eq!(state, TableState::Over);
    view
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_shengji_board_by_four_clients_replays_from_the_log() {
    let s = start("shengji-board").await;
    let t = s
        .create(json!({"game": "shengji", "seed": SEED, "board": 1}))
        .await;
    assert_eq!(t.ruleset, "fujian-2024");
    let tokens = seat_players(&s, &t.id, &[0, 1, 2, 3]).await;
    let reports = bots_play_out::<rules::shengji::Board>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    // 1 burial + 25 tricks of 4 plays (a failed throw adds its own entries).
    let actions: u64 = reports.iter().map(|r| r.actions).sum();
    assert!(actions >= 101, "{actions}");
    let (replayed, log) = replayed_referee_view::<rules::shengji::Board>(&s.db, &t.id);
    assert_eq!(log.len() as u64, actions);
    assert!(log.iter().all(|e| e.actor == Actor::Player));
    assert_eq!(server_referee_view(&s, &t.id).await, replayed);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_gouji_game_by_six_seats_replays_from_the_log() {
    let s = start("gouji-game").await;
    // Two people over WebSockets, four bots in the other seats.
    let t = s
        .create(json!({"game": "gouji", "seed": SEED, "board": 1, "bots": [1, 2, 4, 5]}))
        .await;
    assert_eq!(t.ruleset, "zaozhuang-2017");
    assert_eq!(t.seats.len(), 6);
    let tokens = seat_players(&s, &t.id, &[0, 3]).await;
    let reports = bots_play_out::<rules::gouji::Game>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    let (replayed, log) = replayed_referee_view::<rules::gouji::Game>(&s.db, &t.id);
    assert!(log.iter().any(|e| e.actor == Actor::Player));
    assert!(log.iter().any(|e| e.actor == Actor::Bot));
    assert_eq!(server_referee_view(&s, &t.id).await, replayed);
    s.running.shutdown().await;
}

/// 够级's views share the players' list between all viewers of a moment (the server writes it
/// once, `Engine::is_shared_view_field`): through a whole game, with a referee watching (whose
/// views, written in the same moments, carry every hand), every frame to a seat carries its own
/// hand and no other, and the list answers every count as 问牌 does, the seat's own too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gouji_seat_sees_its_own_hand_only_while_a_referee_watches() {
    let s = start("gouji-spy").await;
    let t = s
        .create(json!({"game": "gouji", "seed": SEED, "board": 1, "bots": [1, 2, 3, 4, 5]}))
        .await;
    let mut referee = s.client(&t.id).await;
    referee.hello(Some(REFEREE_TOKEN), None).await;
    // The referee reads as it goes (a reader that falls behind is closed), counting its views
    // with all six hands.
    let watching = tokio::spawn(async move {
        let mut with_hands = 0;
        while let Some(message) = referee.next_message().await {
            if let ClientOut::Events { view, state, .. } = message {
                let hands = view.as_ref().and_then(|v| v["hands"].as_array());
                if hands.is_some_and(|h| h.len() == 6) {
                    with_hands += 1;
                }
                if state == TableState::Over {
                    break;
                }
            }
        }
        with_hands
    });
    let me = s.join(&t.id, 0, "间谍").await;
    let opts = bots::client::BotOptions {
        record: true,
        ..Default::default()
    };
    let report = bots::client::play::<rules::gouji::Game>(&s.ws_url(&t.id), &me.token, opts)
        .await
        .unwrap();
    assert!(report.over);
    let mut views = 0;
    for frame in &report.frames {
        let m: Value = serde_json::from_str(frame).unwrap();
        let Some(view) = m.get("view") else { continue };
        views += 1;
        assert!(
            view.get("hands").is_none(),
            "another hand reached A1: {frame}"
        );
        let hand = view["hand"].as_array().expect("A1's own hand").len();
        let players = view["players"].as_array().unwrap();
        for p in players {
            assert!(p.get("hand").is_none(), "{frame}");
            let n = p["cards"]["n"].as_u64().unwrap();
            match p["cards"]["kind"].as_str() {
                Some("exact") => assert!(n <= 10, "an exact count over 10: {frame}"),
                Some("more_than") => assert_eq!(n, 10, "{frame}"),
                other => panic!("a count of kind {other:?}: {frame}"),
            }
        }
        let own = &players[0]["cards"];
        let answered = if hand <= 10 {
            json!({"kind": "exact", "n": hand})
        } else {
            json!({"kind": "more_than", "n": 10})
        };
        assert_eq!(own, &answered, "A1's own count, answered: {frame}");
    }
    assert!(views > 100, "{views} views");
    let with_hands = watching.await.unwrap();
    assert!(
        with_hands > 100,
        "the referee's views had every hand: {with_hands}"
    );
    s.running.shutdown().await;
}

/// Cards a frame reveals by the rules: plays, a failed throw's attempt, the kitty at the end.
fn public_cards(event: &Value, into: &mut Vec<String>) {
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    match event.get("type").and_then(Value::as_str) {
        Some("played") => into.extend(strings(event.get("cards"))),
        Some("throw_failed") => into.extend(strings(event.get("attempt"))),
        Some("board_over") | Some("kitty_captured") => into.extend(strings(event.get("kitty"))),
        _ => {}
    }
}

/// Every frame sent to seat N through a whole board: no card of another seat's hand (or of the
/// kitty) that N does not hold itself appears before the rules reveal it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_never_sees_another_hand_before_it_is_played() {
    let s = start("shengji-spy").await;
    // Board 2: East declares, so North (the spy) never holds the kitty.
    let t = s
        .create(json!({"game": "shengji", "seed": SEED, "board": 2, "bots": [1, 2, 3]}))
        .await;
    let me = s.join(&t.id, 0, "间谍").await;
    let opts = bots::client::BotOptions {
        record: true,
        ..Default::default()
    };
    let report = bots::client::play::<rules::shengji::Board>(&s.ws_url(&t.id), &me.token, opts)
        .await
        .unwrap();
    assert!(report.over);
    let deal = rules::deal::deal_shengji(
        &rules::deal::Seed::from_hex(SEED).unwrap(),
        2,
        rules::deal::Fixed::default(),
    );
    assert_eq!(deal.declarer, 1);
    let mine: HashSet<String> = deal.hands[0].iter().map(Card::to_string).collect();
    let secret: HashSet<String> = deal.hands[1..]
        .iter()
        .flatten()
        .chain(&deal.kitty)
        .map(Card::to_string)
        .filter(|c| !mine.contains(c))
        .collect();
    assert!(secret.len() > 20, "enough faces to check: {}", secret.len());
    let mut revealed: HashSet<String> = HashSet::new();
    let mut frames = 0;
    for frame in &report.frames {
        let m: Value = serde_json::from_str(frame).unwrap();
        let mut public = Vec::new();
        for e in m
            .get("events")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            public_cards(e, &mut public);
        }
        revealed.extend(public);
        for card in secret.difference(&revealed) {
            assert!(
                !frame.contains(&format!("\"{card}\"")),
                "{card} reached North before it was played: {frame}"
            );
        }
        frames += 1;
    }
    // A board is about a hundred actions, fewer when the (普通) computers throw several cards
    // at once: still one frame or more each.
    assert!(frames > 60, "{frames} frames");
    assert!(
        secret.is_subset(&revealed),
        "by the end every card was shown"
    );
    s.running.shutdown().await;
}

/// 定级、定主: a director fixes an 80分 board's level and trump; the cards are the seed's, the
/// header keeps what was fixed (so the log replays to the same board), and bad values or fixing
/// a 够级 game are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_director_fixes_level_and_trump() {
    let s = start("fixed-board").await;
    let t = s
        .create(json!({"game": "shengji", "seed": SEED, "board": 2, "level": "7", "trump": "NT"}))
        .await;
    let tokens = seat_players(&s, &t.id, &[0, 1, 2, 3]).await;
    let reports = bots_play_out::<rules::shengji::Board>(&s, &t.id, &tokens).await;
    assert!(reports.iter().all(|r| r.over));
    let (replayed, _) = replayed_referee_view::<rules::shengji::Board>(&s.db, &t.id);
    assert_eq!(replayed["level"], "7");
    assert_eq!(replayed["trump"], "NT");
    assert_eq!(server_referee_view(&s, &t.id).await, replayed);
    // The cards are those the seed deals for board 2, whatever was fixed.
    let dealt = rules::deal::deal_shengji(
        &rules::deal::Seed::from_hex(SEED).unwrap(),
        2,
        rules::deal::Fixed::default(),
    );
    let played: Vec<Card> = replayed["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["plays"].as_array().unwrap().clone())
        .filter(|p| p["seat"] == "N")
        .flat_map(|p| serde_json::from_value::<Vec<Card>>(p["cards"].clone()).unwrap())
        .collect();
    let mut north: Vec<Card> = dealt.hands[0].clone();
    let mut played_sorted = played;
    north.sort();
    played_sorted.sort();
    assert_eq!(
        dealt.declarer, 1,
        "board 2 is East's: North plays only the cards dealt"
    );
    assert_eq!(played_sorted, north, "North plays the hand the seed dealt");

    for (body, word) in [
        (json!({"game": "shengji", "level": "1"}), "level"),
        (json!({"game": "shengji", "trump": "X"}), "trump"),
        (json!({"game": "gouji", "level": "7"}), "gouji"),
    ] {
        let err = bots::http::post_json::<TableSummary>(s.addr, "/api/tables", &body)
            .await
            .unwrap_err();
        assert!(err.starts_with("400"), "{body}: {err}");
        assert!(
            err.contains("bad_request") && err.contains(word),
            "{body}: {err}"
        );
    }
    s.running.shutdown().await;
}
