import { describe, expect, it } from 'vitest';
import { thin } from './charts';
import { orderStatistics } from './order-statistics';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function bySorting(values: Float64Array, ranks: readonly number[]): number[] {
  const sorted = values.slice().sort();
  return ranks.map((r) => sorted[r]);
}

describe('orderStatistics', () => {
  const draw = random(7);
  const n = 100_000;
  const cases: [string, Float64Array][] = [
    ['uniform', Float64Array.from({ length: n }, () => draw() * 1000)],
    // Latency-like: most values low, a long tail that stretches the buckets' range.
    ['log-normal with a far outlier', Float64Array.from({ length: n }, (_, i) => (i === 5 ? 1e9 : Math.exp(4 + 0.5 * Math.sqrt(-2 * Math.log(draw() + 1e-12)) * Math.cos(2 * Math.PI * draw()))))],
    ['many ties', Float64Array.from({ length: n }, () => Math.floor(draw() * 7) * 0.12)],
    ['negative and zero', Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? -0 : i % 3 === 1 ? 0 : -draw()))],
    ['all equal', new Float64Array(1000).fill(2.5)],
    ['two values', Float64Array.of(3, 1)],
    ['one value', Float64Array.of(4)],
  ];
  for (const [name, values] of cases) {
    it(`gives what a full sort gives: ${name}`, () => {
      const evenly = thin(values.length, 400);
      expect(Array.from(orderStatistics(values, evenly))).toEqual(bySorting(values, evenly));
      const anyOrder = Array.from({ length: 50 }, () => Math.floor(draw() * values.length));
      expect(Array.from(orderStatistics(values, anyOrder))).toEqual(bySorting(values, anyOrder));
    });
  }

  it('sorts it all where the values have no range to bucket by: NaN, infinities, extremes', () => {
    for (const values of [
      Float64Array.of(5, NaN, -Infinity, 2, Infinity, 2),
      Float64Array.of(Infinity, Infinity),
      Float64Array.of(-1e308, 1e308, 0, 1),
      Float64Array.of(5e-324, 0, 5e-324, 0),
      Float64Array.of(0, -0, 0),
      Float64Array.of(3, NaN, 3),
    ]) {
      const ranks = Array.from(values, (_, i) => i);
      expect(Array.from(orderStatistics(values, ranks))).toEqual(bySorting(values, ranks));
    }
  });

  it('gives nothing for no ranks, also of no values', () => {
    expect(orderStatistics(new Float64Array(0), [])).toHaveLength(0);
    expect(orderStatistics(Float64Array.of(1, 2), [])).toHaveLength(0);
  });
});
