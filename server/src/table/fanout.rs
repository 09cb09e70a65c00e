//! Sending: per-viewer events and snapshots, serialised once per kind of viewer (the views'
//! shared fields once for all: [`SharedView`]), written into each connection's
//! [`Line`](crate::line::Line) (a full one marks a slow reader).

use std::borrow::Cow;

use super::*;

impl<G: TableGame> Table<G> {
    // --- sending --------------------------------------------------------------------------------

    /// Sends a frame: written now if the socket takes it, else queued for the connection's
    /// writer. A full queue marks a slow reader, which is closed (it resumes from its last seq
    /// when it reconnects).
    pub(super) fn send(&mut self, outlet: &Outlet, text: String) {
        if outlet.line.send(text).is_err() {
            self.slow_reader(outlet);
        }
    }

    /// [`Table::send`], but written only with the next frame sent to the same connection (an
    /// action's `ack` goes out with its `events`, in one system call).
    pub(super) fn hold(&mut self, outlet: &Outlet, text: String) {
        if outlet.line.hold(text).is_err() {
            self.slow_reader(outlet);
        }
    }

    fn slow_reader(&mut self, outlet: &Outlet) {
        outlet.close_with(close::SLOW_READER, "outbound queue full");
        self.part(&[outlet.id]);
    }

    /// Connections leave the table: closed by their session, or cut off here as slow readers.
    /// A seat's visit ends (a competition logs it), and the other viewers and the lobby hear
    /// once who is still there; ids no longer subscribed are passed over.
    pub(super) fn part(&mut self, conns: &[u64]) {
        let mut any = false;
        for &conn in conns {
            if let Some(i) = self.subscribers.iter().position(|s| s.outlet.id == conn) {
                let gone = self.subscribers.remove(i);
                self.left_seat(&gone);
                any = true;
            }
        }
        if any {
            // Tells the others, who may be slow readers too: each round parts one more at
            // least, so this ends.
            self.after_presence_change();
        }
    }

    pub(super) fn broadcast_same(&mut self, text: &str) {
        let mut slow = Vec::new();
        for s in &self.subscribers {
            if s.outlet.line.send(text.to_string()).is_err() {
                s.outlet
                    .close_with(close::SLOW_READER, "outbound queue full");
                slow.push(s.outlet.id);
            }
        }
        self.part(&slow);
    }

    /// Sends entry `seq` (the newest) to every subscriber, serialised once per kind of viewer:
    /// the frame around the events once for each way they are redacted (for most entries, once
    /// for all), the views' shared fields once for all; `seat_views` are the seats' views now,
    /// already built for the computer players.
    pub(super) fn broadcast_entry(&mut self, seq: u64, seat_views: &[G::View]) {
        // A handful of kinds of viewer: a list beats a map, and each text is moved to its last
        // subscriber rather than copied (at most tables each seat's text has one).
        let mut texts: Vec<(Who, String)> = Vec::new();
        let mut heads: Vec<Head<G::Event>> = Vec::new();
        let mut shared = SharedView::new(G::is_shared_view_field);
        let mut slow = Vec::new();
        let mut room = self.view_room;
        for (i, s) in self.subscribers.iter().enumerate() {
            let at = match texts.iter().position(|(who, _)| *who == s.who) {
                Some(at) => at,
                None => {
                    let kind = self.head_for(&mut heads, seq, s.who);
                    let head = &heads[kind].1;
                    let mut out = Vec::with_capacity(head.len() + room);
                    out.extend_from_slice(head);
                    let text = match s.who {
                        Who::Seat(seat) if seat < seat_views.len() => {
                            framed_with_view(out, &seat_views[seat], &mut shared)
                        }
                        _ => framed_with_view(out, &self.engine.view(s.who.viewer()), &mut shared),
                    };
                    room = room.max(text.len() - head.len());
                    texts.push((s.who, text));
                    texts.len() - 1
                }
            };
            let text = if self.subscribers[i + 1..].iter().any(|t| t.who == s.who) {
                texts[at].1.clone()
            } else {
                std::mem::take(&mut texts[at].1)
            };
            if s.outlet.line.send(text).is_err() {
                s.outlet
                    .close_with(close::SLOW_READER, "outbound queue full");
                slow.push(s.outlet.id);
            }
        }
        self.view_room = room;
        self.part(&slow);
    }

