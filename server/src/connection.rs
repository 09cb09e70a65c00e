//! One WebSocket connection: frames in, frames out, limits, and the link to its table.
//!
//! The socket is split: its sending half is the connection's [`Line`], which the table and the
//! reader write into directly; a writer task ([`write_loop`]) writes what the socket could not
//! take at once, and finally the close frame. The reader is a [`Session`]. Any close goes
//! through one `watch` so the writer sends exactly one close frame with a clear code.
//!
//! [`run`] reads as the connection's life, one step a function: [`admit`] (a permit and a table,
//! or a close at once), [`Session::serve`] (the loop: which of frame, close, table gone, hello
//! deadline, presence, broom or shutdown comes first), [`Session::on_frame`] (frame rules and
//! the rate limit), [`Session::dispatch`] (the `ClientIn` messages), [`Session::hello`] (the
//! handshake), [`Session::upkeep`] (quiet seats, pings, silent sockets), and
//! [`finish_closing`] (the closing handshake).
//!
//! Until `hello` the connection is on probation: `hello` is the only message it may send, and it
//! must come within `Limits::hello_within`, so a socket that never joins a table cannot keep a
//! connection permit. A `hello` with a token from an address that sent too many refused tokens
//! lately is refused unchecked.

use std::net::IpAddr;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use protocol::{
    close, parse_client_in, BadMessage, ClientIn, ClientOut, Limited, Problem, Refusal,
};
use tokio::sync::{watch, OwnedSemaphorePermit};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::limits::{AddressBuckets, Limits, RateLimit, Verdict};
use crate::line::Line;
use crate::shutdown::Shutdown;
use crate::table::{Arrival, CloseWith, Outlet, TableHandle, Who};

