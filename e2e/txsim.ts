// The native txsim's report for a scenario: the reference the page's numbers are checked against.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTxsim } from '../scripts/lib/txsim.mjs';

export interface NativeRun {
  label: string;
  protocol: string;
  digest: string;
  events: number;
  nodes: number;
  summary: { delivery: { mean: number }; latency_ms: { p50: number }; overhead: { mean: number } };
}

/** Runs `txsim run` on a scenario file (or JSON text) and returns its per-run reports. */
export async function nativeRuns(scenario: { file: string } | { json: string }): Promise<NativeRun[]> {
  const binary = await ensureTxsim();
  const dir = mkdtempSync(path.join(tmpdir(), 'txcast-e2e-'));
  let file: string;
  if ('file' in scenario) file = scenario.file;
  else {
    file = path.join(dir, 'scenario.json');
    writeFileSync(file, scenario.json);
  }
  const out = path.join(dir, 'report.json');
  execFileSync(binary, ['run', file, '--out', out], { stdio: 'ignore' });
  return (JSON.parse(readFileSync(out, 'utf8')) as { runs: NativeRun[] }).runs;
}
