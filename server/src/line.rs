//! The way out of one connection: the frames for its socket, written by whoever sends them.
//!
//! A table that sends a frame writes it into the socket there and then, on its own thread, when
//! the socket takes it: at a human pace almost always. Only what the socket cannot take now (a
//! reader slower than the table, a socket whose other half is busy reading) waits in the line's
//! queue for the connection's writer task, which is woken for it and writes it when the socket
//! is ready. Before, every frame went through the writer task: an action woke the writer of
//! each of the table's sockets, and with them a second runtime thread to share the work, which
//! cost more than the writes (docs/performance.md, "The CPU an action against its floors").
//!
//! The queue is bounded: a connection with `cap` frames waiting is a slow reader, and a send
//! to it is refused ([`Refused`]); the table closes it (4008). Frames leave in the order they
//! were sent, whoever writes them: every write happens under the line's lock.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use axum::extract::ws::Message;
use futures_util::Sink;

/// The socket's sending half, as the line writes to it.
pub type SocketSink = Pin<Box<dyn Sink<Message, Error = axum::Error> + Send>>;

/// A frame the line did not take: `cap` frames wait already (a slow reader), or the connection
/// is closing or its socket failed.
#[derive(Debug, PartialEq, Eq)]
pub struct Refused;

pub struct Line {
    state: Mutex<Outbound>,
    /// Frames that may wait before the connection counts as a slow reader.
    cap: usize,
}

struct Outbound {
    /// `None` once the connection closes (its writer took the sink for the last frames and the
    /// close frame) or the socket failed.
    sink: Option<SocketSink>,
    /// Frames the socket has not taken yet, oldest first.
    queue: VecDeque<Message>,
    /// Frames handed to the socket's buffer since its last flush.
    unflushed: bool,
    /// The writer task, woken for what a sender could not finish.
    writer: Option<Waker>,
}

