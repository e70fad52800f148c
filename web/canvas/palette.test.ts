import { describe, expect, it } from 'vitest';
import { arrivalColour, arrivalFraction, edgeColour, summariseArrivals } from './palette';

describe('arrival colours', () => {
  it('clamps the scale position', () => {
    expect(arrivalFraction(-5, 100)).toBe(0);
    expect(arrivalFraction(50, 100)).toBe(0.5);
    expect(arrivalFraction(500, 100)).toBe(1);
    expect(arrivalFraction(10, 0)).toBe(0);
  });

  it('gives early and late arrivals different colours', () => {
    expect(arrivalColour(0)).not.toBe(arrivalColour(1));
  });
});

describe('edgeColour', () => {
  it('fades as edges multiply, within bounds', () => {
    const alpha = (edges: number) => Number(edgeColour(edges).match(/([\d.]+)\)$/)![1]);
    expect(alpha(100)).toBe(0.08);
    expect(alpha(4000)).toBeLessThan(alpha(1600));
    expect(alpha(1_000_000)).toBe(0.015);
  });
});

describe('summariseArrivals', () => {
  it('ignores unreached nodes and takes nearest-rank percentiles', () => {
    const arrivals = Float64Array.from([0, -1, ...Array.from({ length: 99 }, (_, i) => (i + 1) * 10)]);
    const summary = summariseArrivals(arrivals);
    expect(summary.reached).toBe(100);
    expect(summary.maxUs).toBe(990);
    expect(summary.p50Us).toBe(490);
    expect(summary.p95Us).toBe(940);
  });

  it('handles a run that reached nobody', () => {
    expect(summariseArrivals(Float64Array.from([-1, -1]))).toEqual({ reached: 0, maxUs: 0, p50Us: 0, p95Us: 0 });
  });
});