/// Connection ids, unique per server run.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Everything a connection needs, handed over at upgrade.
pub struct Conn {
    pub table: Option<TableHandle>,
    /// Past one machine: when another node serves the table, its address (closed with 4307).
    pub elsewhere: Option<String>,
    /// No table here, and why in words when there is more to say than "no such table" (a
    /// competition's table closed with its round): sent before the close.
    pub gone: Option<Refusal>,
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

/// A page's device id (`hello`'s `device`): what a random id looks like, and short.
fn device_id_ok(d: &str) -> bool {
    (8..=64).contains(&d.len())
        && d.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn text_of(m: &ClientOut) -> String {
    serde_json::to_string(m).expect("wire types serialise")
}

fn error_text(p: Problem) -> String {
    text_of(&ClientOut::Error { problem: p })
}

/// One connection, from the upgrade to the last frame: admitted to its table or closed at once,
/// then the session (hello, frames, messages, presence) until something closes it, then the
/// closing handshake.
///
/// A plain function that sets up and returns the connection's life as a future: an `async fn`
/// would keep its arguments (the unsplit socket, `conn`) in its state for the connection's
/// whole life, beside what they were moved into; that was about 550 bytes a connection.
pub fn run(socket: WebSocket, conn: Conn) -> impl std::future::Future<Output = ()> {
    let Conn {
        table,
        elsewhere,
        gone,
        limits,
        shutdown,
        permit,
        peer,
        bad_tokens,
    } = conn;
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let (sink, mut stream) = socket.split();
    let line = Arc::new(Line::new(Box::pin(sink), limits.out_queue));
    let (close_tx, close_rx) = watch::channel::<CloseWith>(None);
    let close_tx = Arc::new(close_tx);
    let writer = tokio::spawn(write_loop(line.clone(), close_rx));
    let close_now = |code: u16, reason: &str| {
        close_tx.send_replace(Some((code, reason.to_string())));
    };
    // Boxed: the session lives as long as the connection, and a future holds its by-value
    // receiver apart from where it was built.
    if let (None, Some(r)) = (&table, gone) {
        // Queued before the close, so the page can say why.
        let _ = line.send(error_text(r.into()));
    }
    let session = admit(permit.is_some(), table, elsewhere, close_now).map(|table| {
        Box::new(Session {
            id,
            outlet: Outlet {
                id,
                line: line.clone(),
                close: close_tx.clone(),
            },
            line,
            close: close_tx.clone(),
            rate: RateLimit::new(&limits),
            last_seen: Instant::now(),
            last_ping: None,
            first_ping: None,
            quiet: false,
            attached: None,
            limits,
            peer,
            bad_tokens,
            table,
        })
    });
    async move {
        if let Some(session) = session {
            session.serve(&mut stream, shutdown).await;
        }
        // The peer went (or a close was asked for already): the writer ends with a normal
        // close after what is queued.
        close_tx.send_if_modified(|asked| {
            let unasked = asked.is_none();
            if unasked {
                *asked = Some((close::NORMAL, String::new()));
            }
            unasked
        });
        finish_closing(writer, stream).await;
        drop(permit);
    }
}

/// The table this connection may serve, or the close that says why there is none: the
/// connection cap was reached (1013), another node serves the table (4307), no such table (4004).
fn admit(
    has_permit: bool,
    table: Option<TableHandle>,
    elsewhere: Option<String>,
    close_now: impl Fn(u16, &str),
) -> Option<TableHandle> {
    match (has_permit, table) {
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
    }
}

/// Whether the session goes on after a step, or ends (its close, if any, already asked for).
type Flow = ControlFlow<()>;
const GO_ON: Flow = ControlFlow::Continue(());
const END: Flow = ControlFlow::Break(());

/// The reading side of a connection that has a table: who it is there, what it may still send,
/// and its ways out.
struct Session {
    /// The connection's id, as the table knows it.
    id: u64,
    table: TableHandle,
    limits: Arc<Limits>,
    /// What the table is handed at `hello` to reach this connection.
    outlet: Outlet,
    /// The way out, for our own answers (errors, pongs) and pings.
    line: Arc<Line>,
    /// Asks the writer to send one close frame and stop.
    close: Arc<watch::Sender<CloseWith>>,
    /// Per-connection message credits.
    rate: RateLimit,
    /// The last frame of any kind (pongs count): presence, pings and the broom go by it.
    last_seen: Instant,
    /// When the last ping was asked for, if since `last_seen`.
    last_ping: Option<Instant>,
    /// When the first ping since `last_seen` was asked for: unanswered, if set.
    first_ping: Option<Instant>,
    /// The table was told this seat's line went quiet (掉线) and not yet that it spoke again.
    quiet: bool,
    /// Who the connection is at the table, once its `hello` was taken: on probation until then.
    attached: Option<Who>,
    /// The client's address, for the refused-token throttle.
    peer: IpAddr,
    /// Refused tokens per address, shared by every connection.
    bad_tokens: Arc<AddressBuckets>,
}

impl Session {
    /// Reads until the peer leaves, a rule closes the connection, the table goes, the broom
    /// sweeps it or the server shuts down; then leaves the table.
    async fn serve(
        mut self: Box<Self>,
        stream: &mut SplitStream<WebSocket>,
        mut shutdown: Shutdown,
    ) {
        // What ends the connection from outside is waited on by futures made once, not made
        // and dropped again for every frame: the shutdown signal is one for all connections,
        // and registering with it on every frame took its lock on every frame.
        let mut close_watch = self.close.subscribe();
        let closing = async move {
            let _ = close_watch.changed().await;
        };
        let table_gone = self.table.closed();
        let shutting_down = async move { shutdown.recv().await };
        tokio::pin!(closing, table_gone, shutting_down);
        // One timer for the connection's upkeep (pings, presence, the broom), armed once and
        // moved only when it fires, to the next moment the silence could call for something:
        // a frame does not touch it. Three intervals ticking on every connection (and a ping
        // every two seconds to every socket, busy or not) were a large part of the server's
        // work at 18,000 connections. Its moments fall on the server's upkeep beat, shared by
        // every connection ([`Limits::upkeep_beat`]): their timers fire, and their pongs come
        // back, in bursts, not each on a wake-up of its own.
        let beat = self.limits.upkeep_beat();
        let upkeep =
            tokio::time::sleep_until(on_beat(Instant::now() + self.limits.ping_every, beat));
        tokio::pin!(upkeep);
        // Boxed: only the first seconds of a connection need it.
        let mut hello_by = Box::pin(tokio::time::sleep(self.limits.hello_within));
        loop {
            let flow = tokio::select! {
                // Boxed: a frame's handling (parsing, the message, its way to the table) is
                // short-lived, and inline it would size every connection's future for life.
                frame = stream.next() => Box::pin(self.on_frame(frame)).await,
                _ = &mut closing => END,
                // The actor went away without closing us (a panic): say whether to come back.
                _ = &mut table_gone => {
                    self.close_for_gone_table();
                    END
                }
                _ = &mut hello_by, if self.attached.is_none() => {
                    self.refuse(Refusal::HelloFirst { late: true });
                    self.close_now(close::BAD_HELLO, "no hello in time");
                    END
                }
                _ = &mut upkeep => {
                    let (flow, next) = Box::pin(self.upkeep()).await;
                    upkeep.as_mut().reset(on_beat(next, beat));
                    flow
                }
                _ = &mut shutting_down => {
                    self.close_now(close::GOING_AWAY, "server shutting down");
                    END
                }
            };
            if flow.is_break() {
                break;
            }
        }
        if self.attached.is_some() {
            self.table.detach(self.id).await;
        }
    }

    fn close_now(&self, code: u16, reason: &str) {
        self.close.send_replace(Some((code, reason.to_string())));
    }

    /// The table's actor has gone. A close it asked for on its way out (4503 after a failed
    /// write) stands: the session can see the actor gone before it sees that request, and
    /// replacing it would tell a page the table is over while it is being rebuilt.
    fn close_for_gone_table(&self) {
        let (code, reason) = self.table.closed_with();
        self.close.send_if_modified(|asked| {
            let unasked = asked.is_none();
            if unasked {
                *asked = Some((code, reason.to_string()));
            }
            unasked
        });
    }

    /// Sends an answer; a full line drops it (the table's own sends close a slow reader).
    fn send(&self, text: String) {
        let _ = self.line.send(text);
    }

    fn refuse(&self, r: Refusal) {
        self.send(error_text(r.into()));
    }

    /// One frame from the WebSocket layer: presence, the frame rules (text only, 8 KiB), the
    /// rate limit, parsing; then the message.
    async fn on_frame(&mut self, frame: Option<Result<Message, axum::Error>>) -> Flow {
        let frame = match frame {
            Some(Ok(frame)) => frame,
            // Closed by the peer.
            None => return END,
            // A frame the WebSocket layer refused: say which rule it broke.
            Some(Err(e)) => {
                if let Some((code, reason)) = refused_frame(e) {
                    self.close_now(code, &reason);
                }
                return END;
            }
        };
        self.last_seen = Instant::now();
        self.last_ping = None;
        self.first_ping = None;
        if self.quiet {
            self.quiet = false;
            Box::pin(self.table.quiet(self.id, false)).await;
        }
        let text = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                self.close_now(close::UNSUPPORTED, "text frames only");
                return END;
            }
            Message::Close(_) => return END,
            Message::Ping(_) | Message::Pong(_) => return GO_ON,
        };
        if text.len() > self.limits.max_frame {
            self.close_now(close::TOO_BIG, "frame over 8 KiB");
            return END;
        }
        match self.rate.check(Instant::now()) {
            Verdict::Allow => {}
            Verdict::Drop => {
                self.refuse(Refusal::RateLimited(Limited::Messages));
                return GO_ON;
            }
            Verdict::Flood => {
                self.close_now(close::FLOOD, "flood");
                return END;
            }
        }
        match parse_client_in(text.as_str()) {
            Ok(msg) => self.dispatch(msg).await,
            Err(p) => {
                self.send(error_text(p));
                if self.attached.is_none() {
                    self.close_now(close::BAD_HELLO, "the first message must be hello");
                    return END;
                }
                GO_ON
            }
        }
    }

