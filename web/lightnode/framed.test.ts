import { describe, expect, it } from 'vitest';
import { BanList } from './ban.mjs';
import { FramedProtocol, splitFrames, type Engine } from './framed.mjs';

/** An engine that accepts frames starting with 1 and rejects the rest. */
function fakeEngine(): Engine & { ups: number[]; downs: number[] } {
  const ups: number[] = [];
  const downs: number[] = [];
  return {
    ups,
    downs,
    peer_up: (p) => void ups.push(p),
    peer_down: (p) => void downs.push(p),
    on_frame: (_p, bytes) => bytes[0] === 1,
    submit: () => '0000000000000001',
    poll: () => undefined,
    next_deadline_ms: () => undefined,
    take_frames: () => new Uint8Array(0),
    take_delivered: () => [],
    take_disconnects: () => new Uint32Array(0),
    frame_info: (bytes) => (bytes[0] === 1 ? `Txs ${bytes.length - 1} ${'0'.repeat(15)}${bytes[1] ?? 0}` : ''),
    counters: () => '{}',
  };
}

function fakeLibp2p() {
  const hungUp: string[] = [];
  return { hungUp, hangUp: async (peer: string) => void hungUp.push(peer) };
}

const pending = { newStream: () => new Promise(() => undefined) };

describe('splitFrames', () => {
  it('splits the engine\'s flat [peer][len][bytes] buffer', () => {
    const flat = new Uint8Array([2, 0, 0, 0, 3, 0, 0, 0, 7, 8, 9, 5, 0, 0, 0, 0, 0, 0, 0]);
    const frames = splitFrames(flat);
    expect(frames.map(([p, b]) => [p, [...b]])).toEqual([
      [2, [7, 8, 9]],
      [5, []],
    ]);
  });
  it('refuses a truncated buffer', () => {
    expect(() => splitFrames(new Uint8Array([1, 0, 0, 0, 9, 0, 0, 0, 1]))).toThrow(/truncated/);
  });
});

describe('FramedProtocol limits', () => {
  it('counts malformed frames, keeps the peer for a while, then disconnects it', () => {
    const engine = fakeEngine();
    const libp2p = fakeLibp2p();
    let now = 1_000;
    const framed = new FramedProtocol({ libp2p, name: 'cat', engine, now: () => now, limits: { maxStrikes: 5 } });
    const peer = (framed as unknown as { up(id: string, c: unknown): unknown }).up('peerA', pending);
    const onFrame = (bytes: number[]) => (framed as unknown as { onFrame(p: unknown, b: Uint8Array): void }).onFrame(peer, new Uint8Array(bytes));
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
    expect(engine.ups).toEqual([0]);
    expect(engine.downs).toEqual([0]);
    expect(framed.peers.size).toBe(0);
  });
  it('drops frames beyond the per-peer rate', () => {
    const engine = fakeEngine();
    const now = 1_000;
    const framed = new FramedProtocol({ libp2p: fakeLibp2p(), name: 'cat', engine, now: () => now, limits: { framesPerSecond: 10, frameBurst: 3, maxStrikes: 100 } });
    const peer = (framed as unknown as { up(id: string, c: unknown): unknown }).up('peerB', pending);
    for (let i = 0; i < 5; i++) (framed as unknown as { onFrame(p: unknown, b: Uint8Array): void }).onFrame(peer, Uint8Array.of(1));
    expect(framed.stats.rateLimited).toBe(2);
    expect(framed.stats.malformed).toBe(0);
  });
  it('bans a peer it cut off: its reconnect is refused until the ban ends', () => {
    const engine = fakeEngine();
    const libp2p = fakeLibp2p();
    let now = 1_000;
    const bans = new BanList({ banMs: 60_000, now: () => now });
    const framed = new FramedProtocol({ libp2p, name: 'cat', engine, now: () => now, bans, limits: { maxStrikes: 2 } });
    const up = (id: string) => (framed as unknown as { up(id: string, c: unknown): unknown }).up(id, pending);
    const peer = up('peerC');
    for (let i = 0; i < 3; i++) (framed as unknown as { onFrame(p: unknown, b: Uint8Array): void }).onFrame(peer, Uint8Array.of(9));
    expect(framed.stats.disconnected).toBe(1);
    expect(bans.list().map((b) => b.peer)).toEqual(['peerC']);
    expect(bans.gater().denyInboundEncryptedConnection('peerC')).toBe(true);
    expect(bans.gater().denyDialPeer('peerD')).toBe(false);
    expect(up('peerC')).toBeNull();
    expect(framed.stats.refused).toBe(1);
    expect(bans.refused).toBe(2);
    expect(libp2p.hungUp).toEqual(['peerC', 'peerC']);
    expect(engine.ups).toEqual([0]);
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
    const engine = fakeEngine();
    let delivered: string[] = [];
    engine.on_frame = (_p, bytes) => {
      if (bytes[0] !== 1) return false;
      delivered = [`${'0'.repeat(15)}${bytes[1]}`];
      return true;
    };
    engine.take_delivered = () => delivered.splice(0);
    const wires: string[] = [];
    const arrivals: { id: string; duplicate?: boolean }[] = [];
    const framed = new FramedProtocol({
      libp2p: fakeLibp2p(),
      name: 'cat',
      engine,
      now: () => 5_000,
      onWire: (direction, peer, bytes, info) => wires.push(`${direction} ${peer} ${bytes} ${info.kind} ${info.payload} ${info.tx}`),
      onArrival: (a) => arrivals.push({ id: a.id, duplicate: a.duplicate }),
    });
    const peer = (framed as unknown as { up(id: string, c: unknown): unknown }).up('peerE', pending);
    const onFrame = (bytes: number[]) => (framed as unknown as { onFrame(p: unknown, b: Uint8Array): void }).onFrame(peer, Uint8Array.from(bytes));
    onFrame([1, 7, 0, 0]);
    onFrame([1, 7, 0, 0]);
    onFrame([9]);
    const id = `${'0'.repeat(15)}7`;
    expect(arrivals).toEqual([{ id, duplicate: undefined }, { id, duplicate: true }]);
    expect(framed.stats.duplicates).toBe(1);
    expect(framed.stats.payloadIn).toBe(6);
    expect(wires).toEqual([`in peerE 4 Txs 3 ${id}`, `in peerE 4 Txs 3 ${id}`, 'in peerE 1 malformed 0 ']);
  });
});
