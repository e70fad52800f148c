// The golden digests of rust-core/crates/sim/tests/goldens.json, computed by the WASM engine: the same runs give
// the same digests natively (rust-core/crates/sim/tests/scenarios.rs) and in WebAssembly.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../scripts/lib/bootstrap.mjs';
import { initSync, Simulation } from '../web/wasm/txcast_wasm.js';

const SCENARIOS = path.resolve(import.meta.dirname, '../scenarios');
const GOLDENS = path.resolve(import.meta.dirname, '../rust-core/crates/sim/tests/goldens.json');
const goldens: Record<string, Record<string, string> | string> = JSON.parse(readFileSync(GOLDENS, 'utf8'));

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

/** The digest of run `index` of a scenario, run to its end in WASM. */
function digest(text: string, index: number): { label: string; digest: string } {
  const sim = new Simulation(text, index, undefined);
  try {
    while (sim.advance(sim.end_us, 1e9));
    const label = sim.label;
    return { label, digest: JSON.parse(sim.finish()).digest };
  } finally {
    sim.free();
  }
}

describe('golden digests in WASM', () => {
  for (const [file, runs] of Object.entries(goldens)) {
    if (typeof runs === 'string') continue;
    it(`${file}: ${Object.keys(runs).join(', ')}`, () => {
      const text = readFileSync(path.join(SCENARIOS, file), 'utf8');
      const labels: string[] = JSON.parse(text).protocols.map((p: { label?: string; protocol: string }) => p.label ?? p.protocol);
      const pinned = Object.keys(runs);
      expect(pinned.every((l) => labels.includes(l))).toBe(true);
      for (const label of pinned) {
        const got = digest(text, labels.indexOf(label));
        expect(got).toEqual({ label, digest: runs[label] });
      }
    }, 60_000);
  }
});
