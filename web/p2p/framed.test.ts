import { describe, expect, it, vi } from 'vitest';
import { BanList } from './ban.mjs';
import type { FrameInfo, OutFrame } from './live-node.mjs';
import { FramedProtocol, type LiveNodeApi } from './framed.mjs';
import { MessageClass } from '../wasm/txcast_wasm.js';

/** A live node that takes frames starting with 1 (a tx whose hash is byte 2) and rejects the rest. */
function fakeLiveNode(): LiveNodeApi & { ups: [number, string][]; downs: number[]; out: OutFrame[]; delivered: string[] } {
  const ups: [number, string][] = [];
  const downs: number[] = [];
  const out: OutFrame[] = [];
  const delivered: string[] = [];
  const hash = (b: number) => b.toString(16).padStart(64, '0');
  return {
    ups,
    downs,
    out,
    delivered,
    peerUp: (p, _now, protocol = '') => void ups.push([p, protocol]),
    peerDown: (p) => void downs.push(p),
    onFrame: (_p, bytes): FrameInfo | null => {
      if (bytes[0] !== 1) return null;
      delivered.push(hash(bytes[1] ?? 0));
      return { kinds: ['Txs'], classes: [MessageClass.Payload], topics: [], payload: bytes.length - 1, txs: [hash(bytes[1] ?? 0)] };
    },
    submit: () => hash(1),
    poll: () => undefined,
    nextDeadlineMs: () => undefined,
    takeFrames: () => out.splice(0),
    takeDelivered: () => delivered.splice(0).map((h) => ({ hash: h, topic: '', data: new Uint8Array(3) })),
    takeValidations: () => [],
    takeDisconnects: () => [],
    counters: () => ({}),
    onTrap: () => undefined,
    memoryBytes: () => 0,
  };
}

function fakeLibp2p() {
  const hungUp: string[] = [];
  return { hungUp, hangUp: async (peer: string) => void hungUp.push(peer) };
}

/** A connection whose stream never opens, and a stand-in for an open one. */
const pending = { newStream: () => new Promise(() => undefined) };
function writer() {
  const written: Uint8Array[] = [];
  return { written, write: async (b: Uint8Array) => void written.push(b), unwrap: () => ({ abort: () => undefined }) };
}

type Internals = {
  up(id: string, c: unknown): unknown;
  onFrame(p: unknown, b: Uint8Array): void;
  attach(p: unknown, out: unknown, protocol: string): void;
  send(p: unknown, frame: OutFrame): void;
  throttle(p: unknown, bytes: number): Promise<void>;
};
const internals = (f: FramedProtocol) => f as unknown as Internals;

describe('FramedProtocol peers', () => {
  it('tells the live node of a peer only once its stream negotiated a protocol, and with it', () => {
    const live = fakeLiveNode();
    const framed = new FramedProtocol({ libp2p: fakeLibp2p(), name: 'gossipsub', live, protocols: ['/meshsub/2.0.0', '/meshsub/1.2.0'] });
    const peer = internals(framed).up('peerA', pending);
    expect(live.ups).toEqual([]);
    internals(framed).attach(peer, writer(), '/meshsub/1.2.0');
    expect(live.ups).toEqual([[0, '/meshsub/1.2.0']]);
  });
  it('sends urgent frames ahead of what is queued, after the frame being written', async () => {
    const live = fakeLiveNode();
    const framed = new FramedProtocol({ libp2p: fakeLibp2p(), name: 'gossipsub', live });
    const peer = internals(framed).up('peerB', pending);
    const out = writer();
    const info = (kind: string) => ({ kinds: [kind], classes: [MessageClass.Control], topics: [], payload: 0, txs: [] });
    live.out.push(
      { peer: 0, bytes: Uint8Array.of(1), urgent: false, info: info('a') },
      { peer: 0, bytes: Uint8Array.of(2), urgent: false, info: info('b') },
      { peer: 0, bytes: Uint8Array.of(3), urgent: true, info: info('c') },
      { peer: 0, bytes: Uint8Array.of(4), urgent: true, info: info('d') },
    );
    internals(framed).attach(peer, out, '');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(out.written.map((b) => b[0])).toEqual([1, 3, 4, 2]);
    expect(framed.kindsOut).toEqual({ a: 1, b: 1, c: 1, d: 1 });
  });
  it('writes a frame queued while the writer is letting go of the peer', async () => {
    // The writer has found its queue empty but not yet said it is done when the next frame
    // comes (in the live node: the next publish, right after its signature): it is written too.
    const live = fakeLiveNode();
    const info = (kind: string) => ({ kinds: [kind], classes: [MessageClass.Control], topics: [], payload: 0, txs: [] });
    let peer: unknown = null;
    let later = true;
    const framed = new FramedProtocol({
      libp2p: fakeLibp2p(),
      name: 'gossipsub',
      live,
      onWire: (direction) => {
        if (direction !== 'out' || !later) return;
        later = false;
        queueMicrotask(() => internals(framed).send(peer, { peer: 0, bytes: Uint8Array.of(2), urgent: false, info: info('b') }));
      },
    });
    peer = internals(framed).up('peerF', pending);
    const out = writer();
    live.out.push({ peer: 0, bytes: Uint8Array.of(1), urgent: false, info: info('a') });
    internals(framed).attach(peer, out, '');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(out.written.map((b) => b[0])).toEqual([1, 2]);
  });
});

