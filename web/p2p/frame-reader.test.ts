import { describe, expect, it } from 'vitest';
import { BadFrameLength, FrameCutShort, FrameReader, FrameTooLong, FrameTooSlow, ReadBudget, SMALL_FRAME_BYTES } from './frame-reader.mjs';

/** A stand-in for a libp2p stream: data comes as 'message' events; it records pauses. */
class FakeStream extends EventTarget {
  readStatus = 'readable';
  pauses = 0;
  resumes = 0;
  pause() {
    this.pauses += 1;
  }
  resume() {
    this.resumes += 1;
  }
  send(...chunks: number[][]) {
    for (const c of chunks) this.dispatchEvent(Object.assign(new Event('message'), { data: Uint8Array.from(c) }));
  }
  end() {
    this.dispatchEvent(new Event('remoteCloseWrite'));
  }
}

/**
 * As libp2p's streams do: resume() first hands over what waited (`waiting`), then grants the peer
 * window (`granting`, false from a pause until then).
 */
class Held extends FakeStream {
  waiting: number[][] = [];
  granting = true;
  pause() {
    super.pause();
    this.granting = false;
  }
  resume() {
    super.resume();
    this.send(...this.waiting.splice(0));
    this.granting = true;
  }
}

const frame = (n: number, fill = 7) => [n, ...new Array(n).fill(fill)];

describe('FrameReader', () => {
  it('reads frames split and joined across chunks, then null at the end', async () => {
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20 });
    s.send([3, 1], [2, 3, 2, 9], [9]);
    expect([...(await r.read())!]).toEqual([1, 2, 3]);
    expect([...(await r.read())!]).toEqual([9, 9]);
    // A 300-byte frame: a two-byte length (0xac 0x02), given a byte at a time.
    const later = r.read();
    s.send([0xac], [0x02], new Array(300).fill(5));
    expect((await later)!.length).toBe(300);
    s.end();
    expect(await r.read()).toBeNull();
  });

  it('refuses a frame above the cap and a length that cannot be one', async () => {
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 100 });
    s.send([101]);
    await expect(r.read()).rejects.toBeInstanceOf(FrameTooLong);
    const t = new FakeStream();
    const q = new FrameReader(t, { maxFrameBytes: 100 });
    t.send([0xff, 0xff, 0x01]);
    await expect(q.read()).rejects.toBeInstanceOf(BadFrameLength);
  });

  it('pauses the stream while more than its high-water mark waits unread, and resumes as it is read', async () => {
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20, highWater: 100 });
    for (let i = 0; i < 10; i++) s.send(frame(30));
    expect(s.pauses).toBe(1);
    expect(r.buffered).toBe(310);
    for (let i = 0; i < 8; i++) await r.read();
    expect([s.resumes, r.buffered]).toEqual([0, 62]);
    await r.read();
    expect([s.resumes, r.buffered]).toEqual([1, 31]);
  });

  it('stays paused when resuming hands it more than its high-water mark at once', async () => {
    const s = new Held();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20, highWater: 100 });
    for (let i = 0; i < 4; i++) s.send(frame(30));
    expect(s.granting).toBe(false);
    s.waiting.push(...Array.from({ length: 10 }, () => frame(30)));
    for (let i = 0; i < 3; i++) await r.read();
    // Resumed (31 bytes left), handed 310 more, and paused again after the grant.
    expect([s.resumes, s.granting, r.buffered]).toEqual([1, false, 341]);
  });

  it('ends with a frame cut short when the stream ends inside it, and with FrameTooLong or BadFrameLength for a bad length', async () => {
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 100 });
    s.send([10, 1, 2, 3]);
    s.end();
    await expect(r.read()).rejects.toBeInstanceOf(FrameCutShort);
    const t = new FakeStream();
    const q = new FrameReader(t, { maxFrameBytes: 1 << 20 });
    t.send([0x80]);
    t.end();
    await expect(q.read()).rejects.toBeInstanceOf(FrameCutShort);
  });
});

describe('FrameReader with a budget', () => {
  /** A frame's length as a varint, then `n` bytes. */
  const long = (n: number) => {
    const head: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      head.push(v >= 128 ? (v % 128) | 0x80 : v);
      if (v < 128) break;
    }
    return { head, body: new Array(n).fill(3) };
  };
  const KIB = 1024;

  it('lets a long frame in only with bytes set aside; another waits, paused, until they are given back', async () => {
    const budget = new ReadBudget(150 * KIB);
    const [a, b] = [new FakeStream(), new FakeStream()];
    const [ra, rb] = [new FrameReader(a, { maxFrameBytes: 1 << 20, budget }), new FrameReader(b, { maxFrameBytes: 1 << 20, budget })];
    const fa = long(100 * KIB);
    const fb = long(100 * KIB);
    a.send(fa.head, fa.body.slice(0, 70 * KIB));
    b.send(fb.head, fb.body.slice(0, 70 * KIB));
    // Past the small allowance both pause at once.
    expect([a.pauses, b.pauses]).toEqual([1, 1]);
    const first = ra.read();
    const second = rb.read();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The first is let in (resumed); the second waits for the budget, still paused.
    expect([a.resumes, b.resumes, budget.used]).toEqual([1, 0, 100 * KIB + 3]);
    a.send(fa.body.slice(70 * KIB));
    expect((await first)!.length).toBe(100 * KIB);
    // Given back: the second is let in now.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect([b.resumes, budget.used]).toEqual([1, 100 * KIB + 3]);
    b.send(fb.body.slice(70 * KIB));
    expect((await second)!.length).toBe(100 * KIB);
    expect(budget.used).toBe(0);
    // Short frames never ask.
    a.send(frame(30));
    expect((await ra.read())!.length).toBe(30);
    expect(budget.used).toBe(0);
  });

  it('reads long frames sent back to back when resuming hands over the rest of them at once', async () => {
    // Here the resume hands over all that was sent.
    const s = new Held();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20, budget: new ReadBudget(1 << 20), frameMs: 300 });
    const [f1, f2] = [long(140 * KIB), long(140 * KIB)];
    s.send(f1.head, f1.body.slice(0, SMALL_FRAME_BYTES));
    s.waiting.push(f1.body.slice(SMALL_FRAME_BYTES), f2.head, f2.body);
    // The whole of both came with the resume: neither waits for more (nor ends as too slow).
    expect((await r.read())!.length).toBe(140 * KIB);
    expect((await r.read())!.length).toBe(140 * KIB);
  });

  it('ends a long frame that does not come in full in time, and gives its bytes back', async () => {
    const budget = new ReadBudget(1 << 20);
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20, budget, frameMs: 30 });
    const f = long(SMALL_FRAME_BYTES * 2);
    s.send(f.head, f.body.slice(0, 100));
    await expect(r.read()).rejects.toBeInstanceOf(FrameTooSlow);
    expect(budget.used).toBe(0);
  });

  it('gives the bytes back when the stream ends inside the frame', async () => {
    const budget = new ReadBudget(1 << 20);
    const s = new FakeStream();
    const r = new FrameReader(s, { maxFrameBytes: 1 << 20, budget, frameMs: 10_000 });
    const f = long(SMALL_FRAME_BYTES * 2);
    s.send(f.head, f.body.slice(0, 100));
    const reading = r.read();
    s.end();
    await expect(reading).rejects.toBeInstanceOf(FrameCutShort);
    expect(budget.used).toBe(0);
  });
});
