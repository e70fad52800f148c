// One tx's view of a trace that grows while its run computes. Each update reads only the records
// it has not read yet, so a frame drawn behind the engine costs what the last chunk added, not
// what the tx did so far. The result equals a view built from the whole trace at once.
import { ArrivalField, SendField } from '../wasm/txcast_wasm.js';
import { Growable } from './growable';
import type { TxView } from './trace';

/** The trace arrays a tx view reads (deliveries: t_us, node, tx). */
export interface TxTrace {
  deliveries: Float64Array;
  sends?: Float64Array;
}

/** Indices of one tx's records in the trace arrays, in trace order (lists that only grow). */
export interface TxRecords {
  deliveries: readonly number[];
  sends: readonly number[];
  /**
   * Where its copies landed first among the sends past those the trace carries, as the run's
   * worker found them: (node, lands_us, from) triples, in the order found (only grows).
   */
  lateCopies?: Float64Array;
}

const NO_COPIES = new Float64Array(0);

export class GrowingTx {
  private readonly arrivalUs: Float64Array;
  private readonly times = new Growable(64);
  /** Nodes in the order the tx reached them (the order hops are counted in). */
  private readonly reached: number[] = [];
  /** Per node, the earliest landing of a copy that was not lost, and its sender (first sent wins a tie). */
  private readonly earliestUs: Float64Array;
  private readonly earliestFrom: Int32Array;
  private readonly parent: Int32Array;
  private readonly hops: Int16Array;
  private read = { deliveries: 0, sends: 0, lateCopies: 0 };
  /** A parent changed after hops were counted from it: count them again. */
  private hopsStale = false;
  private current: TxView | null = null;

  constructor(
    readonly tx: number,
    private readonly nodes: number,
    private readonly createdUs: number,
    private readonly origin: number,
  ) {
    this.arrivalUs = new Float64Array(nodes).fill(-1);
    this.earliestUs = new Float64Array(nodes).fill(Infinity);
    this.earliestFrom = new Int32Array(nodes).fill(-1);
    this.parent = new Int32Array(nodes).fill(-1);
    this.hops = new Int16Array(nodes).fill(-1);
    if (origin < nodes) this.hops[origin] = 0;
  }

  /** The view with every record in `records` read, and the tx's duplicate copies known (t_us, node pairs). */
  view(trace: TxTrace, records: TxRecords, duplicates: Float64Array): TxView {
    const late = records.lateCopies ?? NO_COPIES;
    const grew = this.read.deliveries < records.deliveries.length || this.read.sends < records.sends.length || this.read.lateCopies < late.length;
    if (grew || !this.current || this.current.duplicates !== duplicates) {
      // Sends first: a copy is sent before it lands, so this chunk's sends may be the parents of its arrivals.
      this.readSends(trace.sends ?? NO_COPIES, records.sends);
      for (; this.read.lateCopies + 3 <= late.length; this.read.lateCopies += 3) {
        const at = this.read.lateCopies;
        this.landed(late[at], late[at + 1], late[at + 2]);
      }
      this.readDeliveries(trace.deliveries, records.deliveries);
      if (this.hopsStale) this.countHops();
      const times = this.times.view();
      this.current = {
        tx: this.tx,
        createdUs: this.createdUs,
        origin: this.origin,
        arrivalUs: this.arrivalUs,
        times,
        duplicates,
        lastUs: times.length ? times[times.length - 1] : this.createdUs,
        sendRows: records.sends,
        parent: this.parent,
        hops: this.hops,
      };
    }
    return this.current;
  }

  private readSends(all: Float64Array, indices: readonly number[]): void {
    for (; this.read.sends < indices.length; this.read.sends += 1) {
      const o = indices[this.read.sends] * SendField.Stride;
      if (all[o + SendField.Lost] === 0) this.landed(all[o + SendField.To], all[o + SendField.Arrive], all[o + SendField.From]);
    }
  }

  /** A copy from `from` landed at `to` (not lost), sent after every copy seen so far. */
  private landed(to: number, landsUs: number, from: number): void {
    if (!(landsUs < this.earliestUs[to])) return;
    this.earliestUs[to] = landsUs;
    this.earliestFrom[to] = from;
    // Only a node already reached has a parent: its hops, and those counted from it, may change.
    if (this.setParent(to)) this.hopsStale = true;
  }

  private readDeliveries(all: Float64Array, indices: readonly number[]): void {
    this.times.reserve(indices.length - this.read.deliveries);
    for (; this.read.deliveries < indices.length; this.read.deliveries += 1) {
      const i = indices[this.read.deliveries];
      const t = all[i * ArrivalField.Stride + ArrivalField.Time];
      const node = all[i * ArrivalField.Stride + ArrivalField.Node];
      const again = this.arrivalUs[node] >= 0;
      this.arrivalUs[node] = t;
      this.times.push(t);
      this.reached.push(node);
      if (this.setParent(node) && again) this.hopsStale = true;
      this.countHop(node);
    }
  }

  /** Sets a node's parent (the sender of the earliest copy, if it landed by the node's arrival); true if it changed. */
  private setParent(node: number): boolean {
    const arrival = this.arrivalUs[node];
    const parent = arrival >= 0 && this.earliestUs[node] <= arrival ? this.earliestFrom[node] : -1;
    if (parent === this.parent[node]) return false;
    this.parent[node] = parent;
    return true;
  }

  private countHop(node: number): void {
    const p = this.parent[node];
    if (p >= 0 && this.hops[p] >= 0 && this.hops[node] < 0) this.hops[node] = Math.min(32767, this.hops[p] + 1);
  }

  /** Hops from the origin along parents, in the order nodes were reached. */
  private countHops(): void {
    this.hops.fill(-1);
    if (this.origin < this.nodes) this.hops[this.origin] = 0;
    for (const node of this.reached) this.countHop(node);
    this.hopsStale = false;
  }
}