describe('FramedProtocol reconnects', () => {
  it('brings a peer back on its other open connection when its stream ended, not one it cut off', () => {
    vi.useFakeTimers();
    try {
      const live = fakeLiveNode();
      const other = { status: 'open', limits: null, newStream: () => new Promise(() => undefined) };
      const libp2p = { ...fakeLibp2p(), getConnections: () => [other] };
      const framed = new FramedProtocol({ libp2p, name: 'cat', live, limits: { maxStrikes: 1 } });
      const peer = internals(framed).up('peerF', pending);
      internals(framed).attach(peer, writer(), '/txcast/cat/1.0.0');
      (framed as unknown as { down(key: string): void }).down('peerF'); // its stream broke
      expect(framed.peers.size).toBe(0);
      vi.advanceTimersByTime(1_000);
      expect(framed.peers.size).toBe(1);
      // Cut off for garbage: gone for good.
      const again = internals(framed).up('peerF', other);
      for (let i = 0; i < 3; i++) internals(framed).onFrame(again, Uint8Array.of(9));
      expect(framed.stats.disconnected).toBe(1);
      vi.advanceTimersByTime(2_000);
      expect(framed.peers.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('FramedProtocol limits', () => {
  it('counts malformed frames, keeps the peer for a while, then disconnects it', () => {
    const live = fakeLiveNode();
    const libp2p = fakeLibp2p();
    let now = 1_000;
    const framed = new FramedProtocol({ libp2p, name: 'cat', live, now: () => now, limits: { maxStrikes: 5 } });
    const peer = internals(framed).up('peerA', pending);
    internals(framed).attach(peer, writer(), '/txcast/cat/1.0.0');
    const onFrame = (bytes: number[]) => internals(framed).onFrame(peer, new Uint8Array(bytes));
    onFrame([1, 2]);
    for (let i = 0; i < 5; i++) onFrame([9]);
    expect(framed.stats.malformed).toBe(5);
    expect(framed.peers.size).toBe(1);
    now += 3_000; // strikes leak away at one per second
    onFrame([9]);
    expect(framed.stats.disconnected).toBe(0);
    onFrame([9]);
    onFrame([9]);
    onFrame([9]);
    expect(framed.stats.disconnected).toBe(1);
    expect(libp2p.hungUp).toEqual(['peerA']);
    expect(live.ups).toEqual([[0, '/txcast/cat/1.0.0']]);
    expect(live.downs).toEqual([0]);
    expect(framed.peers.size).toBe(0);
  });
  it('reads a peer over its rate later (backpressure), never dropping or striking it', async () => {
    vi.useFakeTimers();
    try {
      const live = fakeLiveNode();
      const libp2p = fakeLibp2p();
      const framed = new FramedProtocol({ libp2p, name: 'cat', live, now: () => Date.now(), limits: { framesPerSecond: 100, frameBurst: 3, maxStrikes: 1 } });
      const peer = internals(framed).up('peerB', pending);
      internals(framed).attach(peer, writer(), '/txcast/cat/1.0.0');
      const read: number[] = [];
      // What the read loop does with each frame: wait for the peer's rate, then hand it in.
      const loop = (async () => {
        for (let i = 0; i < 10; i++) {
          await internals(framed).throttle(peer, 1);
          internals(framed).onFrame(peer, Uint8Array.of(1, i));
          read.push(Date.now());
        }
      })();
      await vi.advanceTimersByTimeAsync(1_000);
      await loop;
      expect(live.delivered.length + framed.stats.delivered).toBe(10);
      expect(framed.stats.throttled).toBe(7);
      // The burst at once, then one frame per 10 ms.
      expect(read[9] - read[0]).toBeGreaterThanOrEqual(69);
      expect([framed.stats.malformed, framed.stats.disconnected, libp2p.hungUp.length]).toEqual([0, 0, 0]);
    } finally {
      vi.useRealTimers();
    }
  });
  it('bounds what it queues per peer and in all, and lets go a peer that reads nothing', () => {
    const live = fakeLiveNode();
    let now = 1_000;
    const framed = new FramedProtocol({ libp2p: fakeLibp2p(), name: 'cat', live, now: () => now, limits: { maxQueuedBytes: 250, maxQueuedTotal: 400, stallMs: 5_000 } });
    // Writers that never finish: peers that stopped reading.
    const stuck = { write: () => new Promise(() => undefined), unwrap: () => ({ abort: () => undefined }) };
    const a = internals(framed).up('peerA', pending);
    const b = internals(framed).up('peerB', pending);
    internals(framed).attach(a, stuck, '/txcast/cat/1.0.0');
    internals(framed).attach(b, stuck, '/txcast/cat/1.0.0');
    const frame = (peer: number) => ({ peer, bytes: new Uint8Array(100), urgent: false, info: { kinds: ['x'], classes: [MessageClass.Control], topics: [], payload: 0, txs: [] } });
    for (let i = 0; i < 5; i++) internals(framed).send(a, frame(0));
    expect([framed.queued, framed.stats.dropped]).toEqual([200, 3]);
    for (let i = 0; i < 5; i++) internals(framed).send(b, frame(1));
    expect([framed.queued, framed.stats.dropped]).toEqual([400, 6]);
    now += 6_000;
    internals(framed).send(a, frame(0));
    expect(framed.stats.stalled).toBe(1);
    expect(framed.peers.has('peerA')).toBe(false);
    expect(framed.queued).toBe(200);
  });
  it('runs on a clock that never goes back: one strike after a step back is no ban', () => {
    const live = fakeLiveNode();
    let wall = 5_000_000;
    const bans = new BanList({ now: () => wall });
    const framed = new FramedProtocol({ libp2p: fakeLibp2p(), name: 'cat', live, now: () => wall, bans, limits: { maxStrikes: 20 } });
    const peer = internals(framed).up('peerS', pending);
    internals(framed).onFrame(peer, Uint8Array.of(9));
    wall -= 3_600_000; // the clock is set back an hour
    internals(framed).onFrame(peer, Uint8Array.of(9));
    expect(framed.stats.malformed).toBe(2);
    expect([framed.stats.disconnected, bans.banned]).toEqual([0, 0]);
    // A ban still lasts its full time whatever the clock does.
    bans.ban('peerX', 'test');
    wall -= 3_600_000;
    expect(bans.isBanned('peerX')).toBe(true);
    wall += bans.banMs - 1;
    expect(bans.isBanned('peerX')).toBe(true);
  });
  it('bans a peer it cut off: its reconnect is refused until the ban ends', () => {
    const live = fakeLiveNode();
    const libp2p = fakeLibp2p();
    let now = 1_000;
    const bans = new BanList({ banMs: 60_000, now: () => now });
    const framed = new FramedProtocol({ libp2p, name: 'cat', live, now: () => now, bans, limits: { maxStrikes: 2 } });
    const up = (id: string) => internals(framed).up(id, pending);
    const peer = up('peerC');
    for (let i = 0; i < 3; i++) internals(framed).onFrame(peer, Uint8Array.of(9));
    expect(framed.stats.disconnected).toBe(1);
    expect(bans.list().map((b) => b.peer)).toEqual(['peerC']);
    expect(bans.gater().denyInboundEncryptedConnection('peerC')).toBe(true);
    expect(bans.gater().denyDialPeer('peerD')).toBe(false);
    expect(up('peerC')).toBeNull();
    expect(framed.stats.refused).toBe(1);
    expect(bans.refused).toBe(2);
    expect(libp2p.hungUp).toEqual(['peerC', 'peerC']);
    now += 60_000;
    expect(up('peerC')).not.toBeNull();
    expect(bans.list()).toEqual([]);
  });
});

describe('BanList', () => {
  it('keeps at most MAX_BANS, dropping the oldest', async () => {
    const { MAX_BANS } = await import('./ban.mjs');
    const bans = new BanList();
    for (let i = 0; i <= MAX_BANS; i++) bans.ban(`p${i}`, 'test');
    expect(bans.isBanned('p0')).toBe(false);
    expect(bans.isBanned(`p${MAX_BANS}`)).toBe(true);
    expect(bans.banned).toBe(MAX_BANS + 1);
  });
});

describe('FramedProtocol duplicates', () => {
  it('reports full copies of known txs and what each frame carries', () => {
    const live = fakeLiveNode();
    const wires: string[] = [];
    const arrivals: { id: string; duplicate?: boolean }[] = [];
    const delivered: string[] = [];
    const framed = new FramedProtocol({
      libp2p: fakeLibp2p(),
      name: 'cat',
      live,
      now: () => 5_000,
      onWire: (direction, peer, bytes, info) => wires.push(`${direction} ${peer} ${bytes} ${info.kinds.join('+')} ${info.payload} ${info.txs.length}`),
      onArrival: (a) => arrivals.push({ id: a.id, duplicate: a.duplicate }),
      onDeliver: (d) => delivered.push(d.hash),
    });
    const peer = internals(framed).up('peerE', pending);
    const onFrame = (bytes: number[]) => internals(framed).onFrame(peer, Uint8Array.from(bytes));
    onFrame([1, 7, 0, 0]);
    // The engine delivers a tx once; a second full copy is a duplicate.
    live.takeDelivered = () => [];
    onFrame([1, 7, 0, 0]);
    onFrame([9]);
    const id = (7).toString(16).padStart(64, '0');
    expect(arrivals).toEqual([{ id, duplicate: undefined }, { id, duplicate: true }]);
    expect(delivered).toEqual([id]);
    expect(framed.stats.duplicates).toBe(1);
    expect(framed.stats.payloadIn).toBe(6);
    expect(wires).toEqual(['in peerE 4 Txs 3 1', 'in peerE 4 Txs 3 1', 'in peerE 1 malformed 0 0']);
  });
});
