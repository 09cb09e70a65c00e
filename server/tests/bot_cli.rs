//! `paiju bot`: the real binary plays a seat over WebSocket against a real `paiju serve`, as a
//! browser would (it joins over HTTP for its token), to the end of the board.

use std::process::Command;

use protocol::TableSummary;
use serde_json::json;

mod serve_support;
mod tmp_support;
use serve_support::serve;

#[test]
fn paiju_bot_plays_a_seat_to_the_end() {
    let mut serve = serve("bot-cli", &["--bot-delay-ms", "0"], &[]);
    let addr = serve.addr;
    // Nothing of the server's log is read here.
    drop(serve.child.stderr.take());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let t: TableSummary = rt
        .block_on(bots::http::post_json(
            addr,
            "/api/tables",
            &json!({"game": "shengji", "bots": [1, 2, 3], "bot_level": "club"}),
        ))
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_paiju"))
        .args(["bot", "--url", &format!("ws://{addr}"), "--table", &t.id])
        .args(["--seat", "0", "--level", "club", "--name", "老王的程序"])
        .args(["--minutes", "5"])
        .output()
        .expect("paiju bot runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("over"), "{stdout}");
    assert!(!stdout.contains("not over"), "{stdout}");
    let after: TableSummary = rt
        .block_on(bots::http::get_json(addr, &format!("/api/tables/{}", t.id)))
        .unwrap();
    assert_eq!(after.state, protocol::TableState::Over);
    assert_eq!(after.seats[0].name.as_deref(), Some("老王的程序"));
}
