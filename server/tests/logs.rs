//! `paiju serve --log-format json`: one JSON object a line on standard error, each refused
//! action an event carrying its code, inside the spans of its table and connection.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientIn, ClientOut, Joined, TableSummary};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

mod serve_support;
mod tmp_support;
use serve_support::serve;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_carry_refusals_with_their_table_and_connection() {
    let mut served = serve("logs", &["--log-format", "json"], &[("RUST_LOG", "info")]);
    let addr = served.addr;
    let stderr = served.child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for l in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });

    let t: TableSummary = bots::http::post_json(
        addr,
        "/api/tables",
        &json!({"game": "shengji", "bots": [1, 2, 3]}),
    )
    .await
    .unwrap();
    let j: Joined = bots::http::post_json(
        addr,
        &format!("/api/tables/{}/join", t.id),
        &json!({"seat": 0, "name": "老王"}),
    )
    .await
    .unwrap();
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{}", t.id))
        .await
        .unwrap();
    let send = |m: &ClientIn| Message::text(serde_json::to_string(m).unwrap());
    ws.send(send(&ClientIn::Hello {
        token: Some(j.token),
        last_seq: None,
        device: None,
    }))
    .await
    .unwrap();
    ws.send(send(&ClientIn::Act {
        id: 1,
        action: json!({"type": "end_board"}),
        seq: 0,
        seat: None,
        reason: None,
    }))
    .await
    .unwrap();
    loop {
        let Some(Ok(Message::Text(text))) = ws.next().await else {
            panic!("closed before the refusal")
        };
        if let Ok(ClientOut::Rejected { .. }) = serde_json::from_str(&text) {
            break;
        }
    }

    // The refusal's log line: JSON, its code, the table's span and the connection's.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let refusal = loop {
        let line = rx
            .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
            .expect("a log line for the refusal");
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if v["fields"]["message"] == "action refused" {
            break v;
        }
    };
    assert_eq!(refusal["level"], "INFO");
    assert_eq!(refusal["fields"]["code"], "referee_only");
    let spans = refusal["spans"].as_array().expect("spans");
    assert!(
        spans
            .iter()
            .any(|s| s["name"] == "table" && s["id"] == t.id.as_str() && s["game"] == "shengji"),
        "{refusal}"
    );
}
