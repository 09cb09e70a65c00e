// @ts-check
//! The connection to a table: one WebSocket that comes back by itself.
//!
//! - When the socket drops, it reconnects with backoff (0.5 s doubling to 8 s, with jitter), and
//!   at once when the browser says it is online again or the tab comes back to the front.
//! - Each (re)connection starts with `hello(lastSeq)`: the table answers with the events missed
//!   since `lastSeq`, or a snapshot.
//! - Actions carry an id and the table's seq they were decided on. Until the server answers an id
//!   (acknowledged, answered or refused) it is kept. After a reconnection it is *not* sent again
//!   blindly: the table page first sees what the catch-up says (`resend` if the table has not
//!   moved, `answered` to drop it if it has; see table.js). The server answers a repeated id from
//!   its cache and never applies it twice, and refuses an act decided on an older seq (`stale`).
//! - Close codes the server marks as final (bad token, no table, protocol errors) stop the
//!   retries; every other close (including 4503, a table being rebuilt) comes back with backoff.
//! - A competition's seat is one device's: 4010 (the seat was opened on another device) and 4009
//!   (another device holds it) are final too, or two devices would take the seat in turns. Only
//!   the player's tap brings it back (`resume`).
//! - Past one machine, 4307 says another node serves the table (the reason is its address): the
//!   next connection goes there at once; if that node cannot be reached, back to the first URL.

/** @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} Status */
/** An `act` frame (its `seq`: the table's seq the player decided on). @typedef {Extract<import('./protocol').ClientIn, { type: 'act' }>} ActFrame */

/**
 * @typedef {object} ConnectionOptions
 * @property {string} url  WebSocket URL
 * @property {(lastSeq: number | null) => object} hello  the first frame of every connection
 * @property {(msg: any) => void} onMessage  every frame, parsed
 * @property {(status: Status, detail?: { code: number, reason: string }) => void} onStatus
 * @property {(code: number) => boolean} [isFinal]  close codes after which not to retry
 */

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
/** A line quiet this long is pinged (the server answers `pong`)... */
const PING_EVERY_MS = 3_000;
/** ...and a ping unanswered this long means the line is dead (a Wi-Fi that dropped without a
 * close): the page says so and reconnects, within about 8 s of the drop. Measured from the ping,
 * not from the silence, so a background tab whose timers the browser slows down is not taken for
 * dead: it is only pinged later. */
const ANSWER_WITHIN_MS = 5_000;
/** How often the line is looked at. */
const CHECK_EVERY_MS = 1_000;

