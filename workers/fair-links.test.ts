// Links shared as TCP shares them (links.sharing "fair" and "max_min", links.tcp slow start) give
// the same runs natively and in WebAssembly, with timed events cutting links mid-transfer and loss.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../scripts/lib/bootstrap.mjs';
import { ensureTxsim } from '../scripts/lib/txsim.mjs';
import { initSync, Simulation } from '../web/wasm/txcast_wasm.js';

let txsim = '';
beforeAll(async () => {
  txsim = await ensureTxsim();
  initSync({ module: readFileSync(WASM_BINARY) });
});

const SCENARIO = {
  name: 'fair links under events',
  seed: 24,
  nodes: 60,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'geographic' },
  // Slow links and 4 kB txs, so transfers overlap and are cut while under way.
  bandwidth: { classes: [{ fraction: 0.5, up_mbps: 0.5, down_mbps: 1 }, { fraction: 0.5, up_mbps: 4, down_mbps: 4 }] },
  links: { sharing: 'fair', tcp: { slow_start: true, initial_window_segments: 4 }, jitter_ms: 5 },
  workload: { kind: 'poisson', total_tps: 20, duration_ms: 4000, tx_bytes: 4000 },
  drain_ms: 4000,
  events: [
    { at_ms: 800, kind: 'leave', fraction: 0.2 },
    { at_ms: 1200, kind: 'loss', loss: 0.05 },
    { at_ms: 1500, kind: 'partition', region: { continent: 'europe' } },
    { at_ms: 2500, kind: 'heal' },
    { at_ms: 3000, kind: 'join' },
  ],
  protocols: [{ protocol: 'flood' }, { protocol: 'cat' }, { protocol: 'gossipsub' }],
};

function wasmDigest(text: string, run: number): { digest: string; events: number } {
  const sim = new Simulation(text, run, undefined);
  try {
    while (sim.advance(sim.end_us, 1e6));
    const report = JSON.parse(sim.finish());
    return { digest: report.digest, events: report.events };
  } finally {
    sim.free();
  }
}

function nativeRuns(scenario: object): { label: string; digest: string; events: number }[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'txcast-fair-'));
  const file = path.join(dir, 'scenario.json');
  const out = path.join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(scenario));
  execFileSync(txsim, ['run', file, '--quiet', '--out', out], { stdio: 'ignore' });
  return JSON.parse(readFileSync(out, 'utf8')).runs;
}

/** The scenario's runs natively, checked against WASM run by run. */
function sameInWasm(scenario: object): { label: string; digest: string }[] {
  const text = JSON.stringify(scenario);
  const native = nativeRuns(scenario);
  expect(native.length).toBe(3);
  native.forEach((n, k) => {
    expect({ label: n.label, ...wasmDigest(text, k) }).toEqual({ label: n.label, digest: n.digest, events: n.events });
  });
  return native;
}

describe('fair links natively and in WASM', () => {
  it('give the same digests for every protocol, with links cut mid-transfer', () => {
    const native = sameInWasm(SCENARIO);
    // The sharing is what changed: the same runs over FIFO links differ.
    const fifo = nativeRuns({ ...SCENARIO, links: { jitter_ms: 5 } });
    fifo.forEach((f, k) => expect(f.digest).not.toBe(native[k].digest));
  }, 120_000);

  it('with max-min rates too, which differ from equal shares where a flow is held back at one end', () => {
    const equal = nativeRuns(SCENARIO);
    const maxMin = sameInWasm({ ...SCENARIO, links: { ...SCENARIO.links, sharing: 'max_min' } });
    maxMin.forEach((m, k) => expect(m.digest).not.toBe(equal[k].digest));
  }, 120_000);
});
