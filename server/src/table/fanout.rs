//! Sending: per-viewer events and snapshots, serialised once per kind of viewer, written into
//! each connection's [`Line`](crate::line::Line) (a full one marks a slow reader).

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

    /// Sends entry `seq` (the newest) to every subscriber, redacted and serialised once per
    /// kind of viewer; `seat_views` are the seats' views now, already built for the computer
    /// players.
    pub(super) fn broadcast_entry(&mut self, seq: u64, seat_views: &[G::View]) {
        let mut texts: HashMap<Who, String> = HashMap::new();
        let mut slow = Vec::new();
        for s in &self.subscribers {
            let text = texts.entry(s.who).or_insert_with(|| match s.who {
                Who::Seat(seat) if seat < seat_views.len() => {
                    self.events_text_with(seq, s.who, Some(&seat_views[seat]))
                }
                _ => self.events_text(seq, s.who, true),
            });
            if s.outlet.line.send(text.clone()).is_err() {
                s.outlet
                    .close_with(close::SLOW_READER, "outbound queue full");
                slow.push(s.outlet.id);
            }
        }
        self.part(&slow);
    }

    pub(super) fn snapshot_all(&mut self) {
        let mut texts: HashMap<Who, String> = HashMap::new();
        let outlets: Vec<(Who, Outlet)> = self
            .subscribers
            .iter()
            .map(|s| (s.who, s.outlet.clone()))
            .collect();
        for (who, outlet) in outlets {
            let text = texts
                .entry(who)
                .or_insert_with(|| self.snapshot_text(who))
                .clone();
            self.send(&outlet, text);
        }
    }

    pub(super) fn wire_clock(&self) -> Option<protocol::Clock> {
        self.clock
            .map(|c| c.wire(self.engine.to_act(), Instant::now()))
    }

    pub(super) fn events_text(&self, seq: u64, who: Who, with_view: bool) -> String {
        let view = with_view.then(|| self.engine.view(who.viewer()));
        self.events_text_with(seq, who, view.as_ref())
    }

    /// [`Table::events_text`] with the viewer's view (if any) already built.
    pub(super) fn events_text_with(&self, seq: u64, who: Who, view: Option<&G::View>) -> String {
        let kept_from = self.seq - self.history.len() as u64;
        let entry = &self.history[(seq - kept_from - 1) as usize];
        let viewer = who.viewer();
        let to_act = self.engine.to_act();
        let frame = EventsFrame {
            kind: "events",
            seq,
            seat: entry.seat,
            by: entry.actor,
            reason: entry.reason.as_deref(),
            events: entry
                .events
                .iter()
                .filter_map(|e| self.engine.redact(e, viewer))
                .collect(),
            view,
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        serde_json::to_string(&frame).expect("views serialise")
    }

    pub(super) fn snapshot_text(&self, who: Who) -> String {
        let to_act = self.engine.to_act();
        let frame = SnapshotFrame {
            kind: "snapshot",
            seq: self.seq,
            view: self.engine.view(who.viewer()),
            to_act: &to_act,
            clock: self.wire_clock(),
            state: self.state,
        };
        serde_json::to_string(&frame).expect("views serialise")
    }
}

/// [`ClientOut::Events`] written straight from the engine's types: no JSON tree in between
/// (the tree cost more than the engine on the hot path). Same fields, same order; the
/// end-to-end tests read every frame back as a `ClientOut`.
#[derive(serde::Serialize)]
pub(super) struct EventsFrame<'a, Ev, V> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    seat: usize,
    by: Actor,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    events: Vec<Ev>,
    #[serde(skip_serializing_if = "Option::is_none")]
    view: Option<V>,
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}

/// [`ClientOut::Snapshot`], written the same way.
#[derive(serde::Serialize)]
pub(super) struct SnapshotFrame<'a, V> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    view: V,
    to_act: &'a [usize],
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<protocol::Clock>,
    state: TableState,
}
