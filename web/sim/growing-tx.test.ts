import { describe, expect, it } from 'vitest';
import { DuplicateStore } from '../../workers/duplicate-store';
import { SEND_STRIDE } from '../../workers/protocol';
import { SendStore } from '../../workers/send-store';
import { firstCopySenders, TraceView, type TraceData } from './trace';

/** A seeded generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A trace with its duplicate copies (t_us, node, tx), which the page asks the run's worker for. */
type Trace = TraceData & { sends: Float64Array; duplicates: Float64Array };

/**
 * A flood of `txs` txs over a random network of `nodes`: every node forwards its first copy to
 * its peers; copies may be lost and some land with no delay (ties with the arrival they cause).
 */
function flood(seed: number, nodes: number, txs: number): Trace {
  const rand = random(seed);
  const peers = Array.from({ length: nodes }, () => new Set<number>());
  for (let e = 0; e < nodes * 3; e += 1) {
    const a = Math.floor(rand() * nodes);
    const b = Math.floor(rand() * nodes);
    if (a === b) continue;
    peers[a].add(b);
    peers[b].add(a);
  }
  const plan: number[] = [];
  const sends: number[][] = [];
  const deliveries: number[][] = [];
  const duplicates: number[][] = [];
  for (let tx = 0; tx < txs; tx += 1) {
    const created = Math.floor(rand() * 500);
    const origin = Math.floor(rand() * nodes);
    plan.push(created, origin);
    const arrival = new Map<number, number>([[origin, created]]);
    deliveries.push([created, origin, tx]);
    const queue: [number, number][] = [[created, origin]];
    while (queue.length) {
      queue.sort((x, y) => x[0] - y[0]);
      const [t, from] = queue.shift()!;
      for (const to of peers[from]) {
        const lands = t + (rand() < 0.1 ? 0 : Math.floor(rand() * 100));
        const lost = rand() < 0.1 ? 1 : 0;
        sends.push([t, from, to, 0, 300, 250, lands, lost, tx, tx]);
        if (lost) continue;
        const had = arrival.get(to);
        if (had === undefined || lands < had) {
          if (had === undefined) queue.push([lands, to]);
          arrival.set(to, lands);
        } else duplicates.push([lands, to, tx]);
      }
    }
    for (const [node, t] of arrival) if (node !== origin) deliveries.push([t, node, tx]);
  }
  const byTime = (rows: number[][]) => Float64Array.from(rows.sort((x, y) => x[0] - y[0]).flat());
  return { nodes, endUs: 10_000, txPlan: Float64Array.from(plan), deliveries: byTime(deliveries), duplicates: byTime(duplicates), sends: byTime(sends) };
}

/** What a whole-trace view of tx `tx` holds: arrivals, the path (parents and hops), duplicates, sends. */
function wholeView(trace: Trace, tx: number) {
  const arrivalUs = new Float64Array(trace.nodes).fill(-1);
  const order: number[] = [];
  for (let i = 0; i + 2 < trace.deliveries.length; i += 3) {
    if (trace.deliveries[i + 2] !== tx) continue;
    arrivalUs[trace.deliveries[i + 1]] = trace.deliveries[i];
    order.push(trace.deliveries[i + 1]);
  }
  const sends: number[] = [];
  for (let o = 0; o + SEND_STRIDE <= trace.sends.length; o += SEND_STRIDE) if (trace.sends[o + 8] === tx) sends.push(...trace.sends.subarray(o, o + SEND_STRIDE));
  const parent = firstCopySenders(Float64Array.from(sends), arrivalUs);
  const hops = new Int16Array(trace.nodes).fill(-1);
  hops[trace.txPlan[2 * tx + 1]] = 0;
  for (const node of order) if (parent[node] >= 0 && hops[parent[node]] >= 0 && hops[node] < 0) hops[node] = hops[parent[node]] + 1;
  const duplicates: number[] = [];
  for (let i = 0; i + 2 < trace.duplicates.length; i += 3) if (trace.duplicates[i + 2] === tx) duplicates.push(trace.duplicates[i], trace.duplicates[i + 1]);
  return { arrivalUs: Array.from(arrivalUs), parent: Array.from(parent), hops: Array.from(hops), duplicates, sends };
}

/** The first `n` records (of `stride` numbers) of an array. */
const prefix = (data: Float64Array, stride: number, n: number) => data.subarray(0, Math.min(data.length, n * stride));

