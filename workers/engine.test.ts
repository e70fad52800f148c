// The WASM build of the engine, loaded in Node, against the native txsim: same seed, same run.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../scripts/lib/bootstrap.mjs';
import { ensureTxsim, txsimDemo } from '../scripts/lib/txsim.mjs';
import { demo_flood, initSync, Simulation, version } from '../web/wasm/txcast_wasm.js';

beforeAll(async () => {
  await ensureTxsim(); // the first build can take minutes: do it under the hook's timeout
  initSync({ module: readFileSync(WASM_BINARY) });
});

function runWasm(seed: bigint, nodes: number, degree: number) {
  const run = demo_flood(seed, nodes, degree);
  try {
    return {
      digest: run.digest,
      events: run.events,
      nodes: run.nodes,
      origin: run.origin,
      edges: run.edges(),
      arrival: run.arrival_us(),
    };
  } finally {
    run.free();
  }
}

describe('WASM engine vs native txsim', () => {
  const cases = [
    { seed: 42n, nodes: 300, degree: 8 },
    // The largest u64 seed checks that the seed crosses the JS boundary as a full 64-bit value.
    { seed: 18446744073709551615n, nodes: 120, degree: 5 },
  ];
  for (const { seed, nodes, degree } of cases) {
    it(`gives the native result for seed ${seed}, ${nodes} nodes, degree ${degree}`, async () => {
      const native = await txsimDemo({ seed, nodes, degree });
      const wasm = runWasm(seed, nodes, degree);
      expect(wasm.digest).toBe(native.digest);
      expect(wasm.events).toBe(native.events);
      expect(wasm.nodes).toBe(native.nodes);
      expect(wasm.origin).toBe(native.origin);
      expect(Array.from(wasm.arrival)).toEqual(native.arrival_us);
    });
  }
});

describe('WASM engine', () => {
  it('reports a version', () => {
    expect(version()).toMatch(/\d+\.\d+\.\d+/);
  });

  it('is deterministic for a seed and changes with it', () => {
    const a = runWasm(9n, 200, 6);
    const b = runWasm(9n, 200, 6);
    const c = runWasm(10n, 200, 6);
    expect(b.digest).toBe(a.digest);
    expect(Array.from(b.arrival)).toEqual(Array.from(a.arrival));
    expect(c.digest).not.toBe(a.digest);
  });

  it('builds a simple random regular graph', () => {
    const { edges, nodes } = runWasm(3n, 150, 6);
    expect(edges.length).toBe(nodes * 6);
    const degree = new Array<number>(nodes).fill(0);
    const seen = new Set<string>();
    for (let i = 0; i < edges.length; i += 2) {
      const [a, b] = [edges[i], edges[i + 1]];
      expect(a).not.toBe(b);
      const key = a < b ? `${a}-${b}` : `${b}-${a}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
      degree[a] += 1;
      degree[b] += 1;
    }
    expect(new Set(degree)).toEqual(new Set([6]));
  });

  it('floods the tx to every node, the origin first at time 0', () => {
    const { arrival, origin } = runWasm(5n, 250, 8);
    expect(arrival[origin]).toBe(0);
    arrival.forEach((t, node) => {
      if (node !== origin) expect(t).toBeGreaterThan(0);
    });
  });

  it('hands over the rows it captures slice by slice, each once', () => {
    const scenario = JSON.stringify({
      name: 'takes', seed: 4, nodes: 60,
      topology: { kind: 'random_regular', degree: 6 },
      workload: { kind: 'poisson', total_tps: 40, duration_ms: 500, tx_bytes: 128 },
      protocols: [{ protocol: 'flood' }],
    });
    const rows = (sliceEvents: number) => {
      const sim = new Simulation(scenario, 0, undefined);
      sim.capture_sends(true);
      const sends: Float64Array[] = [];
      const deliveries: Float64Array[] = [];
      let slices = 0;
      try {
        for (let more = true; more; slices += 1) {
          more = sim.advance(sim.end_us, sliceEvents);
          sends.push(sim.take_sends());
          deliveries.push(sim.take_deliveries());
          expect(sim.take_sends().length).toBe(0);
        }
      } finally {
        sim.free();
      }
      const flat = (parts: Float64Array[]) => parts.flatMap((part) => Array.from(part));
      return { sends: flat(sends), deliveries: flat(deliveries), slices };
    };
    const sliced = rows(40);
    const whole = rows(1e9);
    expect(sliced.slices).toBeGreaterThan(10);
    expect(sliced.sends.length).toBeGreaterThan(1000);
    expect(sliced.sends).toEqual(whole.sends);
    expect(sliced.deliveries).toEqual(whole.deliveries);
  });

  it('rejects a degree that no graph of this size can have, with a message', () => {
    expect(() => demo_flood(1n, 5, 9)).toThrow(/\w+/);
  });
});
