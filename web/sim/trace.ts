// Views of a recorded run: what one tx did (kept up to date as a streaming run's trace grows),
// and aggregates for the charts. Drawing a frame only reads them.
import type { DuplicatesReply, FirstCopiesReply, RunTrace } from '../../workers/protocol';
import { ArrivalField, SendField } from '../wasm/txcast_wasm.js';
import { GrowingTx } from './growing-tx';
import { HeldRecords } from './held-records';

/** The parts of a trace these views read (tests build them by hand). */
export type TraceData = Pick<RunTrace, 'nodes' | 'endUs' | 'txPlan' | 'deliveries'>;

/** Offsets (in triples) of the events of each tx, in time order: a CSR index over a t,node,tx array. */
export interface TxIndex {
  start: Uint32Array;
  events: Uint32Array;
}

export function indexByTx(triples: Float64Array, txs: number): TxIndex {
  const count = new Uint32Array(txs + 1);
  const n = Math.floor(triples.length / ArrivalField.Stride);
  for (let i = 0; i < n; i += 1) {
    const tx = triples[i * ArrivalField.Stride + ArrivalField.Tx];
    if (tx < txs) count[tx + 1] += 1;
  }
  for (let tx = 0; tx < txs; tx += 1) count[tx + 1] += count[tx];
  const events = new Uint32Array(count[txs]);
  const fill = count.slice(0, txs);
  for (let i = 0; i < n; i += 1) {
    const tx = triples[i * ArrivalField.Stride + ArrivalField.Tx];
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
  /** Duplicate copies: t_us, node pairs, in time order (as far as the run's worker has sent them). */
  duplicates: Float64Array;
  /** Latest first arrival, or the creation time when only the origin has it. */
  lastUs: number;
  /**
   * Rows of this tx's sends (full copies) in the trace's own sends (`RunTrace.sends`, the first
   * `SEND_CAP`), in send order: read there, not copied (a 50,000-node flood's first tx has most
   * of them); empty without sends.
   */
  sendRows?: readonly number[];
  /** Per node, who sent it the copy that arrived first (-1: none seen, or the origin). */
  parent?: Int32Array;
  /** Per node, hops from the origin along `parent` (0 at the origin, -1 where unknown). */
  hops?: Int16Array;
}

/** Event indices of each tx, appended as chunks of a streaming run arrive. */
class PerTx {
  private lists: number[][];
  /** Triples (or strides) indexed so far. */
  seen = 0;

  constructor(txs: number) {
    this.lists = Array.from({ length: txs }, () => []);
  }

  /** Indexes the records of `data` (of `stride` numbers, tx at `txAt`) not seen yet. */
  extend(data: Float64Array, stride: number, txAt: number): void {
    const n = Math.floor(data.length / stride);
    for (let i = this.seen; i < n; i += 1) {
      const tx = data[i * stride + txAt];
      if (tx >= 0 && tx < this.lists.length) this.lists[tx].push(i);
    }
    this.seen = n;
  }

  of(tx: number): readonly number[] {
    return this.lists[tx] ?? [];
  }
}

export class TraceView {
  readonly txs: number;
  private readonly byTxDeliveries: PerTx;
  private readonly byTxSends: PerTx;
  private followed: GrowingTx | null = null;
  /**
   * The picked tx's duplicate copies, as its run's worker sent them: the worker keeps every
   * run's copies (`DuplicateStore`; a 50,000-node flood lands millions), the page one tx's.
   */
  private readonly copies = new HeldRecords();
  /** The picked tx's first copies past the sends the chunks carried (node, lands_us, from triples). */
  private readonly lateCopies = new HeldRecords();

  constructor(readonly trace: TraceData & { sends?: Float64Array }) {
    this.txs = trace.txPlan.length / 2;
    this.byTxDeliveries = new PerTx(this.txs);
    this.byTxSends = new PerTx(this.txs);
    this.extend();
  }

  /**
   * The worker's row to ask for tx `tx`'s duplicate copies from (0: none held yet), or null when
   * those held are complete up to `computedUs`, the time the run has been computed to.
   */
  duplicatesFrom(tx: number, computedUs: number): number | null {
    return this.copies.from(tx, computedUs);
  }

  /** Takes the worker's answer: kept if it starts a tx's copies or goes on from the rows held. */
  addDuplicates(reply: DuplicatesReply): void {
    if (reply.tx >= 0 && reply.tx < this.txs) this.copies.add({ ...reply, data: reply.duplicates });
  }

  /** When tx `tx`'s copies stop being all there (Infinity: they are all there): the worker keeps a bounded number. */
  duplicatesKeptUs(tx: number): number {
    return this.copies.keptUs(tx);
  }

  /**
   * The worker's row to ask for where tx `tx`'s copies landed first past the sends the chunks
   * carried (null: not needed, the chunks carried every send so far, or those held are complete
   * up to `computedUs`).
   */
  lateCopiesFrom(tx: number, computedUs: number, sendCount: number): number | null {
    const carried = (this.trace.sends?.length ?? 0) / SendField.Stride;
    return sendCount > carried ? this.lateCopies.from(tx, computedUs) : null;
  }

  addLateCopies(reply: FirstCopiesReply): void {
    if (reply.tx >= 0 && reply.tx < this.txs) this.lateCopies.add({ ...reply, data: reply.copies });
  }

  /**
   * Indexes what the trace gained since the last call (a streaming run's new chunk), and brings
   * the tx last asked for up to date now rather than in the next frame, which has enough to do.
   */
  extend(): void {
    this.byTxDeliveries.extend(this.trace.deliveries, 3, 2);
    if (this.trace.sends) this.byTxSends.extend(this.trace.sends, SendField.Stride, SendField.Tx);
    if (this.followed) this.tx(this.followed.tx);
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

  /** Tx `tx` as recorded so far; the last tx asked for is kept and brought up to date. */
  tx(tx: number): TxView {
    if (this.followed?.tx !== tx) this.followed = new GrowingTx(tx, this.trace.nodes, this.createdUs(tx), this.trace.txPlan[2 * tx + 1]);
    return this.followed.view(this.trace, { deliveries: this.byTxDeliveries.of(tx), sends: this.byTxSends.of(tx), lateCopies: this.lateCopies.of(tx) }, this.copies.of(tx));
  }
}

/**
 * Per node, the sender of the earliest-arriving copy that landed by the node's first arrival:
 * the hop the tx took to reach it. Lost copies do not count. (The whole-trace definition of the
 * parents `GrowingTx` keeps up to date chunk by chunk.)
 */
export function firstCopySenders(sends: Float64Array, arrivalUs: Float64Array): Int32Array {
  const parent = new Int32Array(arrivalUs.length).fill(-1);
  const best = new Float64Array(arrivalUs.length).fill(Infinity);
  for (let o = 0; o + SendField.Stride <= sends.length; o += SendField.Stride) {
    const to = sends[o + SendField.To];
    const arrive = sends[o + SendField.Arrive];
    if (sends[o + SendField.Lost] !== 0 || arrivalUs[to] < 0 || arrive > arrivalUs[to] || arrive >= best[to]) continue;
    best[to] = arrive;
    parent[to] = sends[o + SendField.From];
  }
  return parent;
}

/**
 * A tx's state at a time from the arrival logs' range scan (node, seq, arrival_us triples, as
 * the engine's `arrivals_range` gives them): first arrival per node, -1 where it has not arrived.
 */
export function arrivalsFromScan(scan: Float64Array, tx: number, nodes: number): Float64Array {
  const arrivalUs = new Float64Array(nodes).fill(-1);
  for (let i = 0; i + 2 < scan.length; i += 3) {
    if (scan[i + 1] === tx && scan[i] < nodes) arrivalUs[scan[i]] = scan[i + 2];
  }
  return arrivalUs;
}

/** Every first arrival's latency (ms after its tx was created), in the order of the deliveries. */
export function latenciesMs(trace: TraceData): Float64Array {
  const { deliveries, txPlan } = trace;
  const n = Math.floor(deliveries.length / ArrivalField.Stride);
  const out = new Float64Array(n);
  for (let o = 0; o < n * ArrivalField.Stride; o += ArrivalField.Stride) {
    out[o / ArrivalField.Stride] = (deliveries[o + ArrivalField.Time] - txPlan[2 * deliveries[o + ArrivalField.Tx]]) / 1000;
  }
  return out;
}

/** Share of all (node, tx) pairs delivered by the end of each of `bins` equal time bins. */
export function deliveryOverTime(trace: TraceData, bins: number): { tMs: Float64Array; share: Float64Array } {
  const { deliveries, nodes, txPlan, endUs } = trace;
  const total = Math.max(1, nodes * (txPlan.length / 2));
  const binUs = Math.max(1, endUs / bins);
  const counts = new Float64Array(bins);
  for (let o = 0; o + ArrivalField.Stride <= deliveries.length; o += ArrivalField.Stride) {
    counts[Math.min(bins - 1, Math.floor(deliveries[o + ArrivalField.Time] / binUs))] += 1;
  }
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

/**
 * Delivery by creation time: for the txs created in each `binMs`, the share of the nodes they
 * reached by the end of the run, among the nodes never adversarial (the origin aside). A
 * partition or a leave shows as a dip for the txs created while it lasts.
 */
export function deliveryByCreation(trace: TraceData & Pick<RunTrace, 'adversaries'>, binMs: number): { tMs: Float64Array; share: Float64Array } {
  const { deliveries, nodes, txPlan, endUs, adversaries } = trace;
  const binUs = Math.max(1, binMs * 1000);
  const bins = Math.max(1, Math.ceil(endUs / binUs));
  const honest = nodes - adversaries.reduce((n, a) => n + a, 0);
  const reached = new Float64Array(bins);
  const targets = new Float64Array(bins);
  const bin = (tx: number) => Math.min(bins - 1, Math.floor(txPlan[2 * tx] / binUs));
  for (let tx = 0; tx < txPlan.length / 2; tx += 1) targets[bin(tx)] += honest - (adversaries[txPlan[2 * tx + 1]] ? 0 : 1);
  for (let o = 0; o + ArrivalField.Stride <= deliveries.length; o += ArrivalField.Stride) {
    const node = deliveries[o + ArrivalField.Node];
    const tx = deliveries[o + ArrivalField.Tx];
    if (adversaries[node] || node === txPlan[2 * tx + 1]) continue;
    reached[bin(tx)] += 1;
  }
  const kept = Array.from({ length: bins }, (_, b) => b).filter((b) => targets[b] > 0);
  return {
    tMs: Float64Array.from(kept, (b) => ((b + 0.5) * binUs) / 1000),
    share: Float64Array.from(kept, (b) => reached[b] / targets[b]),
  };
}
