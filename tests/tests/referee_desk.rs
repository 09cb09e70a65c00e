//! The referee's desk over HTTP, for the web replay viewer: the whole replay, the state after
//! any action, and why an action was legal — to the referee at any time, to everyone once the
//! board is over and its seed is public.

use std::time::Duration;

use paiju_tests::{TestServer, REFEREE_TOKEN};
use protocol::TableState;
use serde_json::{json, Value};

const SEED: &str = "a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0";

async fn get(s: &TestServer, path: &str, token: Option<&str>) -> (u16, Value) {
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\n{auth}Connection: close\r\n\r\n",
        s.addr
    );
    let r = paiju_tests::raw_http(s.addr, head.as_bytes())
        .await
        .unwrap();
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_board_replays_over_http_and_before_that_only_for_the_referee() {
    let s = TestServer::start("desk").await;
    let t = s
        .create(json!({"game": "shengji", "seed": SEED, "bots": [0, 1, 2, 3]}))
        .await;
    let replay = format!("/api/tables/{}/replay", t.id);
    // While it is played: refused to the public, served to the referee.
    let (status, body) = get(&s, &replay, None).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("not_yet_public"))
    );
    let (status, body) = get(&s, &replay, Some(REFEREE_TOKEN)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["table"], t.id.as_str());
    let (status, _) = get(&s, &replay, Some("not-the-referee-token-at-all-0000000")).await;
    assert_eq!(status, 403);

    // Bots alone finish the board.
    let mut over = false;
    for _ in 0..400 {
        let summary: protocol::TableSummary =
            bots::http::get_json(s.addr, &format!("/api/tables/{}", t.id))
                .await
                .unwrap();
        if summary.state == TableState::Over {
            over = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(over, "the bots finished");

    let (status, all) = get(&s, &replay, None).await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["ok"], true, "{all}");
    let steps = all["steps"].as_array().unwrap();
    assert_eq!(steps.len() as u64, all["entries"].as_u64().unwrap());
    assert_eq!(all["result"]["over"], true);
    // Every hand as dealt.
    assert_eq!(all["deal"]["hands"].as_object().unwrap().len(), 4);

    // The full state after action 5: every hand.
    let (status, at) = get(&s, &format!("{replay}?at=5"), None).await;
    assert_eq!(status, 200, "{at}");
    assert_eq!(at["at"], 5);
    assert!(
        at["view"]["hands"].as_array().is_some_and(|h| h.len() == 4),
        "{at}"
    );

    // Why action 3 was legal, in the engine's words.
    let (status, why) = get(&s, &format!("/api/tables/{}/explain/3", t.id), None).await;
    assert_eq!(status, 200, "{why}");
    assert!(why.to_string().contains("zh"), "{why}");
    let (status, _) = get(&s, &format!("{replay}?at=100000"), None).await;
    assert_eq!(status, 400);
    s.running.shutdown().await;
}
