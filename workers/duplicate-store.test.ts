import { describe, expect, it } from 'vitest';
import { DUPLICATE_BYTES, DuplicateStore } from './duplicate-store';

// Copies in the engine's layout: t_us, node, tx; 70,000 of them over 3 txs, in time order.
const copies = Array.from({ length: 70_000 }, (_, n) => [1000 + 3 * n, (n * 7919) % 50_000, n % 3]);
const triples = (rows: number[][]) => Float64Array.from(rows.flat());

describe('DuplicateStore', () => {
  it('gives back every copy as the engine gave it, across blocks', () => {
    const store = new DuplicateStore();
    store.append(triples(copies.slice(0, 30_000)));
    store.append(triples(copies.slice(30_000)));
    expect(store.count).toBe(70_000);
    expect(Array.from(store.all())).toEqual(copies.flat());
    expect(store.bytes).toBe(2 * 65_536 * DUPLICATE_BYTES);
  });

  it("gives one tx's copies as t_us, node pairs from a row on, and the row to go on from", () => {
    const store = new DuplicateStore();
    store.append(triples(copies.slice(0, 40_000)));
    const first = store.of(1, 0);
    expect(first.rows).toBe(40_000);
    const later = () => copies.slice(first.rows).filter(([, , tx]) => tx === 1);
    store.append(triples(copies.slice(40_000)));
    const next = store.of(1, first.rows);
    expect(next.rows).toBe(70_000);
    expect(Array.from(next.pairs)).toEqual(later().flatMap(([t, node]) => [t, node]));
    const whole = [...first.pairs, ...next.pairs];
    expect(whole).toEqual(copies.filter(([, , tx]) => tx === 1).flatMap(([t, node]) => [t, node]));
    // Nothing new: nothing again, from the same row.
    expect(store.of(1, next.rows)).toEqual({ pairs: new Float64Array(0), rows: 70_000 });
    expect(store.of(7, 0).pairs.length).toBe(0);
  });

  it("finds a tx's copies however they spread over blocks (blocks without the tx are skipped)", () => {
    // Txs in time order, each landing its copies over a stretch that overlaps the next tx's.
    const spread = Array.from({ length: 200_000 }, (_, n) => [n, n % 977, Math.floor(n / 40_000) + (n % 5 === 0 ? 1 : 0)]);
    const store = new DuplicateStore();
    store.append(triples(spread));
    for (const tx of [0, 2, 5, 9]) {
      for (const from of [0, 70_000, 131_072, 199_999]) {
        const expected = spread.slice(from).filter(([, , t]) => t === tx).flatMap(([t, node]) => [t, node]);
        expect(Array.from(store.of(tx, from).pairs)).toEqual(expected);
      }
    }
    expect(store.of(2, 0).pairs.length).toBeGreaterThan(0);
  });

  it('keeps at most its bound and counts the rest', () => {
    const store = new DuplicateStore(5);
    store.append(triples(copies.slice(0, 3)));
    store.append(triples(copies.slice(3, 8)));
    expect(store.count).toBe(5);
    expect(store.dropped).toBe(3);
    expect(store.keptUntilUs).toBe(copies[5][0]);
    expect(Array.from(store.all())).toEqual(copies.slice(0, 5).flat());
  });
});
