//! The bot over a real WebSocket: joins with a seat token, follows `events`/`snapshot`, and plays
//! on its turn, exactly as a browser would (it never sees more than its seat's view): the
//! simplest legal play ([`play`], the load generator's), or a [`SeatPlayer`] of any level shown
//! every view its seat is sent ([`play_as`], `paiju bot`). It also measures each action's round
//! trip: from sending `act` to receiving the `events` of that action.
//!
//! Like a browser it rides out what a busy or scaled-out server says: `rate_limited` (the
//! message was dropped) is answered by waiting and sending the same action again, with the same
//! id, so it is never applied twice; a close 4307 (the table lives on another node, whose
//! address is the close reason) is followed there; a broken line is connected again with the
//! page's backoff (0.5 s doubling to 8 s, ±25 %), so that a node's death brings the survivors
//! what its players' pages would bring them, not a storm of reconnections as fast as they answer.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use protocol::{ClientIn, TableState};
use rules::Engine;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::{Budget, SeatPlayer, Simplest};
use tokio_tungstenite::tungstenite::Message;

/// How a bot client behaves.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// Thinking time before each action (models a person; keeps load realistic). Each wait is
    /// drawn uniformly from half to one and a half times this, so that a thousand tables do not
    /// act in lockstep.
    pub think: Duration,
    /// Give up after this long.
    pub deadline: Duration,
    /// Keep every text frame received (tests inspect them).
    pub record: bool,
    /// Stop at this moment, the table not over, and report what was played (`paiju load
    /// --seconds`): no new action is sent after it, the one in flight is waited for.
    pub stop: Option<tokio::time::Instant>,
    /// Frames and their bytes received so far, counted as they arrive and shared between
    /// seats: `paiju load` sizes its fan-out floor during the play from it.
    pub seen: Option<std::sync::Arc<Seen>>,
    /// Past one machine: the other nodes to go to when the connection breaks (its node killed
    /// or stopping). With any, a break is ridden out as a browser rides it out: the bot
    /// connects again (here, or to another node, which sends it to the table's new one), and
    /// sends the action in flight again with its id (applied at most once); every action
    /// acknowledged and every resumption are reported. Without, a break ends the bot.
    pub failover: Vec<std::net::SocketAddr>,
    /// `paiju load --blocks`: while this says `true` the bot sends nothing (the action in flight
    /// is still waited for), so that the load's floors can be measured alone between blocks of
    /// play. When it is lifted a seat whose turn it is acts after a share of its think time, as
    /// if it had been thinking already, so that the tables come back at their pace and not all
    /// at once.
    pub hold: Option<tokio::sync::watch::Receiver<bool>>,
}

/// Frames received and their bytes, across the seats that share it.
#[derive(Debug, Default)]
pub struct Seen {
    pub frames: std::sync::atomic::AtomicU64,
    pub bytes: std::sync::atomic::AtomicU64,
    /// Actions acknowledged.
    pub acks: std::sync::atomic::AtomicU64,
}

impl Seen {
    /// The mean frame size so far (0 before any).
    pub fn mean_bytes(&self) -> usize {
        use std::sync::atomic::Ordering::Relaxed;
        (self.bytes.load(Relaxed) / self.frames.load(Relaxed).max(1)) as usize
    }
}

impl Default for BotOptions {
    fn default() -> Self {
        BotOptions {
            think: Duration::ZERO,
            deadline: Duration::from_secs(120),
            record: false,
            stop: None,
            seen: None,
            failover: Vec::new(),
            hold: None,
        }
    }
}

