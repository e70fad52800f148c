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

/** A run's sends as the native txsim traces them: when each left and landed, and whether it was lost. */
export interface NativeSends {
  sentUs: Float64Array;
  arriveUs: Float64Array;
  lost: Uint8Array;
  /** The tx a send carries in full, -1 if none. */
  tx: Int32Array;
  from: Int32Array;
  to: Int32Array;
  /** The run's deliveries: t_us, node, tx triples in the engine's order. */
  deliveries: Float64Array;
  /** The run's duplicate copies: when each landed and of which tx. */
  duplicateUs: Float64Array;
  duplicateTx: Int32Array;
}

/** The lines of `txsim run --trace` on a scenario (JSON text): one event each, in the engine's order. */
async function traceLines(json: string): Promise<string[]> {
  const binary = await ensureTxsim();
  const dir = mkdtempSync(path.join(tmpdir(), 'txcast-e2e-'));
  const file = path.join(dir, 'scenario.json');
  writeFileSync(file, json);
  const trace = path.join(dir, 'trace.jsonl');
  execFileSync(binary, ['run', file, '--trace', trace, '--quiet'], { stdio: 'ignore' });
  return readFileSync(trace, 'utf8').split('\n');
}

/** Runs `txsim run --trace` on a one-protocol scenario and reads its sends, in send order, and its duplicate copies. */
export async function nativeSends(json: string): Promise<NativeSends> {
  const sent: number[] = [];
  const arrive: number[] = [];
  const lost: number[] = [];
  const tx: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const deliveries: number[] = [];
  const duplicateUs: number[] = [];
  const duplicateTx: number[] = [];
  for (const line of await traceLines(json)) {
    if (line.includes('"ev":"duplicate"')) {
      const copy = JSON.parse(line) as { t_us: number; tx: number };
      duplicateUs.push(copy.t_us);
      duplicateTx.push(copy.tx);
    }
    if (line.includes('"ev":"deliver"')) {
      const d = JSON.parse(line) as { t_us: number; node: number; tx: number };
      deliveries.push(d.t_us, d.node, d.tx);
    }
    if (!line.includes('"ev":"send"')) continue;
    const send = JSON.parse(line) as { t_us: number; arrive_us: number; lost: boolean; tx?: number | null; from: number; to: number };
    sent.push(send.t_us);
    arrive.push(send.arrive_us);
    lost.push(send.lost ? 1 : 0);
    tx.push(send.tx ?? -1);
    from.push(send.from);
    to.push(send.to);
  }
  return { sentUs: Float64Array.from(sent), arriveUs: Float64Array.from(arrive), lost: Uint8Array.from(lost), tx: Int32Array.from(tx), from: Int32Array.from(from), to: Int32Array.from(to), deliveries: Float64Array.from(deliveries), duplicateUs: Float64Array.from(duplicateUs), duplicateTx: Int32Array.from(duplicateTx) };
}

/**
 * The trace export's rows as the native `txsim run --trace` gives them: per run, its first
 * arrivals then its duplicate copies, each as `label,event,t_us,node,tx` in the engine's order.
 */
export async function nativeTraceRows(json: string): Promise<string[]> {
  const runs = new Map<string, { deliver: string[]; duplicate: string[] }>();
  for (const line of await traceLines(json)) {
    if (!line.includes('"ev":"deliver"') && !line.includes('"ev":"duplicate"')) continue;
    const e = JSON.parse(line) as { run: string; ev: 'deliver' | 'duplicate'; t_us: number; node: number; tx: number };
    if (!runs.has(e.run)) runs.set(e.run, { deliver: [], duplicate: [] });
    runs.get(e.run)![e.ev].push(`${e.run},${e.ev},${e.t_us},${e.node},${e.tx}`);
  }
  return [...runs.values()].flatMap((r) => [...r.deliver, ...r.duplicate]);
}

/**
 * Sends in flight at `tUs` (left by then, not landed yet, not lost; copies of tx `of` only, if
 * given), and how many of them come at or after send `from`.
 */
/** Per node, the index of the first copy of tx `tx` to land there, not lost (the first sent wins a tie); -1 for none. */
export function firstCopies(sends: NativeSends, tx: number, nodes: number): Int32Array {
  const first = new Int32Array(nodes).fill(-1);
  for (let i = 0; i < sends.tx.length; i += 1) {
    const node = sends.to[i];
    if (sends.tx[i] !== tx || sends.lost[i]) continue;
    if (first[node] < 0 || sends.arriveUs[i] < sends.arriveUs[first[node]]) first[node] = i;
  }
  return first;
}

/**
 * Per node, who sent it the first copy of tx `tx` to land, if it landed by the node's first
 * arrival; -1 where none did (the origin, or not reached): the parents the page's hop rings
 * are drawn from.
 */
export function firstCopyParents(sends: NativeSends, tx: number, nodes: number): number[] {
  const arrival = new Float64Array(nodes).fill(Infinity);
  for (let i = 0; i + 3 <= sends.deliveries.length; i += 3) {
    const node = sends.deliveries[i + 1];
    if (sends.deliveries[i + 2] === tx) arrival[node] = Math.min(arrival[node], sends.deliveries[i]);
  }
  return Array.from(firstCopies(sends, tx, nodes), (i, node) => (i >= 0 && sends.arriveUs[i] <= arrival[node] ? sends.from[i] : -1));
}

export function inFlight(sends: NativeSends, tUs: number, from = 0, of = -1): { all: number; since: number } {
  let all = 0;
  let since = 0;
  for (let i = 0; i < sends.sentUs.length; i += 1) {
    if (sends.sentUs[i] > tUs || sends.arriveUs[i] <= tUs || sends.lost[i] || (of >= 0 && sends.tx[i] !== of)) continue;
    all += 1;
    if (i >= from) since += 1;
  }
  return { all, since };
}
