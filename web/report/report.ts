// The run report (what `txsim run --out` writes per run) and the figures the page shows from it.
import { count } from '../app/format';

export interface Stat {
  p5?: number;
  mean?: number;
  p50?: number;
  p95?: number;
  p99?: number;
}

export interface RunReport {
  label: string;
  protocol: string;
  seed: number;
  nodes: number;
  txs: number;
  events: number;
  wall_ms: number;
  digest: string;
  summary: {
    delivery: Stat;
    latency_ms: Stat;
    overhead: Stat;
    duplicates: Stat & { copies_mean?: number };
    bytes_up: { payload: Stat; control: Stat };
    bytes_down: { payload: Stat; control: Stat };
    per_tx?: { reach_95_ms?: Stat; reached_all?: number };
  };
  counters: Record<string, unknown>;
  /** Before, during and after each timed event (absent without events). */
  phases?: Phase[];
}

/** One phase of a run with timed events (sim/src/phases.rs): the txs created in it. */
export interface Phase {
  /** "start", or the kinds of the events it begins with ("partition", "heal+join", ...). */
  after: string;
  from_ms: number;
  to_ms: number;
  txs: number;
  delivery: number | null;
  latency_ms: { p50: number | null; p95: number | null };
  reach_95_ms: number | null;
  /** After a heal, a join or a churn's end: until txs spread as before (null: not within the run's load). */
  recovery_ms?: number | null;
}

export function parseReport(json: string): RunReport {
  return JSON.parse(json) as RunReport;
}

export interface Column {
  key: string;
  title: string;
  /** What the figure means, shown as the header's tooltip and in the glossary. */
  help: string;
  value(r: RunReport): number | string;
  format(v: number | string): string;
}

const num = (digits: number) => (v: number | string) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : String(v ?? '–'));
const percent = (v: number | string) => (typeof v === 'number' ? `${(100 * v).toFixed(1)}%` : String(v));
const kb = (v: number | string) => (typeof v === 'number' ? (v / 1000).toFixed(1) : String(v));

export const COLUMNS: Column[] = [
  { key: 'label', title: 'run', help: 'The run label from the scenario.', value: (r) => r.label, format: String },
  { key: 'protocol', title: 'protocol', help: 'The broadcast protocol.', value: (r) => r.protocol, format: String },
  { key: 'delivery', title: 'delivery', help: 'Share of the txs it should get that an honest node received by the end of the run, averaged over honest nodes.', value: (r) => r.summary.delivery.mean ?? NaN, format: percent },
  { key: 'latency_p50', title: 'latency p50 ms', help: 'Median time from a tx being created to its first arrival at a node, over all arrivals at honest nodes.', value: (r) => r.summary.latency_ms.p50 ?? NaN, format: num(1) },
  { key: 'latency_p95', title: 'latency p95 ms', help: 'Each honest node\'s mean arrival latency; the 95th percentile over nodes.', value: (r) => r.summary.latency_ms.p95 ?? NaN, format: num(1) },
  { key: 'reach95', title: 'reach 95% ms', help: 'Time for a tx to reach 95% of honest nodes, averaged over txs.', value: (r) => r.summary.per_tx?.reach_95_ms?.mean ?? NaN, format: num(1) },
  { key: 'overhead', title: 'overhead', help: 'Bytes a node downloads (payload and control) per byte of tx it accepted, averaged over honest nodes; 1 is the ideal.', value: (r) => r.summary.overhead.mean ?? NaN, format: num(2) },
  { key: 'duplicates', title: 'dups / tx', help: 'Extra full copies a node receives of a tx it already has, on average.', value: (r) => r.summary.duplicates.mean ?? NaN, format: num(2) },
  { key: 'up_kb', title: 'up kB / node', help: 'Mean bytes each node uploads (payload + control), in kB.', value: (r) => (r.summary.bytes_up.payload.mean ?? 0) + (r.summary.bytes_up.control.mean ?? 0), format: kb },
  { key: 'events', title: 'events', help: 'Simulator events processed: a measure of the work.', value: (r) => r.events, format: (v) => count(Number(v)) },
  { key: 'digest', title: 'digest', help: 'Fingerprint of the whole run: equal digests mean identical runs (native txsim and WASM agree).', value: (r) => r.digest, format: (v) => String(v).slice(0, 12) },
];

/** The report as CSV: one row per run, the table's columns with full precision. */
export function reportCsv(reports: RunReport[]): string {
  const quote = (v: number | string) => (typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  const lines = [COLUMNS.map((c) => c.key).join(',')];
  for (const r of reports) lines.push(COLUMNS.map((c) => quote(c.value(r))).join(','));
  return `${lines.join('\n')}\n`;
}