/// What a bot client saw and did.
#[derive(Debug, Default)]
pub struct BotReport {
    pub seat: Option<usize>,
    /// Actions acknowledged.
    pub actions: u64,
    /// Action round trips (send `act` → own `events` received), each with when it was sent
    /// (milliseconds since the epoch: comparable across the load's generator processes).
    pub round_trips: Vec<(u64, Duration)>,
    /// The last seq seen.
    pub last_seq: u64,
    /// The table reached `over`.
    pub over: bool,
    /// The last view received (its JSON text).
    pub view: String,
    /// Every text frame, if recording.
    pub frames: Vec<String>,
    /// Text frames received and their bytes (the load's network floor sends frames of the
    /// mean size).
    pub received: u64,
    pub received_bytes: u64,
    /// With [`BotOptions::failover`]: every acknowledged action, (seq, id).
    pub acked: Vec<(u64, u64)>,
    /// With [`BotOptions::failover`]: each resumption after a break, how long the seat was
    /// without its table (the break to the new connection's welcome).
    pub resumed: Vec<Duration>,
}

/// The parts of a [`protocol::ClientOut`] frame a bot reads (the protocol crate's tests pin the
/// full shapes); the view is kept as raw JSON.
#[derive(serde::Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    id: Option<u64>,
    /// `welcome`: my seat (other messages: the acting seat, unused here).
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    to_act: Option<Vec<usize>>,
    #[serde(default)]
    state: Option<TableState>,
    #[serde(default, borrow)]
    view: Option<&'a serde_json::value::RawValue>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    en: Option<String>,
}

/// The WebSocket buffers of a bot's socket (and of the load generator's echo floor): an 8 KiB
/// read buffer (a view is a few KiB), frames written at once. tungstenite's default read
/// buffer (128 KiB) is zero-filled before every read: thousands of bots spent the generator's
/// CPU, which shares the machine with the server it measures, on clearing memory.
pub fn small_buffers() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
}

