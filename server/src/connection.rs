//! One WebSocket connection: frames in, frames out, limits, and the link to its table.
//!
//! The socket is split: a writer task drains the connection's bounded outbound queue (filled by
//! the table and by this reader) and sends pings; the reader loop below parses frames, enforces
//! the frame size and the rate limit, sweeps silence (the broom) and reacts to shutdown. Any close
//! goes through one `watch` so the writer sends exactly one close frame with a clear code.
//!
//! Until `hello` the connection is on probation: `hello` is the only message it may send, and it
//! must come within `Limits::hello_within`, so a socket that never joins a table cannot keep a
//! connection permit. A `hello` with a token from an address that sent too many refused tokens
//! lately is refused unchecked.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use protocol::{close, codes, parse_client_in, ClientIn, ClientOut, Problem};
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit};
use tokio::time::{interval, Instant};

use crate::limits::{AddressBuckets, Limits, RateLimit, Verdict};
use crate::shutdown::Shutdown;
use crate::table::{CloseWith, Outlet, TableHandle, Who};

/// Connection ids, unique per server run.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Everything a connection needs, handed over at upgrade.
pub struct Conn {
    pub table: Option<TableHandle>,
    /// Past one machine: when another node serves the table, its address (closed with 4307).
    pub elsewhere: Option<String>,
    pub limits: Arc<Limits>,
    pub shutdown: Shutdown,
    /// Held for the connection's life: the connection cap. `None`: the cap was reached, so the
    /// connection is closed at once with 1013.
    pub permit: Option<OwnedSemaphorePermit>,
    /// The client's address, for the refused-token throttle.
    pub peer: IpAddr,
    /// Refused tokens per address, shared by every connection.
    pub bad_tokens: Arc<AddressBuckets>,
}

fn text_of(m: &ClientOut) -> String {
    serde_json::to_string(m).expect("wire types serialise")
}

fn error_text(p: Problem) -> String {
    text_of(&ClientOut::Error { problem: p })
}

