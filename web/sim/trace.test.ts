import { describe, expect, it } from 'vitest';
import { arrivalsFromScan, deliveryOverTime, firstCopySenders, indexByTx, latenciesMs, TraceView, type TraceData } from './trace';
import { SendField } from '../wasm/txcast_wasm.js';
import type { DuplicatesReply } from '../../workers/protocol';

// Two txs on 4 nodes: tx 0 from node 0 at t=0 reaches 1 and 2; tx 1 from node 3 at t=100 reaches 2.
const trace: TraceData = {
  nodes: 4,
  endUs: 1000,
  txPlan: Float64Array.of(0, 0, 100, 3),
  deliveries: Float64Array.of(0, 0, 0, 100, 3, 1, 120, 1, 0, 300, 2, 0, 350, 2, 1),
};

/** A worker's answer: tx `tx`'s copies (t_us, node pairs) from row `fromRow` to `rows`. */
const reply = (tx: number, fromRow: number, pairs: number[], rows: number, throughUs: number, keptUntilUs = Infinity): DuplicatesReply => ({ kind: 'duplicates', id: 1, tx, fromRow, duplicates: Float64Array.from(pairs), rows, throughUs, keptUntilUs });

describe('TraceView', () => {
  const view = new TraceView(trace);

  it('gives a tx its arrivals per node and in time order', () => {
    const tx0 = view.tx(0);
    expect(Array.from(tx0.arrivalUs)).toEqual([0, 120, 300, -1]);
    expect(Array.from(tx0.times)).toEqual([0, 120, 300]);
    expect(tx0.lastUs).toBe(300);
    const tx1 = view.tx(1);
    expect(tx1.origin).toBe(3);
    expect(Array.from(tx1.arrivalUs)).toEqual([-1, -1, 350, 100]);
    expect(tx1.duplicates.length).toBe(0);
  });

  it("holds the picked tx's duplicate copies as its worker sends them, row after row", () => {
    const v = new TraceView(trace);
    // Nothing held yet: ask from row 0.
    expect(v.duplicatesFrom(0, 250)).toBe(0);
    v.addDuplicates(reply(0, 0, [200, 1], 2, 250));
    expect(Array.from(v.tx(0).duplicates)).toEqual([200, 1]);
    // Complete up to the time computed: nothing to ask; computed further: from the rows read.
    expect(v.duplicatesFrom(0, 250)).toBeNull();
    expect(v.duplicatesFrom(0, 500)).toBe(2);
    // An answer that does not go on from the rows held (a stale one) is dropped.
    v.addDuplicates(reply(0, 1, [999, 3], 3, 500));
    expect(Array.from(v.tx(0).duplicates)).toEqual([200, 1]);
    v.addDuplicates(reply(0, 2, [400, 2], 4, Infinity));
    expect(Array.from(v.tx(0).duplicates)).toEqual([200, 1, 400, 2]);
    expect(v.duplicatesFrom(0, 1000)).toBeNull();
    // Another tx starts from row 0, and its copies replace the last tx's.
    expect(Array.from(v.tx(1).duplicates)).toEqual([]);
    expect(v.duplicatesFrom(1, 1000)).toBe(0);
    v.addDuplicates(reply(1, 0, [500, 0], 4, Infinity));
    expect(Array.from(v.tx(1).duplicates)).toEqual([500, 0]);
    expect(Array.from(v.tx(0).duplicates)).toEqual([]);
    expect(v.duplicatesFrom(0, 1000)).toBe(0);
    // Copies the worker did not keep (past its bound) are said to be missing from then on.
    expect(v.duplicatesKeptUs(1)).toBe(Infinity);
    v.addDuplicates(reply(1, 4, [], 4, Infinity, 700));
    expect(v.duplicatesKeptUs(1)).toBe(700);
    expect(v.duplicatesKeptUs(0)).toBe(Infinity);
  });

  it('finds the latest tx created by a time', () => {
    expect(view.latestTx(50)).toBe(0);
    expect(view.latestTx(100)).toBe(1);
    expect(view.latestTx(5000)).toBe(1);
  });
});

