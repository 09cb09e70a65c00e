//! Bad input and abuse get their error or close code, and never disturb other tables.

use futures_util::SinkExt;
use paiju_tests::tally::Tally;
use paiju_tests::{eventually, temp_dir, test_config, Client, Closed, TestServer};
use protocol::{close, ClientOut};
use serde_json::json;
use server::Config;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

async fn error_code(c: &mut Client) -> String {
    match c.recv_until(|m| matches!(m, ClientOut::Error { .. })).await {
        ClientOut::Error { problem } => problem.code,
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_frames_get_their_codes_while_another_table_plays_on() {
    let s = TestServer::start("bad-frames").await;
    // A table of well-behaved players runs through the whole test.
    let calm = s.create(json!({"game": "tally"})).await;
    let mut tokens = Vec::new();
    for seat in 0..4 {
        tokens.push(s.join(&calm.id, seat, "安静").await.token);
    }
    let mut calm_players = Vec::new();
    for token in tokens {
        let url = s.ws_url(&calm.id);
        let opts = bots::client::BotOptions {
            think: std::time::Duration::from_millis(20),
            ..Default::default()
        };
        calm_players.push(tokio::spawn(async move {
            bots::client::play::<Tally>(&url, &token, opts).await
        }));
    }

    let noisy = s.create(json!({"game": "tally"})).await;
    // Malformed JSON, an unknown type, unknown fields: an error each, the connection stays.
    let mut c = s.client(&noisy.id).await;
    c.hello(None, None).await;
    c.send_text("{not json").await;
    assert_eq!(error_code(&mut c).await, "bad_json");
    c.send_text(r#"{"type":"shout","text":"hi"}"#).await;
    assert_eq!(error_code(&mut c).await, "unknown_type");
    c.send_text(r#"{"type":"ping","nonce":1,"extra":true}"#)
        .await;
    assert_eq!(error_code(&mut c).await, "bad_message");
    // A message without fields takes none either: a stray field is refused, not a snapshot
    // (serde ignored it on the old unit variant); the bare resync still gets its snapshot.
    c.send_text(r#"{"type":"resync","x":1}"#).await;
    assert_eq!(error_code(&mut c).await, "bad_message");
    c.send_text(r#"{"type":"resync"}"#).await;
    assert!(matches!(
        c.recv_until(|m| matches!(m, ClientOut::Snapshot { .. } | ClientOut::Error { .. }))
            .await,
        ClientOut::Snapshot { .. }
    ));
    // An act must say which state it was decided on.
    c.send_text(r#"{"type":"act","id":1,"action":{"type":"dance"}}"#)
        .await;
    assert_eq!(error_code(&mut c).await, "bad_message");
    c.send_text(r#"{"type":"act","id":1,"seq":0,"action":{"type":"dance"}}"#)
        .await;
    let ClientOut::Rejected { problem, .. } = c
        .recv_until(|m| matches!(m, ClientOut::Rejected { .. }))
        .await
    else {
        panic!()
    };
    assert_eq!(problem.code, "spectator");
    c.send_text(r#"{"type":"ping","nonce":9}"#).await;
    assert_eq!(
        c.recv_until(|m| matches!(m, ClientOut::Pong { .. })).await,
        ClientOut::Pong { nonce: Some(9) }
    );

    // An oversize frame (9 KiB) closes with 1009.
    let mut big = s.client(&noisy.id).await;
    big.hello(None, None).await;
    let padding = "x".repeat(9 * 1024);
    big.send_text(&format!(r#"{{"type":"ping","pad":"{padding}"}}"#))
        .await;
    assert_eq!(big.closed().await, Closed::Code(close::TOO_BIG));

    // A frame far over the limit is refused by the WebSocket layer: closed all the same.
    let mut huge = s.client(&noisy.id).await;
    huge.hello(None, None).await;
    let _ = huge.ws.send(Message::text("y".repeat(200 * 1024))).await;
    assert_eq!(huge.closed().await, Closed::Code(close::TOO_BIG));

    // A flood: first `rate_limited`, then 4029.
    let mut flood = s.client(&noisy.id).await;
    flood.hello(None, None).await;
    for i in 0..200 {
        if flood
            .ws
            .send(Message::text(format!(r#"{{"type":"ping","nonce":{i}}}"#)))
            .await
            .is_err()
        {
            break;
        }
    }
    assert_eq!(flood.closed().await, Closed::Code(close::FLOOD));
    assert!(flood.frames.iter().any(|f| f.contains("rate_limited")));

    // Anything before hello, or a binary frame: closed with 4000 and 1003.
    let mut rude = s.client(&noisy.id).await;
    rude.send_text(r#"{"type":"resync"}"#).await;
    assert_eq!(rude.closed().await, Closed::Code(close::BAD_HELLO));
    assert!(rude.frames.iter().any(|f| f.contains("hello_first")));
    let mut binary = s.client(&noisy.id).await;
    binary.hello(None, None).await;
    binary
        .ws
        .send(Message::binary(vec![1, 2, 3]))
        .await
        .unwrap();
    assert_eq!(binary.closed().await, Closed::Code(close::UNSUPPORTED));

    // No such table: 4004.
    let mut lost = s.client("nosuchtable").await;
    lost.send_text(r#"{"type":"hello"}"#).await;
    assert_eq!(lost.closed().await, Closed::Code(close::NO_TABLE));

    for p in calm_players {
        let report = p.await.unwrap().expect("the calm table finishes");
        assert!(report.over);
    }
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_refusals_origin_and_caps() {
    let dir = temp_dir("caps");
    let mut config = test_config(dir.path().join("paiju.db"));
    config.limits.max_tables = 1;
    config.limits.max_connections = 2;
    let s = TestServer::start_with(config).await;
    let post = |path: &'static str, body: &'static str| {
        let addr = s.addr;
        async move {
            bots::http::request(addr, "POST", path, Some(body))
                .await
                .unwrap()
        }
    };
    let (status, body) = post("/api/tables", "{oops").await;
    assert_eq!(status, 400);
    assert!(body.contains("bad_request"), "{body}");
    let (status, body) = post("/api/tables", r#"{"game":"mahjong"}"#).await;
    assert_eq!((status, body.contains("unknown_game")), (400, true));
    let (status, body) = post("/api/tables", r#"{"game":"tally","seed":"12"}"#).await;
    assert_eq!((status, body.contains("bad_seed")), (400, true));
    let (status, body) = post("/api/tables", r#"{"game":"tally","bots":[9]}"#).await;
    assert_eq!((status, body.contains("bad_seat")), (400, true));
    let t = s.create(json!({"game": "tally"})).await;
    let (status, body) = post("/api/tables", r#"{"game":"tally"}"#).await;
    assert_eq!((status, body.contains("too_many_tables")), (503, true));
    let (status, body) = bots::http::request(
        s.addr,
        "POST",
        &format!("/api/tables/{}/join", t.id),
        Some(r#"{"seat":0,"name":""}"#),
    )
    .await
    .unwrap();
    assert_eq!((status, body.contains("bad_name")), (400, true));

    // A browser from another site is refused before the upgrade.
    let mut req = s.ws_url(&t.id).into_client_request().unwrap();
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    let err = tokio_tungstenite::connect_async(req).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");
    // Our own page is welcome.
    let mut req = s.ws_url(&t.id).into_client_request().unwrap();
    req.headers_mut()
        .insert("Origin", format!("http://{}", s.addr).parse().unwrap());
    let (own, _) = tokio_tungstenite::connect_async(req).await.unwrap();

    // Connection cap of two: the third is closed with 1013.
    let _second = s.client(&t.id).await;
    let mut third = s.client(&t.id).await;
    assert_eq!(third.closed().await, Closed::Code(close::TRY_AGAIN_LATER));
    drop(own);

    // The web client is served as static files; paths cannot escape its directory.
    let (status, body) = bots::http::request(s.addr, "GET", "/", None).await.unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("paiju"));
    let (status, _) = bots::http::request(s.addr, "GET", "/../Cargo.toml", None)
        .await
        .unwrap();
    assert_eq!(status, 404);
    s.running.shutdown().await;
}

/// A server for slow readers: `out_queue` frames may wait; no rate limit (a slow reader asks
/// for many snapshots at once); neither the broom nor pings, so a reader is cut off for not
/// reading alone.
fn slow_reader_config(dir: &std::path::Path, out_queue: usize) -> Config {
    let mut config = test_config(dir.join("paiju.db"));
    config.limits.ping_every = std::time::Duration::from_secs(60);
    config.limits.silent_after = std::time::Duration::from_secs(120);
    config.limits.out_queue = out_queue;
    config.limits.per_second = 1e9;
    config.limits.burst = 1e9;
    config
}

/// Sends `n` resyncs (a snapshot each) and reads nothing. A connection cut off before its last
/// request is read may see its writes fail: either way the caller goes on to check the cut.
async fn ask_without_reading(c: &mut Client, n: usize) {
    let ask = async {
        for _ in 0..n {
            c.ws.feed(Message::text(r#"{"type":"resync"}"#)).await?;
        }
        c.ws.flush().await
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(30), ask)
        .await
        .expect("the requests were written or refused within 30 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_cut_off_as_a_slow_reader_is_shown_gone_to_the_others_and_the_lobby() {
    let dir = temp_dir("slow-seat");
    let s = TestServer::start_with(slow_reader_config(dir.path(), 8)).await;
    let t = s.create(json!({"game": "tally"})).await;
    let slow_token = s.join(&t.id, 0, "慢").await.token;
    let calm_token = s.join(&t.id, 1, "稳").await.token;
    let mut calm = s.client(&t.id).await;
    calm.hello(Some(&calm_token), None).await;
    let mut slow = Client::connect_small(s.addr, &s.ws_url(&t.id)).await;
    slow.hello(Some(&slow_token), None).await;
    let seat0 = |m: &ClientOut| match m {
        ClientOut::Seats { seats } => Some(seats[0].connected),
        _ => None,
    };
    // The calm player hears the slow one arrive, then, once it is cut off, leave.
    calm.recv_until(|m| seat0(m) == Some(true)).await;
    ask_without_reading(&mut slow, 100_000).await;
    calm.recv_until(|m| seat0(m) == Some(false)).await;
    let (_, body) = bots::http::request(s.addr, "GET", &format!("/api/tables/{}", t.id), None)
        .await
        .unwrap();
    let summary: protocol::TableSummary = serde_json::from_str(&body).unwrap();
    assert!(
        !summary.seats[0].connected && summary.seats[1].connected,
        "{body}"
    );
    // It may come back, and is shown there again.
    let mut back = s.client(&t.id).await;
    back.hello(Some(&slow_token), Some(slow.last_seq)).await;
    calm.recv_until(|m| seat0(m) == Some(true)).await;
    s.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broom_closes_silent_clients_and_slow_readers_are_dropped() {
    let dir = temp_dir("broom");
    let s = TestServer::start_with(slow_reader_config(dir.path(), 1)).await;
    // A table of four bots plays to the end by itself.
    let t = s
        .create(json!({"game": "tally", "bots": [0, 1, 2, 3]}))
        .await;
    // Polled, not watched: a watcher would be a slow reader here too (a queue of one).
    let table = format!("/api/tables/{}", t.id);
    eventually(
        std::time::Duration::from_secs(30),
        "the bots finished",
        async || {
            let (_, body) = bots::http::request(s.addr, "GET", &table, None)
                .await
                .unwrap();
            body.contains("\"state\":\"over\"").then_some(())
        },
    )
    .await;
    let spectators = |addr| {
        let path = table.clone();
        async move {
            let (_, body) = bots::http::request(addr, "GET", &path, None).await.unwrap();
            serde_json::from_str::<protocol::TableSummary>(&body)
                .unwrap()
                .spectators
        }
    };

    // A reader that stops reading: once its socket takes no more, what the table sends waits
    // in its line, and a line fuller than `out_queue` (one frame here) is closed with 4008. It
    // asks for snapshots, far more than its socket and the server's can hold (a hundred
    // thousand of 150 bytes, 15 MB), and reads nothing until the server has let it go: the
    // lobby counts it as a spectator from its hello until then. (Reading as soon as its
    // requests were sent made a race of it: the server's receive buffer takes them all at
    // once, and a reader as fast as the table is no slow reader.)
    let mut slow = Client::connect_small(s.addr, &s.ws_url(&t.id)).await;
    slow.send_text(r#"{"type":"hello","last_seq":0}"#).await;
    let within = std::time::Duration::from_secs(30);
    eventually(within, "the slow reader was attached", async || {
        (spectators(s.addr).await == 1).then_some(())
    })
    .await;
    ask_without_reading(&mut slow, 100_000).await;
    eventually(within, "the slow reader was cut off", async || {
        (spectators(s.addr).await == 0).then_some(())
    })
    .await;
    // The close frame waits behind what the socket holds, and the server lets a connection go
    // a second after its close whether or not the close was read: by now it may have come or
    // the line been dropped. Either way, not every answer was sent.
    let end = slow.closed().await;
    assert!(
        end == Closed::Code(close::SLOW_READER) || end == Closed::Dropped,
        "{end:?}"
    );
    assert!(
        slow.frames.len() < 100_000,
        "cut off while frames were still to come, not after them ({} came)",
        slow.frames.len()
    );

    s.running.shutdown().await;

    // A client that says hello and then nothing (it does not even read, so it answers no
    // ping) is swept by the broom with 4001.
    let mut config = test_config(dir.path().join("paiju.db"));
    config.limits.ping_every = std::time::Duration::from_millis(50);
    config.limits.silent_after = std::time::Duration::from_millis(200);
    let s = TestServer::start_with(config).await;
    let mut silent = s.client(&t.id).await;
    silent.send_text(r#"{"type":"hello","last_seq":12}"#).await;
    // Attached as soon as its hello is read, and until the broom's 200 ms of silence are up.
    eventually(
        std::time::Duration::from_secs(1),
        "the silent client was attached",
        async || (spectators(s.addr).await == 1).then_some(()),
    )
    .await;
    // The broom sweeps every 50 ms what was silent for 200 ms: polled (the lobby's count is
    // all that shows it), with a deadline past that window for a busy machine.
    eventually(
        std::time::Duration::from_secs(2),
        "the broom removed the silent client",
        async || (spectators(s.addr).await == 0).then_some(()),
    )
    .await;
    // It sent nothing and read nothing: the close frame (4001) may reach it, or the reset that
    // follows may overtake it.
    let end = silent.closed().await;
    assert!(
        end == Closed::Code(close::SILENT) || end == Closed::Dropped,
        "{end:?}"
    );
    s.running.shutdown().await;
}
