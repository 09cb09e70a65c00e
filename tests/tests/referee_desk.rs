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
    s.until_over(&t.id, Duration::from_secs(60)).await;
    let summary: protocol::TableSummary =
        bots::http::get_json(s.addr, &format!("/api/tables/{}", t.id))
            .await
            .unwrap();
    assert_eq!(summary.state, TableState::Over, "the bots finished");

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
    assert!(why.get("all_seeing").is_none(), "only when asked");

    // The fair-play question at every fifth action that is a play with a choice: each choice
    // valued with every hand known and on the seat's own view, the play made among them and
    // marked, and the sentence.
    let mut weighed = 0;
    for (k, step) in steps.iter().enumerate().skip(2).step_by(5) {
        let path = format!("/api/tables/{}/explain/{}?all_seeing=true", t.id, k + 1);
        let (status, why) = get(&s, &path, None).await;
        assert_eq!(status, 200, "{why}");
        let Some(a) = why.get("all_seeing") else {
            continue;
        };
        let choices = a["choices"].as_array().unwrap();
        assert!(choices.len() >= 2, "{a}");
        let made: Vec<_> = choices.iter().filter(|c| c["made"] == true).collect();
        assert_eq!(made.len(), 1, "{a}");
        assert_eq!(
            made[0]["action"], step["action"],
            "the play made, as logged"
        );
        assert!(choices.iter().all(|c| c["own_view"].is_number()), "{a}");
        assert!(
            a["summary"]["zh"]
                .as_str()
                .unwrap()
                .contains("看得见所有牌时"),
            "{a}"
        );
        weighed += 1;
    }
    assert!(weighed >= 5, "{weighed} decisions weighed");

    // The referee's preview of a ruling after the last trick (查牌): the number it would leave,
    // before anything is sent. `end_board` against each side: the offenders never come out
    // better than they stood, and lose by at least 120 (issue 24.5).
    let result = all["result"]["result"].as_i64().unwrap();
    let next = all["entries"].as_u64().unwrap() + 1;
    let end_board = "%7B%22type%22%3A%22end_board%22%7D";
    let mut seen = Vec::new();
    for seat in ["N", "E", "S", "W"] {
        let path = format!(
            "/api/tables/{}/explain/{next}?try={end_board}&seat={seat}",
            t.id
        );
        let (status, why) = get(&s, &path, Some(REFEREE_TOKEN)).await;
        assert_eq!(status, 200, "{why}");
        assert_eq!(why["verdict"]["legal"], true, "{why}");
        assert_eq!(why["hypothetical"], true, "{why}");
        let before = why["ruling"]["before"].as_i64().unwrap();
        let after = why["ruling"]["after"].as_i64().unwrap();
        assert_eq!(why["ruling"]["result"], true, "{why}");
        assert_eq!(before, result, "{why}");
        seen.push((before, after));
    }
    // N and S are one side, E and W the other; one of them is the declarer's.
    assert_eq!(seen[0], seen[2]);
    assert_eq!(seen[1], seen[3]);
    let (a, b) = (seen[0], seen[1]);
    let before = a.0;
    let (declarers, defenders) = if a.1 >= before { (a, b) } else { (b, a) };
    assert_eq!(declarers.1, before.max(120), "{seen:?}");
    assert_eq!(defenders.1, before.min(-120), "{seen:?}");
    // A try needs its seat; a bad actor is named.
    let path = format!("/api/tables/{}/explain/{next}?try={end_board}", t.id);
    let (status, why) = get(&s, &path, Some(REFEREE_TOKEN)).await;
    assert_eq!(
        (status, why["code"].as_str()),
        (400, Some("bad_request")),
        "{why}"
    );
    let path = format!(
        "/api/tables/{}/explain/{next}?try={end_board}&seat=N&actor=nobody",
        t.id
    );
    let (status, why) = get(&s, &path, Some(REFEREE_TOKEN)).await;
    assert_eq!(status, 400, "{why}");
    assert!(why.to_string().contains("nobody"), "{why}");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gouji_move_is_weighed_with_every_hand_known_and_on_the_seats_own_view() {
    let s = TestServer::start("desk-gouji").await;
    let t = s
        .create(json!({"game": "gouji", "seed": SEED, "bots": [0, 1, 2, 3, 4, 5]}))
        .await;
    s.until_over(&t.id, Duration::from_secs(120)).await;
    let (status, all) = get(&s, &format!("/api/tables/{}/replay", t.id), None).await;
    assert_eq!(status, 200, "{all}");
    let steps = all["steps"].as_array().unwrap();
    // Plays spread over the game: each choice valued both ways in the team's points, the
    // move made among them and marked, the sentence.
    let plays: Vec<usize> = (0..steps.len())
        .filter(|&k| steps[k]["action"]["type"] == "play")
        .collect();
    let mut weighed = 0;
    for &k in plays.iter().step_by((plays.len() / 8).max(1)) {
        let path = format!("/api/tables/{}/explain/{}?all_seeing=true", t.id, k + 1);
        let (status, why) = get(&s, &path, None).await;
        assert_eq!(status, 200, "{why}");
        let Some(a) = why.get("all_seeing") else {
            continue;
        };
        assert_eq!(a["points"], "team", "{a}");
        assert_eq!(a["exact"], false, "{a}");
        let choices = a["choices"].as_array().unwrap();
        assert!(choices.len() >= 2, "{a}");
        let made: Vec<_> = choices.iter().filter(|c| c["made"] == true).collect();
        assert_eq!(made.len(), 1, "{a}");
        assert_eq!(
            made[0]["action"], steps[k]["action"],
            "the move made, as logged"
        );
        assert!(choices.iter().all(|c| c["own_view"].is_number()), "{a}");
        let zh = a["summary"]["zh"].as_str().unwrap();
        assert!(zh.contains("看得见所有牌时") && zh.contains("本队"), "{a}");
        weighed += 1;
    }
    assert!(weighed >= 4, "{weighed} 够级 decisions weighed");
    s.running.shutdown().await;
}
