//! Practice against the field (issue 26), end to end over the real server: a player made
//! without a password, a set begun at a level, its boards played over real WebSockets by a
//! computer in the player's seat, each board's field (the computers' reference run and the
//! other players) in match points, a replay allowed only of boards the player has played, a
//! restart mid-set, the rankings of the day (JSON, CSV, A4), the player's history, `paiju
//! verify` of the set and its tables once revealed; the clock standing still while the player
//! is away; a 够级 set the same way; and on PostgreSQL a set another node serves.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use bots::Level;
use paiju_tests::{
    eventually, http, http_ok, paiju_bin, temp_dir, test_config, TempDir, TestServer,
};
use protocol::{CompetitionJoined, PlayerMade, PracticeRunView};
use serde_json::{json, Value};

const DIRECTOR: &str = "a8c3e5f7b9d1a3c5e7f9b1d3a5c7e9f1";

/// Practice needs the director's token (the daily sets, the players' event cards).
fn director(config: &mut server::Config) {
    config.director_token = Some(DIRECTOR.to_string());
}

/// The test's folder (to keep while its servers run) and their config, for a test that
/// restarts its server.
fn config(name: &str) -> (TempDir, server::Config) {
    let dir = temp_dir(name);
    let mut c = test_config(dir.path().join("paiju.db"));
    director(&mut c);
    (dir, c)
}

