// The live engine on WebAssembly: a trap (here a panic the host asked for; any bug a frame hits
// or running out of memory alike) rebuilds that engine in a fresh instance and tells the host,
// and the other engines, in instances of their own, keep their state.
import { beforeAll, describe, expect, it } from 'vitest';
import { freshEngine } from '../../scripts/relay/localnet.mjs';
import { LiveNode, type Trap } from './live-node.mjs';

let engines: unknown[];

beforeAll(async () => {
  engines = [await freshEngine(), await freshEngine()];
});

describe('LiveNode after a trap', () => {
  it('rebuilds only the engine that trapped and says which frame did it', () => {
    const cat = new LiveNode(engines[0], 'cat', {}, 1n, 0);
    const other = new LiveNode(engines[1], 'cat', {}, 2n, 0);
    const traps: Trap[] = [];
    cat.onTrap = (trap) => void traps.push(trap);
    cat.peerUp(0, 1, '');
    const mine = cat.submit(Uint8Array.of(1, 2, 3), 2);
    other.submit(Uint8Array.of(7), 2);
    cat.trapForTest(Uint8Array.of(0xde, 0xad));
    expect(cat.onFrame(0, Uint8Array.of(0xde, 0xad, 0), 3)).toBeNull();
    expect(traps).toEqual([{ during: 'on_frame', peer: 0, error: 'unreachable' }]);
    expect(cat.rebuilt).toBe(1);
    // A new engine: it works, knows no peer and none of the old txs, and says it was rebuilt.
    expect(cat.counters()['lightnode.engine_rebuilt']).toBe(1);
    expect(cat.onFrame(0, Uint8Array.of(0, 0), 4)).toBeNull();
    expect(cat.counters()['lightnode.from_peer_not_up']).toBe(1);
    expect(cat.submit(Uint8Array.of(1, 2, 3), 5)).toBe(mine);
    expect(cat.counters()['cat.already_seen_txs']).toBeUndefined();
    // The other engine, in its own instance, kept its state.
    other.submit(Uint8Array.of(7), 6);
    expect(other.counters()['cat.already_seen_txs']).toBe(1);
    expect(other.rebuilt).toBe(0);
  });

  it('refuses a tx above the engine cap with an error, not a trap', () => {
    const cat = new LiveNode(engines[1], 'cat', {}, 3n, 0);
    expect(() => cat.submit(new Uint8Array(cat.maxTxBytes() + 1), 1)).toThrow(/1 to \d+ bytes/);
    expect(cat.rebuilt).toBe(0);
  });
});
