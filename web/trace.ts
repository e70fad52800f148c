// Pure views of a recorded run: what one tx did, and aggregates for the charts. Built once per
// trace; drawing a frame only reads them.
import type { RunTrace } from '../workers/protocol';

/** The parts of a trace these views read (tests build them by hand). */
export type TraceData = Pick<RunTrace, 'nodes' | 'endUs' | 'txPlan' | 'deliveries' | 'duplicates'>;

/** Offsets (in triples) of the events of each tx, in time order: a CSR index over a t,node,tx array. */
export interface TxIndex {
  start: Uint32Array;
  events: Uint32Array;
}

export function indexByTx(triples: Float64Array, txs: number): TxIndex {
  const count = new Uint32Array(txs + 1);
  const n = Math.floor(triples.length / 3);
  for (let i = 0; i < n; i += 1) {
    const tx = triples[3 * i + 2];
    if (tx < txs) count[tx + 1] += 1;
  }
  for (let tx = 0; tx < txs; tx += 1) count[tx + 1] += count[tx];
  const events = new Uint32Array(count[txs]);
  const fill = count.slice(0, txs);
  for (let i = 0; i < n; i += 1) {
    const tx = triples[3 * i + 2];
    if (tx < txs) events[fill[tx]++] = i;
  }
  return { start: count, events };
}

export interface TxView {
  tx: number;
  createdUs: number;
  origin: number;
  /** First arrival per node (us), -1 if never. */
  arrivalUs: Float64Array;
  /** Arrivals in time order (us), for stepping hop by hop. */
  times: Float64Array;
  /** Duplicate copies: t_us, node pairs. */
  duplicates: Float64Array;
  /** Latest first arrival, or the creation time when only the origin has it. */
  lastUs: number;
}

export class TraceView {
  readonly txs: number;
  private readonly byTxDeliveries: TxIndex;
  private readonly byTxDuplicates: TxIndex;

  constructor(readonly trace: TraceData) {
    this.txs = trace.txPlan.length / 2;
    this.byTxDeliveries = indexByTx(trace.deliveries, this.txs);
    this.byTxDuplicates = indexByTx(trace.duplicates, this.txs);
  }

  createdUs(tx: number): number {
    return this.trace.txPlan[2 * tx];
  }

  /** The last tx created at or before `tUs` (the plan is in creation order), or 0. */
  latestTx(tUs: number): number {
    let lo = 0;
    let hi = this.txs - 1;
    let best = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.createdUs(mid) <= tUs) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  }

  tx(tx: number): TxView {
    const { deliveries, duplicates, nodes, txPlan } = this.trace;
    const arrivalUs = new Float64Array(nodes).fill(-1);
    const d = this.byTxDeliveries;
    const times = new Float64Array(d.start[tx + 1] - d.start[tx]);
    for (let k = d.start[tx]; k < d.start[tx + 1]; k += 1) {
      const i = d.events[k];
      arrivalUs[deliveries[3 * i + 1]] = deliveries[3 * i];
      times[k - d.start[tx]] = deliveries[3 * i];
    }
    const u = this.byTxDuplicates;
    const dup = new Float64Array(2 * (u.start[tx + 1] - u.start[tx]));
    for (let k = u.start[tx]; k < u.start[tx + 1]; k += 1) {
      const i = u.events[k];
      dup[2 * (k - u.start[tx])] = duplicates[3 * i];
      dup[2 * (k - u.start[tx]) + 1] = duplicates[3 * i + 1];
    }
    const createdUs = txPlan[2 * tx];
    return { tx, createdUs, origin: txPlan[2 * tx + 1], arrivalUs, times, duplicates: dup, lastUs: times.length ? times[times.length - 1] : createdUs };
  }
}

/** Every first arrival's latency (ms after its tx was created), sorted: the latency CDF's x values. */
export function latenciesMs(trace: TraceData): Float64Array {
  const { deliveries, txPlan } = trace;
  const n = Math.floor(deliveries.length / 3);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) out[i] = (deliveries[3 * i] - txPlan[2 * deliveries[3 * i + 2]]) / 1000;
  return out.sort();
}

/** Share of all (node, tx) pairs delivered by the end of each of `bins` equal time bins. */
export function deliveryOverTime(trace: TraceData, bins: number): { tMs: Float64Array; share: Float64Array } {
  const { deliveries, nodes, txPlan, endUs } = trace;
  const total = Math.max(1, nodes * (txPlan.length / 2));
  const binUs = Math.max(1, endUs / bins);
  const counts = new Float64Array(bins);
  for (let i = 0; i + 2 < deliveries.length; i += 3) counts[Math.min(bins - 1, Math.floor(deliveries[i] / binUs))] += 1;
  const tMs = new Float64Array(bins);
  const share = new Float64Array(bins);
  let sum = 0;
  for (let b = 0; b < bins; b += 1) {
    sum += counts[b];
    tMs[b] = ((b + 1) * binUs) / 1000;
    share[b] = sum / total;
  }
  return { tMs, share };
}