/// Plays one seat with the simplest legal play until the table is over (or the deadline
/// passes).
pub async fn play<E: Engine + 'static>(
    url: &str,
    token: &str,
    opts: BotOptions,
) -> Result<BotReport, String> {
    play_as::<E>(url, token, opts, Box::new(Simplest)).await
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// How many times a client follows 4307 to another node before giving up.
const MAX_HOPS: usize = 4;
/// The first wait after `rate_limited`; doubled each time in a row, up to [`MAX_BACKOFF`].
const BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(4);

/// Plays one seat with `player` until the table is over (or the deadline passes). The player
/// is shown every view the seat receives, in order, and thinks off the async workers.
pub async fn play_as<E: Engine + 'static>(
    url: &str,
    token: &str,
    opts: BotOptions,
    mut player: Box<dyn SeatPlayer<E>>,
) -> Result<BotReport, String> {
    let mut url = url.to_string();
    let mut ws = connect(&url, token).await?;
    let mut report = BotReport::default();
    let mut backoff = BACKOFF;
    // The last `act` frame sent, for resending after `rate_limited`.
    let mut last_act: Option<String> = None;
    // Action ids are unique per seat across connections (a resent id is answered from the
    // server's cache): start from the clock, in microseconds.
    let mut next_id: u64 = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(1);
    // The action in flight: its id, when it was sent, and its seq once acknowledged.
    let mut pending: Option<(u64, Instant, Option<u64>)> = None;
    // The think times' generator, seeded through a mixer: bots started in the same
    // microseconds got seeds a few units apart, and xorshift's first draws from such seeds are
    // nearly equal (their top bits come from the seed's top bits), so tables seated together
    // played their first moves at the same instant.
    let mut rng = mix(next_id) | 1;
    let mut to_act: Vec<usize> = Vec::new();
    let mut state = TableState::Waiting;
    let started = Instant::now();
    let mut act_at: Option<tokio::time::Instant> = None;
    // The frame just read; after a break, when it happened, and whether the action in flight is
    // to be sent again once the table welcomes us back.
    let mut text = String::new();
    let mut line = Line::default();
    let mut hold = opts.hold.clone();
    // Our turn came, or stayed, while the play was held: the wait after the hold is a share of
    // a think time.
    let mut held_on_turn = false;
    loop {
        if state == TableState::Over {
            report.over = true;
            break;
        }
        let stopping = opts.stop.is_some_and(|t| t <= tokio::time::Instant::now());
        if stopping && pending.is_none() {
            break;
        }
        let remaining = opts.deadline.saturating_sub(started.elapsed());
        if remaining.is_zero() {
            return Err(format!(
                "seat {:?}: no end after {:?} (seq {})",
                report.seat, opts.deadline, report.last_seq
            ));
        }
        let held = hold.as_ref().is_some_and(|h| *h.borrow());
        let my_turn = pending.is_none()
            && !stopping
            && report.seat.is_some_and(|s| to_act.contains(&s))
            && state == TableState::Playing;
        if !my_turn {
            held_on_turn = false;
        } else if held {
            held_on_turn = true;
        }
        let my_turn = my_turn && !held;
        if my_turn && act_at.is_none() {
            let wait = if std::mem::take(&mut held_on_turn) {
                after_hold(opts.think, &mut rng)
            } else {
                jitter(opts.think, &mut rng)
            };
            act_at = Some(tokio::time::Instant::now() + wait);
        }
        if !my_turn {
            act_at = None;
        }
        let mut wake = act_at.unwrap_or_else(|| tokio::time::Instant::now() + remaining);
        if let Some(stop) = opts.stop.filter(|_| !stopping) {
            wake = wake.min(stop);
        }
        tokio::select! {
            changed = async { hold.as_mut().expect("guarded").changed().await }, if hold.is_some() => {
                // The load went away: nothing holds the play any more.
                if changed.is_err() {
                    hold = None;
                }
            }
            frame = ws.next() => {
                let broke = match frame {
                    Some(Ok(Message::Close(Some(c))))
                        if u16::from(c.code) == protocol::close::ELSEWHERE && line.hops < MAX_HOPS =>
                    {
                        // The table lives on another node: go there, as a browser does.
                        line.hops += 1;
                        url = elsewhere(&url, &c.reason)?;
                        match connect(&url, token).await {
                            Ok(next) => {
                                ws = next;
                                line.resend = true;
                                continue;
                            }
                            Err(e) => e,
                        }
                    }
                    Some(Ok(Message::Close(c))) => format!("closed {c:?}"),
                    Some(Ok(Message::Text(t))) => {
                        text = t.to_string();
                        String::new()
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => e.to_string(),
                    None => "closed".to_string(),
                };
                if !broke.is_empty() {
                    ws = ride_out(&mut url, token, &opts, started, &mut line, report.seat, &broke).await?;
                    continue;
                }
                let text = std::mem::take(&mut text);
                report.received += 1;
                report.received_bytes += text.len() as u64;
                if let Some(seen) = &opts.seen {
                    use std::sync::atomic::Ordering::Relaxed;
                    seen.frames.fetch_add(1, Relaxed);
                    seen.bytes.fetch_add(text.len() as u64, Relaxed);
                }
                if opts.record {
                    report.frames.push(text.clone());
                }
                // Only the fields a bot needs; the view stays JSON text until it is our turn.
                let msg: Frame = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
                if let Some(v) = msg.view {
                    report.view = v.get().to_string();
                    // Shown every view, in order, as a person at the table sees them.
                    if player.remembers() {
                        let view: E::View = serde_json::from_str(v.get())
                            .map_err(|e| format!("cannot read my view: {e}"))?;
                        player.observe(&view);
                    }
                }
                if let Some(t) = msg.to_act {
                    to_act = t;
                }
                if let Some(s) = msg.state {
                    state = s;
                }
                match msg.kind.as_str() {
                    "welcome" => {
                        report.seat = msg.seat;
                        // Not the welcome's seq: it is the table's head, and the view that goes
                        // with it comes in the snapshot next. A play decided in between on the
                        // old view but sent with the new seq was refused as out of turn (the
                        // clock had played for the absent seat), not as stale.
                        if let Some(since) = line.broken_at.take() {
                            report.resumed.push(since.elapsed());
                        }
                        line.tries = 0;
                        // Back after a break or a move: the action in flight goes again, with its
                        // id (answered from the table's memory if it was stored before).
                        if std::mem::take(&mut line.resend) {
                            if let (Some((_, _, None)), Some(act)) = (pending, &last_act) {
                                if let Err(e) = ws.send(Message::text(act.clone())).await {
                                    ws = ride_out(&mut url, token, &opts, started, &mut line, report.seat, &e.to_string()).await?;
                                }
                            }
                        }
                    }
                    "snapshot" => {
                        report.last_seq = msg.seq.unwrap_or(0);
                        // A snapshot after a break covers an acknowledged action whose events
                        // never came: it is done.
                        if let Some((_, _, Some(acked))) = pending {
                            if acked <= report.last_seq {
                                pending = None;
                            }
                        }
                    }
                    "events" => {
                        let seq = msg.seq.unwrap_or(0);
                        report.last_seq = seq;
                        if let Some((_, sent, Some(acked))) = pending {
                            if acked == seq {
                                let took = sent.elapsed();
                                let sent_ms = unix_ms().saturating_sub(took.as_millis() as u64);
                                report.round_trips.push((sent_ms, took));
                                pending = None;
                            }
                        }
                    }
                    "ack" => {
                        if let Some(p) = pending.as_mut() {
                            if Some(p.0) == msg.id {
                                p.2 = msg.seq;
                                report.actions += 1;
                                backoff = BACKOFF;
                                if let Some(seen) = &opts.seen {
                                    seen.acks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                }
                                if !opts.failover.is_empty() {
                                    report.acked.push((msg.seq.unwrap_or(0), p.0));
                                }
                                // Stored before a break and answered again after it: its
                                // events were in the snapshot.
                                if msg.seq.is_some_and(|s| s <= report.last_seq) {
                                    pending = None;
                                }
                            }
                        }
                    }
                    // Dropped, not refused: the same frame again after a wait (its id makes a
                    // second arrival harmless).
                    "error" if msg.code.as_deref() == Some(protocol::codes::RATE_LIMITED) => {
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(MAX_BACKOFF);
                        if let (Some((_, _, None)), Some(act)) = (pending, &last_act) {
                            if let Err(e) = ws.send(Message::text(act.clone())).await {
                                ws = ride_out(&mut url, token, &opts, started, &mut line, report.seat, &e.to_string()).await?;
                            }
                        }
                    }
                    // The table moved on before the action arrived (the clock played for us):
                    // decide again on what comes next.
                    "rejected" if msg.code.as_deref() == Some(protocol::codes::STALE) => {
                        pending = None;
                    }
                    "rejected" | "error" => {
                        return Err(format!(
                            "seat {:?}: {} {:?}: {} {}",
                            report.seat,
                            msg.kind,
                            msg.id,
                            msg.code.unwrap_or_default(),
                            msg.en.unwrap_or_default()
                        ));
                    }
                    _ => {}
                }
            }
            _ = tokio::time::sleep_until(wake) => {
                // Woken for the stop or the deadline, not for the thought's end: the loop's top
                // decides. (Acting here sent every seat's pending play at the same instant the
                // load stopped: a burst of hundreds that was all of the p99.)
                if !my_turn || act_at.is_none_or(|at| at > tokio::time::Instant::now()) {
                    continue;
                }
                act_at = None;
                let id = next_id;
                next_id += 1;
                // Choosing can take a while (a 够级 hand has many sets): off the async workers,
                // so that the other clients on this runtime keep reading their frames.
                let view = report.view.clone();
                let seq = report.last_seq;
                let (back, act) = tokio::task::spawn_blocking(move || {
                    let act = choose::<E>(player.as_mut(), &view, id, seq);
                    (player, act)
                })
                .await
                .map_err(|e| e.to_string())?;
                player = back;
                let act = act.map_err(|e| format!("seat {:?}: {e}", report.seat))?;
                pending = Some((id, Instant::now(), None));
                last_act = Some(act.clone());
                if let Err(e) = ws.send(Message::text(act)).await {
                    // Into a socket the server has just closed (its node died, the table moved):
                    // ridden out like a broken read, and the play sent again once welcomed.
                    ws = ride_out(&mut url, token, &opts, started, &mut line, report.seat, &e.to_string()).await?;
                }
            }
        }
    }
    let _ = ws.close(None).await;
    Ok(report)
}

/// What a bot keeps of its line between connections.
#[derive(Default)]
struct Line {
    /// 4307s followed since the last break.
    hops: usize,
    /// The action in flight goes again once the table welcomes us back.
    resend: bool,
    /// When the line broke, until the table welcomes the seat again.
    broken_at: Option<Instant>,
    /// Rounds of reconnection since then: picks the next wait ([`backoff`]).
    tries: usize,
}

/// A broken line (a read or a send failed): without failover nodes the seat's end (an error);
/// with them, connected again, here or through another node, the action in flight to be sent
/// again once welcomed, the first break's time kept until then.
async fn ride_out(
    url: &mut String,
    token: &str,
    opts: &BotOptions,
    started: Instant,
    line: &mut Line,
    seat: Option<usize>,
    broke: &str,
) -> Result<Ws, String> {
    if opts.failover.is_empty() {
        return Err(format!("seat {seat:?}: {broke}"));
    }
    line.hops = 0;
    line.resend = true;
    let since = *line.broken_at.get_or_insert_with(Instant::now);
    let left = opts.deadline.saturating_sub(started.elapsed());
    reconnect(url, token, &opts.failover, left, &mut line.tries)
        .await
        .map_err(|e| {
            format!(
                "seat {seat:?}: {broke}; then {e} ({:?} without a table)",
                since.elapsed()
            )
        })
}

/// Connects (Nagle off, as on the server: small frames go out at once) and says hello.
async fn connect(url: &str, token: &str) -> Result<Ws, String> {
    // Nagle off, as on the server: small frames go out at once.
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(url, Some(small_buffers()), true)
            .await
            .map_err(|e| format!("connect {url}: {e}"))?;
    let hello = ClientIn::Hello {
        token: Some(token.to_string()),
        last_seq: None,
        // A bot client is no device a person keeps.
        device: None,
    };
    ws.send(Message::text(serde_json::to_string(&hello).unwrap()))
        .await
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// After a break: connects again to the table at `url`, or to the same table on another of
/// `nodes` (which sends the bot on to the table's owner, or takes the table over once the dead
/// node's lease runs out), trying each in turn until one answers or `within` passes. `url`
/// becomes the one that answered. Each round waits first, as a page does ([`backoff`]; `tries`:
/// the rounds since the line was last good).
async fn reconnect(
    url: &mut String,
    token: &str,
    nodes: &[std::net::SocketAddr],
    within: Duration,
    tries: &mut usize,
) -> Result<Ws, String> {
    let deadline = tokio::time::Instant::now() + within;
    // The same node first (a blip), then the others from a place of the seat's own: the seats
    // of a dead node spread over the living ones as a front's round robin spreads them, instead
    // of all landing on the first (which then takes over every table it is asked for, and
    // runs out of files where the others have room).
    let mut candidates = vec![url.clone()];
    let from = token
        .bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
    for i in 0..nodes.len() {
        let n = nodes[(from + i) % nodes.len()];
        candidates.push(elsewhere(url, &n.to_string())?);
    }
    let mut last = String::from("no time left to reconnect");
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            return Err(last);
        }
        let wait = backoff(*tries, from as u64 ^ unix_ms());
        *tries += 1;
        tokio::time::sleep(wait.min(left)).await;
        for c in &candidates {
            let tried = tokio::time::timeout(CONNECT_WITHIN, connect(c, token)).await;
            match tried {
                Ok(Ok(ws)) => {
                    *url = c.clone();
                    return Ok(ws);
                }
                Ok(Err(e)) => last = e,
                Err(_) => last = format!("connect {c}: no answer in {CONNECT_WITHIN:?}"),
            }
        }
    }
}

