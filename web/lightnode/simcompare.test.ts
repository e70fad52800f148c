import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../../scripts/lib/bootstrap.mjs';
import { check_scenario, initSync, Simulation } from '../wasm/txcast_wasm.js';
import { compareScenario, inputKey, MAX_TXS, simNodes, simulateCounts, type CompareInput } from './simcompare';

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

const now = () => Promise.resolve();
const input = (extra: Partial<CompareInput> = {}): CompareInput => ({ nodes: 4, txs: 12, txBytes: 128, version: 'v2.0', dAnnounce: 4, ...extra });

describe('the simulator next to the light node', () => {
  it('builds a scenario txsim accepts: a complete graph of the live topic, at least 4 nodes', () => {
    for (const i of [input(), input({ nodes: 1, txs: 1 }), input({ nodes: 200, txs: 5000, version: 'v1.2' })]) {
      expect(() => check_scenario(JSON.stringify(compareScenario(i)))).not.toThrow();
    }
    expect([simNodes(1), simNodes(4), simNodes(9), simNodes(1000)]).toEqual([4, 4, 9, 32]);
    const s = compareScenario(input({ nodes: 7 })) as { nodes: number; topology: { degree: number } };
    expect([s.nodes, s.topology.degree]).toEqual([7, 6]);
  });

  it('counts IANNOUNCE and INEED per node on v2.0, and every forward lazy at D_announce = D', async () => {
    const lazy = (await simulateCounts(Simulation, input({ dAnnounce: 6 }), { pause: now }))!;
    expect(lazy.nodes).toBe(4);
    expect(lazy.simulatedTxs).toBe(12);
    expect(lazy.delivery).toBe(1);
    // Every mesh peer is told by IANNOUNCE and asks by INEED once per tx: 12 txs, 4 nodes, no full
    // copy sent unasked, hence no duplicates.
    expect(lazy.received.ineed).toBeCloseTo(12 * 3 / 4, 6);
    expect(lazy.sent.publish).toBeCloseTo(lazy.sent.ineed, 6);
    expect(lazy.sent.iannounce).toBeGreaterThan(lazy.sent.ineed);
    expect(lazy.duplicatesPerTx).toBe(0);
    // Sent and received agree on a network without loss.
    expect(lazy.received).toEqual(lazy.sent);

    const some = (await simulateCounts(Simulation, input({ dAnnounce: 4 }), { pause: now }))!;
    expect(some.sent.iannounce).toBeGreaterThan(0);
    // The publisher floods full copies; announcements reach peers that already have the tx.
    expect(some.sent.ineed).toBe(0);
    expect(some.duplicatesPerTx).toBeGreaterThan(0);
  });

  it('has no IANNOUNCE or INEED on v1.2, and IDONTWANT only for txs of 1 KiB or more', async () => {
    const small = (await simulateCounts(Simulation, input({ version: 'v1.2' }), { pause: now }))!;
    expect([small.sent.iannounce, small.sent.ineed, small.sent.idontwant]).toEqual([0, 0, 0]);
    const big = (await simulateCounts(Simulation, input({ version: 'v1.2', txBytes: 2000 }), { pause: now }))!;
    expect([big.sent.iannounce, big.sent.ineed]).toEqual([0, 0]);
    expect(big.sent.idontwant).toBeGreaterThan(0);
    expect(big.received.publish).toBeGreaterThan(12 * 3 / 4);
  });

  it('caps the run and scales its counts, and can be cancelled between slices', async () => {
    const capped = (await simulateCounts(Simulation, input({ txs: 3 * MAX_TXS, version: 'v1.2' }), { pause: now }))!;
    expect(capped.simulatedTxs).toBe(MAX_TXS);
    expect(capped.scale).toBe(3);
    // Each tx reaches 3 nodes at least once as a full message: scaled to all 1,500 txs.
    expect(capped.received.publish).toBeGreaterThanOrEqual((3 * MAX_TXS * 3) / 4);
    let slices = 0;
    const stopped = await simulateCounts(Simulation, input({ txs: 200 }), { sliceEvents: 50, pause: async () => void (slices += 1), cancelled: () => slices >= 2 });
    expect(stopped).toBeNull();
    expect(slices).toBe(2);
  });

  it('keys a comparison by what it depends on', () => {
    expect(inputKey(input())).toBe(inputKey(input({ nodes: 2, txBytes: 128.2 })));
    expect(inputKey(input({ version: 'v1.2', dAnnounce: 1 }))).toBe(inputKey(input({ version: 'v1.2', dAnnounce: 5 })));
    expect(inputKey(input())).not.toBe(inputKey(input({ dAnnounce: 5 })));
    expect(inputKey(input())).not.toBe(inputKey(input({ txs: 13 })));
  });
});
