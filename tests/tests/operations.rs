//! What an operator sees: `/metrics` counts what happened at the tables.

use paiju_tests::tally::Tally;
use paiju_tests::{bots_play_out, TestServer};
use protocol::ClientOut;
use serde_json::json;

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// The value of one sample line (`name{labels} value`), if present.
fn sample(text: &str, line_start: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(line_start))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_actions_refusals_commits_and_tables() {
    let s = TestServer::start("metrics").await;
    let t = s.create(json!({"game": "tally", "seed": SEED})).await;
    let waiting = s.create(json!({"game": "tally", "seed": SEED})).await;
    let mut tokens = Vec::new();
    for seat in 0..4 {
        tokens.push(s.join(&t.id, seat, &format!("P{seat}")).await.token);
    }
    // One refusal: a player's fine.
    let mut c = s.client(&t.id).await;
    c.hello(Some(&tokens[0]), None).await;
    c.recv().await;
    c.act(json!({"type": "fine", "points": 5})).await;
    c.recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await;
    drop(c);
    bots_play_out::<Tally>(&s, &t.id, &tokens).await;

    let (status, text) = bots::http::request(s.addr, "GET", "/metrics", None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    // Every logged play was a seat's player's (the bot clients play as players).
    use server::store::Store;
    let plays = server::store::SqliteStore::open(&s.db)
        .unwrap()
        .table(&t.id)
        .unwrap()
        .unwrap()
        .log
        .len() as f64;
    assert!(plays > 0.0);
    assert_eq!(
        sample(&text, r#"paiju_actions_total{game="tally",actor="player"}"#),
        Some(plays),
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"paiju_refusals_total{code="referee_only"}"#),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &text,
            r#"paiju_action_round_trip_seconds_count{game="tally"}"#
        ),
        Some(plays)
    );
    assert!(sample(&text, "paiju_store_commit_seconds_count").unwrap() >= 1.0);
    assert_eq!(
        sample(&text, r#"paiju_tables{game="tally",state="over"}"#),
        Some(1.0)
    );
    assert_eq!(
        sample(&text, r#"paiju_tables{game="tally",state="waiting"}"#),
        Some(1.0),
        "table {} waits",
        waiting.id
    );
    assert!(text.ends_with("# EOF\n"));
    s.running.shutdown().await;
}

/// The binary carries its page: with no `--web`, the embedded copy is served, and nothing but
/// what the page loads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_from_the_binary() {
    let s = TestServer::start("embedded-page").await;
    let (status, page) = bots::http::request(s.addr, "GET", "/", None).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        page,
        std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../web-client/index.html"
        ))
        .unwrap()
    );
    let (status, _) = bots::http::request(s.addr, "GET", "/src/main.js", None)
        .await
        .unwrap();
    assert_eq!(status, 200);
    for hidden in [
        "/package.json",
        "/tests/harness.js",
        "/typecheck/protocol-samples.js",
    ] {
        let (status, body) = bots::http::request(s.addr, "GET", hidden, None)
            .await
            .unwrap();
        assert_eq!(status, 404, "{hidden}");
        assert!(body.contains("\"code\""), "a JSON problem: {body}");
    }
    s.running.shutdown().await;
}
