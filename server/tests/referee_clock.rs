//! `paiju explain` on a clock's timeout states the clock the table ran: a table opened with its
//! own `play_seconds` (the casual tables' slower clock) is explained with those seconds, not the
//! ruleset's. The real server, a real WebSocket, the real command on the server's database.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{Actor, ClientIn, ClientOut, Joined, TableSummary};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

mod serve_support;
mod tmp_support;
use serve_support::serve;

/// Opens an 80分 table with `play_seconds`, computers in N, S and W (N declares board 1 and
/// buries), a person in E who never plays; the seq of E's first timeout, seen over E's socket.
async fn first_timeout(addr: std::net::SocketAddr, play_seconds: u32) -> (String, u64) {
    let t: TableSummary = bots::http::post_json(
        addr,
        "/api/tables",
        &json!({"game": "shengji", "bots": [0, 2, 3], "play_seconds": play_seconds}),
    )
    .await
    .unwrap();
    let j: Joined = bots::http::post_json(
        addr,
        &format!("/api/tables/{}/join", t.id),
        &json!({"seat": 1, "name": "老王"}),
    )
    .await
    .unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{}", t.id))
        .await
        .unwrap();
    let hello = ClientIn::Hello {
        token: Some(j.token),
        last_seq: None,
        device: None,
    };
    ws.send(Message::text(serde_json::to_string(&hello).unwrap()))
        .await
        .unwrap();
    // The bury (the ruleset's 60 s, scaled) and the lead, then E's clock runs out.
    let seq = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let Some(Ok(Message::Text(text))) = ws.next().await else {
                panic!("the socket closed before a timeout")
            };
            if let Ok(ClientOut::Events {
                seq,
                seat: 1,
                by: Actor::Clock,
                ..
            }) = serde_json::from_str(&text)
            {
                return seq;
            }
        }
    })
    .await
    .expect("E's clock runs out");
    (t.id, seq)
}

fn explain(db: &std::path::Path, id: &str, seq: u64, lang: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["explain", id, &seq.to_string(), "--lang", lang, "--db"])
        .arg(db)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_is_explained_with_the_tables_own_clock() {
    // A game second is 20 ms: the bury's 60 s take 1.2 s, a 60-second play clock 1.2 s.
    let served = serve(
        "referee-clock",
        &["--clock-scale", "0.02", "--bot-delay-ms", "0"],
        &[],
    );
    let (addr, db) = (served.addr, &served.db);
    for seconds in [60, 30] {
        let (id, seq) = first_timeout(addr, seconds).await;
        let zh = explain(db, &id, seq, "zh");
        assert!(zh.contains("计时器"), "{zh}");
        assert!(
            zh.contains(&format!("出牌超时（限时 {seconds} 秒）")),
            "{zh}"
        );
        let en = explain(db, &id, seq, "en");
        assert!(en.contains(&format!("time ran out ({seconds} s)")), "{en}");
    }
}