/// How long a reconnection waits for a node's handshake before trying the next. A page waits
/// as long as its browser does; 2 s gave up on survivors busy with a dead node's players (a
/// handshake their full accept queue dropped comes again after TCP's 1 s and 3 s), and each
/// such bot then waited a whole round of its backoff.
const CONNECT_WITHIN: Duration = Duration::from_secs(10);

/// The page's waits before reconnecting (web-client/src/net.js): 0.5 s doubling to 8 s.
const BACKOFF_MS: [u64; 5] = [500, 1000, 2000, 4000, 8000];

/// The wait before reconnection round `tries` (0 after a good line): [`BACKOFF_MS`], each
/// drawn from 75–125 % of it (`seed` through [`mix`]) so that the players of a dead node do
/// not come back in step.
fn backoff(tries: usize, seed: u64) -> Duration {
    let base = Duration::from_millis(BACKOFF_MS[tries.min(BACKOFF_MS.len() - 1)]);
    let unit = (mix(seed ^ tries as u64) >> 11) as f64 / (1u64 << 53) as f64;
    base.mul_f64(0.75 + unit / 2.0)
}

/// The same table's WebSocket URL on the node named by a 4307 close (its base URL,
/// `http://host:port`).
pub fn elsewhere(url: &str, owner: &str) -> Result<String, String> {
    let path = url
        .find("/ws/")
        .map(|i| &url[i..])
        .ok_or_else(|| format!("not a table's WebSocket URL: {url}"))?;
    let owner = owner.trim().trim_end_matches('/');
    let base = if let Some(rest) = owner.strip_prefix("https://") {
        format!("wss://{rest}")
    } else if let Some(rest) = owner.strip_prefix("http://") {
        format!("ws://{rest}")
    } else if owner.starts_with("ws://") || owner.starts_with("wss://") {
        owner.to_string()
    } else if owner.is_empty() {
        return Err("closed 4307 without the owner's address".into());
    } else {
        format!("ws://{owner}")
    };
    Ok(format!("{base}{path}"))
}