describe('a tx followed while its trace grows', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`ends as the whole-trace view, whatever the chunks (seed ${seed})`, () => {
      const whole = flood(seed, 40, 3);
      const rand = random(100 + seed);
      // Each array is cut on its own, so arrivals may come before the sends behind them.
      const growing: Trace = { ...whole, deliveries: new Float64Array(0), duplicates: new Float64Array(0), sends: new Float64Array(0) };
      const view = new TraceView(growing);
      // The worker keeps the copies; the page asks for the followed tx's from the rows it has read.
      const store = new DuplicateStore();
      let rows = 0;
      const cut = { deliveries: 0, duplicates: 0, sends: 0 };
      const total = { deliveries: whole.deliveries.length / 3, duplicates: whole.duplicates.length / 3, sends: whole.sends.length / SEND_STRIDE };
      const tx = seed % 3;
      while (cut.deliveries < total.deliveries || cut.duplicates < total.duplicates || cut.sends < total.sends) {
        cut.deliveries += Math.floor(rand() * 12);
        cut.duplicates += Math.floor(rand() * 12);
        cut.sends += Math.floor(rand() * 40);
        growing.deliveries = prefix(whole.deliveries, 3, cut.deliveries);
        const copies = prefix(whole.duplicates, 3, cut.duplicates);
        store.append(copies.subarray(growing.duplicates.length));
        growing.duplicates = copies;
        growing.sends = prefix(whole.sends, SEND_STRIDE, cut.sends);
        view.extend();
        const fromRow = view.duplicatesFrom(tx, Infinity);
        expect(fromRow).toBe(rows);
        const found = store.of(tx, rows);
        rows = found.rows;
        view.addDuplicates({ kind: 'duplicates', id: 0, tx, fromRow: fromRow!, duplicates: found.pairs, rows, throughUs: 0, keptUntilUs: Infinity });
        const now = view.tx(tx);
        const expected = wholeView(growing, tx);
        expect(Array.from(now.arrivalUs)).toEqual(expected.arrivalUs);
        expect(Array.from(now.parent!)).toEqual(expected.parent);
        expect(Array.from(now.hops!)).toEqual(expected.hops);
        expect(Array.from(now.duplicates)).toEqual(expected.duplicates);
        expect(now.sendRows!.flatMap((r) => Array.from(growing.sends.subarray(r * SEND_STRIDE, (r + 1) * SEND_STRIDE)))).toEqual(expected.sends);
      }
      // Switching txs and back starts afresh and gives the same view.
      view.tx((tx + 1) % 3);
      expect(Array.from(view.tx(tx).hops!)).toEqual(wholeView(whole, tx).hops);
    });
  }

  for (const seed of [6, 7, 8]) {
    it(`with the chunks' sends cut at a cap, the worker's first copies give the whole-trace parents (seed ${seed})`, () => {
      const whole = flood(seed, 40, 3);
      const rand = random(200 + seed);
      const total = { deliveries: whole.deliveries.length / 3, sends: whole.sends.length / SEND_STRIDE };
      // The chunks carry the first third of the sends; the worker keeps them all.
      const cap = Math.floor(total.sends / 3);
      const growing: Trace = { ...whole, deliveries: new Float64Array(0), sends: new Float64Array(0) };
      const view = new TraceView(growing);
      const store = new SendStore();
      const cut = { deliveries: 0, sends: 0 };
      // The tx created last: most of its copies are past the cap.
      const tx = [0, 1, 2].reduce((late, t) => (whole.txPlan[2 * t] > whole.txPlan[2 * late] ? t : late));
      let answers = 0;
      while (cut.deliveries < total.deliveries || cut.sends < total.sends) {
        cut.deliveries += Math.floor(rand() * 12);
        cut.sends += Math.floor(rand() * 40);
        growing.deliveries = prefix(whole.deliveries, 3, cut.deliveries);
        const sends = prefix(whole.sends, SEND_STRIDE, cut.sends);
        store.append(sends.subarray(store.count * SEND_STRIDE));
        growing.sends = prefix(sends, SEND_STRIDE, cap);
        view.extend();
        const fromRow = view.lateCopiesFrom(tx, Infinity, store.count);
        if (fromRow === null) continue;
        const found = store.firstCopies(tx, fromRow, cap);
        view.addLateCopies({ kind: 'first-copies', id: 0, tx, fromRow, copies: found.copies, rows: found.rows, throughUs: 0, keptUntilUs: Infinity });
        answers += 1;
      }
      expect(answers).toBeGreaterThan(0);
      const expected = wholeView(whole, tx);
      expect(Array.from(view.tx(tx).parent!)).toEqual(expected.parent);
      expect(Array.from(view.tx(tx).hops!)).toEqual(expected.hops);
      // Without them, nodes whose first copy came past the cap have no parent.
      const capped = new TraceView({ ...whole, sends: prefix(whole.sends, SEND_STRIDE, cap) });
      expect(Array.from(capped.tx(tx).parent!)).not.toEqual(expected.parent);
    });
  }

  it('reads nothing again when nothing was added', () => {
    const view = new TraceView(flood(9, 20, 2));
    expect(view.tx(1)).toBe(view.tx(1));
  });
});
