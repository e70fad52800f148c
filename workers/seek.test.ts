// Seeking reads who has a tx from the engine's arrival logs (range scans); playing reads the
// streamed delivery trace. Both must colour every node the same at every time.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../scripts/lib/bootstrap.mjs';
import { initSync, Simulation } from '../web/wasm/txcast_wasm.js';
import { LiveTrace } from '../web/sim/live';
import { nodeBuckets } from '../web/canvas/render';
import { arrivalsFromScan, TraceView } from '../web/sim/trace';

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

const SCENARIO = JSON.stringify({
  name: 'seek vs play',
  seed: 9,
  nodes: 80,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'lognormal', median_ms: 50, sigma: 0.4 },
  workload: { kind: 'poisson', total_tps: 12, duration_ms: 800, tx_bytes: 200 },
  drain_ms: 1500,
  protocols: [{ label: 'cat', protocol: 'cat' }],
  adversaries: [{ fraction: 0.1, behaviour: { kind: 'withhold_on_request' } }],
});

describe('seek by range scan vs play', () => {
  it('gives the same node colours at every checked time, mid-run and after the end', () => {
    const sim = new Simulation(SCENARIO, 0, undefined);
    try {
      const endUs = sim.end_us;
      const live = new LiveTrace({
        kind: 'start', id: 1, label: sim.label, protocol: sim.protocol, nodes: sim.nodes, endUs, edges: sim.edges(), adversaries: sim.adversaries(),
        behaviours: sim.behaviours(), positions: new Float32Array(2 * sim.nodes), coordinates: new Float64Array(0), txPlan: sim.tx_plan(), layoutMs: 0,
        resumeUs: 0, changes: sim.changes(), behaviourNames: sim.behaviour_names(), markTimes: Array.from(sim.mark_times()), markKinds: sim.mark_kinds(), notes: sim.notes(), continents: sim.node_continents(),
      });
      const view = new TraceView(live.trace);
      const txs = view.txs;
      expect(txs).toBeGreaterThan(5);
      let compared = 0;
      let coloured = 0;
      const compareAt = (tUs: number) => {
        for (const tx of [0, 1, Math.floor(txs / 2), txs - 1]) {
          const played = view.tx(tx);
          const scanned = arrivalsFromScan(sim.arrivals_range(tx, tx + 1, tUs), tx, sim.nodes);
          const span = 400_000;
          const fromPlay = nodeBuckets(played.arrivalUs, played.createdUs, tUs, span);
          expect(Array.from(nodeBuckets(scanned, played.createdUs, tUs, span))).toEqual(Array.from(fromPlay));
          compared += 1;
          coloured += fromPlay.filter((b) => b >= 0).length;
        }
      };
      let more = true;
      for (let until = 150_000; more; until += 150_000) {
        // Slices of simulated time, as the worker streams them; seek to times inside what is computed.
        more = sim.advance(Math.min(endUs, until), 1e9);
        live.add({
          kind: 'chunk', id: 1, nowUs: sim.now_us, events: sim.events, deliveries: sim.take_deliveries(),
          sends: new Float64Array(0), sendCount: 0, kinds: [], kindClasses: [], effects: new Float64Array(0),
        });
        view.extend();
        compareAt(sim.now_us);
        compareAt(sim.now_us / 2);
        if (until >= endUs) break;
      }
      sim.finish();
      // After the end, the logs are still there to scan.
      for (const t of [0, endUs / 3, endUs]) compareAt(t);
      expect(compared).toBeGreaterThan(20);
      expect(coloured).toBeGreaterThan(200); // not all empty: the comparison saw real spreads
    } finally {
      sim.free();
    }
  });
});