export class Connection {
  /** @param {ConnectionOptions} opts */
  constructor(opts) {
    /** What to connect to and whom to tell. */
    this.opts = opts;
    /** The live socket, if any. @type {WebSocket | null} */
    this.ws = null;
    /** The last event sequence number applied; sent on reconnection. @type {number | null} */
    this.lastSeq = null;
    /** Actions sent but not yet answered, by id, in sending order. @type {Map<number, ActFrame>} */
    this.pending = new Map();
    /** The code of the last close (0 before any): tells a table being rebuilt (4503) from a drop. */
    this.lastCloseCode = 0;
    /** Failed attempts since the last good connection: picks the backoff delay. */
    this.attempts = 0;
    /** Set by close(): no more reconnecting. */
    this.stopped = false;
    /** Has any connection opened yet? ("connecting" the first time, "reconnecting" after.) */
    this.everOpen = false;
    /** Past one machine: the URL at the node a 4307 named, tried instead of `opts.url`. @type {string | null} */
    this.elsewhere = null;
    /** 4307s followed since a frame last arrived: a few at once, then with backoff. */
    this.hops = 0;
    /** The pending reconnection timer. @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** The current status, for whoever asks. @type {Status} */
    this.status = 'connecting';
    /**
     * The next action id. Ids must be unique per seat, across reloads too (the server answers a
     * known id from its cache): starting from the time in microseconds keeps them growing without
     * having to store a counter. Stays below 2^53 until the year 2255.
     */
    this.nextActionId = Date.now() * 1000;
    /** When the last frame arrived (for the watchdog). */
    this.lastHeard = Date.now();
    /** When the unanswered ping went out (0: none is out). */
    this.pingSentAt = 0;
    /** Pings a quiet line and drops it if nothing comes back. */
    this.watchdog = setInterval(() => this.checkLine(), CHECK_EVERY_MS);

    this.wake = () => {
      if (!this.stopped && (!this.ws || this.ws.readyState > WebSocket.OPEN)) this.reconnectNow();
    };
    this.onVisible = () => {
      if (document.visibilityState === 'visible') this.wake();
    };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.onVisible);
    this.open();
  }

  /** @param {Status} s @param {{ code: number, reason: string }} [detail] */
  setStatus(s, detail) {
    this.status = s;
    this.opts.onStatus(s, detail);
  }

  open() {
    if (this.stopped) return;
    this.timer = null;
    this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(this.elsewhere ?? this.opts.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      this.pingSentAt = 0;
      // Unanswered actions wait: the page decides after the catch-up whether they still apply.
      this.send(this.opts.hello(this.lastSeq));
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      this.hops = 0;
      if (this.status !== 'open') {
        this.attempts = 0;
        this.everOpen = true;
        this.setStatus('open');
      }
      this.opts.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.lastCloseCode = e.code;
      if (this.stopped) return;
      if (e.code === 4307 && e.reason) {
        // Another node serves the table: go there (at once, unless we keep being sent around).
        this.elsewhere = elsewhereUrl(this.opts.url, e.reason);
        this.hops += 1;
        if (this.hops <= 3) this.open();
        else this.retry();
        return;
      }
      // Any other close: ask the first URL again (a node we were sent to may have died or given
      // the table up; the first URL sends us on to whoever serves it now).
      this.elsewhere = null;
      if (this.opts.isFinal?.(e.code)) {
        this.stopped = true;
        this.setStatus('closed', { code: e.code, reason: e.reason });
        return;
      }
      this.retry();
    };
    // An error is always followed by a close; the close decides.
    ws.onerror = () => {};
  }

  retry() {
    if (this.stopped || this.timer) return;
    const base = BACKOFF_MS[Math.min(this.attempts, BACKOFF_MS.length - 1)];
    this.attempts += 1;
    this.setStatus(this.everOpen ? 'reconnecting' : 'connecting');
    this.timer = setTimeout(() => this.open(), base * (0.75 + Math.random() * 0.5));
  }

  reconnectNow() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.open();
  }

  /**
   * Connects again after a final close, because the player asked to (「在这台设备上继续」 after
   * 4010, 「重试」 after 4009): from the last seq, with a fresh backoff.
   */
  resume() {
    if (!this.stopped || this.ws) return;
    this.stopped = false;
    this.attempts = 0;
    this.reconnectNow();
  }

  /** A fresh action id. */
  nextId() {
    this.nextActionId += 1;
    return this.nextActionId;
  }

  /** Keeps a quiet line alive and notices a dead one: browsers cannot see a half-open socket. */
  checkLine() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pingSentAt && this.lastHeard < this.pingSentAt) {
      // A ping is out and nothing came since.
      if (now - this.pingSentAt < ANSWER_WITHIN_MS) return;
      const ws = this.ws;
      this.ws = null;
      this.pingSentAt = 0;
      this.lastCloseCode = 4999;
      ws.close(4999, 'no answer'); // 4999: ours, never sent by the server
      this.retry();
    } else if (now - this.lastHeard >= PING_EVERY_MS) {
      this.pingSentAt = now;
      this.send({ type: 'ping' });
    }
  }

  /** Sends a frame if the socket is open. @param {object} frame */
  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(frame));
      return true;
    }
    return false;
  }

  /**
   * Sends an action that must arrive exactly once: kept until `answered(id)`.
   * @param {number} id
   * @param {ActFrame} frame
   */
  sendAction(id, frame) {
    this.pending.set(id, frame);
    this.send(frame);
  }

  /** Sends the unanswered actions again, with their ids (after a reconnection, when nothing moved). */
  resend() {
    for (const frame of this.pending.values()) this.send(frame);
  }

  /** The server answered this action id (acknowledged, answered or refused), or the page gave it up. @param {number} id */
  answered(id) {
    this.pending.delete(id);
  }

  /** Records the sequence number of an applied event. @param {number} seq */
  seen(seq) {
    if (this.lastSeq === null || seq > this.lastSeq) this.lastSeq = seq;
  }

  /** Closes for good (leaving the table). */
  close() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.watchdog);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.ws?.close(1000);
    this.ws = null;
    this.setStatus('closed');
  }
}

/**
 * The table's WebSocket URL at the node a 4307 named (its advertised base URL, e.g.
 * `https://paiju.example.org/n2`): same `/ws/{table}` path, under that base.
 * @param {string} url @param {string} base
 */
export function elsewhereUrl(url, base) {
  const from = new URL(url);
  const to = new URL(base);
  const path = from.pathname.slice(Math.max(0, from.pathname.lastIndexOf('/ws/')));
  const scheme = to.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${to.host}${to.pathname.replace(/\/$/, '')}${path}${from.search}`;
}
