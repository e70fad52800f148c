// The hostile-peer suite: a relay (its own process) between two honest peers on 127.0.0.1, and
// each attack of scripts/relay/attacks.mjs against it in turn while the honest peers keep
// sending txs on CAT, Strokkur and GossipSub. For every attack: the honest peers keep delivering
// (>= 99% of honest txs), no honest peer is banned, the relay's memory stays under its bound,
// the attacker is counted, and it is cut off exactly where the rules say so. A few thousand
// hostile frames each here; `node scripts/relay/siege.mjs` runs 10^5 per attack and reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS } from '../../scripts/relay/attacks.mjs';
import { startSiege, type Siege } from '../../scripts/relay/siege.mjs';

/** Hostile frames per attack here (some attacks are cut off sooner, by the rules). */
const FRAMES: Record<string, number> = { 'reconnect-loop': 1_000, oversized: 15, 'half-frames': 36, 'stop-reading': 600, 'clock-back': 10 };
/**
 * The relay's bound (MiB): its three engines' WebAssembly memories together (the budgets of
 * LIVE_CONFIGS and the 32 MiB tx stores hold each within about 64 MiB), and its JS heap.
 */
const WASM_MB = 192;
const HEAP_MB = 256;
/**
 * Its buffers outside the heap (frames being read and written), as held (the relay collects its
 * garbage before each sample; what V8 has yet to collect came to 52 MiB once, in CI): the long
 * frames being read hold at most 8 MiB per protocol here (siege-relay.mjs --reading-bytes), each
 * stream what its muxer window let in, what is queued for peers 1 MiB each (--queue-bytes).
 */
const BUFFERS_MB = 48;

let siege: Siege;

beforeAll(async () => {
  expect(Number(process.versions.node.split('.')[0]), 'libp2p 3 needs Node 22 (run vitest from npm test)').toBeGreaterThanOrEqual(22);
  siege = await startSiege();
}, 60_000);

afterAll(async () => {
  await siege?.stop();
});

describe('a relay under attack', () => {
  for (const attack of ATTACKS) {
    it(`${attack.name}: ${attack.about}`, async () => {
      const r = await siege.attack(attack.name, { frames: FRAMES[attack.name] ?? 2_000 });
      const what = JSON.stringify(r);
      expect(r.frames, what).toBeGreaterThan(0);
      for (const share of Object.values(r.delivery)) expect(share, what).toBeGreaterThanOrEqual(0.99);
      expect(r.honestBanned, what).toBe(0);
      expect(r.attackerBanned, what).toBe(attack.cutOff);
      expect(Math.max(...Object.values(r.attacker)), `the attacker is counted: ${what}`).toBeGreaterThan(0);
      expect(r.relayMemoryMb.wasm, what).toBeLessThanOrEqual(WASM_MB);
      expect(r.relayMemoryMb.heap, what).toBeLessThanOrEqual(HEAP_MB);
      expect(r.relayMemoryMb.buffers, what).toBeLessThanOrEqual(BUFFERS_MB);
    }, 60_000);
  }
});
