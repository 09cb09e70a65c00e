//! Fair play end to end (issue 25): a small 80分 duplicate event over the real server, three
//! pairs of people (WebSocket clients of the 普通 player, each pair with its own style:
//! `bots::fairplay::players::Styled`) and computer pairs. In one run, the
//! pair NS 1 cheats: its two clients tell each other their hands on every view
//! (`bots::fairplay::players::Peeking`), as a pair in one room would. `paiju fairplay --event`
//! (the real binary, on the event's database) must rank that pair first; run on the same event
//! played honestly, it must flag nobody at the documented threshold.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use bots::fairplay::players::{Peek, Peeking, Styled, TableTalk};
use bots::{Level, SeatPlayer};
use paiju_tests::{eventually, http, http_ok, paiju_bin, TestServer};
use protocol::{CompetitionCards, CompetitionJoined, CompetitionView};
use rules::shengji::Board;
use serde_json::{json, Value};

const DIRECTOR: &str = "5c2e8a1f7b3d9e0c4a6f8b2d1e3c5a7f";
const ROUNDS: u32 = 3;
const BOARDS_PER_ROUND: u32 = 8;

/// People sit NS 1, EW 2 and NS 3; the other pairs are computers.
fn entries() -> Vec<Value> {
    let mut out = Vec::new();
    for dir in ["NS", "EW"] {
        for n in 1..=3 {
            let people = matches!((dir, n), ("NS", 1) | ("EW", 2) | ("NS", 3));
            out.push(if people {
                json!({"names": [format!("{dir}{n}甲"), format!("{dir}{n}乙")]})
            } else {
                json!({"names": [], "bot": true})
            });
        }
    }
    out
}

/// A pair's two players (their card tokens).
fn players(cards: &CompetitionCards, dir: &str, n: u32) -> [String; 2] {
    let c = cards
        .pairs
        .iter()
        .find(|c| c.pair.direction == dir && c.pair.number == n)
        .expect("the pair's card");
    [c.players[0].token.clone(), c.players[1].token.clone()]
}

/// A pair plays every board it has this round, each player from its own card; a cheating
/// pair's two clients share one [`TableTalk`] a board.
async fn play_round(addr: SocketAddr, id: &str, tokens: &[String; 2], cheats: bool, style: u64) {
    // A round has at most BOARDS_PER_ROUND boards a pair.
    for _ in 0..=BOARDS_PER_ROUND {
        let mut seats = Vec::new();
        for t in tokens {
            let (status, v) = http(
                addr,
                "POST",
                &format!("/api/events/{id}/join"),
                None,
                Some(&json!({"token": t})),
            )
            .await;
            if status == 409 {
                assert_eq!(v["code"], "round_played", "{v}");
                return;
            }
            assert_eq!(status, 200, "{v}");
            seats.push(serde_json::from_value::<CompetitionJoined>(v).unwrap());
        }
        let talk = TableTalk::default();
        let mut tasks = Vec::new();
        for s in seats {
            let url = format!("ws://{addr}/ws/{}", s.table);
            let player: Box<dyn SeatPlayer<Board>> = if cheats {
                Box::new(Peeking::new(Level::Club, Peek::Partner, talk.clone()))
            } else {
                Box::new(Styled::new(Level::Club, style))
            };
            tasks.push(tokio::spawn(async move {
                bots::client::play_as::<Board>(&url, &s.token, Default::default(), player).await
            }));
        }
        for t in tasks {
            assert!(t.await.unwrap().expect("plays to the end").over);
        }
    }
    panic!("more boards than a round has");
}