    /// One well-formed message: `hello` first and once, then the table's messages.
    ///
    /// The rare steps (hello, resync, 托管, review, presence, upkeep) are boxed where they are
    /// awaited: a future holds room for its largest step, and the connection's future is kept
    /// for its whole life (four or six connections a table).
    async fn dispatch(&mut self, msg: ClientIn) -> Flow {
        match (msg, self.attached) {
            (ClientIn::Ping { nonce }, Some(_)) => {
                self.send(text_of(&ClientOut::Pong { nonce }));
            }
            (
                ClientIn::Hello {
                    token,
                    last_seq,
                    device,
                },
                None,
            ) => return Box::pin(self.hello(token, last_seq, device)).await,
            (ClientIn::Hello { .. }, Some(_)) => {
                self.refuse(Refusal::BadMessage(BadMessage::SecondHello));
                self.close_now(close::BAD_HELLO, "second hello");
                return END;
            }
            (_, None) => {
                self.refuse(Refusal::HelloFirst { late: false });
                self.close_now(close::BAD_HELLO, "the first message must be hello");
                return END;
            }
            (
                ClientIn::Act {
                    id: action_id,
                    action,
                    seq,
                    seat,
                    reason,
                },
                Some(_),
            ) => {
                let act = crate::table::Act {
                    id: action_id,
                    seq,
                    seat,
                    reason,
                    action,
                };
                if !self.table.act(self.id, act).await {
                    self.close_for_gone_table();
                    return END;
                }
            }
            (ClientIn::Resync {}, Some(_)) => Box::pin(self.table.resync(self.id)).await,
            (ClientIn::Auto { on }, Some(_)) => Box::pin(self.table.auto(self.id, on)).await,
            (ClientIn::Review { on, reason }, Some(_)) => {
                Box::pin(self.table.review(self.id, on, reason)).await
            }
        }
        GO_ON
    }

