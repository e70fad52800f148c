// Length-prefixed frames (a varint length, then the bytes) read off a libp2p stream with flow
// control. libp2p's muxer grants a peer window as data arrives, not as it is read, and lpStream
// keeps whatever arrives: a peer faster than its reader grows that buffer until the stream is
// reset. Here the stream is paused whenever more than `highWater` bytes wait unread (the muxer
// then grants no more window and the peer's writes wait) and resumed once the reader has taken
// them. Shared by the page and the Node relay, so plain JS.

/** A frame whose length is above the cap (its stream cannot be framed any more). */
export class FrameTooLong extends Error {}

/** Bytes that cannot be a frame's length (more than the cap's varint takes). */
export class BadFrameLength extends Error {}

/** Bytes a varint of `n` takes. */
const varintBytes = (n) => Math.max(1, Math.ceil(Math.log2(n + 1) / 7));

export class FrameReader {
  /** @param {any} stream a libp2p stream; @param {{maxFrameBytes: number, highWater?: number}} options */
  constructor(stream, { maxFrameBytes, highWater = 1 << 20 }) {
    this.stream = stream;
    this.maxFrameBytes = maxFrameBytes;
    this.maxLengthBytes = varintBytes(maxFrameBytes);
    this.highWater = highWater;
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
    stream.addEventListener('message', (event) => this.onData(event.data));
    stream.addEventListener('remoteCloseWrite', () => this.onEnd(null));
    stream.addEventListener('close', (event) => this.onEnd(event.error ?? null));
  }

  get buffered() {
    return this.end - this.start;
  }

  onData(data) {
    const bytes = data instanceof Uint8Array ? data : data.subarray();
    if (this.end + bytes.length > this.buf.length) {
      // Compact, and grow to fit (at most a full frame plus the high-water mark).
      const size = Math.max(this.buf.length, 2 ** Math.ceil(Math.log2(this.buffered + bytes.length)));
      const next = new Uint8Array(size);
      next.set(this.buf.subarray(this.start, this.end));
      this.buf = next;
      this.end -= this.start;
      this.start = 0;
    }
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

  /** Waits until at least `n` bytes are unread; false if the stream ended first. */
  async need(n) {
    while (this.buffered < n) {
      if (this.ended) {
        if (this.error) throw this.error;
        return false;
      }
      // The frame needs more than is here: let the peer send it.
      this.hold(false);
      await new Promise((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    return true;
  }

  /** The next frame, or null once the stream ended cleanly between frames. */
  async read() {
    let length = 0;
    let read = 0;
    for (;;) {
      if (!(await this.need(read + 1))) {
        if (read === 0) return null;
        throw new BadFrameLength('the stream ended inside a frame length');
      }
      const byte = this.buf[this.start + read];
      length += (byte & 0x7f) * 2 ** (7 * read);
      read += 1;
      if (byte < 0x80) break;
      if (read >= this.maxLengthBytes) throw new BadFrameLength(`a frame length of more than ${this.maxLengthBytes} bytes`);
    }
    if (length > this.maxFrameBytes) throw new FrameTooLong(`a frame of ${length} bytes, above ${this.maxFrameBytes}`);
    if (!(await this.need(read + length))) throw new BadFrameLength(`the stream ended inside a frame of ${length} bytes`);
    const frame = this.buf.slice(this.start + read, this.start + read + length);
    this.start += read + length;
    if (this.buffered <= this.highWater / 2) this.hold(false);
    return frame;
  }
}
