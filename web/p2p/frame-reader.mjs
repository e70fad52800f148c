// Length-prefixed frames (a varint length, then the bytes) read off a libp2p stream with flow
// control. libp2p's muxer grants a peer window as data arrives, not as it is read, and lpStream
// keeps whatever arrives: a peer faster than its reader grows that buffer until the stream is
// reset. Here the stream is paused whenever more than it may hold waits unread (the muxer then
// grants no more window and the peer's writes wait) and resumed once the reader has taken it.
//
// What a stream may hold: `highWater` bytes, or with a `budget` (shared by a node's readers)
// only a small allowance, and a longer frame once the budget has set its bytes aside. A peer
// that starts long frames and never finishes them (each held until it does) so holds at most
// the budget in all, and a frame not in full within `frameMs` of its bytes being let in ends the
// stream. Shared by the page and the Node relay, so plain JS.

/** A frame whose length is above the cap (its stream cannot be framed any more). */
export class FrameTooLong extends Error {}

/** Bytes that cannot be a frame's length (more than the cap's varint takes). */
export class BadFrameLength extends Error {}

/** The stream ended inside a frame (or its length): the peer went, or cut it short. */
export class FrameCutShort extends Error {}

/** A frame's bytes were let in and did not all come within `frameMs`. */
export class FrameTooSlow extends Error {}

/** Bytes a varint of `n` takes. */
const varintBytes = (n) => Math.max(1, Math.ceil(Math.log2(n + 1) / 7));

/** What a reader with a budget may hold without taking from it: short frames, and a little more. */
export const SMALL_FRAME_BYTES = 64 << 10;

/**
 * Bytes that the long frames being read by a node's readers may hold together. A reader asks
 * before it lets a frame's bytes in and gives them back once the frame is read (or its stream
 * ends); readers that ask while it is spent wait, in turn.
 */
export class ReadBudget {
  /** @param {number} limit */
  constructor(limit) {
    this.limit = limit;
    this.used = 0;
    /** @type {{n: number, grant: () => void}[]} */
    this.waiting = [];
  }

  /** Resolves once `n` bytes are set aside (at once if they fit and nobody waits). */
  take(n) {
    if (this.waiting.length === 0 && (this.used + n <= this.limit || this.used === 0)) {
      this.used += n;
      return Promise.resolve();
    }
    return new Promise((grant) => this.waiting.push({ n, grant }));
  }

  give(n) {
    this.used -= n;
    // A frame longer than the whole budget is let in alone.
    while (this.waiting.length > 0 && (this.used + this.waiting[0].n <= this.limit || this.used === 0)) {
      const next = this.waiting.shift();
      this.used += next.n;
      next.grant();
    }
  }
}

export class FrameReader {
  /**
   * @param {any} stream a libp2p stream
   * @param {{maxFrameBytes: number, highWater?: number, budget?: ReadBudget, frameMs?: number}} options
   */
  constructor(stream, { maxFrameBytes, highWater = 1 << 20, budget = null, frameMs = Infinity }) {
    this.stream = stream;
    this.maxFrameBytes = maxFrameBytes;
    this.maxLengthBytes = varintBytes(maxFrameBytes);
    this.budget = budget;
    this.frameMs = frameMs;
    /** Bytes it may hold unread before it pauses the stream. */
    this.base = budget ? SMALL_FRAME_BYTES : highWater;
    this.highWater = this.base;
    /** Unread bytes: buf[start..end). */
    this.buf = new Uint8Array(4096);
    this.start = 0;
    this.end = 0;
    this.ended = false;
    this.error = null;
    /** Wakes a read waiting for bytes. */
    this.wake = null;
    this.paused = false;
    this.resuming = false;
    /** A frame's time ran out (`need`'s `by`). */
    this.late = false;
    stream.addEventListener('message', (event) => this.onData(event.data));
    stream.addEventListener('remoteCloseWrite', () => this.onEnd(null));
    stream.addEventListener('close', (event) => this.onEnd(event.error ?? null));
  }

  get buffered() {
    return this.end - this.start;
  }