    /// The handshake: a token from an address that sent too many refused ones is refused
    /// unchecked; otherwise the table attaches the connection as a seat, the referee or a
    /// spectator, or refuses it with the close its refusal names.
    async fn hello(
        &mut self,
        token: Option<String>,
        last_seq: Option<u64>,
        device: Option<String>,
    ) -> Flow {
        if device.as_deref().is_some_and(|d| !device_id_ok(d)) {
            self.refuse(Refusal::BadMessage(BadMessage::Fields {
                kind: "hello".into(),
                detail: "device: 8 to 64 letters, digits, - or _".into(),
            }));
            self.close_now(close::BAD_HELLO, "bad device id");
            return END;
        }
        if token.is_some() && !self.bad_tokens.allows(self.peer, Instant::now()) {
            let throttled = Refusal::RateLimited(Limited::RefusedTokens);
            let code = throttled.close().unwrap_or(close::RATE_LIMITED);
            self.refuse(throttled);
            self.close_now(code, "too many refused tokens");
            return END;
        }
        match self
            .table
            .attach(Arrival {
                outlet: self.outlet.clone(),
                token,
                last_seq,
                peer: self.peer,
                device,
            })
            .await
        {
            Ok(who) => {
                tracing::Span::current().record("who", tracing::field::debug(who));
                tracing::debug!("attached");
                self.attached = Some(who);
                GO_ON
            }
            Err(r) => {
                if r == Refusal::BadToken {
                    // Counted per address: a referee token is guessed from many connections,
                    // not one.
                    self.bad_tokens.charge_anyway(self.peer, Instant::now());
                }
                let code = r.close().unwrap_or(close::NO_TABLE);
                self.refuse(r);
                self.close_now(code, "refused");
                END
            }
        }
    }

    /// The connection's upkeep, when its timer fires; then when it should fire next.
    ///
    /// - The broom: a connection silent for `silent_after` is closed.
    /// - Pings: a connection silent for `ping_every` is pinged, and again each `ping_every`
    ///   while it stays silent; browsers answer pings by themselves, and a client that speaks
    ///   needs none.
    /// - Presence: a seat whose ping goes unanswered for `quiet_after` is told to the table as
    ///   quiet (掉线), which shows until a frame comes again (issue 13). A dropped line shows
    ///   within `ping_every + quiet_after` and a beat (18.1 s): before the 30 s clock of the seat
    ///   to act can run out, so the table knows to play for an absent player (or, at practice,
    ///   to wait).
    ///   **[decision]** Silence alone is not absence: a person thinking over their cards sends
    ///   nothing, and pinging every silent line every 2 s to tell them apart cost more than
    ///   the play at a human pace (docs/performance.md, "The most one process holds").
    ///
    /// Each of these moments is put off to the server's upkeep beat ([`Limits::upkeep_beat`]),
    /// by the caller.
    async fn upkeep(&mut self) -> (Flow, Instant) {
        let now = Instant::now();
        let silent = now - self.last_seen;
        if silent > self.limits.silent_after {
            self.close_now(close::SILENT, "silent too long");
            return (END, now);
        }
        let unanswered = self
            .first_ping
            .filter(|&p| now - p > self.limits.quiet_after);
        if self.attached.is_some() && !self.quiet && unanswered.is_some() {
            self.quiet = true;
            self.table.quiet(self.id, true).await;
        }
        let every = self.limits.ping_every;
        let pinged = self.last_ping.unwrap_or(self.last_seen);
        if now - pinged >= every {
            self.last_ping = Some(now);
            self.first_ping.get_or_insert(now);
            // A full line drops it: the peer is not reading, and is closed for that.
            let _ = self.line.ping();
        }
        // Just past each deadline: the broom asks for silence longer than its own, presence
        // for a ping older than its window.
        let tick = Duration::from_millis(1);
        let mut next = self.last_seen + self.limits.silent_after + tick;
        if let (Some(first), true, false) = (self.first_ping, self.attached.is_some(), self.quiet) {
            next = next.min(first + self.limits.quiet_after + tick);
        }
        let ping_at = self.last_ping.unwrap_or(self.last_seen) + every;
        (GO_ON, next.min(ping_at).max(now + tick))
    }
}