/// The `act` frame for the bot's move, from its view alone (no engine type outlives the call,
/// so the client future stays `Send`). The seed for any randomness comes from the id.
fn choose<E: Engine>(
    player: &mut dyn SeatPlayer<E>,
    view: &str,
    id: u64,
    seq: u64,
) -> Result<String, String> {
    let view: E::View =
        serde_json::from_str(view).map_err(|e| format!("cannot read my view: {e}"))?;
    let action = player
        .act(&view, Budget::DEFAULT, id ^ seq.rotate_left(32))
        .ok_or("my turn but no legal action")?;
    let act = ClientIn::Act {
        id,
        action: serde_json::to_value(&action).map_err(|e| e.to_string())?,
        seq,
        seat: None,
        reason: None,
    };
    Ok(serde_json::to_string(&act).expect("wire types serialise"))
}

/// The wall clock in milliseconds since the epoch: what two processes of one load agree on.
pub(crate) fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// splitmix64's finaliser: every bit of the seed reaches every bit of the state.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A wait drawn uniformly from [think/2, 3·think/2) with a xorshift generator (no dependency
/// needed for pacing). Seed it through [`mix`].
pub fn jitter(think: Duration, state: &mut u64) -> Duration {
    if think.is_zero() {
        return think;
    }
    think.mul_f64(0.5 + unit(state))
}