    /// Where in `heads` the events frame of entry `seq` is for `who`, written and added if no
    /// viewer before saw the events as they do. Most viewers see them alike: they are compared
    /// as they are redacted, and collected only for a viewer who sees them as no one before.
    fn head_for<'a>(&'a self, heads: &mut Vec<Head<'a, G::Event>>, seq: u64, who: Who) -> usize {
        let seen_alike = |(seen, _): &Head<G::Event>| {
            let seen = seen.iter().map(|e| Cow::Borrowed(&**e));
            seen.eq(self.redacted(seq, who))
        };
        if let Some(i) = heads.iter().position(seen_alike) {
            return i;
        }
        let events: Vec<_> = self.redacted(seq, who).collect();
        let head = self.events_head(seq, &events);
        heads.push((events, head));
        heads.len() - 1
    }

    pub(super) fn snapshot_all(&mut self) {
        let mut texts: HashMap<Who, String> = HashMap::new();
        let mut shared = SharedView::new(G::is_shared_view_field);
        let outlets: Vec<(Who, Outlet)> = self
            .subscribers
            .iter()
            .map(|s| (s.who, s.outlet.clone()))
            .collect();
        for (who, outlet) in outlets {
            let text = texts
                .entry(who)
                .or_insert_with(|| self.snapshot_text_with(who, &mut shared))
                .clone();
            self.send(&outlet, text);
        }
    }

    pub(super) fn wire_clock(&self) -> Option<protocol::Clock> {
        self.clock
            .map(|c| c.wire(self.engine.to_act(), Instant::now()))
    }

    /// Entry `seq` as one frame for `who`, with their view of the table now if `with_view`
    /// (a catch-up sends the view with the newest entry only).
    pub(super) fn events_text(&self, seq: u64, who: Who, with_view: bool) -> String {
        let head = self.events_head(seq, &self.redacted(seq, who).collect::<Vec<_>>());
        if !with_view {
            return String::from_utf8(head).expect("JSON is UTF-8");
        }
        let mut shared = SharedView::new(G::is_shared_view_field);
        framed_with_view(head, &self.engine.view(who.viewer()), &mut shared)
    }

    /// Entry `seq` of the log, from the entries kept in memory (the newest [`HISTORY`]).
    fn kept_entry(&self, seq: u64) -> &Entry<G::Event> {
        let kept_from = self.seq - self.history.len() as u64;
        &self.history[(seq - kept_from - 1) as usize]
    }

    /// Entry `seq`'s events as `who` may see them (borrowed where they see them whole).
    fn redacted(&self, seq: u64, who: Who) -> impl Iterator<Item = Cow<'_, G::Event>> {
        self.kept_entry(seq)
            .events
            .iter()
            .filter_map(move |e| self.engine.redact(e, who.viewer()))
    }

    /// The events frame of entry `seq` carrying `events`, without a view: alike for every
    /// viewer who sees the events alike.
    fn events_head(&self, seq: u64, events: &[Cow<G::Event>]) -> Vec<u8> {
        let entry = self.kept_entry(seq);
        let to_act = self.engine.to_act();
        let frame = EventsFrame {
            kind: "events",
            seq,
            seat: entry.seat,
            by: entry.actor,
            reason: entry.reason.as_deref(),
            events,
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        let mut out = Vec::with_capacity(2048);
        serde_json::to_writer(&mut out, &frame).expect("frames serialise");
        out
    }

    pub(super) fn snapshot_text(&self, who: Who) -> String {
        self.snapshot_text_with(who, &mut SharedView::new(G::is_shared_view_field))
    }

    fn snapshot_text_with(&self, who: Who, shared: &mut SharedView) -> String {
        let to_act = self.engine.to_act();
        let frame = SnapshotFrame {
            kind: "snapshot",
            seq: self.seq,
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        let out = serde_json::to_vec(&frame).expect("frames serialise");
        framed_with_view(out, &self.engine.view(who.viewer()), shared)
    }
}

/// An entry's events as one kind of viewer sees them, and the events frame written from them
/// (without a view): one for each way the events are redacted.
type Head<'a, E> = (Vec<Cow<'a, E>>, Vec<u8>);

/// The frame written in `frame` with `view` added as its last field, its shared fields copied
/// from what `shared` wrote for the moment's views.
fn framed_with_view<V: serde::Serialize>(
    mut frame: Vec<u8>,
    view: &V,
    shared: &mut SharedView,
) -> String {
    // The frame's object opened again for one more field, and closed after it.
    let closing = frame.pop();
    debug_assert_eq!(closing, Some(b'}'), "a frame is an object");
    frame.extend_from_slice(b",\"view\":");
    shared.write(view, &mut frame);
    frame.push(b'}');
    // Checking the text again cost 6,800 of the 190,000 instructions an 够级 action cost the
    // server (six frames of nearly two kilobytes; docs/performance.md, "Nineteenth round").
    // Debug builds, and so every test, still check each frame.
    debug_assert!(std::str::from_utf8(&frame).is_ok(), "a frame is UTF-8");
    // SAFETY: every byte is `serde_json`'s output (UTF-8 only, like `serde_json::to_string`,
    // which skips the check too), ASCII written here, or ASCII field names and whole values
    // `serde_json` wrote, copied by `SharedView`.
    unsafe { String::from_utf8_unchecked(frame) }
}

/// [`ClientOut::Events`] written straight from the engine's types: no JSON tree in between
/// (the tree cost more than the engine on the hot path). Same fields; the view, if any, is
/// added last by [`framed_with_view`]. The end-to-end tests read every frame back as a `ClientOut`.
#[derive(serde::Serialize)]
pub(super) struct EventsFrame<'a, Ev> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    seat: usize,
    by: Actor,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    events: &'a [Ev],
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}

/// [`ClientOut::Snapshot`], written the same way (its view added by [`framed_with_view`]).
#[derive(serde::Serialize)]
pub(super) struct SnapshotFrame<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}