pub async fn run(socket: WebSocket, conn: Conn) {
    let Conn {
        table,
        elsewhere,
        limits,
        mut shutdown,
        permit,
        peer,
        bad_tokens,
    } = conn;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let (sink, mut stream) = socket.split();
    let (out_tx, out_rx) = mpsc::channel::<String>(limits.out_queue);
    let (close_tx, close_rx) = watch::channel::<CloseWith>(None);
    let close_tx = Arc::new(close_tx);
    let writer = tokio::spawn(write_loop(sink, out_rx, close_rx, limits.clone()));
    let outlet = Outlet {
        id,
        tx: out_tx.clone(),
        close: close_tx.clone(),
    };
    let close_now = |code: u16, reason: &str| {
        close_tx.send_replace(Some((code, reason.to_string())));
    };

    let table = match (permit.is_some(), table) {
        (false, _) => {
            close_now(close::TRY_AGAIN_LATER, "too many connections");
            None
        }
        (true, None) => {
            match elsewhere {
                Some(owner) => close_now(close::ELSEWHERE, &owner),
                None => close_now(close::NO_TABLE, "no such table"),
            }
            None
        }
        (true, Some(t)) => Some(t),
    };
    let mut close_watch = close_tx.subscribe();
    let mut rate = RateLimit::new(&limits);
    let mut last_seen = Instant::now();
    let mut broom = interval(limits.ping_every);
    // A seat's presence: quiet after `quiet_after` without a frame (pongs count), told to the
    // table, which shows the seat 掉线 until a frame comes again (issue 13).
    let mut presence = interval(limits.presence_every());
    let mut quiet = false;
    let mut attached: Option<Who> = None;
    let hello_by = tokio::time::sleep(limits.hello_within);
    tokio::pin!(hello_by);

    if let Some(table) = table.as_ref() {
        loop {
            tokio::select! {
                frame = stream.next() => {
                    let frame = match frame {
                        Some(Ok(frame)) => frame,
                        // Closed by the peer.
                        None => break,
                        // A frame the WebSocket layer refused: say which rule it broke.
                        Some(Err(e)) => {
                            if let Some((code, reason)) = refused_frame(e) {
                                close_now(code, &reason);
                            }
                            break;
                        }
                    };
                    last_seen = Instant::now();
                    if quiet {
                        quiet = false;
                        table.quiet(id, false).await;
                    }
                    let text = match frame {
                        Message::Text(t) => t,
                        Message::Binary(_) => {
                            close_now(close::UNSUPPORTED, "text frames only");
                            break;
                        }
                        Message::Close(_) => break,
                        Message::Ping(_) | Message::Pong(_) => continue,
                    };
                    if text.len() > limits.max_frame {
                        close_now(close::TOO_BIG, "frame over 8 KiB");
                        break;
                    }
                    match rate.check(Instant::now()) {
                        Verdict::Allow => {}
                        Verdict::Drop => {
                            let _ = out_tx.try_send(error_text(Problem::new(
                                codes::RATE_LIMITED,
                                "操作太快了，请稍等",
                                "too many messages: slow down",
                            )));
                            continue;
                        }
                        Verdict::Flood => {
                            close_now(close::FLOOD, "flood");
                            break;
                        }
                    }
                    let msg = match parse_client_in(text.as_str()) {
                        Ok(m) => m,
                        Err(p) => {
                            if attached.is_none() {
                                let _ = out_tx.try_send(error_text(p));
                                close_now(close::BAD_HELLO, "the first message must be hello");
                                break;
                            }
                            let _ = out_tx.try_send(error_text(p));
                            continue;
                        }
                    };
                    match (msg, attached) {
                        (ClientIn::Ping { nonce }, Some(_)) => {
                            let _ = out_tx.try_send(text_of(&ClientOut::Pong { nonce }));
                        }
                        (ClientIn::Hello { token, last_seq }, None) => {
                            let checks_token = token.is_some();
                            if checks_token && !bad_tokens.allows(peer, Instant::now()) {
                                let _ = out_tx.try_send(error_text(Problem::new(
                                    codes::RATE_LIMITED,
                                    "错误的凭证太多，请过一会儿再试",
                                    "too many refused tokens from this address: wait a minute",
                                )));
                                close_now(close::RATE_LIMITED, "too many refused tokens");
                                break;
                            }
                            match table.attach(outlet.clone(), token, last_seq).await {
                                Ok(who) => {
                                    tracing::Span::current()
                                        .record("who", tracing::field::debug(who));
                                    tracing::debug!("attached");
                                    attached = Some(who);
                                }
                                Err(p) => {
                                    let code = match p.code.as_str() {
                                        codes::BAD_TOKEN => {
                                            // Counted per address: a referee token is guessed
                                            // from many connections, not one.
                                            bad_tokens.charge_anyway(peer, Instant::now());
                                            close::BAD_TOKEN
                                        }
                                        codes::TABLE_REBUILDING => close::RETRY,
                                        _ => close::NO_TABLE,
                                    };
                                    let _ = out_tx.try_send(error_text(p));
                                    close_now(code, "refused");
                                    break;
                                }
                            }
                        }
                        (ClientIn::Hello { .. }, Some(_)) => {
                            let _ = out_tx.try_send(error_text(Problem::new(
                                codes::BAD_MESSAGE,
                                "已经打过招呼了",
                                "hello was already sent",
                            )));
                            close_now(close::BAD_HELLO, "second hello");
                            break;
                        }
                        (_, None) => {
                            let _ = out_tx.try_send(error_text(Problem::new(
                                codes::HELLO_FIRST,
                                "请先发送 hello",
                                "send hello first",
                            )));
                            close_now(close::BAD_HELLO, "the first message must be hello");
                            break;
                        }
                        (ClientIn::Act { id: action_id, action, seq, seat, reason }, Some(_)) => {
                            let act = crate::table::Act { id: action_id, seq, seat, reason, action };
                            if !table.act(id, act).await {
                                let (code, reason) = table.closed_with();
                                close_now(code, reason);
                                break;
                            }
                        }
                        (ClientIn::Resync, Some(_)) => table.resync(id).await,
                        (ClientIn::Auto { on }, Some(_)) => table.auto(id, on).await,
                        (ClientIn::Review { on, reason }, Some(_)) => table.review(id, on, reason).await,
                    }
                }
                _ = close_watch.changed() => break,
                // The actor went away without closing us (a panic): say whether to come back.
                _ = table.closed() => {
                    let (code, reason) = table.closed_with();
                    close_now(code, reason);
                    break;
                }
                _ = &mut hello_by, if attached.is_none() => {
                    let _ = out_tx.try_send(error_text(Problem::new(
                        codes::HELLO_FIRST,
                        "没有及时发送 hello",
                        "no hello in time",
                    )));
                    close_now(close::BAD_HELLO, "no hello in time");
                    break;
                }
                _ = presence.tick(), if attached.is_some() => {
                    if !quiet && last_seen.elapsed() > limits.quiet_after {
                        quiet = true;
                        table.quiet(id, true).await;
                    }
                }
                _ = broom.tick() => {
                    if last_seen.elapsed() > limits.silent_after {
                        close_now(close::SILENT, "silent too long");
                        break;
                    }
                }
                _ = shutdown.recv() => {
                    close_now(close::GOING_AWAY, "server shutting down");
                    break;
                }
            }
        }
        if attached.is_some() {
            table.detach(id).await;
        }
    }
    drop(outlet);
    drop(out_tx);
    // Finish the closing handshake: the writer sends what is queued and the close frame while
    // we read until the peer answers or goes away. Leaving its reply unread would turn our FIN
    // into a reset, which can destroy our close frame before the peer reads it. A second at most:
    // a browser answers in milliseconds.
    let mut writer = writer;
    let drain = async {
        while let Some(Ok(m)) = stream.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    };
    let both = async {
        let _ = tokio::join!(&mut writer, drain);
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), both).await;
    writer.abort();
    drop(permit);
}