/// The wait of a seat whose turn came or stayed while the load held the play
/// ([`BotOptions::hold`]): a uniform share of a [`jitter`]ed think time, as if it had been
/// thinking for the rest. (All seats waiting a whole think time from the release would leave
/// the first half of every block of play without an action.)
pub fn after_hold(think: Duration, state: &mut u64) -> Duration {
    jitter(think, state).mul_f64(unit(state))
}

/// A draw from [0, 1) of the xorshift generator in `state`.
fn unit(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::{backoff, elsewhere, jitter, mix, reconnect, BACKOFF_MS};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    /// The waits before reconnecting are the page's: each round's within ±25 % of 0.5 s, 1 s,
    /// 2 s, 4 s, then 8 s for good, and two seeds a unit apart draw apart.
    #[test]
    fn reconnection_waits_double_from_half_a_second_to_eight_with_jitter() {
        for tries in 0..8 {
            let base = BACKOFF_MS[tries.min(4)] as f64 / 1000.0;
            let waits: Vec<f64> = (0..200u64)
                .map(|seed| backoff(tries, 1_796_415_000_000 + seed).as_secs_f64())
                .collect();
            assert!(
                waits.iter().all(|w| (base * 0.75..base * 1.25).contains(w)),
                "round {tries}: {waits:?}"
            );
            let low = waits.iter().filter(|&&w| w < base).count();
            assert!(
                (60..=140).contains(&low),
                "round {tries}: {low} of 200 below {base}"
            );
        }
    }

    /// A line broken for good (the node accepts and hangs up, as a dying one does) is tried
    /// again at the page's pace, not as fast as the node answers: within 2.6 s, rounds at about
    /// 0.5 and 1.5 s and one at the end (two if a busy machine ran the second late), each trying
    /// the table's URL and the one node. Without the waits it was tried every 100 ms.
    #[tokio::test]
    async fn a_broken_line_is_tried_again_with_the_pages_backoff_not_at_once() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let attempts = Arc::new(AtomicUsize::new(0));
        let counted = attempts.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::Relaxed);
                drop(socket);
            }
        });
        let mut url = format!("ws://{addr}/ws/780257");
        let mut tries = 0;
        let within = Duration::from_millis(2600);
        let outcome = reconnect(&mut url, "token", &[addr], within, &mut tries).await;
        assert!(outcome.is_err(), "nobody to welcome the bot");
        let n = attempts.load(Ordering::Relaxed);
        assert!((2..=3).contains(&tries), "{tries} rounds in {within:?}");
        assert_eq!(n, 2 * tries, "connection attempts in {tries} rounds");
    }

    /// Bots started in the same microseconds (consecutive seeds) must not think alike: their
    /// first waits spread over the whole range, each tenth of it drawn about as often.
    #[test]
    fn bots_seeded_a_microsecond_apart_think_for_different_times() {
        let think = Duration::from_millis(1000);
        let start = 1_796_415_000_000_000u64;
        let mut tenths = [0usize; 10];
        for seed in start..start + 1000 {
            let mut state = mix(seed) | 1;
            let wait = jitter(think, &mut state);
            assert!(wait >= think / 2 && wait < think * 3 / 2, "{wait:?}");
            tenths[((wait.as_secs_f64() - 0.5) * 10.0) as usize] += 1;
        }
        assert!(
            tenths.iter().all(|&n| (60..=140).contains(&n)),
            "{tenths:?}"
        );
    }

    #[test]
    fn a_4307_close_leads_to_the_same_table_on_the_owner_node() {
        let here = "ws://127.0.0.1:8080/ws/780257";
        assert_eq!(
            elsewhere(here, "http://10.0.0.2:8080").unwrap(),
            "ws://10.0.0.2:8080/ws/780257"
        );
        assert_eq!(
            elsewhere(here, "https://paiju.example/").unwrap(),
            "wss://paiju.example/ws/780257"
        );
        assert_eq!(
            elsewhere(here, "10.0.0.3:9000").unwrap(),
            "ws://10.0.0.3:9000/ws/780257"
        );
        assert!(elsewhere(here, "").is_err());
    }
}