  onData(data) {
    const bytes = data instanceof Uint8Array ? data : data.subarray();
    // Compact, and grow to fit (at most a full frame plus what the stream may hold).
    if (this.end + bytes.length > this.buf.length) this.resize(Math.max(this.buf.length, 2 ** Math.ceil(Math.log2(this.buffered + bytes.length))));
    this.buf.set(bytes, this.end);
    this.end += bytes.length;
    if (this.buffered > this.highWater && !this.resuming) this.hold(true);
    this.wake?.();
  }

  onEnd(error) {
    this.ended = true;
    this.error ??= error;
    this.wake?.();
  }

  /** Pauses or resumes the stream (nothing to do once its reading end closed). */
  hold(paused) {
    if (paused === this.paused || this.stream.readStatus === 'closed' || this.stream.readStatus === 'closing') return;
    this.paused = paused;
    if (paused) return this.stream.pause();
    // Resuming hands over what waited in the stream at once: pause again after it, not during
    // (libp2p's resume() grants the peer window after handing the data over, which would undo a
    // pause made in between).
    this.resuming = true;
    this.stream.resume();
    this.resuming = false;
    if (this.buffered > this.highWater) this.hold(true);
  }

  /** Waits until at least `n` bytes are unread; false if the stream ended first, or `by` (ms) passed. */
  async need(n, by = Infinity) {
    let timer = null;
    try {
      while (this.buffered < n) {
        if (this.ended) {
          if (this.error) throw this.error;
          return false;
        }
        if (by !== Infinity && timer === null) timer = setTimeout(() => this.onLate(), by);
        // The frame needs more than is here: let the peer send it. Resuming may hand over what
        // waited in the stream at once (all of it, and nothing come after): look again first.
        this.hold(false);
        if (this.buffered >= n || this.ended) continue;
        await new Promise((resolve) => (this.wake = resolve));
        this.wake = null;
        if (this.late) throw new FrameTooSlow(`a frame of ${n} bytes not in full within ${by} ms`);
      }
      return true;
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }

  onLate() {
    this.late = true;
    this.wake?.();
  }

  /** The next frame, or null once the stream ended cleanly between frames. */
  async read() {
    let length = 0;
    let read = 0;
    for (;;) {
      if (!(await this.need(read + 1))) {
        if (read === 0) return null;
        throw new FrameCutShort('the stream ended inside a frame length');
      }
      const byte = this.buf[this.start + read];
      length += (byte & 0x7f) * 2 ** (7 * read);
      read += 1;
      if (byte < 0x80) break;
      if (read >= this.maxLengthBytes) throw new BadFrameLength(`a frame length of more than ${this.maxLengthBytes} bytes`);
    }
    if (length > this.maxFrameBytes) throw new FrameTooLong(`a frame of ${length} bytes, above ${this.maxFrameBytes}`);
    const whole = read + length;
    // A frame longer than the stream may hold waits for the budget to let its bytes in.
    const held = this.budget && whole > this.base && this.buffered < whole ? whole : 0;
    if (held) {
      await this.budget.take(held);
      this.highWater = held;
      // Room for the frame at once, not doubled up to it through every smaller size.
      if (this.buf.length - this.start < held) this.resize(held);
    }
    try {
      if (!(await this.need(whole, held ? this.frameMs : Infinity))) throw new FrameCutShort(`the stream ended inside a frame of ${length} bytes`);
    } finally {
      if (held) {
        this.budget.give(held);
        this.highWater = this.base;
      }
    }
    const frame = this.buf.slice(this.start + read, this.start + whole);
    this.start += whole;
    // A long frame's buffer is not kept for the stream's life.
    if (this.buf.length > this.base * 2 && this.buffered <= this.base) this.resize(Math.max(4096, 2 ** Math.ceil(Math.log2(this.buffered + 1))));
    if (this.buffered <= this.highWater / 2) this.hold(false);
    return frame;
  }

  /** Moves the unread bytes to the start of a buffer of `size` bytes. */
  resize(size) {
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.start, this.end));
    this.buf = next;
    this.end -= this.start;
    this.start = 0;
  }
}
