//! Casual tables for older players (issue 13), over real sockets: a slower clock chosen when the
//! table is opened (`play_seconds`), 托管 by choice (`auto`), a dropped line shown within
//! seconds (`connected: false` before the broom's 45 s), the bots' own names, short digit table
//! codes read back with spaces, and the invite's QR code.

use std::time::Duration;

use paiju_tests::TestServer;
use protocol::{ClientIn, ClientOut, SeatInfo};
use serde_json::{json, Value};

/// The seats message (or welcome's seats) that satisfies `pred`, read from `c`.
async fn seats_until(
    c: &mut paiju_tests::Client,
    mut pred: impl FnMut(&[SeatInfo]) -> bool,
) -> Vec<SeatInfo> {
    loop {
        if let ClientOut::Seats { seats } = c.recv().await {
            if pred(&seats) {
                return seats;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slower_clock_is_chosen_when_the_table_is_opened() {
    let s = TestServer::start("slow-clock").await;
    // Refused outside 15..=120 seconds, with the server's words.
    for bad in [0, 5, 121, 600] {
        let (status, body) = bots::http::request(
            s.addr,
            "POST",
            "/api/tables",
            Some(&json!({"game": "shengji", "play_seconds": bad}).to_string()),
        )
        .await
        .unwrap();
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("bad_request"), "{body}");
    }
    // 80分: 60 s a play instead of 30. The declarer buries first (60 s by the ruleset), so the
    // play clock shows in the view's ruleset; the bury clock is the ruleset's own.
    let t = s
        .create(json!({"game": "shengji", "bots": [1, 2, 3], "play_seconds": 60}))
        .await;
    let token = s.join(&t.id, 0, "老王").await.token;
    let mut c = s.client(&t.id).await;
    c.hello(Some(&token), None).await;
    let ClientOut::Snapshot { view, .. } = c
        .recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(view["ruleset"]["play_seconds"], 60);
    // After the bury, the first play's clock has 60 s.
    let hint = view["hint"].clone();
    c.act(json!({"type": "bury", "cards": hint})).await;
    let clock = loop {
        if let ClientOut::Events { clock, to_act, .. } = c.recv().await {
            if to_act == vec![0] {
                break clock.expect("a clock runs");
            }
        }
    };
    assert_eq!(clock.limit_ms, 60_000);
    // 够级: 45 s a set (its clock starts after the game's first 10 minutes).
    let g = s
        .create(json!({"game": "gouji", "bots": [1, 2, 3, 4, 5], "play_seconds": 45}))
        .await;
    let token = s.join(&g.id, 0, "老李").await.token;
    let mut c = s.client(&g.id).await;
    c.hello(Some(&token), None).await;
    let ClientOut::Snapshot { view, .. } = c
        .recv_until(|m| matches!(m, ClientOut::Snapshot { .. }))
        .await
    else {
        unreachable!()
    };
    assert_eq!(view["ruleset"]["move_seconds"], 45);
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_play_by_choice_is_switched_on_and_off_over_the_socket() {
    let s = TestServer::start("auto-choice").await;
    let t = s
        .create(json!({"game": "shengji", "bots": [1, 2, 3]}))
        .await;
    let token = s.join(&t.id, 0, "老王").await.token;
    let mut c = s.client(&t.id).await;
    c.hello(Some(&token), None).await;

    // 托管 on: the seats say so, and the table plays for me (`by: auto`), the bury first.
    c.send(&ClientIn::Auto { on: true }).await;
    let seats = seats_until(&mut c, |s| s[0].auto).await;
    assert!(seats[0].connected, "托管 by choice: still connected");
    let by = loop {
        if let ClientOut::Events { seat: 0, by, .. } = c.recv().await {
            break by;
        }
    };
    assert_eq!(by, protocol::Actor::Auto);

    // Off again: the table stops playing for me.
    c.send(&ClientIn::Auto { on: false }).await;
    seats_until(&mut c, |s| !s[0].auto).await;

    // A spectator cannot ask.
    let mut w = s.client(&t.id).await;
    w.hello(None, None).await;
    w.send(&ClientIn::Auto { on: true }).await;
    let err = w.recv_until(|m| matches!(m, ClientOut::Error { .. })).await;
    let ClientOut::Error { problem } = err else {
        unreachable!()
    };
    assert_eq!(problem.code, "spectator");
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_line_shows_as_away_within_the_presence_window() {
    let s = TestServer::start_tuned("presence", |config| {
        config.limits.ping_every = Duration::from_millis(300);
        config.limits.quiet_after = Duration::from_millis(300);
    })
    .await;
    let t = s.create(json!({"game": "shengji", "bots": [1, 3]})).await;
    let north = s.join(&t.id, 0, "老王").await.token;
    let south = s.join(&t.id, 2, "老李").await.token;
    let mut n = s.client(&t.id).await;
    n.hello(Some(&north), None).await;
    let mut so = s.client(&t.id).await;
    so.hello(Some(&south), None).await;
    seats_until(&mut n, |s| s[2].connected).await;

    // South's line goes silent: it reads nothing, so it answers none of the server's pings, and
    // sends nothing. North (who reads, and so answers pings) sees 掉线 once a ping has gone
    // unanswered for the window, long before the broom (45 s) would close it.
    let since = std::time::Instant::now();
    let seats = seats_until(&mut n, |s| !s[2].connected).await;
    assert!(
        since.elapsed() < Duration::from_secs(5),
        "{:?}",
        since.elapsed()
    );
    assert!(seats[0].connected, "north answers pings: present");

    // South speaks again: present again.
    so.send(&ClientIn::Ping { nonce: Some(1) }).await;
    seats_until(&mut n, |s| s[2].connected).await;
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_have_their_own_names_codes_are_digits_and_the_invite_has_a_qr_code() {
    let s = TestServer::start("names-codes").await;
    let t = s.create(json!({"game": "shengji", "bots": [1, 3]})).await;
    assert_eq!(t.id.len(), 6);
    assert!(t.id.bytes().all(|b| b.is_ascii_digit()), "{}", t.id);
    let names: Vec<Option<String>> = t.seats.iter().map(|s| s.name.clone()).collect();
    assert_eq!(names[1].as_deref(), Some("电脑·东"));
    assert_eq!(names[3].as_deref(), Some("电脑·西"));
    let g = s.create(json!({"game": "gouji", "bots": [1, 3, 5]})).await;
    assert_eq!(g.seats[3].name.as_deref(), Some("电脑·B2"));

    // No person may take a bot's name.
    let (status, body) = bots::http::request(
        s.addr,
        "POST",
        &format!("/api/tables/{}/join", t.id),
        Some(&json!({"seat": 0, "name": "电脑·东"}).to_string()),
    )
    .await
    .unwrap();
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("bad_name"), "{body}");

    // The code read aloud in two halves, with a space or a dash, finds the table.
    for typed in [
        format!("{}%20{}", &t.id[..3], &t.id[3..]),
        format!("{}-{}", &t.id[..3], &t.id[3..]),
    ] {
        let (status, body) =
            bots::http::request(s.addr, "GET", &format!("/api/tables/{typed}"), None)
                .await
                .unwrap();
        assert_eq!(status, 200, "{typed}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["id"], t.id.as_str());
    }
    // …and so does the join, which answers with the table's own code.
    let joined: protocol::Joined = bots::http::post_json(
        s.addr,
        &format!("/api/tables/{}-{}/join", &t.id[..3], &t.id[3..]),
        &json!({"seat": 0, "name": "老王"}),
    )
    .await
    .unwrap();
    assert_eq!(joined.table, t.id);

    // The invite link as a QR code.
    let (status, body) =
        bots::http::request(s.addr, "GET", &format!("/api/tables/{}/qr.svg", t.id), None)
            .await
            .unwrap();
    assert_eq!(status, 200);
    assert!(body.starts_with("<svg"), "{body}");
    let (status, _) = bots::http::request(s.addr, "GET", "/api/tables/999999x/qr.svg", None)
        .await
        .unwrap();
    assert_eq!(status, 404);
    s.running.shutdown().await;
}