impl Line {
    pub fn new(sink: SocketSink, cap: usize) -> Line {
        Line {
            state: Mutex::new(Outbound {
                sink: Some(sink),
                queue: VecDeque::new(),
                unflushed: false,
                writer: None,
            }),
            cap,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Outbound> {
        // A panic while writing leaves nothing half-done that matters here: the frames are
        // either in the queue or handed to the socket.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends a text frame: written now if the socket takes it, else queued for the writer.
    pub fn send(&self, text: String) -> Result<(), Refused> {
        self.push(Message::Text(text.into()), true)
    }

    /// Queues a text frame without writing it: the next [`Line::send`] writes both in one
    /// system call (an action's `ack` waits for its `events`).
    pub fn hold(&self, text: String) -> Result<(), Refused> {
        self.push(Message::Text(text.into()), false)
    }

    /// Sends a ping (the connection's upkeep); refused like a frame.
    pub fn ping(&self) -> Result<(), Refused> {
        self.push(Message::Ping(Default::default()), true)
    }

    /// Writes what is held, if anything (see [`Line::hold`]).
    pub fn flush(&self) {
        let mut st = self.lock();
        if !st.queue.is_empty() || st.unflushed {
            write_now(&mut st);
        }
    }

    /// How many frames may still be sent before the line refuses them.
    pub fn room(&self) -> usize {
        self.cap.saturating_sub(self.lock().queue.len())
    }

    fn push(&self, frame: Message, write: bool) -> Result<(), Refused> {
        let mut st = self.lock();
        if st.sink.is_none() || st.queue.len() >= self.cap {
            return Err(Refused);
        }
        st.queue.push_back(frame);
        if write {
            write_now(&mut st);
        }
        Ok(())
    }

    /// The writer task's turn: writes what is queued with the task's own waker, so that the
    /// socket wakes it when it can take more. `Ready(())` when the socket failed (the line
    /// refuses everything after); otherwise `Pending`, woken when there is more to write.
    pub fn poll_write(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut st = self.lock();
        match &st.writer {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => st.writer = Some(cx.waker().clone()),
        }
        match drain(&mut st, cx) {
            Poll::Ready(Err(())) => Poll::Ready(()),
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Pending,
        }
    }

    /// The connection is closing: the sink and whatever it has not taken yet, for the last
    /// frames and the close frame. Every send after this is refused.
    pub fn take(&self) -> Option<(SocketSink, VecDeque<Message>)> {
        let mut st = self.lock();
        let sink = st.sink.take()?;
        Some((sink, std::mem::take(&mut st.queue)))
    }
}

/// Writes on the sender's thread, without a waker of its own to leave with the socket: what
/// the socket does not take now is handed to the writer task, woken for it.
fn write_now(st: &mut Outbound) {
    let mut cx = Context::from_waker(Waker::noop());
    match drain(st, &mut cx) {
        Poll::Ready(Ok(())) => {}
        // Not written yet, or the socket failed: the writer takes it from here (it writes, or
        // ends on the failure).
        Poll::Ready(Err(())) | Poll::Pending => {
            if let Some(w) = &st.writer {
                w.wake_by_ref();
            }
        }
    }
}

/// Hands the queued frames to the socket and flushes them. `Ready(Ok)` when all are written,
/// `Pending` when the socket (or its other half, reading) cannot take more now, `Ready(Err)`
/// when it failed: the sink is dropped then, and the line refuses what comes after.
fn drain(st: &mut Outbound, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
    let Some(sink) = st.sink.as_mut() else {
        return Poll::Ready(Err(()));
    };
    let result = loop {
        if st.queue.is_empty() {
            if !st.unflushed {
                break Ok(());
            }
            match sink.as_mut().poll_flush(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(())) => {
                    st.unflushed = false;
                    break Ok(());
                }
                Poll::Ready(Err(_)) => break Err(()),
            }
        }
        match sink.as_mut().poll_ready(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(_)) => break Err(()),
            Poll::Ready(Ok(())) => {}
        }
        let frame = st.queue.pop_front().expect("not empty");
        if sink.as_mut().start_send(frame).is_err() {
            break Err(());
        }
        st.unflushed = true;
    };
    if result.is_err() {
        st.sink = None;
        st.queue.clear();
    }
    Poll::Ready(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A socket that takes frames while `open`, and otherwise says it is full.
    #[derive(Clone, Default)]
    struct FakeSocket {
        written: Arc<Mutex<Vec<String>>>,
        buffered: Arc<Mutex<Vec<String>>>,
        full: Arc<AtomicBool>,
        broken: Arc<AtomicBool>,
        flushes: Arc<AtomicUsize>,
    }

    impl Sink<Message> for FakeSocket {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
            if self.broken.load(Ordering::SeqCst) {
                return Poll::Ready(Err(axum::Error::new("broken")));
            }
            if self.full.load(Ordering::SeqCst) {
                return Poll::Pending;
            }
            Poll::Ready(Ok(()))
        }
        fn start_send(self: Pin<&mut Self>, m: Message) -> Result<(), axum::Error> {
            let text = match m {
                Message::Text(t) => t.to_string(),
                Message::Ping(_) => "(ping)".into(),
                _ => "(other)".into(),
            };
            self.buffered.lock().unwrap().push(text);
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
            if self.full.load(Ordering::SeqCst) {
                return Poll::Pending;
            }
            self.flushes.fetch_add(1, Ordering::SeqCst);
            let mut b = self.buffered.lock().unwrap();
            self.written.lock().unwrap().append(&mut b);
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn line(cap: usize) -> (Line, FakeSocket) {
        let socket = FakeSocket::default();
        (Line::new(Box::pin(socket.clone()), cap), socket)
    }

    fn written(s: &FakeSocket) -> Vec<String> {
        s.written.lock().unwrap().clone()
    }

    /// A waker that counts its wakes: the writer task, as the line sees it.
    struct Counting(AtomicUsize);
    impl std::task::Wake for Counting {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn writer() -> (Arc<Counting>, Waker) {
        let c = Arc::new(Counting(AtomicUsize::new(0)));
        (c.clone(), Waker::from(c))
    }

    #[test]
    fn a_frame_the_socket_takes_is_written_by_its_sender_without_waking_the_writer() {
        let (line, socket) = line(4);
        let (woken, waker) = writer();
        assert!(line
            .poll_write(&mut Context::from_waker(&waker))
            .is_pending());
        line.send("a".into()).unwrap();
        line.send("b".into()).unwrap();
        assert_eq!(written(&socket), ["a", "b"]);
        assert_eq!(woken.0.load(Ordering::SeqCst), 0);
        assert_eq!(line.room(), 4);
    }

    #[test]
    fn a_held_frame_leaves_with_the_next_send_in_one_flush() {
        let (line, socket) = line(4);
        line.hold("ack".into()).unwrap();
        assert!(written(&socket).is_empty());
        line.send("events".into()).unwrap();
        assert_eq!(written(&socket), ["ack", "events"]);
        assert_eq!(socket.flushes.load(Ordering::SeqCst), 1);
        line.hold("alone".into()).unwrap();
        line.flush();
        assert_eq!(written(&socket), ["ack", "events", "alone"]);
    }

    #[test]
    fn what_a_full_socket_cannot_take_waits_in_order_for_the_writer_and_a_slow_reader_is_refused() {
        let (line, socket) = line(3);
        let (woken, waker) = writer();
        let mut cx = Context::from_waker(&waker);
        assert!(line.poll_write(&mut cx).is_pending());
        line.send("1".into()).unwrap();
        socket.full.store(true, Ordering::SeqCst);
        line.send("2".into()).unwrap();
        line.ping().unwrap();
        line.send("3".into()).unwrap();
        // Each send the socket could not take woke the writer.
        assert_eq!(woken.0.load(Ordering::SeqCst), 3);
        assert_eq!(line.room(), 0);
        assert_eq!(line.send("4".into()), Err(Refused));
        assert_eq!(written(&socket), ["1"]);
        // The socket drains: the writer's turn writes the rest, in order.
        socket.full.store(false, Ordering::SeqCst);
        assert!(line.poll_write(&mut cx).is_pending());
        assert_eq!(written(&socket), ["1", "2", "(ping)", "3"]);
        assert_eq!(line.room(), 3);
    }

    #[test]
    fn a_failed_socket_ends_the_writer_and_refuses_what_comes_after() {
        let (line, socket) = line(3);
        let (_, waker) = writer();
        let mut cx = Context::from_waker(&waker);
        socket.broken.store(true, Ordering::SeqCst);
        line.send("lost".into()).unwrap();
        assert_eq!(line.send("after".into()), Err(Refused));
        assert!(line.poll_write(&mut cx).is_ready());
        assert!(line.take().is_none());
    }

    #[test]
    fn closing_takes_the_sink_with_what_waits_and_refuses_later_sends() {
        let (line, socket) = line(3);
        socket.full.store(true, Ordering::SeqCst);
        line.send("queued".into()).unwrap();
        let (_sink, queue) = line.take().expect("the sink");
        assert_eq!(queue.len(), 1);
        assert_eq!(line.send("late".into()), Err(Refused));
        assert_eq!(line.room(), 3);
    }
}