/// `t`, put off to the next beat of the server's upkeep clock: every connection's upkeep falls
/// on the same moments, whenever the connection opened. The clock starts at the first call.
fn on_beat(t: Instant, beat: Duration) -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    next_beat(t, *ORIGIN.get_or_init(Instant::now), beat)
}

/// The first moment at or after `t` a whole number of beats from `origin`; `t` itself if it
/// comes before `origin` (never in the server: every moment asked for is a deadline after the
/// clock started), so that a moment is never put off by a beat or more.
fn next_beat(t: Instant, origin: Instant, beat: Duration) -> Instant {
    if t < origin {
        return t;
    }
    let beat = beat.as_nanos().max(1);
    let beats = (t - origin).as_nanos().div_ceil(beat);
    // u64 nanoseconds: 584 years of uptime.
    origin + Duration::from_nanos((beats * beat) as u64)
}

/// Finishes the closing handshake: the writer sends what is queued and the close frame while we
/// read until the peer answers or goes away. Leaving its reply unread would turn our FIN into a
/// reset, which can destroy our close frame before the peer reads it. A second at most: a
/// browser answers in milliseconds.
async fn finish_closing(mut writer: JoinHandle<()>, mut stream: SplitStream<WebSocket>) {
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
    let _ = tokio::time::timeout(Duration::from_secs(1), both).await;
    writer.abort();
}

/// Writes what the socket could not take when it was sent (see [`Line`]), then, once a close is
/// asked for, what is still queued and one close frame.
async fn write_loop(line: Arc<Line>, mut close_rx: watch::Receiver<CloseWith>) {
    let closing = async {
        let _ = close_rx.changed().await;
        close_rx.borrow().clone()
    };
    let close_with = tokio::select! {
        biased;
        with = closing => with,
        // The socket failed: nothing more can be written.
        () = std::future::poll_fn(|cx| line.poll_write(cx)) => return,
    };
    let Some((mut sink, queued)) = line.take() else {
        return;
    };
    // What is already queued first (e.g. the error that explains the close), then the close.
    for frame in queued {
        if sink.send(frame).await.is_err() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every moment is put off by less than a beat, onto the one grid all connections share:
    /// two connections' deadlines in the same beat fire together.
    #[test]
    fn upkeep_moments_fall_on_one_shared_beat() {
        let beat = Duration::from_millis(750);
        let origin = Instant::now();
        for step_us in [
            0u64, 1, 333, 7_919, 100_003, 749_999, 750_000, 1_234_567, 45_000_001,
        ] {
            let t = origin + Duration::from_micros(step_us);
            let b = next_beat(t, origin, beat);
            assert!(b >= t, "{step_us} µs: put off, never brought forward");
            assert!(b - t < beat, "{step_us} µs: by less than a beat");
            let apart = (b - origin).as_nanos();
            assert_eq!(
                apart % beat.as_nanos(),
                0,
                "{step_us} µs: on the shared grid"
            );
            assert_eq!(next_beat(b, origin, beat), b, "a moment on the beat stays");
        }
        // Two connections whose deadlines fall within one beat fire at the same moment.
        let a = next_beat(origin + Duration::from_millis(10), origin, beat);
        let b = next_beat(origin + Duration::from_millis(740), origin, beat);
        assert_eq!((a, b), (origin + beat, origin + beat));
        // A moment before the clock started is kept as it is, not put off to the start.
        let early = origin - Duration::from_secs(5);
        assert_eq!(next_beat(early, origin, beat), early);
        // The server's clock is one for all: asked twice, on the same grid.
        let later = Instant::now() + Duration::from_secs(1);
        let (x, y) = (on_beat(later, beat), on_beat(later + beat / 3, beat));
        assert_eq!((y - x).as_nanos() % beat.as_nanos(), 0);
    }
}
