//! Competition integrity over the real server (issue 24): what the referee rules at a table is
//! what the standings say, and a competition's tables close when their work is over.

use std::net::SocketAddr;
use std::time::Duration;

use protocol::{CompetitionView, TableState};
use serde_json::{json, Value};

use paiju_tests::{eventually, temp_dir, test_config, Client, TestServer, REFEREE_TOKEN};

const DIRECTOR: &str = "director-secret-for-integrity-tests";

async fn director_server(name: &str) -> TestServer {
    let mut config = test_config(temp_dir(name).join("paiju.db"));
    config.director_token = Some(DIRECTOR.to_string());
    config.limits.burst = 10_000.0;
    config.limits.per_second = 10_000.0;
    TestServer::start_with(config).await
}

async fn call(
    addr: SocketAddr,
    method: &str,
    path: &str,
    director: bool,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = if director {
        format!("Authorization: Bearer {DIRECTOR}\r\n")
    } else {
        String::new()
    };
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let r = paiju_tests::raw_http(addr, req.as_bytes()).await.unwrap();
    let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, v)
}

async fn view(addr: SocketAddr, id: &str) -> CompetitionView {
    let (status, v) = call(addr, "GET", &format!("/api/events/{id}"), true, None).await;
    assert_eq!(status, 200, "{v}");
    serde_json::from_value(v).unwrap()
}

