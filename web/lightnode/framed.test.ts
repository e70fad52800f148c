import { describe, expect, it } from 'vitest';
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
});