/// The event played through: every round started, the people's boards played, confirmed and
/// closed. Its id.
async fn play_event(s: &TestServer, name: &str, seed: &str, cheat: bool) -> String {
    let a = s.addr;
    let created = http_ok(
        a,
        "POST",
        "/api/events",
        Some(DIRECTOR),
        json!({"game": "shengji", "name": name, "tables": 3, "rounds": ROUNDS,
               "boards_per_round": BOARDS_PER_ROUND, "movement": "plain", "seed": seed,
               "entries": entries()}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    let cards: CompetitionCards = serde_json::from_value(
        http_ok(
            a,
            "GET",
            &format!("/api/events/{id}/cards"),
            Some(DIRECTOR),
            json!(null),
        )
        .await,
    )
    .unwrap();
    // NS confirm first (NS record the results, EW check them).
    let people = [
        (players(&cards, "NS", 1), cheat),
        (players(&cards, "NS", 3), false),
        (players(&cards, "EW", 2), false),
    ];
    for round in 1..=ROUNDS {
        http_ok(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/start"),
            Some(DIRECTOR),
            json!({}),
        )
        .await;
        let plays = (0u64..)
            .zip(&people)
            .map(|(style, (tokens, cheats))| play_round(a, &id, tokens, *cheats, style));
        futures_util::future::join_all(plays).await;
        let done = |v: &CompetitionView| {
            v.schedule[round as usize - 1]
                .tables
                .iter()
                .all(|t| t.boards.iter().all(|b| b.done))
        };
        eventually(
            Duration::from_secs(120),
            "every board of the round played",
            async || {
                let v: CompetitionView = serde_json::from_value(
                    http_ok(
                        a,
                        "GET",
                        &format!("/api/events/{id}"),
                        Some(DIRECTOR),
                        json!(null),
                    )
                    .await,
                )
                .unwrap();
                done(&v).then_some(())
            },
        )
        .await;
        for (tokens, _) in &people {
            http_ok(
                a,
                "POST",
                &format!("/api/events/{id}/confirm"),
                None,
                json!({"token": tokens[0], "agree": true}),
            )
            .await;
        }
        http_ok(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/{round}/close"),
            Some(DIRECTOR),
            json!({}),
        )
        .await;
    }
    id
}

/// `paiju fairplay --event ID --db DB --json [--resume FILE]`, as the director runs it.
fn fairplay(db: &Path, id: &str, resume: Option<&Path>) -> Value {
    let mut cmd = std::process::Command::new(paiju_bin());
    cmd.args(["fairplay", "--event", id, "--json", "--db"])
        .arg(db);
    if let Some(file) = resume {
        cmd.arg("--resume").arg(file);
    }
    let out = cmd.output().expect("paiju runs");
    assert!(
        out.status.success(),
        "paiju fairplay: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

fn pair_of(line: &Value) -> (String, u64) {
    (
        line["direction"].as_str().unwrap_or_default().to_string(),
        line["number"].as_u64().unwrap_or_default(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pair_that_sees_its_partners_cards_is_ranked_first_and_an_honest_event_flags_nobody() {
    let s = TestServer::start_tuned("fairplay", |config| {
        config.director_token = Some(DIRECTOR.to_string());
        config.limits.burst = 10_000.0;
        config.limits.per_second = 10_000.0;
    })
    .await;
    let db = s.db.clone();

    // The organiser's seeds: every player here is deterministic given the deals (the people's
    // clients seed each decision from the board's moment, and a cheating seat waits for its
    // partner's view of that moment: `bots::fairplay::players`), so the run is the same every
    // time. Both are the first ones written down, not chosen to pass. With an
    // event seed drawn afresh each run, one CI run had the cheat second (its z 1.17, an honest
    // pair's 1.87): the calibration ranks it first 99.5 % of the time at 24 boards, not always,
    // and a suite that fails now and then teaches people to ignore it.
    let cheating = play_event(&s, "偷看同伴的一场", &"c4ea".repeat(16), true).await;
    let honest = play_event(&s, "规规矩矩的一场", &"0e57".repeat(16), false).await;

    let r = fairplay(&db, &cheating, None);
    let boards = u64::from(3 * ROUNDS * BOARDS_PER_ROUND);
    assert_eq!(r["tables_played"].as_u64(), Some(boards), "{r:#}");
    assert_eq!(
        r["tables"].as_u64(),
        Some(boards),
        "every board analysed: {r:#}"
    );
    let pairs = r["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 6, "every pair, the computers too: {r:#}");
    assert_eq!(
        pair_of(&pairs[0]),
        ("NS".into(), 1),
        "the cheat first: {r:#}"
    );
    // Marked only at the threshold: at 24 boards against a field of two pairs a direction the
    // calibration marks the cheat 59 % of the time (docs/fairplay.md), ranks it first ≈ 99 %.
    let z = pairs[0]["z_partner"].as_f64().expect("a figure");
    assert_eq!(
        pairs[0]["flagged"],
        z >= r["threshold"].as_f64().unwrap(),
        "marked exactly at the threshold: {r:#}"
    );
    assert!(z > 0.0, "its plays fit its partner's hand: {r:#}");
    assert!(
        pairs[1..].iter().all(|p| p["flagged"] == false),
        "nobody else: {r:#}"
    );
    let drivers = pairs[0]["drivers"].as_array().expect("drivers");
    assert!(!drivers.is_empty(), "the decisions behind it are named");
    for d in drivers {
        let e = &d["evidence"];
        assert!(
            e["with_partner"].as_f64().unwrap() > e["expected"].as_f64().unwrap(),
            "a play its partner's hand explains: {d:#}"
        );
    }

    // With a resume file: each board's analysis is kept as it is done; run again, nothing is
    // analysed twice and the report is the same.
    let kept = db.with_file_name("fairplay.jsonl");
    let r = fairplay(&db, &honest, Some(&kept));
    let lines = std::fs::read_to_string(&kept).unwrap().lines().count();
    assert_eq!(lines as u64, boards, "a line a board");
    assert_eq!(
        fairplay(&db, &honest, Some(&kept)),
        r,
        "resumed: the same report"
    );
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap().lines().count(),
        lines,
        "nothing analysed again"
    );
    let pairs = r["pairs"].as_array().expect("pairs");
    assert_eq!(pairs.len(), 6);
    let threshold = r["threshold"].as_f64().unwrap();
    assert_eq!(
        threshold,
        bots::fairplay::THRESHOLD,
        "the documented threshold"
    );
    for p in pairs {
        assert_eq!(p["flagged"], false, "an honest pair: {r:#}");
        assert!(p["z_partner"].as_f64().unwrap() < threshold, "{p:#}");
        assert!(p["tally"]["decisions"].as_u64().unwrap() > 300, "{p:#}");
    }
}

/// `paiju fairplay --event ID --db DB` with `--csv`, as the director exports it.
fn fairplay_csv(db: &Path, id: &str) -> String {
    let out = std::process::Command::new(paiju_bin())
        .args(["fairplay", "--event", id, "--csv", "--db"])
        .arg(db)
        .output()
        .expect("paiju runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A 够级 final of six computer teams (three games, each dealt alike at its three tables): every
/// team is scored game by game against the five others that played the same deal, the report names teams (not
/// pairs), its decisions point at the moves in the tables' logs, and nobody is marked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gouji_events_teams_are_scored_against_the_teams_that_played_the_same_game() {
    let s = TestServer::start_tuned("fairplay-gouji", |config| {
        config.director_token = Some(DIRECTOR.to_string());
    })
    .await;
    let db = s.db.clone();
    let a = s.addr;
    let teams: Vec<Value> = (1..=6)
        .map(|i| json!({"names": [], "bot": true, "team": format!("电脑{i}队")}))
        .collect();
    let created = http_ok(
        a,
        "POST",
        "/api/events",
        Some(DIRECTOR),
        json!({"game": "gouji", "name": "够级决赛", "entries": teams}),
    )
    .await;
    let id = created["id"].as_str().expect("an id").to_string();
    http_ok(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/start"),
        Some(DIRECTOR),
        json!({}),
    )
    .await;
    // The computers play (and sign) by themselves: the round closes once every game is in.
    eventually(Duration::from_secs(600), "the final played", async || {
        let (status, _) = http(
            a,
            "POST",
            &format!("/api/events/{id}/rounds/1/close"),
            Some(DIRECTOR),
            None,
        )
        .await;
        if status != 200 {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        (status == 200).then_some(())
    })
    .await;

    let r = fairplay(&db, &id, None);
    assert_eq!(r["game"], "gouji", "{r:#}");
    let games = r["tables_played"].as_u64().unwrap();
    assert!(games >= 9, "three games at each of the three tables: {r:#}");
    assert_eq!(
        r["tables"].as_u64(),
        Some(games),
        "every game analysed: {r:#}"
    );
    let lines = r["pairs"].as_array().expect("the teams");
    assert_eq!(lines.len(), 6, "every team: {r:#}");
    let mut names: Vec<&str> = lines.iter().map(|t| t["team"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "电脑1队",
            "电脑2队",
            "电脑3队",
            "电脑4队",
            "电脑5队",
            "电脑6队"
        ]
    );
    let mut store = server::store::open(db.to_str().unwrap(), None).unwrap();
    for t in lines {
        assert!(t.get("direction").is_none(), "a team, not a pair: {t:#}");
        assert!(t["tally"]["decisions"].as_u64().unwrap() > 10, "{t:#}");
        assert!(t["field_boards"].as_u64().unwrap() >= 3, "compared: {t:#}");
        assert!(t["z_partner"].is_f64(), "a figure: {t:#}");
        assert_eq!(t["flagged"], false, "honest computers: {r:#}");
        for d in t["drivers"].as_array().unwrap() {
            // The move named is a computer's own move in that table's log, by a seat of the team.
            let table = store
                .table(d["table_id"].as_str().unwrap())
                .unwrap()
                .unwrap();
            let seq = d["seq"].as_u64().unwrap();
            let e = table.log.iter().find(|e| e.seq == seq).expect("the entry");
            assert_eq!(e.actor, rules::Actor::Bot, "{d:#}");
            assert_eq!(e.seat as u64, d["evidence"]["seat"].as_u64().unwrap());
            assert_eq!(d["round"], 1);
        }
    }
    let csv = fairplay_csv(&db, &id);
    assert!(csv.starts_with("rank,team,number,names,"), "{csv}");
    assert_eq!(csv.lines().count(), 7, "a line a team: {csv}");
}