/// An 80分 competition of three tables, one round, `boards` boards a table; `bots`: every pair
/// a computer pair (the tables play themselves), else every pair of people (nobody sits down).
async fn create(addr: SocketAddr, boards: u32, bots: bool) -> String {
    let entries: Vec<Value> = (0..6)
        .map(|i| {
            if bots {
                json!({"names": [], "bot": true})
            } else {
                json!({"names": [format!("甲{i}"), format!("乙{i}")]})
            }
        })
        .collect();
    let (status, v) = call(
        addr,
        "POST",
        "/api/events",
        true,
        Some(
            json!({"game": "shengji", "name": "裁判与成绩", "tables": 3, "rounds": 1,
                    "boards_per_round": boards, "entries": entries}),
        ),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (status, v) = call(
        addr,
        "POST",
        &format!("/api/events/{id}/rounds/1/start"),
        true,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    id
}

async fn table_state(s: &TestServer, table: &str) -> Option<TableState> {
    s.running.lobby.get(table).map(|h| h.summary().state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ruling_after_the_last_trick_reaches_the_standings_until_the_round_closes() {
    let s = director_server("integrity-ruling").await;
    let a = s.addr;
    let id = create(a, 1, true).await;
    // The computer pairs play every board.
    let v = eventually(
        Duration::from_secs(60),
        "the round's boards played",
        async || {
            let v = view(a, &id).await;
            v.schedule[0]
                .tables
                .iter()
                .all(|t| t.boards.iter().all(|b| b.done))
                .then_some(v)
        },
    )
    .await;
    let board = &v.schedule[0].tables[0].boards[0];
    let table = board.table_id.clone().unwrap();
    let before = board.result.clone().unwrap();
    assert!(before.revised.is_none());

    // The referee checks the played cards (seed 000 三.7) and penalises a declarer's seat:
    // the table's result changes, and so does the competition's, saying why.
    let declarer = match before.declarer.as_deref().unwrap() {
        "N" => 0,
        "E" => 1,
        "S" => 2,
        _ => 3,
    };
    let mut r = s.client(&table).await;
    r.hello(Some(REFEREE_TOKEN), None).await;
    r.recv().await;
    r.rule(
        1,
        json!({"type": "penalty", "points": 40}),
        Some(declarer),
        "查牌：庄家藏张",
    )
    .await;
    let revised = eventually(Duration::from_secs(10), "the revised result", async || {
        let v = view(a, &id).await;
        v.schedule[0].tables[0].boards[0]
            .result
            .clone()
            .filter(|r| r.revised.is_some())
    })
    .await;
    assert_eq!(
        revised.defenders,
        before.defenders.map(|d| d + 40),
        "the penalty's points go to the defenders"
    );
    let why = revised.revised.unwrap();
    assert_eq!(
        (why.by.as_str(), why.reason.as_str()),
        ("referee", "查牌：庄家藏张")
    );
    // The standings count the revised result.
    let (_, standings) = call(a, "GET", &format!("/api/events/{id}/standings"), true, None).await;
    let results = &standings["boards"][0]["results"];
    assert!(
        results
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["defenders"] == json!(revised.defenders.unwrap())),
        "{standings}"
    );

    // The round closes: its tables close with it, and no ruling can reach it any more.
    let (status, v) = call(
        a,
        "POST",
        &format!("/api/events/{id}/rounds/1/close"),
        true,
        Some(json!({"force": true})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    for t in &v["schedule"][0]["tables"].as_array().unwrap().clone() {
        let tid = t["boards"][0]["table_id"].as_str().unwrap().to_string();
        eventually(
            Duration::from_secs(5),
            "the round's table closed",
            async || table_state(&s, &tid).await.is_none().then_some(()),
        )
        .await;
    }
    let mut late = Client::connect(&s.ws_url(&table)).await;
    late.send(&protocol::ClientIn::Hello {
        token: Some(REFEREE_TOKEN.to_string()),
        last_seq: None,
    })
    .await;
    assert!(
        matches!(late.closed().await, paiju_tests::Closed::Code(4004)),
        "a closed round's table takes no ruling"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_the_director_settles_closes_its_table_and_the_next_one_opens() {
    let s = director_server("integrity-settled").await;
    let a = s.addr;
    let id = create(a, 2, false).await;
    let v = view(a, &id).await;
    let first = v.schedule[0].tables[0].boards[0].clone();
    let table = first
        .table_id
        .clone()
        .expect("the first board's table is open");
    assert_eq!(table_state(&s, &table).await, Some(TableState::Waiting));
    // Nobody came: the director settles the board (an average each).
    let (status, v) = call(
        a,
        "POST",
        &format!("/api/events/{id}/adjust"),
        true,
        Some(json!({"round": 1, "table": 1, "board": first.board,
                    "artificial": {"ns": "A", "ew": "A"}, "reason": "双方未到"})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        table_state(&s, &table).await,
        None,
        "no live table for a settled board"
    );
    let next = &v["schedule"][0]["tables"][0]["boards"][1];
    let next_table = next["table_id"]
        .as_str()
        .expect("the next board's table opened");
    assert_eq!(table_state(&s, next_table).await, Some(TableState::Waiting));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signalling_record_takes_no_match_points_and_the_second_disqualifies() {
    let s = director_server("integrity-signalling").await;
    let a = s.addr;
    let id = create(a, 1, false).await;
    let record = json!({"direction": "EW", "pair": 2, "kind": "signalling",
                        "reason": "传递非法信息（本副判罚 40 分）"});
    let path = format!("/api/events/{id}/deductions");
    let (status, v) = call(a, "POST", &path, true, Some(record.clone())).await;
    assert_eq!(status, 200, "{v}");
    let (_, standings) = call(a, "GET", &format!("/api/events/{id}/standings"), true, None).await;
    let line = &standings["deductions"][0];
    assert_eq!(line["mp"], json!(0.0), "{standings}");
    let ew2 = standings["ranking"]["EW"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["number"] == json!(2))
        .unwrap()
        .clone();
    assert!(ew2.get("deducted").is_none(), "{ew2}");
    assert!(ew2.get("disqualified").is_none(), "{ew2}");
    let (status, _) = call(a, "POST", &path, true, Some(record)).await;
    assert_eq!(status, 200);
    let (_, standings) = call(a, "GET", &format!("/api/events/{id}/standings"), true, None).await;
    let ew2 = standings["ranking"]["EW"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["number"] == json!(2))
        .unwrap()
        .clone();
    assert_eq!(ew2["disqualified"], json!(true), "{ew2}");
}
