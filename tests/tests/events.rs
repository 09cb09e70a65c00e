//! A whole 80分 duplicate event over the real server (issue 11): the director creates it and
//! registers the pairs (bot pairs and people), starts every round; the server opens the tables
//! from the movement, people sit down with their pair tokens and play (WebSocket bot clients),
//! the results are read from the tables, the pairs confirm (one disputes, the director adjusts
//! and deducts), the rounds close, the standings rank both directions, the seed is revealed,
//! and every board re-dealt from it gives the cards that were played.
//!
//! Then the same with the real binary killed with SIGKILL in the middle of a round: after the
//! restart nothing logged is lost and the event is finished.
//!
//! And the director's calls refuse everyone else (JSON `Problem`, 403).
//!
//! On PostgreSQL (`PAIJU_TEST_POSTGRES`; unset, those tests fail and say so): a practice event on
//! one node, rebuilt after a restart; and two nodes on one database, the event run by one of them
//! (the other answers 307) and taken over by the other, its round's tables with it, when the
//! first stops.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

// One HTTP exchange (status and JSON), and one that must succeed.
use paiju_tests::{
    eventually, paiju_bin, raw_http, temp_dir, test_config, TestServer, REFEREE_TOKEN,
};
use paiju_tests::{http as call, http_ok as ok};
use protocol::{CompetitionCards, CompetitionJoined, CompetitionView, PairStatus};
use rules::cards::Card;
use serde_json::{json, Value};
use server::store::{self, CompetitionStore, SqliteStore, Store};

const DIRECTOR: &str = "7d1f3a9c5e2b8d4f6a0c1e3b5d7f9a2c";
/// The bots' pause before a move against the real binary (it keeps the per-connection rate
/// limit of 10 messages a second).
const THINK: Duration = Duration::from_millis(120);

/// A pair's (or team's) own page, as its token opens it.
async fn pair_status(addr: SocketAddr, id: &str, token: &str) -> PairStatus {
    serde_json::from_value(
        ok(
            addr,
            "POST",
            &format!("/api/events/{id}/pair"),
            None,
            json!({ "token": token }),
        )
        .await,
    )
    .unwrap()
}