async fn new_player(a: SocketAddr, name: &str) -> PlayerMade {
    let (status, v) = http(
        a,
        "POST",
        "/api/players",
        None,
        Some(&json!({"name": name})),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    serde_json::from_value(v).unwrap()
}

/// A set of `boards` of `game`, with the computers' reference runs at `references`: its id.
async fn new_set(
    a: SocketAddr,
    game: &str,
    boards: u32,
    references: &[&str],
    club: Option<&str>,
) -> String {
    let v = http_ok(
        a,
        "POST",
        "/api/practice",
        Some(DIRECTOR),
        json!({"game": game, "boards": boards, "references": references, "club": club}),
    )
    .await;
    assert_eq!(v["state"], "running", "opened at once: {v}");
    v["id"].as_str().unwrap().to_string()
}

async fn set_view(a: SocketAddr, id: &str) -> Value {
    http_ok(a, "GET", &format!("/api/practice/{id}"), None, json!(null)).await
}

/// Waits until the set's ranking has `n` finished runs.
async fn finished_runs(a: SocketAddr, id: &str, n: usize, within: Duration) -> Value {
    eventually(
        within,
        &format!("{n} finished runs in set {id}"),
        async || {
            let v = set_view(a, id).await;
            (v["practice"]["ranking"].as_array()?.len() >= n).then_some(v)
        },
    )
    .await
}

async fn run_of(a: SocketAddr, id: &str, token: &str) -> PracticeRunView {
    let v = http_ok(
        a,
        "POST",
        &format!("/api/practice/{id}/run"),
        None,
        json!({"token": token}),
    )
    .await;
    serde_json::from_value(v).unwrap()
}

async fn join(a: SocketAddr, id: &str, token: &str, level: Option<&str>) -> CompetitionJoined {
    let v = http_ok(
        a,
        "POST",
        &format!("/api/practice/{id}/join"),
        None,
        json!({"token": token, "level": level}),
    )
    .await;
    serde_json::from_value(v).unwrap()
}

/// The player's board now, played to its end by a computer of the club level in their seat.
async fn play_board<E>(
    a: SocketAddr,
    id: &str,
    token: &str,
    level: Option<&str>,
) -> CompetitionJoined
where
    E: rules::Engine + 'static,
    bots::player::Player<<E as PlayAs>::Notes>: bots::SeatPlayer<E>,
    E: PlayAs,
{
    let seat = join(a, id, token, level).await;
    let url = format!("ws://{a}/ws/{}", seat.table);
    let player: Box<dyn bots::SeatPlayer<E>> = Box::new(
        bots::player::Player::<<E as PlayAs>::Notes>::new(Level::Club, bots::Budget::DEFAULT),
    );
    let report = bots::client::play_as::<E>(&url, &seat.token, Default::default(), player)
        .await
        .expect("the board is played");
    assert!(report.over, "the board ended");
    seat
}

/// Which computer's notes play a game.
trait PlayAs {
    type Notes: bots::player::Memory<Game = Self>;
}
impl PlayAs for rules::shengji::Board {
    type Notes = bots::shengji::Notes;
}
impl PlayAs for rules::gouji::Game {
    type Notes = bots::gouji::Notes;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_is_played_against_the_field_kept_across_a_restart_ranked_and_verified() {
    let (_dir, config) = config("practice_80");
    let s = TestServer::start_with(config.clone()).await;
    let a = s.addr;
    let id = new_set(a, "shengji", 3, &["club"], Some("福州老年棋牌协会")).await;
    // A club's set is reached by its code, not listed; an event's list never shows a set.
    let listed = http_ok(a, "GET", "/api/practice", None, json!(null)).await;
    assert!(!listed.to_string().contains(&id), "{listed}");
    let events = http_ok(a, "GET", "/api/events", None, json!(null)).await;
    assert_eq!(events, json!([]));
    // The computers' reference run plays the set by itself: the first player has a field.
    let v = finished_runs(a, &id, 1, Duration::from_secs(60)).await;
    let reference = &v["practice"]["ranking"][0];
    assert_eq!(
        (reference["name"].as_str(), reference["computer"].as_bool()),
        (Some("电脑·普通"), Some(true))
    );

    let wang = new_player(a, "王阿姨").await;
    assert_eq!(wang.token.len(), 14);
    // A wrong code is refused in words and begins nothing.
    let (status, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/join"),
        None,
        Some(&json!({"token": "2222-3333-4444"})),
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("bad_player_code")),
        "{v}"
    );
    let (status, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/run"),
        None,
        Some(&json!({"token": wang.token})),
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("practice_not_begun")),
        "{v}"
    );
    // An event's routes do not seat a practice player (their code is checked here only).
    let (status, _) = http(
        a,
        "POST",
        &format!("/api/events/{id}/join"),
        None,
        Some(&json!({"token": wang.token})),
    )
    .await;
    assert_eq!(status, 404);
    // A level that is not one: refused, nothing begun.
    let (status, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/join"),
        None,
        Some(&json!({"token": wang.token, "level": "大师"})),
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("practice_level")),
        "{v}"
    );

    // Board 1 at 入门 (typed in Chinese), South's seat, computers in the others.
    let seat = play_board::<rules::shengji::Board>(a, &id, &wang.token, Some("入门")).await;
    assert_eq!((seat.seat, seat.board, seat.round), (2, 1, 1));
    let run = run_of(a, &id, &wang.token).await;
    assert_eq!(run.name, "王阿姨");
    assert_eq!(run.level, "beginner");
    assert!(run.boards[0].done && run.boards[1].now && !run.done);
    let field = &run.boards[0].field;
    assert_eq!(field.len(), 2, "the reference and mine: {field:?}");
    let mine = field.iter().find(|f| f.mine).expect("mine");
    let other = field.iter().find(|f| !f.mine).expect("the reference's");
    assert_eq!(mine.table_id, seat.table);
    assert_eq!(mine.top, 2.0);
    assert_eq!(mine.mp + other.mp, 2.0, "2 between them, a tie 1 each");
    assert_eq!(run.boards[0].percent, Some(mine.mp * 50.0));
    // Its board 2 and the reference's board 2 are not Wang's to see yet; board 1's are.
    assert!(run.boards[1].field.is_empty());
    let replay = |table: String| {
        let token = wang.token.clone();
        let id = id.clone();
        async move {
            http(
                a,
                "POST",
                &format!("/api/practice/{id}/replay"),
                None,
                Some(&json!({"token": token, "table": table})),
            )
            .await
        }
    };
    let (status, v) = replay(other.table_id.clone()).await;
    assert_eq!(status, 200, "{v}");
    // The table's seed is the set's (every board of it): hidden while the set runs.
    assert!(v["seed"].is_null(), "the set's seed leaked: {}", v["seed"]);
    assert_eq!(v["commitment"], set_view(a, &id).await["seed_commitment"]);
    // A step of it, every hand (as the referee's replay gives it), and why an action was legal.
    let (status, state) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/replay"),
        None,
        Some(&json!({"token": wang.token, "table": other.table_id, "at": 3})),
    )
    .await;
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["at"], 3, "{state}");
    let (status, why) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/explain"),
        None,
        Some(&json!({"token": wang.token, "table": other.table_id, "seq": 3})),
    )
    .await;
    assert_eq!(status, 200, "{why}");
    assert!(
        why.to_string().contains("\"zh\""),
        "in the engine's words: {why}"
    );
    // Not a table of a board Wang has played: refused like its replay.
    let (status, _) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/explain"),
        None,
        Some(&json!({"token": wang.token, "table": run.boards[1].table_id.clone().unwrap_or_default(), "seq": 1})),
    )
    .await;
    assert_eq!(status, 403);
    assert!(
        v.to_string().contains("hands") || v.to_string().contains("hand"),
        "every hand: {v}"
    );
    let reference_run = other.run;
    let set = set_view(a, &id).await;
    assert_eq!(set["practice"]["players"], 1);
    // The table public replays refuse while the set runs: its seed is sealed.
    let (status, _) = http(
        a,
        "GET",
        &format!("/api/tables/{}/replay", other.table_id),
        None,
        None,
    )
    .await;
    assert_eq!(status, 403);

    // Board 2 begins: Wang sits down, then the server restarts (the table and the set are
    // rebuilt from their logs) and Wang plays it there.
    let before = join(a, &id, &wang.token, None).await;
    assert_eq!(before.board, 2);
    s.running.shutdown().await;
    let s = TestServer::start_with(config.clone()).await;
    let a = s.addr;
    assert!(s.running.competitions_not_recovered.is_empty());
    assert!(s.running.not_recovered.is_empty());
    let after = play_board::<rules::shengji::Board>(a, &id, &wang.token, None).await;
    assert_eq!(
        (after.table.as_str(), after.board),
        (before.table.as_str(), 2),
        "the same table"
    );
    play_board::<rules::shengji::Board>(a, &id, &wang.token, None).await;
    let run = run_of(a, &id, &wang.token).await;
    assert!(run.done && run.boards.iter().all(|b| b.done));
    assert!(run.place.is_some());
    assert_eq!(run.of, 2);
    // Done: joining again says so in words.
    let (status, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/join"),
        None,
        Some(&json!({"token": wang.token})),
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (409, Some("practice_run_done")),
        "{v}"
    );

    // A second player: Wang's results are in their field, and Wang's field grows.
    let li = new_player(a, "李叔叔").await;
    for _ in 0..3 {
        play_board::<rules::shengji::Board>(a, &id, &li.token, Some("club")).await;
    }
    let li_run = run_of(a, &id, &li.token).await;
    for b in &li_run.boards {
        assert_eq!(b.field.len(), 3, "the reference, Wang and Li");
        assert!(b.field.iter().any(|f| f.name == "王阿姨"));
    }
    let wang_run = run_of(a, &id, &wang.token).await;
    assert!(wang_run
        .boards
        .iter()
        .all(|b| b.field.len() == 3 && b.top == Some(4.0)));
    // Each board's match points add up to n(n−1) = 6.
    for b in &wang_run.boards {
        let sum: f64 = b.field.iter().map(|f| f.mp).sum();
        assert_eq!(sum, 6.0);
    }
    // Li may replay Wang's tables now (Li played those boards), and the reference's.
    let (status, _) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/replay"),
        None,
        Some(&json!({"token": li.token, "table": wang_run.boards[2].table_id})),
    )
    .await;
    assert_eq!(status, 200);
    let _ = reference_run;

    // The ranking of the day (the set's day, China's), as JSON, CSV and A4.
    let st = http_ok(
        a,
        "GET",
        &format!("/api/practice/{id}/standings"),
        None,
        json!(null),
    )
    .await;
    let lines = st["practice"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let day = st["practice"]["days"][0]["day"]
        .as_str()
        .unwrap()
        .to_string();
    let of_day = http_ok(
        a,
        "GET",
        &format!("/api/practice/{id}/standings?day={day}"),
        None,
        json!(null),
    )
    .await;
    assert_eq!(of_day["practice"]["day"], day);
    assert_eq!(of_day["practice"]["lines"].as_array().unwrap().len(), 3);
    let other_day = http_ok(
        a,
        "GET",
        &format!("/api/practice/{id}/standings?day=2020-01-01"),
        None,
        json!(null),
    )
    .await;
    assert_eq!(other_day["practice"]["lines"], json!([]));
    let (status, v) = http(
        a,
        "GET",
        &format!("/api/practice/{id}/standings?day=1/1/2020"),
        None,
        None,
    )
    .await;
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("bad_request")),
        "{v}"
    );
    let csv = paiju_tests::raw_http(
        a,
        format!("GET /api/practice/{id}/results.csv?day={day} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(csv.status, 200);
    assert!(
        csv.body.contains("名次,选手,电脑水平,百分比"),
        "{}",
        csv.body
    );
    assert!(csv.body.contains("王阿姨") && csv.body.contains("李叔叔"));
    let page = paiju_tests::raw_http(
        a,
        format!("GET /api/practice/{id}/results.html HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    assert!(page.body.contains("福州老年棋牌协会") && page.body.contains("李叔叔"));

    // Wang's history: the set, with the percentage and place the run view gives.
    let me = http_ok(
        a,
        "POST",
        "/api/players/me",
        None,
        json!({"token": wang.token}),
    )
    .await;
    assert_eq!(me["name"], "王阿姨");
    let line = &me["history"][0];
    assert_eq!(line["set"], id);
    assert_eq!(line["done"], true);
    assert_eq!(line["percent"].as_f64(), wang_run.percent);
    assert_eq!(line["club"], "福州老年棋牌协会");
    let best = me["best"].as_array().unwrap().len() + me["worst"].as_array().unwrap().len();
    assert_eq!(best, 3, "each of the three boards once");
    // The personal link as a QR code (the code in the body only).
    let (status, _) = http(
        a,
        "POST",
        "/api/players/me/qr.svg",
        None,
        Some(&json!({"token": wang.token})),
    )
    .await;
    assert_eq!(status, 200);

    // Closed early by the organiser: the seed revealed; `paiju verify` checks the set's log
    // and that each of its tables was dealt from its seed.
    let closed = http_ok(
        a,
        "POST",
        &format!("/api/practice/{id}/close"),
        Some(DIRECTOR),
        json!({}),
    )
    .await;
    assert_eq!(closed["state"], "finished");
    assert!(closed["seed"].as_str().is_some_and(|s| s.len() == 64));
    // Revealed: the replay shows it too.
    let (_, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/replay"),
        None,
        Some(&json!({"token": wang.token, "table": wang_run.boards[0].table_id})),
    )
    .await;
    assert_eq!(v["seed"], closed["seed"]);
    let (status, v) = http(
        a,
        "POST",
        &format!("/api/practice/{id}/join"),
        None,
        Some(&json!({"token": li.token})),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    s.running.shutdown().await;
    let out = std::process::Command::new(paiju_bin())
        .args(["verify", "--event", &id, "--db"])
        .arg(&config.db)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!(
            "event {id}: its tables ok, each dealt from its seed"
        )),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_clock_stands_still_while_they_are_away() {
    let s = TestServer::start_tuned("practice_clock", |config| {
        director(config);
        // 30 s to play becomes 60 ms.
        config.clock_scale = 0.002;
    })
    .await;
    let a = s.addr;
    let id = new_set(a, "shengji", 1, &[], None).await;
    let p = new_player(a, "张老师").await;
    // Seated, never connected: the computers play up to South's turn, and there it waits.
    let seat = join(a, &id, &p.token, Some("beginner")).await;
    let seq = || {
        s.running
            .lobby
            .get(&seat.table)
            .expect("open")
            .summary()
            .seq
    };
    let waiting = eventually(
        Duration::from_secs(20),
        "the table to wait for South",
        async || {
            let before = seq();
            tokio::time::sleep(Duration::from_millis(300)).await;
            (before > 0 && seq() == before).then_some(before)
        },
    )
    .await;
    // Thirty of the player's clocks later: nothing was played for them, nothing timed out.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(seq(), waiting);
    let log = |s: &TestServer| {
        let db = server::store::SqliteStore::open(&s.db).unwrap();
        let mut db: Box<dyn server::store::Store> = Box::new(db);
        db.table(&seat.table).unwrap().unwrap().log
    };
    assert!(
        log(&s).iter().all(|e| e.seat != 2),
        "South played nothing while away"
    );
    // Back: the clock runs again, and as they do not play it runs out on them (a present
    // player's timeout: the clock's move, not 托管's).
    let mut c = s.client(&seat.table).await;
    c.hello(Some(&seat.token), None).await;
    eventually(
        Duration::from_secs(10),
        "the returned player's clock to run out",
        async || (seq() > waiting).then_some(()),
    )
    .await;
    let south: Vec<protocol::Actor> = log(&s)
        .iter()
        .filter(|e| e.seat == 2)
        .map(|e| e.actor)
        .collect();
    assert_eq!(south.first(), Some(&protocol::Actor::Clock), "{south:?}");
    drop(c);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gouji_set_compares_the_teams_results_on_each_game() {
    let s = TestServer::start_tuned("practice_gouji", director).await;
    let a = s.addr;
    let id = new_set(a, "gouji", 1, &["club"], None).await;
    let listed = http_ok(a, "GET", "/api/practice", None, json!(null)).await;
    assert!(
        listed.to_string().contains(&id),
        "a set open to all is listed: {listed}"
    );
    finished_runs(a, &id, 1, Duration::from_secs(120)).await;
    let p = new_player(a, "赵大姐").await;
    let seat = play_board::<rules::gouji::Game>(a, &id, &p.token, Some("普通")).await;
    assert_eq!(seat.seat, 0, "A1");
    let run = run_of(a, &id, &p.token).await;
    assert!(run.done);
    let field = &run.boards[0].field;
    assert_eq!(field.len(), 2);
    for f in field {
        assert!(f.result.a.is_some() && f.result.b.is_some() && f.result.defenders.is_none());
    }
    let (mine, other) = (
        field.iter().find(|f| f.mine).unwrap(),
        field.iter().find(|f| !f.mine).unwrap(),
    );
    let diff = |f: &protocol::PracticeFieldLine| f.result.a.unwrap() - f.result.b.unwrap();
    let expected = match diff(mine).cmp(&diff(other)) {
        std::cmp::Ordering::Greater => 2.0,
        std::cmp::Ordering::Equal => 1.0,
        std::cmp::Ordering::Less => 0.0,
    };
    assert_eq!(mine.mp, expected, "team A's points less B's, compared");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_set_served_by_one_node_is_played_and_remembered_from_the_other() {
    let url = server::store::postgres::test_database("practice_two_nodes");
    let mut config = test_config(PathBuf::from(&url));
    config.director_token = Some(DIRECTOR.to_string());
    config.lease = Duration::from_secs(2);
    let n1 = TestServer::start_with(config.clone()).await;
    let n2 = TestServer::start_with(config).await;
    let (a, b) = (n1.addr, n2.addr);
    let id = new_set(a, "shengji", 1, &[], None).await;
    // The other node lists it (from the database) and sends its calls to the set's node.
    let listed = eventually(
        Duration::from_secs(10),
        "node 2 lists the set",
        async || {
            let v = http_ok(b, "GET", "/api/practice", None, json!(null)).await;
            v.to_string().contains(&id).then_some(v)
        },
    )
    .await;
    assert!(listed.is_array());
    let r = paiju_tests::raw_http(
        b,
        format!("GET /api/practice/{id} HTTP/1.1\r\nHost: {b}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 307, "{}", r.body);
    assert_eq!(
        r.header("location"),
        Some(format!("http://{a}/api/practice/{id}").as_str())
    );
    // A player made on node 2 plays on node 1 (players are the database's, not a node's).
    let p = new_player(b, "孙奶奶").await;
    play_board::<rules::shengji::Board>(a, &id, &p.token, Some("beginner")).await;
    // Node 2 has not the set: it reads the player's history from the set's stored log.
    let me = http_ok(
        b,
        "POST",
        "/api/players/me",
        None,
        json!({"token": p.token}),
    )
    .await;
    assert_eq!(me["history"][0]["set"], id);
    assert_eq!(me["history"][0]["done"], true);
    assert_eq!(
        me["history"][0]["percent"].as_f64(),
        Some(50.0),
        "alone on its board"
    );
    n2.running.shutdown().await;
    n1.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_opened_from_its_card_goes_into_the_players_history() {
    let s = TestServer::start_tuned("practice_event", director).await;
    let a = s.addr;
    // A small event: NS 1 two people, the rest computers.
    let mut entries = Vec::new();
    for dir in ["NS", "EW"] {
        for n in 1..=3 {
            entries.push(if (dir, n) == ("NS", 1) {
                json!({"names": ["吴阿姨", "郑叔叔"]})
            } else {
                json!({"names": [], "bot": true})
            });
        }
    }
    let ev = http_ok(
        a,
        "POST",
        "/api/events",
        Some(DIRECTOR),
        json!({"game": "shengji", "name": "周赛", "tables": 3, "rounds": 1,
               "boards_per_round": 1, "entries": entries}),
    )
    .await;
    let id = ev["id"].as_str().unwrap().to_string();
    let cards = http_ok(
        a,
        "GET",
        &format!("/api/events/{id}/cards"),
        Some(DIRECTOR),
        json!(null),
    )
    .await;
    let card = cards["pairs"][0]["players"][0]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let wu = new_player(a, "吴阿姨").await;
    let link = |token: &str, event: &str, card: &str| {
        let body = json!({"token": token, "event": event, "card": card});
        async move { http(a, "POST", "/api/players/me/events", None, Some(&body)).await }
    };
    // A card that is not the event's, or a practice set: refused, nothing kept.
    let (status, v) = link(&wu.token, &id, "2222-3333-4444").await;
    assert_eq!(
        (status, v["code"].as_str()),
        (403, Some("bad_pair_token")),
        "{v}"
    );
    let set = new_set(a, "shengji", 1, &[], None).await;
    let (status, _) = link(&wu.token, &set, &card).await;
    assert_eq!(status, 404);
    let me = http_ok(
        a,
        "POST",
        "/api/players/me",
        None,
        json!({"token": wu.token}),
    )
    .await;
    assert_eq!(me["history"], json!([]));
    // The card's page on a browser with Wu's code: the event is in her history, as NS 1.
    let (status, v) = link(&wu.token, &id, &card).await;
    assert_eq!((status, v["entry"].as_str()), (200, Some("NS 1")), "{v}");
    let me = http_ok(
        a,
        "POST",
        "/api/players/me",
        None,
        json!({"token": wu.token}),
    )
    .await;
    let line = &me["history"][0];
    assert_eq!(line["set"], id);
    assert_eq!(line["name"], "周赛");
    assert_eq!(line["event"]["entry"], "NS 1");
    assert_eq!(line["of"], 3, "NS 1 to 3 in its direction");
    assert_eq!(line["open"], true);
    s.running.shutdown().await;
}
