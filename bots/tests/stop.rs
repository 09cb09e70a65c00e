//! A bot told to stop (`paiju load --seconds`) sends nothing more, even when it is its turn and
//! it is still thinking: before, the stop woke every thinking bot and each sent its play at that
//! same instant, a burst of hundreds of actions that was the whole of the load's p99.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

/// A table of one seat that is always to act: it welcomes the bot, then keeps every frame the
/// bot sends after its hello until the bot goes.
async fn always_my_turn(listener: tokio::net::TcpListener) -> Vec<String> {
    let (stream, _) = listener.accept().await.unwrap();
    let mut ws = tokio_tungstenite::accept_async(stream).await.unwrap();
    let hello = ws.next().await.unwrap().unwrap();
    assert!(hello.to_text().unwrap().contains("\"hello\""), "{hello:?}");
    let welcome = r#"{"type":"welcome","seat":0,"seq":0,"to_act":[0],"state":"playing"}"#;
    ws.send(Message::text(welcome)).await.unwrap();
    let mut after_hello = Vec::new();
    while let Some(Ok(m)) = ws.next().await {
        if let Message::Text(t) = m {
            after_hello.push(t.to_string());
        }
    }
    after_hello
}

#[tokio::test]
async fn a_bot_thinking_when_the_load_stops_sends_nothing() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws/t", listener.local_addr().unwrap());
    let table = tokio::spawn(always_my_turn(listener));
    let opts = bots::client::BotOptions {
        // A thought of 5 to 15 s; the stop comes after 0.3 s, in the middle of it.
        think: Duration::from_secs(10),
        stop: Some(tokio::time::Instant::now() + Duration::from_millis(300)),
        deadline: Duration::from_secs(30),
        ..Default::default()
    };
    let report = bots::client::play_as::<rules::shengji::Board>(
        &url,
        "token",
        opts,
        Box::new(bots::Simplest),
    )
    .await
    .expect("stopped without an error");
    assert_eq!(report.actions, 0);
    assert_eq!(report.seat, Some(0), "it was welcomed to its seat");
    let sent = table.await.unwrap();
    assert!(sent.is_empty(), "nothing sent after the stop: {sent:?}");
}