/// Sends queued frames, pings, and finally one close frame.
async fn write_loop(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut out: mpsc::Receiver<String>,
    mut close_rx: watch::Receiver<CloseWith>,
    limits: Arc<Limits>,
) {
    let mut ping = interval(limits.presence_every());
    ping.tick().await;
    let close_with = loop {
        tokio::select! {
            biased;
            _ = close_rx.changed() => break close_rx.borrow().clone(),
            msg = out.recv() => match msg {
                Some(text) => {
                    if sink.send(Message::Text(text.into())).await.is_err() {
                        return;
                    }
                }
                None => break close_rx.borrow().clone(),
            },
            _ = ping.tick() => {
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
        }
    };
    // Flush what is already queued (e.g. the error that explains the close), then close.
    while let Ok(text) = out.try_recv() {
        if sink.send(Message::Text(text.into())).await.is_err() {
            return;
        }
    }
    let (code, reason) = close_with.unwrap_or((close::NORMAL, String::new()));
    let _ = sink
        .send(Message::Close(Some(CloseFrame {
            code,
            reason: reason.into(),
        })))
        .await;
    let _ = sink.close().await;
}

/// The close code and reason for a frame the WebSocket layer refused; `None` when the peer just
/// went away (nothing to tell it).
fn refused_frame(e: axum::Error) -> Option<(u16, String)> {
    use tungstenite::error::{Error as WsError, ProtocolError};
    let Ok(e) = e.into_inner().downcast::<WsError>() else {
        return Some((close::PROTOCOL_ERROR, "protocol error".into()));
    };
    match *e {
        WsError::ConnectionClosed | WsError::AlreadyClosed | WsError::Io(_) => None,
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        WsError::Utf8(_) => Some((close::INVALID_PAYLOAD, "text frame is not UTF-8".into())),
        WsError::Capacity(_) => Some((close::TOO_BIG, "frame too big".into())),
        // A close reason is at most 123 bytes; tungstenite's messages are well under that.
        WsError::Protocol(p) => Some((close::PROTOCOL_ERROR, truncate(p.to_string(), 120))),
        other => Some((close::PROTOCOL_ERROR, truncate(other.to_string(), 120))),
    }
}

fn truncate(mut s: String, max: usize) -> String {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}
