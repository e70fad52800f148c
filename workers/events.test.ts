// Timed events give the same runs natively and in WebAssembly: every event kind, several
// protocols, digests and phase reports compared with the native txsim's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../scripts/lib/bootstrap.mjs';
import { ensureTxsim } from '../scripts/lib/txsim.mjs';
import { ChangeField, ChangeWhat, initSync, Simulation } from '../web/wasm/txcast_wasm.js';

let txsim = '';
beforeAll(async () => {
  txsim = await ensureTxsim();
  initSync({ module: readFileSync(WASM_BINARY) });
});

const SCENARIO = {
  name: 'every event kind',
  seed: 12,
  nodes: 80,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'geographic' },
  workload: { kind: 'poisson', total_tps: 40, duration_ms: 5000, tx_bytes: 128 },
  drain_ms: 2000,
  events: [
    { at_ms: 0, kind: 'churn', until_ms: 2000, fraction: 0.1, mean_up_ms: 700, mean_down_ms: 300 },
    { at_ms: 500, kind: 'behaviour', fraction: 0.2, behaviour: { kind: 'withhold_on_request' } },
    { at_ms: 1000, kind: 'partition', region: { continent: 'asia' } },
    { at_ms: 1500, kind: 'loss', loss: 0.05 },
    { at_ms: 2200, kind: 'heal' },
    { at_ms: 2500, kind: 'leave', fraction: 0.2 },
    { at_ms: 3000, kind: 'load', total_tps: 80 },
    { at_ms: 3500, kind: 'join' },
    { at_ms: 4000, kind: 'behaviour', behaviour: { kind: 'honest' } },
  ],
  protocols: [{ protocol: 'flood' }, { protocol: 'cat' }, { protocol: 'gossipsub' }, { protocol: 'strokkur' }],
};

interface Report {
  runs: { label: string; digest: string; events: number; phases: unknown[] }[];
}

function wasmRun(text: string, run: number): { digest: string; events: number; phases: unknown[]; changes: Float64Array } {
  const sim = new Simulation(text, run, undefined);
  try {
    const changes = sim.changes();
    while (sim.advance(sim.end_us, 1e6));
    const report = JSON.parse(sim.finish());
    return { digest: report.digest, events: report.events, phases: report.phases, changes };
  } finally {
    sim.free();
  }
}

describe('timed events natively and in WASM', () => {
  it('give the same digests and phases for every protocol', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'txcast-events-'));
    const file = path.join(dir, 'scenario.json');
    const out = path.join(dir, 'report.json');
    const text = JSON.stringify(SCENARIO);
    writeFileSync(file, text);
    execFileSync(txsim, ['run', file, '--quiet', '--out', out], { stdio: 'ignore' });
    const native = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(native.runs.length).toBe(4);
    native.runs.forEach((n, k) => {
      const w = wasmRun(text, k);
      expect({ label: n.label, digest: w.digest, events: w.events }).toEqual({ label: n.label, digest: n.digest, events: n.events });
      expect(w.phases).toEqual(n.phases);
      expect(n.phases.length).toBeGreaterThan(5);
    });
  }, 120_000);

  it('tell the page what changed for each node, as the core resolved it', () => {
    const { changes } = wasmRun(JSON.stringify({ ...SCENARIO, protocols: [{ protocol: 'flood' }] }), 0);
    const rows = changes.length / ChangeField.Stride;
    const what = (k: number) => changes[k * ChangeField.Stride + ChangeField.What];
    const kinds = new Set(Array.from({ length: rows }, (_, k) => what(k)));
    expect(kinds).toEqual(new Set([ChangeWhat.Behaviour, ChangeWhat.Away, ChangeWhat.Side, ChangeWhat.Loss, ChangeWhat.Load]));
    // In time order.
    for (let k = 1; k < rows; k += 1) expect(changes[k * ChangeField.Stride]).toBeGreaterThanOrEqual(changes[(k - 1) * ChangeField.Stride]);
  });
});