describe('aggregates', () => {
  it('indexes events by tx, ignoring unknown txs', () => {
    const index = indexByTx(Float64Array.of(5, 0, 1, 6, 0, 0, 7, 0, 9), 2);
    expect(Array.from(index.start)).toEqual([0, 1, 2]);
    expect(Array.from(index.events)).toEqual([1, 0]);
  });

  it('gives each first arrival\'s latency in ms from its tx\'s creation, in delivery order', () => {
    expect(Array.from(latenciesMs(trace))).toEqual([0, 0, 0.12, 0.3, 0.25]);
  });

  it('accumulates the delivered share over time up to all delivered pairs', () => {
    const { tMs, share } = deliveryOverTime(trace, 4);
    expect(Array.from(tMs)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(Array.from(share)).toEqual([3 / 8, 5 / 8, 5 / 8, 5 / 8]);
    const early = deliveryOverTime({ ...trace, endUs: 400 }, 4);
    expect(Array.from(early.share)).toEqual([1 / 8, 3 / 8, 3 / 8, 5 / 8]);
  });
});

describe('streaming and the path a tx took', () => {
  it('indexes chunks as they are appended, as if the trace came whole', () => {
    const growing: TraceData = { ...trace, deliveries: trace.deliveries.subarray(0, 6) };
    const live = new TraceView(growing);
    expect(Array.from(live.tx(0).arrivalUs)).toEqual([0, -1, -1, -1]);
    growing.deliveries = trace.deliveries;
    live.extend();
    expect(Array.from(live.tx(0).arrivalUs)).toEqual(Array.from(new TraceView(trace).tx(0).arrivalUs));
    expect(Array.from(live.tx(1).arrivalUs)).toEqual([-1, -1, 350, 100]);
  });

  // Sends: t, from, to, kind, bytes, payload, arrive, lost, tx.
  const send = (t: number, from: number, to: number, arrive: number, tx: number, lost = 0) => [t, from, to, 0, 300, 250, arrive, lost, tx, tx];

  it('gives each node the sender of the first copy that reached it, ignoring lost and later copies', () => {
    const sends = Float64Array.from([
      ...send(0, 0, 1, 120, 0),
      ...send(0, 0, 2, 90, 0, 1), // lost
      ...send(120, 1, 2, 300, 0),
      ...send(150, 3, 2, 280, 1), // another tx
      ...send(130, 1, 0, 330, 0), // a duplicate back to the origin
    ]);
    const v = new TraceView({ ...trace, sends }).tx(0);
    // Its sends are rows of the trace's own, not copies.
    expect(v.sendRows).toEqual([0, 1, 2, 4]);
    expect(Array.from(v.parent!)).toEqual([-1, 0, 1, -1]);
    expect(Array.from(v.hops!)).toEqual([0, 1, 2, -1]);
    // Given one tx's sends, a node not reached by the time a copy lands has no parent.
    const own = Float64Array.from(v.sendRows!.flatMap((r) => Array.from(sends.subarray(r * SendField.Stride, (r + 1) * SendField.Stride))));
    expect(Array.from(firstCopySenders(own, Float64Array.of(-1, 120, 200, -1)))).toEqual([-1, 0, -1, -1]);
  });

  it('reads a range scan (node, seq, arrival) into one tx\'s arrivals', () => {
    const scan = Float64Array.of(0, 0, 0, 1, 0, 120, 2, 1, 350, 7, 0, 5);
    expect(Array.from(arrivalsFromScan(scan, 0, 4))).toEqual([0, 120, -1, -1]);
    expect(Array.from(arrivalsFromScan(scan, 1, 4))).toEqual([-1, -1, 350, -1]);
  });
});