async fn view(addr: SocketAddr, id: &str) -> CompetitionView {
    serde_json::from_value(
        ok(
            addr,
            "GET",
            &format!("/api/events/{id}"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap()
}

/// Waits until `f` holds of the director's view of the event (60 s at most).
async fn until(
    addr: SocketAddr,
    id: &str,
    what: &str,
    f: impl Fn(&CompetitionView) -> bool,
) -> CompetitionView {
    until_for(addr, id, what, 60, f).await
}

/// How long a running event may go without a step (its log growing: a table opened, a game's
/// result read, a confirmation) while a test waits on it. The longest step measured here was
/// 7 s (够级 with 120 ms bots, a debug build, a load average of 7 on two cores): a minute is
/// room for a busier machine, not for a stuck event.
const STALL: Duration = Duration::from_secs(60);

/// Watches an event move: fails once its log has not grown for [`STALL`].
struct Moving {
    log_len: u64,
    since: std::time::Instant,
}

impl Moving {
    fn new() -> Moving {
        Moving {
            log_len: 0,
            since: std::time::Instant::now(),
        }
    }

    fn check(&mut self, v: &CompetitionView, what: &str) {
        if v.log_len != self.log_len {
            self.log_len = v.log_len;
            self.since = std::time::Instant::now();
        }
        assert!(
            self.since.elapsed() < STALL,
            "waiting for {what}: the event took no step for {STALL:?} (log at {}): {v:#?}",
            v.log_len
        );
    }
}

/// Waits until `f` holds of the event for as long as the event moves: each step it takes gives
/// the wait another [`STALL`], so a round of many games may take its time and a stuck one
/// fails within a minute of sticking.
async fn until_moving(
    addr: SocketAddr,
    id: &str,
    what: &str,
    f: impl Fn(&CompetitionView) -> bool,
) -> CompetitionView {
    let mut moving = Moving::new();
    loop {
        let v = view(addr, id).await;
        if f(&v) {
            return v;
        }
        moving.check(&v, what);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// [`until`], `secs` seconds at most.
async fn until_for(
    addr: SocketAddr,
    id: &str,
    what: &str,
    secs: u32,
    f: impl Fn(&CompetitionView) -> bool,
) -> CompetitionView {
    for _ in 0..secs * 10 {
        let v = view(addr, id).await;
        if f(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting for {what}: {:#?}", view(addr, id).await);
}

fn round_done(v: &CompetitionView, round: u32) -> bool {
    v.schedule[round as usize - 1]
        .tables
        .iter()
        .all(|t| t.boards.iter().all(|b| b.done))
}

/// A director's `POST` that must succeed; its JSON.
async fn director_post(addr: SocketAddr, path: String, body: Value) -> Value {
    ok(addr, "POST", &path, Some(DIRECTOR), body).await
}

/// The event's cards (pair or team tokens), as the director prints them.
async fn cards(addr: SocketAddr, id: &str) -> CompetitionCards {
    serde_json::from_value(
        ok(
            addr,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap()
}

/// A server in this process with the director's token, the rate limit lifted for bots that do
/// not think (the limits have their own tests).
async fn director_server(name: &str) -> TestServer {
    TestServer::start_tuned(name, |config| {
        config.director_token = Some(DIRECTOR.to_string());
        config.limits.burst = 10_000.0;
        config.limits.per_second = 10_000.0;
    })
    .await
}

/// The entries: NS 1 and EW 2 are people, every other pair is a bot pair.
fn entries(tables: u32) -> Vec<Value> {
    let mut out = Vec::new();
    for dir in ["NS", "EW"] {
        for n in 1..=tables {
            let human = (dir, n) == ("NS", 1) || (dir, n) == ("EW", 2);
            out.push(if human {
                json!({"names": [format!("{dir}{n}甲"), format!("{dir}{n}乙")], "organisation": "福州"})
            } else {
                json!({"names": [], "bot": true})
            });
        }
    }
    out
}

/// The token of the partner of the player whose token is `token` (from the director's cards).
async fn partner_of(addr: SocketAddr, id: &str, token: &str) -> String {
    let cards = cards(addr, id).await;
    cards
        .pairs
        .iter()
        .find(|c| c.players.iter().any(|p| p.token == token))
        .and_then(|c| c.players.iter().find(|p| p.token != token))
        .map(|p| p.token.clone())
        .expect("a pair's player")
}

/// People of a pair play every board they have this round: sit down with the pair token (both
/// seats), play to the end with WebSocket bot clients, until the server says the round's boards
/// are all played. The boards each seat got.
/// `think`: the bots' pause before each move (the real binary keeps its per-connection rate
/// limit).
async fn play_round(
    addr: SocketAddr,
    id: &str,
    token: &str,
    think: Duration,
) -> Vec<CompetitionJoined> {
    let mut sat = Vec::new();
    loop {
        let (status, v) = call(
            addr,
            "POST",
            &format!("/api/events/{id}/join"),
            None,
            Some(&json!({"token": token})),
        )
        .await;
        if status == 409 {
            assert_eq!(v["code"], "round_played", "{v}");
            return sat;
        }
        assert_eq!(status, 200, "{v}");
        let first: CompetitionJoined = serde_json::from_value(v).unwrap();
        // The partner sits down with their own card's token (one player, one seat); asking
        // for the partner's seat with this one is refused; asking again gives the same token.
        let partner_token = partner_of(addr, id, token).await;
        let partner: CompetitionJoined = serde_json::from_value(
            ok(
                addr,
                "POST",
                &format!("/api/events/{id}/join"),
                None,
                json!({"token": partner_token}),
            )
            .await,
        )
        .unwrap();
        assert_eq!(partner.table, first.table);
        assert_eq!(partner.seat, (first.seat + 2) % 4, "the partner's own seat");
        let (status, refused) = call(
            addr,
            "POST",
            &format!("/api/events/{id}/join"),
            None,
            Some(&json!({"token": token, "seat": partner.seat})),
        )
        .await;
        assert_eq!((status, refused["code"].as_str()), (400, Some("bad_seat")));
        let again: CompetitionJoined = serde_json::from_value(
            ok(
                addr,
                "POST",
                &format!("/api/events/{id}/join"),
                None,
                json!({"token": token}),
            )
            .await,
        )
        .unwrap();
        assert_eq!(again.token, first.token, "the same seat token again");
        // Giving the seat up through the lobby is refused, in words that say it stays the
        // player's, and changes nothing: the seat keeps its name and its token plays on below.
        let (status, refused) = call(
            addr,
            "POST",
            &format!("/api/tables/{}/leave", first.table),
            None,
            Some(&json!({"token": first.token})),
        )
        .await;
        assert_eq!(
            (status, refused["code"].as_str()),
            (403, Some("event_table"))
        );
        assert!(
            refused["zh"].as_str().unwrap().contains("座位不能让出"),
            "{refused}"
        );
        let summary = ok(
            addr,
            "GET",
            &format!("/api/tables/{}", first.table),
            None,
            json!(null),
        )
        .await;
        assert!(
            summary["seats"][first.seat]["name"].is_string(),
            "{summary}"
        );
        let url = format!("ws://{addr}/ws/{}", first.table);
        let mut tasks = Vec::new();
        for t in [first.token.clone(), partner.token.clone()] {
            let url = url.clone();
            let opts = bots::client::BotOptions {
                think,
                ..Default::default()
            };
            tasks.push(tokio::spawn(async move {
                bots::client::play::<rules::shengji::Board>(&url, &t, opts).await
            }));
        }
        for t in tasks {
            assert!(t.await.unwrap().expect("plays to the end").over);
        }
        sat.push(first);
        sat.push(partner);
    }
}

/// The cards a seat put on the table in a stored 80分 log (played, and buried by the declarer).
fn cards_from_log(t: &store::StoredTable) -> BTreeMap<usize, Vec<Card>> {
    let mut out: BTreeMap<usize, Vec<Card>> = BTreeMap::new();
    for e in &t.log {
        let a: rules::shengji::Action = serde_json::from_str(&e.action).unwrap();
        match a {
            rules::shengji::Action::Play { cards } | rules::shengji::Action::Bury { cards } => {
                out.entry(e.seat).or_default().extend(cards)
            }
            _ => {}
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// Every board of the event, re-dealt from the revealed seed, is the deal its table played:
/// each seat's cards played (the declarer's with the kitty it buried) are its hand (the
/// declarer's with the kitty).
fn redeal_matches(db: &Path, v: &CompetitionView) -> usize {
    redeal_matches_in(&mut SqliteStore::open(db).unwrap(), v)
}

/// [`redeal_matches`] over any store.
fn redeal_matches_in(db: &mut dyn Store, v: &CompetitionView) -> usize {
    let seed_hex = v.seed.as_deref().expect("revealed");
    let seed = rules::deal::Seed::from_hex(seed_hex).unwrap();
    assert_eq!(
        seed.commitment(),
        v.seed_commitment,
        "the seed is the one committed to"
    );
    let mut checked = 0;
    for r in &v.schedule {
        for t in &r.tables {
            for b in &t.boards {
                let Some(id) = &b.table_id else { continue };
                let stored = db.table(id).unwrap().expect("stored");
                assert_eq!(
                    stored.header.seed, seed_hex,
                    "table {id} deals from the event seed"
                );
                assert_eq!(stored.header.board, b.board);
                let deal = rules::deal::deal_shengji(&seed, b.board, Default::default());
                let played = cards_from_log(&stored);
                for seat in 0..4 {
                    let mut hand = deal.hands[seat].clone();
                    if seat == deal.declarer {
                        hand.extend(deal.kitty.iter().copied());
                    }
                    hand.sort();
                    assert_eq!(
                        played.get(&seat),
                        Some(&hand),
                        "table {id} board {} seat {seat}",
                        b.board
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_event_runs_from_creation_to_the_revealed_seed() {
    let s = director_server("events").await;
    let a = s.addr;

    // Create: 3 tables, 3 rounds of 2 boards, plain Mitchell, the pairs registered with it.
    let created = ok(
        a,
        "POST",
        "/api/events",
        Some(DIRECTOR),
        json!({"game": "shengji", "name": "练习赛", "tables": 3, "rounds": 3,
               "boards_per_round": 2, "movement": "plain", "board_minutes": 12,
               "entries": entries(3)}),
    )
    .await;
    let ev: CompetitionView = serde_json::from_value(created).unwrap();
    assert_eq!(ev.state, protocol::CompetitionState::Registering);
    assert_eq!(ev.seed, None, "only the commitment is published");
    assert_eq!(ev.seed_commitment.len(), 64);
    let id = ev.id.clone();
    let cards: CompetitionCards = serde_json::from_value(
        ok(
            a,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    let token = |dir: &str, n: u32| -> String {
        cards
            .pairs
            .iter()
            .find(|c| c.pair.direction == dir && c.pair.number == n)
            .map(|c| c.players[0].token.clone())
            .unwrap()
    };
    let (ns1, ew2) = (token("NS", 1), token("EW", 2));
    assert!(cards
        .pairs
        .iter()
        .filter(|c| c.pair.bot)
        .all(|c| c.players.is_empty()));
    assert_eq!(cards.tables.len(), 3);
    assert!(cards.tables[0].card.contains("米切尔移位"));

    // A pair cannot sit down before a round starts; a wrong token is refused.
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": ns1})),
    )
    .await;
    assert_eq!((status, p["code"].as_str()), (409, Some("wait_for_round")));
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": "aaaa-bbbb-cccc"})),
    )
    .await;
    assert_eq!((status, p["code"].as_str()), (403, Some("bad_pair_token")));

    let mut adjusted = false;
    for round in 1..=3u32 {
        let v: CompetitionView = serde_json::from_value(
            ok(
                a,
                "POST",
                &format!("/api/events/{id}/rounds/{round}/start"),
                Some(DIRECTOR),
                json!({}),
            )
            .await,
        )
        .unwrap();
        assert_eq!(v.round, round);
        // The round's first boards are open, one table per board.
        let first = &v.schedule[round as usize - 1].tables[0].boards[0];
        let table_id = first.table_id.clone().expect("opened at the start");
        // An event's table: no public seat, no watching, not in the lobby's list.
        let (status, p) = call(
            a,
            "POST",
            &format!("/api/tables/{table_id}/join"),
            None,
            Some(&json!({"seat": 0, "name": "路人"})),
        )
        .await;
        assert_eq!((status, p["code"].as_str()), (403, Some("event_table")));
        let listed = ok(a, "GET", "/api/tables", None, json!(null)).await;
        assert!(listed
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["id"] != table_id.as_str()));
        let mut watcher = s.client(&table_id).await;
        let refused = watcher.hello(None, None).await;
        assert!(
            matches!(refused, protocol::ClientOut::Error { ref problem } if problem.code == "event_table"),
            "{refused:?}"
        );

        // The two human pairs play their boards; the bot pairs' tables play themselves.
        let (p1, p2) = tokio::join!(
            play_round(a, &id, &ns1, Duration::ZERO),
            play_round(a, &id, &ew2, Duration::ZERO)
        );
        assert_eq!((p1.len(), p2.len()), (4, 4), "two boards, two seats each");
        let v = until(a, &id, "every board of the round", |v| round_done(v, round)).await;

        // An over table of the event keeps its seed hidden until the event reveals it.
        let t: Value = ok(
            a,
            "GET",
            &format!("/api/tables/{}", p1[0].table),
            None,
            json!(null),
        )
        .await;
        assert_eq!(t["state"], "over");
        assert!(t.get("seed").is_none(), "{t}");

        // The public sees no board result while the event runs; the director does.
        let public: CompetitionView = serde_json::from_value(
            ok(a, "GET", &format!("/api/events/{id}"), None, json!(null)).await,
        )
        .unwrap();
        assert!(public
            .schedule
            .iter()
            .flat_map(|r| &r.tables)
            .flat_map(|t| &t.boards)
            .all(|b| b.result.is_none()));
        assert!(v.schedule[round as usize - 1]
            .tables
            .iter()
            .flat_map(|t| &t.boards)
            .all(|b| b.result.is_some()));

        // Confirm: NS record, EW check. In round 2, EW 2 disputes first; the director adjusts
        // one of their boards and deducts, and they confirm again.
        let pair = pair_status(a, &id, &ew2).await;
        let ew2_table = pair.table.clone().expect("EW 2 plays");
        let (status, p) = call(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/close"),
            Some(DIRECTOR),
            Some(&json!({})),
        )
        .await;
        assert_eq!(
            (status, p["code"].as_str()),
            (409, Some("results_unconfirmed")),
            "not confirmed yet"
        );
        if round == 2 {
            ok(
                a,
                "POST",
                &format!("/api/events/{id}/confirm"),
                None,
                json!({"token": ew2, "agree": false, "note": "第一副记分有误"}),
            )
            .await;
            let v = view(a, &id).await;
            let t = v.schedule[1]
                .tables
                .iter()
                .find(|t| t.table == ew2_table.table)
                .unwrap();
            assert!(t.dispute.as_deref().unwrap().contains("记分有误"));
            let board = t.boards[0].board;
            ok(a, "POST", &format!("/api/events/{id}/adjust"), Some(DIRECTOR),
               json!({"round": 2, "table": ew2_table.table, "board": board, "defenders": 120, "reason": "裁判查牌后判定"})).await;
            ok(
                a,
                "POST",
                &format!("/api/events/{id}/deductions"),
                Some(DIRECTOR),
                json!({"direction": "EW", "pair": 2, "reason": "离座未经同意"}),
            )
            .await;
            adjusted = true;
        }
        for (token, dir) in [(&ns1, "NS"), (&ew2, "EW")] {
            let me = pair_status(a, &id, token).await;
            assert_eq!(me.pair.direction, dir);
            assert!(
                me.table
                    .as_ref()
                    .unwrap()
                    .boards
                    .iter()
                    .all(|b| b.result.is_some()),
                "a pair sees its own results"
            );
            assert!(
                me.table
                    .iter()
                    .chain(me.earlier.iter().map(|r| &r.table))
                    .flat_map(|t| &t.boards)
                    .all(|b| b.mp.is_none() && b.top.is_none()),
                "no match points while boards are still to be played elsewhere"
            );
        }
        // NS first where NS are people (EW checking before NS recorded is refused).
        let ns1_table = v.schedule[round as usize - 1]
            .tables
            .iter()
            .find(|t| t.ns == Some(1))
            .unwrap()
            .table;
        if ns1_table == ew2_table.table {
            let (status, p) = call(
                a,
                "POST",
                &format!("/api/events/{id}/confirm"),
                None,
                Some(&json!({"token": ew2, "agree": true})),
            )
            .await;
            assert_eq!((status, p["code"].as_str()), (409, Some("ns_first")), "{p}");
        }
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/confirm"),
            None,
            json!({"token": ns1, "agree": true}),
        )
        .await;
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/confirm"),
            None,
            json!({"token": ew2, "agree": true}),
        )
        .await;
        let v: CompetitionView = serde_json::from_value(
            ok(
                a,
                "POST",
                &format!("/api/events/{id}/rounds/{round}/close"),
                Some(DIRECTOR),
                json!({}),
            )
            .await,
        )
        .unwrap();
        assert_eq!(v.closed, round);
        // Public standings count the closed rounds.
        let st = ok(
            a,
            "GET",
            &format!("/api/events/{id}/standings"),
            None,
            json!(null),
        )
        .await;
        assert_eq!(st["through_round"], round);
        assert!(st.get("boards").is_none(), "no travellers before the end");
    }
    assert!(adjusted);
    // Nothing more to start.
    let (status, _) = call(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/4/start"),
        Some(DIRECTOR),
        Some(&json!({})),
    )
    .await;
    assert_eq!(status, 409);

    // Reveal: the seed, and it matches its commitment.
    let v: CompetitionView = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/reveal"),
            Some(DIRECTOR),
            json!({}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    let seed = v.seed.clone().expect("revealed");
    // Its tables closed with their rounds; their replays are everyone's now, with the seed.
    let table = v.schedule[0].tables[0].boards[0].table_id.clone().unwrap();
    let (status, _) = call(a, "GET", &format!("/api/tables/{table}"), None, None).await;
    assert_eq!(status, 404, "closed with its round");
    let t: Value = ok(
        a,
        "GET",
        &format!("/api/tables/{table}/replay"),
        None,
        json!(null),
    )
    .await;
    assert!(t.to_string().contains(seed.as_str()), "{t}");
    // The event is finished: no more changes.
    let (status, _) = call(
        a,
        "POST",
        &format!("/api/events/{id}/deductions"),
        Some(DIRECTOR),
        Some(&json!({"direction": "NS", "pair": 1, "reason": "x"})),
    )
    .await;
    assert_eq!(status, 409);

    // Standings: both directions ranked with places; every board played three times (top 4):
    // the two sides' match points add up to the top; totals are the boards' sums less
    // deductions.
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    assert_eq!(st["final"], true);
    let boards = st["boards"].as_array().expect("travellers once final");
    assert_eq!(boards.len(), 6);
    let mut totals: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut saw_adjusted = false;
    for b in boards {
        let results = b["results"].as_array().unwrap();
        assert_eq!(results.len(), 3, "{b}");
        for r in results {
            let (n, e) = (r["ns_mp"].as_f64().unwrap(), r["ew_mp"].as_f64().unwrap());
            assert!((n + e - 4.0).abs() < 1e-9, "{r}");
            *totals
                .entry(("NS".into(), r["ns"].as_str().unwrap().into()))
                .or_default() += n;
            *totals
                .entry(("EW".into(), r["ew"].as_str().unwrap().into()))
                .or_default() += e;
            saw_adjusted |= r["adjusted"] == true && r["defenders"] == 120;
        }
    }
    assert!(saw_adjusted, "the adjusted result is scored and marked");
    // Each pair's own page now has its match points on every board it played, as the
    // travellers give them, and the top (2 × (3 − 1)).
    for (token, dir, number) in [(&ns1, "NS", "1"), (&ew2, "EW", "2")] {
        let me = pair_status(a, &id, token).await;
        let played: Vec<_> = me
            .earlier
            .iter()
            .map(|r| &r.table)
            .chain(me.table.iter())
            .flat_map(|t| &t.boards)
            .collect();
        assert_eq!(played.len(), 6, "three rounds of two boards");
        let side = if dir == "NS" { "ns" } else { "ew" };
        for b in played {
            let traveller = boards
                .iter()
                .find(|t| t["board"] == b.board)
                .and_then(|t| {
                    t["results"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|r| r[side] == number)
                })
                .unwrap_or_else(|| panic!("{dir} {number} played board {}", b.board));
            assert_eq!(
                b.mp,
                traveller[format!("{side}_mp")].as_f64(),
                "board {}",
                b.board
            );
            assert_eq!(b.top, Some(4.0));
        }
    }
    for dir in ["NS", "EW"] {
        let lines = st["ranking"][dir].as_array().unwrap();
        assert_eq!(lines.len(), 3);
        for l in lines {
            let key = (dir.to_string(), l["number"].to_string());
            let off = l["deducted"].as_f64().unwrap_or(0.0);
            assert!(
                (totals[&key] - off - l["mp"].as_f64().unwrap()).abs() < 0.011,
                "{l}"
            );
            assert!(l["place"].as_u64().is_some());
        }
    }
    let ew2_line = st["ranking"]["EW"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["number"] == 2)
        .unwrap()
        .clone();
    assert_eq!(ew2_line["deducted"], 0.5);
    assert_eq!(ew2_line["names"][0], "EW2甲");

    // CSV and the printable page.
    let csv = raw_http(
        a,
        format!(
            "GET /api/events/{id}/results.csv HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").unwrap().starts_with("text/csv"));
    assert!(csv.body.contains("NS1甲 / NS1乙"), "{}", csv.body);
    let page = raw_http(
        a,
        format!(
            "GET /api/events/{id}/results.html HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    assert!(page.body.contains("@page { size: A4"));
    assert!(page.body.contains(&seed));

    // Every board re-dealt from the seed is what was played.
    assert_eq!(
        redeal_matches(&s.db, &v),
        18,
        "every board, the adjusted one too"
    );

    // The event's log is a verified chain of every step.
    let mut events = SqliteStore::open_competitions(&s.db).unwrap();
    let stored = events.competitions().unwrap();
    assert_eq!(stored.len(), 1);
    store::verify_competition(&stored[0].header, &stored[0].log).unwrap();
    assert!(stored[0].finished);
    assert_eq!(stored[0].log.len() as u64, v.log_len);
    s.running.shutdown().await;
}

/// An organiser's seed (a simultaneous event: several sections dealt the same boards): the
/// event deals from it and commits to it, the log never holds it before the reveal, and a seed
/// that is not 64 hex digits is refused with nothing created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_organisers_seed_deals_the_event_and_stays_out_of_its_log() {
    let s = director_server("events-seed").await;
    let a = s.addr;
    let seed = "5eed".repeat(16);
    let spec = |seed: &str| {
        json!({"game": "shengji", "name": "同场同牌", "tables": 1, "rounds": 1,
               "boards_per_round": 2, "seed": seed,
               "entries": [{"names": [], "bot": true}, {"names": [], "bot": true}]})
    };
    for bad in ["5eed", &"zz".repeat(32)] {
        let (status, v) = call(a, "POST", "/api/events", Some(DIRECTOR), Some(&spec(bad))).await;
        assert_eq!((status, v["code"].as_str()), (400, Some("bad_seed")), "{v}");
    }
    let (_, listed) = call(a, "GET", "/api/events", None, None).await;
    assert_eq!(listed, json!([]), "a refused creation creates nothing");

    let v: CompetitionView =
        serde_json::from_value(ok(a, "POST", "/api/events", Some(DIRECTOR), spec(&seed)).await)
            .unwrap();
    let id = v.id.clone();
    let committed = rules::deal::Seed::from_hex(&seed).unwrap().commitment();
    assert_eq!(
        v.seed_commitment, committed,
        "committed to the organiser's seed"
    );
    director_post(a, format!("/api/events/{id}/rounds/1/start"), json!({})).await;
    until(a, &id, "the computers' boards played", |v| round_done(v, 1)).await;
    let log = SqliteStore::open(&s.db)
        .unwrap()
        .competition(&id)
        .unwrap()
        .expect("stored")
        .log;
    assert!(
        log.iter().all(|e| !e.action.contains(&seed)),
        "the seed is in no entry of the log: {log:?}"
    );
    director_post(a, format!("/api/events/{id}/rounds/1/close"), json!({})).await;
    let v: CompetitionView = serde_json::from_value(
        director_post(a, format!("/api/events/{id}/reveal"), json!({})).await,
    )
    .unwrap();
    assert_eq!(v.seed.as_deref(), Some(seed.as_str()));
    assert_eq!(redeal_matches(&s.db, &v), 2, "both boards dealt from it");
}

/// A half table: five pairs for three tables make EW 3 the phantom. No table opens where it
/// would sit; the pair meeting it sits out with an average on each board, at once. A pair
/// signalling a second time is disqualified by that deduction; a forfeit for lateness is
/// refused before 10 minutes have passed; the director finishes after two of three rounds, and
/// the standings, CSV and printable page rank the rounds played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_table_event_runs_to_an_early_finish_and_ranks() {
    let s = director_server("events-half").await;
    let a = s.addr;
    let mut entries = vec![json!({"names": ["王阿姨", "李叔叔"]})];
    entries.extend((0..4).map(|_| json!({"names": [], "bot": true})));
    let ev: CompetitionView = serde_json::from_value(
        director_post(
            a,
            "/api/events".into(),
            json!({"game": "shengji", "name": "半桌练习", "tables": 3, "rounds": 3,
                   "boards_per_round": 1, "board_minutes": 12, "entries": entries}),
        )
        .await,
    )
    .unwrap();
    let id = ev.id;
    assert_eq!(ev.pairs.len(), 5);
    // EW 3 is nobody: its place in the movement is null.
    let phantom_tables: Vec<(u32, u32)> = ev
        .schedule
        .iter()
        .flat_map(|r| r.tables.iter().map(move |t| (r.round, t)))
        .filter(|(_, t)| t.ew.is_none())
        .map(|(r, t)| (r, t.table))
        .collect();
    assert_eq!(phantom_tables, vec![(1, 3), (2, 1), (3, 2)], "one a round");
    let ns1 = cards(a, &id).await.pairs[0].players[0].token.clone();

    // Round 1: the clock starts; the view carries the start and the deadline (12 minutes).
    let v: CompetitionView = serde_json::from_value(
        director_post(a, format!("/api/events/{id}/rounds/1/start"), json!({})).await,
    )
    .unwrap();
    let (started, deadline) = (v.round_started_ms.unwrap(), v.round_deadline_ms.unwrap());
    assert_eq!(deadline - started, 12 * 60 * 1000);
    assert!(v.now_ms >= started);
    // The sit-out table opened no table and is done (average), the others are open.
    let sit_out = &v.schedule[0].tables[2];
    assert!(sit_out
        .boards
        .iter()
        .all(|b| b.done && b.table_id.is_none()));
    // Lateness cannot be ruled in the first 10 minutes.
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/forfeit"),
        Some(DIRECTOR),
        Some(&json!({"direction": "NS", "pair": 1, "reason": "迟到"})),
    )
    .await;
    assert_eq!(
        (status, p["code"].as_str()),
        (409, Some("not_late_yet")),
        "{p}"
    );
    assert!(p["zh"].as_str().unwrap().contains("10 分钟"), "{p}");
    play_round(a, &id, &ns1, Duration::ZERO).await;
    let v = until(a, &id, "round 1", |v| round_done(v, 1)).await;
    let t1 = &v.schedule[0].tables[0];
    assert!(t1.ns_seated_ms.is_some(), "NS 1 sat down: logged");
    ok(
        a,
        "POST",
        &format!("/api/events/{id}/confirm"),
        None,
        json!({"token": ns1, "agree": true}),
    )
    .await;
    director_post(a, format!("/api/events/{id}/rounds/1/close"), json!({})).await;

    // Signalling: the second such deduction of NS 2 disqualifies it in the same step.
    let signal =
        json!({"direction": "NS", "pair": 2, "reason": "传递非法信息", "kind": "signalling"});
    let v: CompetitionView = serde_json::from_value(
        director_post(a, format!("/api/events/{id}/deductions"), signal.clone()).await,
    )
    .unwrap();
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        Some(DIRECTOR),
        json!(null),
    )
    .await;
    let ns2 = |st: &Value| {
        st["ranking"]["NS"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["number"] == 2)
            .unwrap()
            .clone()
    };
    assert!(ns2(&st).get("disqualified").is_none(), "{st}");
    let v2: CompetitionView = serde_json::from_value(
        director_post(a, format!("/api/events/{id}/deductions"), signal).await,
    )
    .unwrap();
    assert_eq!(v2.log_len, v.log_len + 1, "one step");
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        Some(DIRECTOR),
        json!(null),
    )
    .await;
    assert_eq!(ns2(&st)["disqualified"], true, "{st}");

    // Round 2: NS 1 meets the phantom and is told so; the computers play the rest.
    director_post(a, format!("/api/events/{id}/rounds/2/start"), json!({})).await;
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": ns1})),
    )
    .await;
    assert_eq!(
        (status, p["code"].as_str()),
        (409, Some("sits_out_half")),
        "{p}"
    );
    assert!(p["zh"].as_str().unwrap().contains("半桌"), "{p}");
    // NS 2 is disqualified: the director settles its board.
    let v = until(a, &id, "round 2's computers", |v| {
        v.schedule[1]
            .tables
            .iter()
            .filter(|t| t.boards.iter().all(|b| b.done))
            .count()
            >= 2
    })
    .await;
    let t2 = v.schedule[1]
        .tables
        .iter()
        .find(|t| t.ns == Some(2))
        .unwrap();
    if !t2.boards[0].done {
        director_post(
            a,
            format!("/api/events/{id}/adjust"),
            json!({"round": 2, "table": t2.table, "board": t2.boards[0].board,
                   "artificial": {"ns": "A-", "ew": "A+"}, "reason": "南北2取消资格"}),
        )
        .await;
    }
    until(a, &id, "round 2", |v| round_done(v, 2)).await;
    director_post(
        a,
        format!("/api/events/{id}/rounds/2/close"),
        json!({"force": true}),
    )
    .await;

    // Finishing: not without saying early; then early, after two of three rounds.
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/reveal"),
        Some(DIRECTOR),
        None,
    )
    .await;
    assert_eq!(
        (status, p["code"].as_str()),
        (409, Some("rounds_open")),
        "{p}"
    );
    let v: CompetitionView = serde_json::from_value(
        director_post(
            a,
            format!("/api/events/{id}/reveal"),
            json!({"early": true}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    assert!(v.finished_early);
    assert_eq!((v.closed, v.rounds), (2, 3));
    assert!(v.seed.is_some());

    // The standings: three NS lines, two EW lines (the phantom is nobody); each sit-out scored
    // half the board's top.
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    assert_eq!(st["final"], true);
    assert_eq!(st["through_round"], 2);
    assert_eq!(st["ranking"]["NS"].as_array().unwrap().len(), 3);
    assert_eq!(st["ranking"]["EW"].as_array().unwrap().len(), 2);
    let mut sit_outs = 0;
    for b in st["boards"].as_array().unwrap() {
        let results = b["results"].as_array().unwrap();
        let top = results
            .iter()
            .find(|r| !r["ew"].is_null())
            .map(|r| r["ns_mp"].as_f64().unwrap() + r["ew_mp"].as_f64().unwrap());
        for r in results.iter().filter(|r| r["ew"].is_null()) {
            sit_outs += 1;
            assert_eq!(r["artificial"]["ns"], "A", "{b}");
            if let Some(top) = top {
                assert!(
                    (r["ns_mp"].as_f64().unwrap() * 2.0 - top).abs() < 0.011,
                    "{b}"
                );
            }
        }
    }
    assert_eq!(sit_outs, 2, "one a round, two rounds played");
    let csv = raw_http(
        a,
        format!(
            "GET /api/events/{id}/results.csv HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(csv.status, 200);
    assert!(csv.body.contains("王阿姨 / 李叔叔"), "{}", csv.body);
    let page = raw_http(
        a,
        format!(
            "GET /api/events/{id}/results.html HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    assert!(
        page.body.contains("半桌") && page.body.contains("提前结束"),
        "{}",
        page.body
    );
    assert!(page.body.contains("取消资格"));
    s.running.shutdown().await;
}

/// Seed 003: 「被取消资格…其名次由后面的依次递补，已赛成绩有效」. A disqualified pair sits down no
/// more; its played results stay in the others' scores; it has no place and the pairs below it
/// move up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disqualified_pair_plays_no_more_and_its_place_is_filled() {
    let s = director_server("events-dq").await;
    let a = s.addr;
    // Three tables, one round of one board: NS 1 are people, everyone else computers.
    let mut entries = vec![json!({"names": ["王阿姨", "李叔叔"]})];
    entries.extend((0..5).map(|_| json!({"names": [], "bot": true})));
    let ev: CompetitionView = serde_json::from_value(
        director_post(
            a,
            "/api/events".into(),
            json!({"game": "shengji", "name": "取消资格", "tables": 3, "rounds": 1,
                   "boards_per_round": 1, "entries": entries}),
        )
        .await,
    )
    .unwrap();
    let id = ev.id;
    let ns1 = cards(a, &id).await.pairs[0].players[0].token.clone();
    let dq = format!("/api/events/{id}/disqualify");
    // Bad requests change nothing: an unknown pair, a missing reason, an unknown field.
    for (body, code) in [
        (
            json!({"direction": "NS", "pair": 9, "reason": "x"}),
            "no_such_pair",
        ),
        (
            json!({"direction": "NS", "pair": 1, "reason": ""}),
            "bad_text",
        ),
        (
            json!({"direction": "NS", "pair": 1, "reason": "x", "why": 1}),
            "bad_request",
        ),
        (
            json!({"direction": "SN", "pair": 1, "reason": "x"}),
            "bad_request",
        ),
    ] {
        let (status, p) = call(a, "POST", &dq, Some(DIRECTOR), Some(&body)).await;
        assert_eq!(
            (status, p["code"].as_str()),
            (400, Some(code)),
            "{body}: {p}"
        );
    }
    assert_eq!(view(a, &id).await.log_len, ev.log_len, "nothing was logged");

    director_post(a, format!("/api/events/{id}/rounds/1/start"), json!({})).await;
    // The computers finish their boards; NS 1 is disqualified before sitting down.
    let v = until(a, &id, "the computers' boards", |v| {
        v.schedule[0]
            .tables
            .iter()
            .filter(|t| t.boards[0].done)
            .count()
            == 2
    })
    .await;
    let ns1_table = v.schedule[0]
        .tables
        .iter()
        .find(|t| t.ns == Some(1))
        .unwrap();
    assert!(!ns1_table.boards[0].done);
    director_post(
        a,
        dq.clone(),
        json!({"direction": "NS", "pair": 1, "reason": "第二次暗号"}),
    )
    .await;
    let (status, p) = call(
        a,
        "POST",
        &dq,
        Some(DIRECTOR),
        Some(&json!({"direction": "NS", "pair": 1, "reason": "again"})),
    )
    .await;
    assert_eq!(
        (status, p["code"].as_str()),
        (409, Some("disqualified")),
        "{p}"
    );
    let (status, p) = call(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": ns1})),
    )
    .await;
    assert_eq!((status, p["code"].as_str()), (409, Some("barred")), "{p}");
    assert!(p["zh"].as_str().unwrap().contains("取消比赛资格"), "{p}");

    // The director gives NS 1's unplayed board an average-minus / average-plus and closes.
    director_post(
        a,
        format!("/api/events/{id}/adjust"),
        json!({"round": 1, "table": ns1_table.table, "board": ns1_table.boards[0].board,
               "artificial": {"ns": "A-", "ew": "A+"}, "reason": "南北1取消资格"}),
    )
    .await;
    director_post(
        a,
        format!("/api/events/{id}/rounds/1/close"),
        json!({"force": true}),
    )
    .await;
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        Some(DIRECTOR),
        json!(null),
    )
    .await;
    let ns = st["ranking"]["NS"].as_array().unwrap();
    let line = |n: u64| ns.iter().find(|l| l["number"] == n).unwrap();
    assert_eq!(line(1)["disqualified"], true, "{st}");
    assert!(line(1)["place"].is_null(), "{st}");
    // The places left are filled from 1 by the pairs still in.
    let mut places: Vec<u64> = ns.iter().filter_map(|l| l["place"].as_u64()).collect();
    places.sort();
    assert_eq!(places.first(), Some(&1), "{st}");
    assert_eq!(places.len(), 2, "{st}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn director_calls_refuse_everyone_else() {
    let s = TestServer::start_tuned("events-auth", |config| {
        config.director_token = Some(DIRECTOR.to_string());
        // Every refusal below is counted against this address: room for all of them.
        config.limits.bad_token_burst = 1000.0;
    })
    .await;
    let a = s.addr;
    let create = json!({"game": "shengji", "name": "权限", "tables": 1, "rounds": 1, "boards_per_round": 1,
                        "entries": [{"names": ["甲", "乙"]}, {"names": [], "bot": true}]});
    // A player's seat token, the referee's token, a made-up one, none at all.
    let table = s.create(json!({"game": "shengji"})).await;
    let seat = s.join(&table.id, 0, "老王").await.token;
    let ev: CompetitionView =
        serde_json::from_value(ok(a, "POST", "/api/events", Some(DIRECTOR), create.clone()).await)
            .unwrap();
    let id = ev.id;
    let cards: CompetitionCards = serde_json::from_value(
        ok(
            a,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    let pair = cards.pairs[0].players[0].token.clone();
    for who in [
        Some(seat.as_str()),
        Some(REFEREE_TOKEN),
        Some(pair.as_str()),
        None,
    ] {
        for (method, path, body) in [
            ("POST", "/api/events".to_string(), Some(create.clone())),
            ("GET", format!("/api/events/{id}/cards"), None),
            (
                "POST",
                format!("/api/events/{id}/rounds/1/start"),
                Some(json!({})),
            ),
            ("POST", format!("/api/events/{id}/reveal"), Some(json!({}))),
            (
                "POST",
                format!("/api/events/{id}/adjust"),
                Some(json!({"round": 1, "table": 1, "board": 1, "defenders": 0, "reason": "x"})),
            ),
            (
                "POST",
                format!("/api/events/{id}/disqualify"),
                Some(json!({"direction": "NS", "pair": 1, "reason": "x"})),
            ),
        ] {
            let (status, p) = call(a, method, &path, who, body.as_ref()).await;
            assert_eq!(status, 403, "{method} {path} as {who:?}: {p}");
            assert_eq!(p["code"], "not_director", "{p}");
            assert!(p["zh"].is_string() && p["en"].is_string());
        }
    }
    // Reading the public view with a wrong bearer token is refused too (not silently public).
    let (status, p) = call(
        a,
        "GET",
        &format!("/api/events/{id}"),
        Some(REFEREE_TOKEN),
        None,
    )
    .await;
    assert_eq!((status, p["code"].as_str()), (403, Some("not_director")));
    // Without a token the public view is served.
    let (status, _) = call(a, "GET", &format!("/api/events/{id}"), None, None).await;
    assert_eq!(status, 200);
    // Bad requests are still Problems: unknown fields, a weak movement.
    let (status, p) = call(a, "POST", "/api/events", Some(DIRECTOR), Some(&json!({"game": "shengji", "name": "x", "tables": 4, "rounds": 3, "boards_per_round": 1}))).await;
    assert_eq!(
        (status, p["code"].as_str()),
        (400, Some("even_needs_skip_or_relay")),
        "{p}"
    );
    let (status, p) = call(a, "GET", "/api/events/nope", None, None).await;
    assert_eq!((status, p["code"].as_str()), (404, Some("no_event")));
    // The console and the standings page are built into the binary.
    for path in [
        "/director.html",
        "/standings.html",
        "/src/director.js",
        "/src/standings.js",
    ] {
        let r = raw_http(
            a,
            format!("GET {path} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(r.status, 200, "{path}");
    }
    s.running.shutdown().await;
}

// --- the real binary, killed mid-round ----------------------------------------------------------

/// The server process, killed if the test fails half-way.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(bin: &Path, db: &Path) -> (Server, SocketAddr) {
    let mut child = Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0", "--bot-delay-ms", "15"])
        .args(["--practice-daily", "off"])
        .arg("--db")
        .arg(db)
        .env("PAIJU_DIRECTOR_TOKEN", DIRECTOR)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("paiju serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().expect("a line").expect("readable");
    let addr = line
        .split("http://")
        .nth(1)
        .expect("the URL to open")
        .trim_end_matches('/')
        .parse()
        .expect("an address");
    std::thread::spawn(move || for _ in lines {});
    (Server(child), addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_round_loses_nothing_and_the_event_finishes() {
    let bin = paiju_bin();
    let dir = temp_dir("events-crash");
    let db = dir.path().join("paiju.db");
    let (mut child, a) = serve(&bin, &db);
    let ev: CompetitionView = serde_json::from_value(
        ok(a, "POST", "/api/events", Some(DIRECTOR),
           json!({"game": "shengji", "name": "断电演练", "tables": 3, "rounds": 2, "boards_per_round": 2,
                  "entries": entries(3)})).await,
    )
    .unwrap();
    let id = ev.id.clone();
    let cards: CompetitionCards = serde_json::from_value(
        ok(
            a,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    let tok = |dir: &str, n: u32| {
        cards
            .pairs
            .iter()
            .find(|c| c.pair.direction == dir && c.pair.number == n)
            .map(|c| c.players[0].token.clone())
            .unwrap()
    };
    let (ns1, ew2) = (tok("NS", 1), tok("EW", 2));
    ok(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/start"),
        Some(DIRECTOR),
        json!({}),
    )
    .await;
    // NS 1 sits down (its opponents are a bot pair: the board starts); EW 2 does not yet.
    let joined: CompetitionJoined = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/join"),
            None,
            json!({"token": ns1}),
        )
        .await,
    )
    .unwrap();
    ok(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        json!({"token": ns1}),
    )
    .await;
    // Mid-round: the bot pairs' table (3) has its first board's result logged and is well into
    // its second board; the people's boards wait for them.
    let before = until(a, &id, "table 3 half-way", |v| {
        let t3 = &v.schedule[0].tables[2];
        t3.boards[0].done && !t3.boards[1].done && t3.boards[1].seq.unwrap_or(0) >= 10
    })
    .await;
    assert!(!round_done(&before, 1));
    child.0.kill().expect("SIGKILL");
    child.0.wait().unwrap();

    // What was logged is on disk, a verified chain.
    {
        let mut events = SqliteStore::open_competitions(&db).unwrap();
        let stored = events.competitions().unwrap();
        store::verify_competition(&stored[0].header, &stored[0].log).unwrap();
        assert!(stored[0].log.len() as u64 >= before.log_len);
    }
    // `paiju verify` checks the event's chain too; an edited director's log fails it.
    let verify = |db: &Path| {
        let out = Command::new(&bin)
            .args(["verify", "--db"])
            .arg(db)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (fine, said) = verify(&db);
    assert!(fine && said.contains(&format!("event {id}: ok")), "{said}");
    let edited = db.with_file_name("edited.db");
    std::fs::copy(&db, &edited).unwrap();
    let _ = std::fs::copy(db.with_extension("db-wal"), edited.with_extension("db-wal"));
    rusqlite::Connection::open(&edited)
        .unwrap()
        .execute(
            "UPDATE event_log SET time_ms = time_ms + 1 WHERE event_id = ?1 AND seq = 2",
            [&id],
        )
        .unwrap();
    let (fine, said) = verify(&edited);
    assert!(
        !fine && said.contains(&format!("event {id}: TAMPERED")),
        "{said}"
    );

    // Restart: the event is rebuilt from its log; every result and table is still there.
    let (child, a) = serve(&bin, &db);
    let after = view(a, &id).await;
    assert_eq!(after.round, 1);
    assert_eq!(after.seed_commitment, before.seed_commitment);
    assert!(after.log_len >= before.log_len);
    for (r0, r1) in before.schedule[0]
        .tables
        .iter()
        .zip(&after.schedule[0].tables)
    {
        for (b0, b1) in r0.boards.iter().zip(&r1.boards) {
            if b0.done {
                assert_eq!(
                    (b1.done, &b1.result, &b1.table_id),
                    (true, &b0.result, &b0.table_id)
                );
            }
        }
    }
    // NS 1 sits down again with the pair token: the same table, the same seat token.
    let again: CompetitionJoined = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/join"),
            None,
            json!({"token": ns1, "seat": joined.seat}),
        )
        .await,
    )
    .unwrap();
    assert_eq!((&again.table, &again.token), (&joined.table, &joined.token));

    // Finish the event.
    for round in 1..=2u32 {
        if round > 1 {
            ok(
                a,
                "POST",
                &format!("/api/events/{id}/rounds/{round}/start"),
                Some(DIRECTOR),
                json!({}),
            )
            .await;
        }
        tokio::join!(
            play_round(a, &id, &ns1, THINK),
            play_round(a, &id, &ew2, THINK)
        );
        until(a, &id, "the round's boards", |v| round_done(v, round)).await;
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/confirm"),
            None,
            json!({"token": ns1, "agree": true}),
        )
        .await;
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/confirm"),
            None,
            json!({"token": ew2, "agree": true}),
        )
        .await;
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/close"),
            Some(DIRECTOR),
            json!({}),
        )
        .await;
    }
    let v: CompetitionView = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/reveal"),
            Some(DIRECTOR),
            json!({}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    assert_eq!(st["boards"].as_array().unwrap().len(), 6);
    drop(child);
    // Every board's table dealt the re-dealt cards, the one cut by the crash included.
    assert_eq!(redeal_matches(&db, &v), 12);
}

// --- on PostgreSQL ------------------------------------------------------------------------------
//
// The same event with `--db postgres://…` (the database named by `PAIJU_TEST_POSTGRES`, which
// scripts/test starts; unset, these tests fail and say so): one node, then two nodes on one
// database, the event run by one of them and handed to the other.

/// A config on a fresh PostgreSQL database: the director's token, the rate limit lifted for
/// bots that do not think.
fn postgres_config(name: &str) -> (server::Config, String) {
    let url = store::postgres::test_database(name);
    let mut config = test_config(PathBuf::from(&url));
    config.director_token = Some(DIRECTOR.to_string());
    config.limits.burst = 10_000.0;
    config.limits.per_second = 10_000.0;
    (config, url)
}

/// Creates the small practice event (3 tables, 2 rounds of 1 board, NS 1 and EW 2 people, the
/// rest bots) on `addr`; its id and the two people's pair tokens.
async fn create_practice(addr: SocketAddr, name: &str) -> (String, String, String) {
    let ev: CompetitionView = serde_json::from_value(
        ok(
            addr,
            "POST",
            "/api/events",
            Some(DIRECTOR),
            json!({"game": "shengji", "name": name, "tables": 3, "rounds": 2,
                   "boards_per_round": 1, "entries": entries(3)}),
        )
        .await,
    )
    .unwrap();
    let cards: CompetitionCards = serde_json::from_value(
        ok(
            addr,
            "GET",
            &format!("/api/events/{}/cards", ev.id),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    let tok = |dir: &str, n: u32| {
        cards
            .pairs
            .iter()
            .find(|c| c.pair.direction == dir && c.pair.number == n)
            .map(|c| c.players[0].token.clone())
            .unwrap()
    };
    let (ns1, ew2) = (tok("NS", 1), tok("EW", 2));
    (ev.id, ns1, ew2)
}

/// The people play the round's boards (the round already started), both pairs confirm, the
/// director closes it.
async fn finish_round(addr: SocketAddr, id: &str, round: u32, ns1: &str, ew2: &str) {
    let (p1, p2) = tokio::join!(
        play_round(addr, id, ns1, Duration::ZERO),
        play_round(addr, id, ew2, Duration::ZERO)
    );
    assert_eq!((p1.len(), p2.len()), (2, 2), "one board, two seats each");
    until(addr, id, "every board of the round", |v| {
        round_done(v, round)
    })
    .await;
    for token in [ns1, ew2] {
        ok(
            addr,
            "POST",
            &format!("/api/events/{id}/confirm"),
            None,
            json!({"token": token, "agree": true}),
        )
        .await;
    }
    ok(
        addr,
        "POST",
        &format!("/api/events/{id}/rounds/{round}/close"),
        Some(DIRECTOR),
        json!({}),
    )
    .await;
}

/// The event as stored in PostgreSQL: its chain verified, as long as the server said, and
/// every board's table dealt from the revealed seed.
async fn check_stored_on_postgres(url: &str, v: &CompetitionView) {
    let (url, v) = (url.to_string(), v.clone());
    // Blocking (the store drives a runtime of its own): off the test's async threads.
    tokio::task::spawn_blocking(move || check_stored_blocking(&url, &v))
        .await
        .unwrap();
}

fn check_stored_blocking(url: &str, v: &CompetitionView) {
    let mut db = store::PostgresStore::open(url, None).unwrap();
    let stored = CompetitionStore::competition(&mut db, &v.id)
        .unwrap()
        .expect("stored");
    store::verify_competition(&stored.header, &stored.log).unwrap();
    assert_eq!(stored.log.len() as u64, v.log_len);
    assert_eq!(stored.log.last().unwrap().hash, v.head_hash);
    assert!(stored.finished);
    assert_eq!(redeal_matches_in(&mut db, v), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_event_runs_on_postgres() {
    let (config, url) = postgres_config("event_one_node");
    let s = TestServer::start_with(config.clone()).await;
    let a = s.addr;
    let (id, ns1, ew2) = create_practice(a, "练习赛 PostgreSQL").await;
    for round in 1..=2u32 {
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/start"),
            Some(DIRECTOR),
            json!({}),
        )
        .await;
        finish_round(a, &id, round, &ns1, &ew2).await;
    }
    let v: CompetitionView = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/reveal"),
            Some(DIRECTOR),
            json!({}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    // The three boards (a set of one a table), each played at two tables over the two rounds.
    assert_eq!(st["boards"].as_array().unwrap().len(), 3);
    s.running.shutdown().await;
    check_stored_on_postgres(&url, &v).await;

    // A restart rebuilds the finished event from PostgreSQL.
    let s = TestServer::start_with(config).await;
    assert!(s.running.competitions_not_recovered.is_empty());
    let again = view(s.addr, &id).await;
    assert_eq!(
        (again.log_len, &again.head_hash, &again.seed),
        (v.log_len, &v.head_hash, &v.seed)
    );
    s.running.shutdown().await;
}

/// Two nodes on one database: the event is run by the node it was created on (the other sends
/// every call about it there with a 307); when that node stops mid-round, the other takes the
/// event over and, with it, the round's tables, and the event finishes there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_one_runs_the_event_then_the_other_takes_it_over() {
    let (mut config, url) = postgres_config("event_two_nodes");
    // Short leases: renewed (and looked for) every 0.4 s.
    config.lease = Duration::from_secs(2);
    let n1 = TestServer::start_with(config.clone()).await;
    let n2 = TestServer::start_with(config).await;
    let (a, b) = (n1.addr, n2.addr);
    let (id, ns1, ew2) = create_practice(a, "两台服务器").await;

    // Node 2 sends every call about the event to node 1: the director's, the pairs', the
    // public's. Its own list does not have it.
    for (method, path, auth, body) in [
        ("GET", format!("/api/events/{id}"), None, None),
        (
            "POST",
            format!("/api/events/{id}/rounds/1/start"),
            Some(DIRECTOR),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/events/{id}/join"),
            None,
            Some(json!({"token": ns1})),
        ),
    ] {
        let r = raw_http(
            b,
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {b}\r\nContent-Type: application/json\r\n{}Content-Length: {}\r\nConnection: close\r\n\r\n{}",
                auth.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default(),
                body.as_ref().map(|b| b.to_string().len()).unwrap_or(0),
                body.map(|b| b.to_string()).unwrap_or_default()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(r.status, 307, "{method} {path}: {}", r.body);
        assert_eq!(
            r.header("location"),
            Some(format!("http://{a}{path}").as_str())
        );
        assert_eq!(r.problem().code, "elsewhere");
    }
    let listed = ok(b, "GET", "/api/events", None, json!(null)).await;
    assert!(listed.as_array().unwrap().is_empty(), "{listed}");
    assert_eq!(
        view(a, &id).await.round,
        0,
        "still registering: the start was not run"
    );

    // Round 1 on node 1.
    ok(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/start"),
        Some(DIRECTOR),
        json!({}),
    )
    .await;
    finish_round(a, &id, 1, &ns1, &ew2).await;
    // Round 2 starts on node 1: its tables open there. Then node 1 stops (SIGTERM: it commits
    // and gives its leases up).
    let started: CompetitionView = serde_json::from_value(
        ok(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/2/start"),
            Some(DIRECTOR),
            json!({}),
        )
        .await,
    )
    .unwrap();
    let round2_tables: Vec<String> = started.schedule[1]
        .tables
        .iter()
        .filter_map(|t| t.boards[0].table_id.clone())
        .collect();
    assert_eq!(round2_tables.len(), 3);
    n1.running.shutdown().await;

    // Node 2 runs the event now: what was logged is there, and the round's tables (opened by
    // node 1) came with it: the people sit down at them through node 2 and play.
    let path = format!("/api/events/{id}");
    let taken: CompetitionView = eventually(
        Duration::from_secs(10),
        "node 2 takes the event over",
        async || {
            let (status, v) = call(b, "GET", &path, Some(DIRECTOR), None).await;
            (status == 200).then(|| serde_json::from_value(v).unwrap())
        },
    )
    .await;
    assert_eq!(taken.round, 2);
    assert_eq!(taken.closed, 1);
    assert!(taken.log_len >= started.log_len);
    let listed = ok(b, "GET", "/api/events", None, json!(null)).await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    finish_round(b, &id, 2, &ns1, &ew2).await;
    let v: CompetitionView = serde_json::from_value(
        ok(
            b,
            "POST",
            &format!("/api/events/{id}/reveal"),
            Some(DIRECTOR),
            json!({}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    // Round 2 was played at the tables node 1 opened: none was opened again.
    let played: Vec<String> = v.schedule[1]
        .tables
        .iter()
        .filter_map(|t| t.boards[0].table_id.clone())
        .collect();
    assert_eq!(played, round2_tables);
    n2.running.shutdown().await;
    check_stored_on_postgres(&url, &v).await;
}

// --- 够级 team events ----------------------------------------------------------------------------
//
// The same over 够级 teams: the director creates the event (teams of three), the server draws
// the groups and each knockout round from the event seed, opens every game's table (six seats,
// A1 leads), reads each game's result from its log, ranks with the tournament crate's
// tie-breaks; the final's teams rotate (A 1→2→3, B 3→2→1) with one deal per game at all three
// tables; the seed is revealed at the end and every game re-dealt and the draw redrawn from it.

/// `n` teams of one organisation each (bots unless `people` names their number).
fn teams(n: u32, people: &[u32]) -> Vec<Value> {
    (1..=n)
        .map(|i| {
            let org = ["山亭", "峄城", "台儿庄", "薛城", "市中", "滕州", "高新"][(i as usize - 1) % 7];
            if people.contains(&i) {
                json!({"names": [format!("{org}甲"), format!("{org}乙"), format!("{org}丙")],
                       "organisation": org, "team": format!("{org}{i}队")})
            } else {
                json!({"names": [], "bot": true, "organisation": org, "team": format!("{org}{i}队")})
            }
        })
        .collect()
}

/// A 够级 round is over: drawn, every game has a result, every match a winner, nobody level
/// in the final.
fn gouji_round_done(v: &CompetitionView, round: u32) -> bool {
    let Some(s) = v
        .gouji
        .as_ref()
        .and_then(|g| g.stages.iter().find(|s| s.round == round))
    else {
        return false;
    };
    s.state != "drawing"
        && !s.games.is_empty()
        && s.games.iter().all(|g| g.done)
        && s.matches.iter().all(|m| m.winner.is_some())
}

/// A people team plays every game it has this round (three WebSocket bot clients a game, one
/// per seat of its side), until the round is over (an extra game may still come for it once
/// the scheduled games are in).
async fn play_team_round(addr: SocketAddr, id: &str, token: &str, round: u32, think: Duration) {
    let mut moving = Moving::new();
    loop {
        let now = view(addr, id).await;
        if gouji_round_done(&now, round) {
            return;
        }
        let (status, v) = call(
            addr,
            "POST",
            &format!("/api/events/{id}/join"),
            None,
            Some(&json!({"token": token})),
        )
        .await;
        if status == 409 {
            // No game of the team's now: the others play theirs (or its next is not drawn).
            assert!(
                matches!(v["code"].as_str(), Some("next_game_not_open" | "team_idle")),
                "{v}"
            );
            moving.check(&now, "the team's next game");
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        assert_eq!(status, 200, "{v}");
        let first: CompetitionJoined = serde_json::from_value(v).unwrap();
        // Its three players each sit down with their own token: the side's seats, A1, A2, A3
        // (0, 2, 4) or B1, B2, B3 (1, 3, 5).
        let mut tasks = Vec::new();
        let mut seats = Vec::new();
        for player in team_tokens(addr, id, token).await {
            let j: CompetitionJoined = serde_json::from_value(
                ok(
                    addr,
                    "POST",
                    &format!("/api/events/{id}/join"),
                    None,
                    json!({"token": player}),
                )
                .await,
            )
            .unwrap();
            assert_eq!(
                j.table, first.table,
                "the team's three seats are at one table"
            );
            assert_eq!(j.seat % 2, first.seat % 2, "one side");
            seats.push(j.seat);
            let url = format!("ws://{addr}/ws/{}", j.table);
            let opts = bots::client::BotOptions {
                think,
                ..Default::default()
            };
            tasks.push(tokio::spawn(async move {
                bots::client::play::<rules::gouji::Game>(&url, &j.token, opts).await
            }));
        }
        seats.sort_unstable();
        seats.dedup();
        assert_eq!(seats.len(), 3, "each player their own seat");
        for t in tasks {
            assert!(t.await.unwrap().expect("plays to the end").over);
        }
    }
}

/// The three player tokens of the team one of whose players' token is `token`.
async fn team_tokens(addr: SocketAddr, id: &str, token: &str) -> Vec<String> {
    cards(addr, id)
        .await
        .teams
        .iter()
        .find(|t| t.players.iter().any(|p| p.token == token))
        .map(|t| t.players.iter().map(|p| p.token.clone()).collect())
        .expect("a team's player")
}

/// The director runs every round of a 够级 event to its end (people teams playing theirs) and
/// reveals the seed; the finished view.
async fn run_gouji_event(
    a: SocketAddr,
    id: &str,
    people: &[String],
    think: Duration,
) -> CompetitionView {
    let mut round = view(a, id).await.round;
    // Closes refused because a people team's captain had not signed yet.
    let mut unsigned = 0;
    loop {
        let v = view(a, id).await;
        let next = v.gouji.as_ref().unwrap().next.clone();
        if v.closed == round {
            if next.is_none() {
                break;
            }
            round += 1;
            director_post(
                a,
                format!("/api/events/{id}/rounds/{round}/start"),
                json!({}),
            )
            .await;
        }
        let plays = people
            .iter()
            .map(|t| play_team_round(a, id, t, round, think));
        futures_util::future::join_all(plays).await;
        // Six games one after the other (bots in a debug build take a while over each).
        until_moving(a, id, "the round's games", |v| gouji_round_done(v, round)).await;
        // 「每局比赛结束后，由队长或领队签字确认该局比赛结果」: a round whose people team has not
        // signed does not close (computer teams sign by themselves); once it has, it does.
        let close = format!("/api/events/{id}/rounds/{round}/close");
        let (status, refused) = call(a, "POST", &close, Some(DIRECTOR), Some(&json!({}))).await;
        if status != 200 {
            assert_eq!(
                (status, refused["code"].as_str()),
                (409, Some("games_unconfirmed")),
                "{refused}"
            );
            unsigned += 1;
            for token in people {
                let (status, answer) = call(
                    a,
                    "POST",
                    &format!("/api/events/{id}/confirm"),
                    None,
                    Some(&json!({"token": token, "agree": true})),
                )
                .await;
                // A team with a bye, or out, has nothing to sign this round.
                assert!(status == 200 || status == 409, "{answer}");
            }
            director_post(a, close, json!({})).await;
        }
    }
    assert_eq!(
        unsigned > 0,
        !people.is_empty(),
        "the people's unsigned games held a close"
    );
    serde_json::from_value(director_post(a, format!("/api/events/{id}/reveal"), json!({})).await)
        .unwrap()
}

/// Every game of a finished 够级 event, from the revealed seed: its table dealt the game's deal
/// from the event seed (every card a seat played or burned is in its re-dealt hand, and the
/// stored log replayed from the seed gives the logged result), and the draw drawn again gives
/// the logged groups, knockout rounds and final groups. The games checked.
fn gouji_redeal_matches(db: &mut dyn Store, v: &CompetitionView) -> usize {
    use tournament::gouji as tg;
    let seed_hex = v.seed.as_deref().expect("revealed");
    let seed = rules::deal::Seed::from_hex(seed_hex).unwrap();
    assert_eq!(seed.commitment(), v.seed_commitment);
    let g = v.gouji.as_ref().unwrap();
    // The draw.
    let entrants: Vec<tg::Entrant> = g
        .teams
        .iter()
        .map(|t| tg::Entrant {
            team: t.name.clone(),
            organisation: t.organisation.clone().unwrap(),
        })
        .collect();
    let groups = tg::draw_groups(&entrants, g.groups.len(), &seed).unwrap();
    let names: Vec<(String, Vec<String>)> = groups
        .iter()
        .map(|x| (x.name.clone(), x.teams.clone()))
        .collect();
    let shown: Vec<(String, Vec<String>)> = g
        .groups
        .iter()
        .map(|x| (x.name.clone(), x.teams.clone()))
        .collect();
    assert_eq!(names, shown, "the groups drawn again from the seed");
    let mut left = groups;
    for s in &g.stages {
        if s.kind == "knockout" {
            let k = tg::knockout_round(&left, s.round, &seed).unwrap();
            let drawn: Vec<(String, String)> = k
                .matches
                .iter()
                .map(|m| (m.a.clone(), m.b.clone()))
                .collect();
            let logged: Vec<(String, String)> = s
                .matches
                .iter()
                .map(|m| (m.a.clone(), m.b.clone()))
                .collect();
            assert_eq!(drawn, logged, "round {} drawn again", s.round);
            assert_eq!(k.byes, s.byes);
            let winners: Vec<String> = s.matches.iter().filter_map(|m| m.winner.clone()).collect();
            left = tg::advance(&left, &k, &winners).unwrap();
        } else {
            let finalists: Vec<String> = left.iter().flat_map(|x| x.teams.clone()).collect();
            let f = tg::draw_final_groups(&finalists, &seed).unwrap();
            let shown = s.final_groups.as_ref().unwrap();
            assert_eq!(
                (f.a.to_vec(), f.b.to_vec()),
                (shown.a.clone(), shown.b.clone())
            );
        }
    }
    // The games.
    let mut checked = 0;
    for s in &g.stages {
        for game in &s.games {
            let id = game.table_id.as_ref().expect("every game was played");
            let stored = db.table(id).unwrap().expect("stored");
            assert_eq!(
                stored.header.seed, seed_hex,
                "table {id} deals from the event seed"
            );
            assert_eq!(stored.header.board, game.deal);
            let deal = rules::deal::deal_gouji(&seed, game.deal);
            let mut played: BTreeMap<usize, Vec<Card>> = BTreeMap::new();
            for e in &stored.log {
                if let Ok(
                    rules::gouji::Action::Play { cards } | rules::gouji::Action::Burn { cards },
                ) = serde_json::from_str::<rules::gouji::Action>(&e.action)
                {
                    played.entry(e.seat).or_default().extend(cards);
                }
            }
            for (seat, cards) in played {
                let mut hand = deal.hands[seat].clone();
                for c in cards {
                    let i = hand.iter().position(|h| *h == c).unwrap_or_else(|| {
                        panic!("table {id} seat {seat} played {c:?}, not in its re-dealt hand")
                    });
                    hand.swap_remove(i);
                }
            }
            let table = server::table::replay::rebuilt::<rules::gouji::Game>(&stored).unwrap();
            let Some(tournament::competition::TableResult::Game(record)) =
                server::TableGame::result(&table)
            else {
                panic!("table {id} is over")
            };
            let r = game.result.as_ref().expect("shown once finished");
            assert_eq!(
                (record.a, record.b),
                (r.a, r.b),
                "table {id}: the logged result"
            );
            checked += 1;
        }
    }
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gouji_practice_event_runs_from_creation_to_the_revealed_seed() {
    let s = director_server("gouji-events").await;
    let a = s.addr;

    // Seven teams (one of people, six of bots), two groups: one knockout match takes the field
    // to six, then the final.
    let (status, refused) = call(
        a,
        "POST",
        "/api/events",
        Some(DIRECTOR),
        Some(&json!({"game": "gouji", "name": "够级练习赛", "entries": teams(5, &[])})),
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("team_count")),
        "{refused}"
    );
    let ev: CompetitionView = serde_json::from_value(
        director_post(
            a,
            "/api/events".into(),
            json!({"game": "gouji", "name": "够级练习赛", "groups": 2, "final_games": 3,
                   "entries": teams(7, &[1])}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(ev.game, "gouji");
    assert_eq!(ev.seed, None, "only the commitment is published");
    let id = ev.id.clone();
    let g = ev.gouji.as_ref().unwrap();
    assert_eq!(g.teams.len(), 7);
    assert_eq!(g.next.as_deref(), Some("knockout"));
    let cards: CompetitionCards = serde_json::from_value(
        ok(
            a,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    assert_eq!(cards.teams.len(), 7);
    let people = cards.teams[0].players[0].token.clone();
    assert_eq!(cards.teams[0].players.len(), 3, "a card a player");
    assert!(cards.teams[1..].iter().all(|t| t.players.is_empty()));
    // A wrong token is refused; 80分 steps are refused on a 够级 event.
    let (status, _) = call(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": "aaaa-bbbb-cccc"})),
    )
    .await;
    assert_eq!(status, 403);

    // Round 1: the draw is logged and the knockout match opens its first game.
    director_post(a, format!("/api/events/{id}/rounds/1/start"), json!({})).await;
    let v = until(a, &id, "the draw", |v| {
        v.gouji.as_ref().unwrap().stages[0].state == "playing"
    })
    .await;
    let g = v.gouji.as_ref().unwrap();
    assert_eq!(g.groups.len(), 2);
    let k = &g.stages[0];
    assert_eq!(
        (k.kind.as_str(), k.matches.len(), k.byes.len()),
        ("knockout", 1, 5)
    );
    assert_eq!(k.games.len(), 6, "a match is six games at one table");
    assert!(k
        .games
        .iter()
        .all(|x| x.table == 1 && x.a == k.matches[0].a));
    // Closing before the games are in is refused.
    let (status, v409) = call(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/close"),
        Some(DIRECTOR),
        Some(&json!({})),
    )
    .await;
    assert_eq!(
        (status, v409["code"].as_str()),
        (409, Some("round_incomplete"))
    );
    // The public sees no game's result while the event runs.
    let public = ok(a, "GET", &format!("/api/events/{id}"), None, json!(null)).await;
    assert!(public["gouji"]["stages"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("result").is_none()));
    // The people team's own view (its token on the pair page): its match, or its bye.
    let me = pair_status(a, &id, &people).await;
    let mine = me.team.expect("a team's own view");
    assert_eq!(
        (me.pair.direction.as_str(), mine.name.as_str()),
        ("team", "山亭1队")
    );
    let m = &k.matches[0];
    if m.a == mine.name || m.b == mine.name {
        let theirs = if m.a == mine.name { &m.b } else { &m.a };
        assert_eq!(
            (mine.stage.as_str(), mine.opponent.as_ref()),
            ("knockout", Some(theirs))
        );
        assert_eq!(mine.games.len(), 6);
        assert!(mine
            .games
            .iter()
            .all(|x| &x.opponent == theirs && x.table == 1));
    } else {
        assert_eq!(mine.stage, "bye");
        assert!(mine.games.is_empty() && mine.totals.is_empty());
    }

    // The director deducts 4 points from a team of the match (扣该队4分).
    let in_match = k.matches[0].a.clone();
    let number = g.teams.iter().find(|t| t.name == in_match).unwrap().number;
    director_post(
        a,
        format!("/api/events/{id}/team-deductions"),
        json!({"team": number, "reason": "同组队员交流牌型"}),
    )
    .await;

    let finished = run_gouji_event(a, &id, &[people], Duration::ZERO).await;
    assert_eq!(finished.state, protocol::CompetitionState::Finished);
    let g = finished.gouji.as_ref().unwrap();
    assert_eq!(g.stages.len(), 2);
    assert_eq!(g.stages[0].deductions[0].points, 4);
    let fin = &g.stages[1];
    assert_eq!(fin.kind, "final");
    assert!(
        fin.games.len() >= 9,
        "three games at three tables, then any extra games"
    );

    // Standings: six finalists placed 1–6 with prizes, the loser of the knockout out in round 1.
    let st = ok(
        a,
        "GET",
        &format!("/api/events/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    let lines = st["gouji"]["teams"].as_array().unwrap();
    assert_eq!(lines.len(), 7);
    let places: Vec<u64> = lines[..6]
        .iter()
        .map(|l| l["place"].as_u64().expect("placed"))
        .collect();
    assert_eq!(places, [1, 2, 3, 4, 5, 6], "{st}");
    assert!(lines[..6].iter().all(|l| l["prize"] == true));
    assert_eq!(
        (lines[6]["stage"].as_str(), lines[6]["out_round"].as_u64()),
        (Some("out"), Some(1))
    );
    let games = st["gouji"]["games"].as_array().unwrap();
    assert_eq!(games.len(), fin.games.len() + g.stages[0].games.len());
    let csv = call(
        a,
        "GET",
        &format!("/api/events/{id}/results.csv?lang=en"),
        None,
        None,
    )
    .await;
    let csv = csv.1.as_str().unwrap().to_string();
    assert!(
        csv.starts_with("\u{feff}place,decided_by,team,players"),
        "{csv}"
    );
    assert!(csv.contains("a_points"));
    // The column names follow the page's language: Chinese when it does not say.
    let zh = call(
        a,
        "GET",
        &format!("/api/events/{id}/results.csv"),
        None,
        None,
    )
    .await;
    assert!(
        zh.1.as_str()
            .unwrap()
            .starts_with("\u{feff}名次,决定名次,队,选手"),
        "{}",
        zh.1
    );
    let html = call(
        a,
        "GET",
        &format!("/api/events/{id}/results.html"),
        None,
        None,
    )
    .await;
    let html = html.1.as_str().unwrap().to_string();
    assert!(
        html.contains("size: A4")
            && html.contains("够级")
            && html.contains(finished.seed.as_deref().unwrap())
    );

    // Nothing changes after the reveal.
    let (status, _) = call(
        a,
        "POST",
        &format!("/api/events/{id}/team-deductions"),
        Some(DIRECTOR),
        Some(&json!({"team": 1, "reason": "迟到"})),
    )
    .await;
    assert_eq!(status, 409);

    let db = s.db.clone();
    s.running.shutdown().await;
    let mut store = SqliteStore::open(&db).unwrap();
    assert_eq!(
        gouji_redeal_matches(&mut store, &finished),
        fin.games.len() + g.stages[0].games.len()
    );
}

/// The final over the server: every game is one deal at all three tables (the same seed and deal
/// number on each stored table), and over the final's games every A team meets every B team.
/// No group holds one side of a deal: in this first rotation table 2 seats its group-B team on
/// side A (docs/tournaments.md, the final's sides), so every deal has both groups on side A.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gouji_final_rotates_every_a_team_against_every_b_team_on_one_deal() {
    let s = director_server("gouji-final").await;
    let a = s.addr;
    let ev: CompetitionView = serde_json::from_value(
        director_post(
            a,
            "/api/events".into(),
            json!({"game": "gouji", "name": "够级决赛", "entries": teams(6, &[])}),
        )
        .await,
    )
    .unwrap();
    assert_eq!(ev.gouji.as_ref().unwrap().next.as_deref(), Some("final"));
    let v = run_gouji_event(a, &ev.id, &[], Duration::ZERO).await;
    let fin = &v.gouji.as_ref().unwrap().stages[0];
    let groups = fin.final_groups.as_ref().unwrap();
    let db = s.db.clone();
    s.running.shutdown().await;
    let mut store = SqliteStore::open(&db).unwrap();
    let mut met: BTreeMap<(String, String), u32> = BTreeMap::new();
    for game in 1..=3u32 {
        let at: Vec<_> = fin
            .games
            .iter()
            .filter(|x| x.game == game && !x.extra)
            .collect();
        assert_eq!(at.len(), 3, "game {game} at three tables");
        // Game 1: A team i against B team i at table i; then A moves up, B down.
        for x in &at {
            let t = x.table as usize - 1;
            let moved = (game as usize - 1) % 3;
            let (group_a, group_b) = if x.table == 2 {
                (&x.b, &x.a)
            } else {
                (&x.a, &x.b)
            };
            assert_eq!(
                group_a,
                &groups.a[(t + 3 - moved) % 3],
                "game {game} table {}",
                x.table
            );
            assert_eq!(
                group_b,
                &groups.b[(t + moved) % 3],
                "game {game} table {}",
                x.table
            );
            *met.entry((group_a.clone(), group_b.clone())).or_default() += 1;
        }
        let a_on_side_a = at.iter().filter(|x| groups.a.contains(&x.a)).count();
        assert_eq!(a_on_side_a, 2, "game {game}: both groups hold side A");
        let deals: Vec<(String, u32)> = at
            .iter()
            .map(|x| {
                let t = store.table(x.table_id.as_ref().unwrap()).unwrap().unwrap();
                (t.header.seed, t.header.board)
            })
            .collect();
        assert!(
            deals.iter().all(|d| d == &deals[0]),
            "game {game}: one deal at every table: {deals:?}"
        );
    }
    assert_eq!(met.len(), 9, "every A team met every B team: {met:?}");
    assert!(met.values().all(|&n| n == 1));
    assert_eq!(gouji_redeal_matches(&mut store, &v), fin.games.len());
}

/// The real binary killed with SIGKILL in the middle of a knockout match: after the restart the
/// games logged are there, the match goes on from its next game and the event finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_gouji_match_loses_nothing_and_the_event_finishes() {
    let bin = paiju_bin();
    let dir = temp_dir("gouji-crash");
    let db = dir.path().join("paiju.db");
    let (mut child, a) = serve(&bin, &db);
    let id = start_knockout_of_seven(a, "够级断电演练").await;
    let before = until(a, &id, "two games of the match", |v| {
        let s = &v.gouji.as_ref().unwrap().stages[0];
        s.games.iter().filter(|x| x.done).count() >= 2 && !s.games.iter().all(|x| x.done)
    })
    .await;
    child.0.kill().expect("SIGKILL");
    child.0.wait().unwrap();
    {
        let mut events = SqliteStore::open_competitions(&db).unwrap();
        let stored = events.competitions().unwrap();
        store::verify_competition(&stored[0].header, &stored[0].log).unwrap();
        assert!(stored[0].log.len() as u64 >= before.log_len);
    }
    let (child, a) = serve(&bin, &db);
    let after = view(a, &id).await;
    assert_eq!(after.seed_commitment, before.seed_commitment);
    let (s0, s1) = (
        &before.gouji.as_ref().unwrap().stages[0],
        &after.gouji.as_ref().unwrap().stages[0],
    );
    assert_eq!(
        s0.matches.iter().map(|m| (&m.a, &m.b)).collect::<Vec<_>>(),
        s1.matches.iter().map(|m| (&m.a, &m.b)).collect::<Vec<_>>(),
        "the same draw"
    );
    for (g0, g1) in s0.games.iter().zip(&s1.games) {
        if g0.done {
            assert_eq!(
                (g1.done, &g1.result, &g1.table_id),
                (true, &g0.result, &g0.table_id)
            );
        }
    }
    let v = run_gouji_event(a, &id, &[], THINK).await;
    assert_eq!(v.state, protocol::CompetitionState::Finished);
    drop(child);
    let mut store = SqliteStore::open(&db).unwrap();
    let games: usize = v
        .gouji
        .as_ref()
        .unwrap()
        .stages
        .iter()
        .map(|s| s.games.len())
        .sum();
    assert_eq!(gouji_redeal_matches(&mut store, &v), games);
}

/// A 够级 event of seven computer teams in two groups, round 1 started: one knockout match (at
/// table 1) takes the field to six. Its id.
async fn start_knockout_of_seven(a: SocketAddr, name: &str) -> String {
    let ev: CompetitionView = serde_json::from_value(
        director_post(
            a,
            "/api/events".into(),
            json!({"game": "gouji", "name": name, "groups": 2, "entries": teams(7, &[])}),
        )
        .await,
    )
    .unwrap();
    let id = ev.id.clone();
    director_post(a, format!("/api/events/{id}/rounds/1/start"), json!({})).await;
    id
}

/// The director's ruling on a finished 够级 game (改判) over HTTP: refused for anyone else, for a
/// game without a result and for a side that is none, each changing nothing; taken, it replaces
/// the game's result, shows the reason to the director and in the results, and is logged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_director_rules_on_a_finished_gouji_game() {
    let s = director_server("gouji-ruling").await;
    let a = s.addr;
    let id = start_knockout_of_seven(a, "够级改判").await;
    until(a, &id, "game 1 of the match", |v| {
        v.gouji.as_ref().unwrap().stages[0]
            .games
            .iter()
            .any(|x| x.game == 1 && x.done)
    })
    .await;
    let path = format!("/api/events/{id}/games/adjust");
    let ruling = json!({"table": 1, "game": 1, "result": {"a": 4, "b": -4, "first": "a", "last": ["b"]},
                        "reason": "B 队打暗号，改判"});
    for (auth, body, status, code) in [
        (None, ruling.clone(), 403, "not_director"),
        (Some(REFEREE_TOKEN), ruling.clone(), 403, "not_director"),
        (
            Some(DIRECTOR),
            json!({"table": 1, "game": 6, "result": ruling["result"], "reason": "x"}),
            409,
            "game_unfinished",
        ),
        (
            Some(DIRECTOR),
            json!({"table": 1, "game": 1, "result": {"a": 1, "b": 0, "first": "c", "last": []}, "reason": "x"}),
            400,
            "bad_side",
        ),
        (
            Some(DIRECTOR),
            json!({"table": 1, "game": 1, "result": ruling["result"], "reason": ""}),
            400,
            "bad_text",
        ),
        (
            Some(DIRECTOR),
            json!({"table": 1, "game": 1, "result": {"a": 12, "b": 12, "first": "b", "last": []}, "reason": "x"}),
            400,
            "not_producible",
        ),
    ] {
        let (got, answer) = call(a, "POST", &path, auth, Some(&body)).await;
        assert_eq!(
            (got, answer["code"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
    }
    // A lot (抽签) is for a match whose 12 extra games left it level: refused on this one, which
    // is still being played (409), for a team not in it (400), and to anyone but the director.
    let stage = view(a, &id).await.gouji.unwrap().stages[0].clone();
    let (team_a, bye) = (stage.matches[0].a.clone(), stage.byes[0].clone());
    assert!(!stage.matches[0].lot_needed);
    let number_a = view(a, &id)
        .await
        .gouji
        .unwrap()
        .teams
        .iter()
        .find(|t| t.name == team_a)
        .unwrap()
        .number
        .to_string();
    let lot = format!("/api/events/{id}/lot");
    for (auth, winner, status, code) in [
        (None, team_a.as_str(), 403, "not_director"),
        (Some(DIRECTOR), team_a.as_str(), 409, "lot_not_needed"),
        (Some(DIRECTOR), number_a.as_str(), 409, "lot_not_needed"),
        (Some(DIRECTOR), bye.as_str(), 400, "not_in_match"),
    ] {
        let body = json!({"table": 1, "winner": winner, "reason": "抽签"});
        let (got, answer) = call(a, "POST", &lot, auth, Some(&body)).await;
        assert_eq!(
            (got, answer["code"].as_str()),
            (status, Some(code)),
            "{body}: {answer}"
        );
    }
    // Previewed, the ruling shows the standings it would make, and logs nothing.
    let before = view(a, &id).await;
    let preview = ok(
        a,
        "POST",
        &format!("{path}?preview=true"),
        Some(DIRECTOR),
        ruling.clone(),
    )
    .await;
    assert!(preview["gouji"]["teams"].is_array(), "{preview}");
    let game = preview["gouji"]["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == json!(1))
        .expect("game 1 in the previewed standings")
        .clone();
    assert_eq!(game["result"]["a"], json!(4), "{game}");
    assert_eq!(game["adjusted"], json!("B 队打暗号，改判"));
    let after = view(a, &id).await;
    assert!(after.gouji.as_ref().unwrap().stages[0]
        .games
        .iter()
        .all(|x| x.adjusted.is_none()));
    assert!(after.log_len >= before.log_len);
    // Nothing changed (the bots go on playing: the log may have grown, but by no ruling).
    let unchanged = view(a, &id).await;
    assert!(unchanged.gouji.as_ref().unwrap().stages[0]
        .games
        .iter()
        .all(|x| x.adjusted.is_none()));

    let v: CompetitionView = serde_json::from_value(director_post(a, path, ruling).await).unwrap();
    let game1 = v.gouji.as_ref().unwrap().stages[0]
        .games
        .iter()
        .find(|x| x.game == 1)
        .unwrap()
        .clone();
    assert_eq!(game1.adjusted.as_deref(), Some("B 队打暗号，改判"));
    let r = game1.result.unwrap();
    assert_eq!((r.a, r.b, r.first.as_deref()), (4, -4, Some("a")));
    // The public sees neither result nor ruling while the event runs.
    let public = ok(a, "GET", &format!("/api/events/{id}"), None, json!(null)).await;
    assert!(public["gouji"]["stages"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("result").is_none() && x.get("adjusted").is_none()));
    let db = s.db.clone();
    s.running.shutdown().await;
    let mut events = SqliteStore::open_competitions(&db).unwrap();
    let stored = events.competitions().unwrap();
    let logged = stored[0]
        .log
        .iter()
        .filter(|e| e.action.contains("\"type\":\"adjust_game\""))
        .count();
    assert_eq!(logged, 1, "the ruling is in the event's log, once");
    assert!(
        stored[0]
            .log
            .iter()
            .all(|e| !e.action.contains("\"type\":\"lot\"")),
        "no lot was logged"
    );
}

/// A knockout match still level after its 12 extra games is decided by the director's lot
/// (抽签), over the real server: the computer teams play every game, the director rules each one
/// level (no 头科, no 大落) as it ends, so the match needs extra game after extra game until the
/// twelfth; then the lot is offered (`lot_needed`), refused for a team not in the match, taken
/// for one of its teams (typed by number), logged, and the round closes with that team through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_match_level_after_its_extra_games_is_decided_by_lot() {
    let s = director_server("gouji-lot").await;
    let a = s.addr;
    let id = start_knockout_of_seven(a, "够级抽签").await;
    // Level, with no 头科 and no 大落: the only such result a game can have is a forfeit whose
    // points the referee's deductions brought level (−12 − 0, +12 − 24), which settles nothing.
    let level = json!({"a": -12, "b": -12, "last": []});
    // 6 games, then 12 extra games: each ruled level once it ends.
    for game in 1..=18u32 {
        until_for(a, &id, &format!("game {game} played"), 120, |v| {
            v.gouji.as_ref().unwrap().stages[0]
                .games
                .iter()
                .any(|x| x.game == game && x.done)
        })
        .await;
        director_post(
            a,
            format!("/api/events/{id}/games/adjust"),
            json!({"table": 1, "game": game, "result": level, "reason": "测试：判为平局"}),
        )
        .await;
    }
    let v = view(a, &id).await;
    let stage = &v.gouji.as_ref().unwrap().stages[0];
    let m = stage.matches[0].clone();
    assert!(m.lot_needed && m.winner.is_none(), "{m:?}");
    assert_eq!(stage.games.len(), 18, "no nineteenth game");
    assert!(stage.games.iter().all(|x| x.done));
    let (status, refused) = call(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/close"),
        Some(DIRECTOR),
        Some(&json!({})),
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (409, Some("round_incomplete"))
    );

    let lot = format!("/api/events/{id}/lot");
    let bye = stage.byes[0].clone();
    let (status, refused) = call(
        a,
        "POST",
        &lot,
        Some(DIRECTOR),
        Some(&json!({"table": 1, "winner": bye, "reason": "抽签"})),
    )
    .await;
    assert_eq!(
        (status, refused["code"].as_str()),
        (400, Some("not_in_match")),
        "{refused}"
    );
    let b_number = v
        .gouji
        .as_ref()
        .unwrap()
        .teams
        .iter()
        .find(|t| t.name == m.b)
        .unwrap()
        .number;
    let after: CompetitionView = serde_json::from_value(
        director_post(
            a,
            lot.clone(),
            json!({"table": 1, "winner": b_number.to_string(), "reason": "双方队长在裁判长面前抽签"}),
        )
        .await,
    )
    .unwrap();
    let decided = &after.gouji.as_ref().unwrap().stages[0].matches[0];
    assert_eq!(decided.winner.as_deref(), Some(m.b.as_str()));
    assert_eq!(decided.lot.as_deref(), Some("双方队长在裁判长面前抽签"));
    assert!(!decided.lot_needed);
    // A second lot is refused.
    let (status, _) = call(
        a,
        "POST",
        &lot,
        Some(DIRECTOR),
        Some(&json!({"table": 1, "winner": m.a, "reason": "再抽"})),
    )
    .await;
    assert_eq!(status, 409);
    director_post(a, format!("/api/events/{id}/rounds/1/close"), json!({})).await;
    let closed = view(a, &id).await;
    assert_eq!(closed.closed, 1);
    assert_eq!(
        closed.gouji.as_ref().unwrap().next.as_deref(),
        Some("final")
    );

    let db = s.db.clone();
    s.running.shutdown().await;
    let mut events = SqliteStore::open_competitions(&db).unwrap();
    let stored = events.competitions().unwrap();
    let lots: Vec<&String> = stored[0]
        .log
        .iter()
        .map(|e| &e.action)
        .filter(|a| a.contains("\"type\":\"lot\""))
        .collect();
    assert_eq!(lots.len(), 1);
    assert!(
        lots[0].contains(&format!("\"winner\":\"{}\"", m.b)),
        "logged by name: {}",
        lots[0]
    );
}
