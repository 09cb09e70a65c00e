//! 「电脑水平」 (issue 12), over real sockets: the table's creator chooses how strong its
//! computer seats play; every level plays a whole board with a person; the level is kept in the
//! table's header across a restart; a thinking 高手 never holds up the table's actor; a bad
//! level is refused and opens no table.

use std::time::Duration;

use paiju_tests::{bots_play_out, test_config, TestServer};
use protocol::{codes, ClientOut, TableSummary};
use serde_json::json;

/// A server whose 高手 thinks briefly (a whole board at 1 s a decision is slow in a test).
async fn quick_experts(name: &str, think: Duration) -> TestServer {
    TestServer::start_tuned(name, |config| {
        config.expert_think = think;
    })
    .await
}

async fn tables(s: &TestServer) -> Vec<TableSummary> {
    bots::http::get_json(s.addr, "/api/tables").await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_computers_at_each_level_play_a_board_with_a_person() {
    let s = quick_experts("levels-shengji", Duration::from_millis(60)).await;
    for level in ["beginner", "club", "expert"] {
        let t = s
            .create(json!({"game": "shengji", "bots": [1, 2, 3], "bot_level": level}))
            .await;
        assert_eq!(t.bot_level, level);
        let token = s.join(&t.id, 0, "老王").await.token;
        let reports = bots_play_out::<rules::shengji::Board>(&s, &t.id, &[token]).await;
        assert!(reports[0].over, "{level}: the board reached its end");
        let summary: TableSummary = bots::http::get_json(s.addr, &format!("/api/tables/{}", t.id))
            .await
            .unwrap();
        assert_eq!(summary.bot_level, level);
        assert!(
            summary.seq > reports[0].actions,
            "{level}: the computers played too"
        );
    }
    // Absent: 普通.
    let t = s
        .create(json!({"game": "shengji", "bots": [1, 2, 3]}))
        .await;
    assert_eq!(t.bot_level, "club");
    // Every level's decisions were timed, by game and level.
    let (_, metrics) = bots::http::request(s.addr, "GET", "/metrics", None)
        .await
        .unwrap();
    for level in ["beginner", "club", "expert"] {
        let count =
            format!("paiju_bot_decision_seconds_count{{game=\"shengji\",level=\"{level}\"}}");
        assert!(metrics.contains(&count), "{count} in {metrics}");
    }
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_club_computers_play_a_gouji_game_with_a_person() {
    let s = TestServer::start("levels-gouji").await;
    let t = s
        .create(json!({"game": "gouji", "bots": [1, 2, 3, 4, 5], "bot_level": "club"}))
        .await;
    let token = s.join(&t.id, 0, "老王").await.token;
    let reports = bots_play_out::<rules::gouji::Game>(&s, &t.id, &[token]).await;
    assert!(reports[0].over);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_level_survives_a_restart() {
    let s = TestServer::start("levels-restart").await;
    // The Chinese label is taken too, and kept by its wire name.
    let t = s
        .create(json!({"game": "shengji", "bots": [1, 2, 3], "bot_level": "高手"}))
        .await;
    assert_eq!(t.bot_level, "expert");
    let db = s.db.clone();
    s.running.shutdown().await;
    let s = TestServer::start_with(test_config(db)).await;
    let summary: TableSummary = bots::http::get_json(s.addr, &format!("/api/tables/{}", t.id))
        .await
        .unwrap();
    assert_eq!(summary.bot_level, "expert");
    let token = s.join(&t.id, 0, "老王").await.token;
    let mut c = s.client(&t.id).await;
    let ClientOut::Welcome { bot_level, .. } = c.hello(Some(&token), None).await else {
        panic!("a welcome first")
    };
    assert_eq!(bot_level, "expert");
    s.running.shutdown().await;
}

/// Four 高手 think for 5 s each; meanwhile a watcher's (refused) action is answered at once:
/// its refusal arrives before any computer's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_answers_while_an_expert_thinks() {
    let s = quick_experts("levels-thinking", Duration::from_secs(5)).await;
    let t = s
        .create(json!({"game": "shengji", "bots": [0, 1, 2, 3], "bot_level": "expert"}))
        .await;
    let mut c = s.client(&t.id).await;
    c.hello(None, None).await;
    let ClientOut::Snapshot { seq, .. } = c
        .recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(seq, 0, "no computer has moved yet");
    let id = c.act(json!({"type": "play", "cards": []})).await;
    let answer = c
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. } | ClientOut::Events { .. }))
        .await;
    match answer {
        ClientOut::Rejected { id: got, problem } => {
            assert_eq!(got, id);
            assert_eq!(problem.code, codes::SPECTATOR);
        }
        other => panic!("a computer moved before the table answered: {other:?}"),
    }
    // And the thinking computer does move, off the actor.
    c.recv_until(|m| matches!(m, ClientOut::Events { .. }))
        .await;
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_level_is_refused_and_opens_no_table() {
    let s = TestServer::start("levels-bad").await;
    let before = tables(&s).await.len();
    for bad in [json!("genius"), json!(""), json!(3)] {
        let (status, body) = bots::http::request(
            s.addr,
            "POST",
            "/api/tables",
            Some(&json!({"game": "shengji", "bots": [1, 2, 3], "bot_level": bad}).to_string()),
        )
        .await
        .unwrap();
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("bad_request"), "{body}");
        if bad.is_string() {
            assert!(body.contains("电脑水平"), "{body}");
            assert!(body.contains("bot level"), "{body}");
        }
    }
    assert_eq!(tables(&s).await.len(), before);
    s.running.shutdown().await;
}
