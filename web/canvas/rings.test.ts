import { describe, expect, it } from 'vitest';
import { ringPositions } from './rings';

// A path 0 -> 1 -> 2 and a branch 0 -> 3; node 4 never reached.
const view = {
  origin: 0,
  createdUs: 1000,
  arrivalUs: Float64Array.of(1000, 2000, 3000, 5000, -1),
  parent: Int32Array.of(-1, 0, 1, 0, -1),
  hops: Int16Array.of(0, 1, 2, 1, -1),
};
const radius = (p: Float32Array, i: number) => Math.hypot(p[2 * i], p[2 * i + 1]);
const angle = (p: Float32Array, i: number) => Math.atan2(p[2 * i + 1], p[2 * i]);

describe('ring layouts', () => {
  it('put the origin in the middle, nodes on rings by hop count and the unreached outside', () => {
    const p = ringPositions(view, 'hops');
    expect(radius(p, 0)).toBe(0);
    expect(radius(p, 1)).toBeCloseTo(radius(p, 3));
    expect(radius(p, 2)).toBeGreaterThan(radius(p, 1));
    expect(radius(p, 4)).toBeCloseTo(1);
    expect(radius(p, 2)).toBeLessThan(1);
  });
  it('by arrival time, later arrivals further out', () => {
    const p = ringPositions(view, 'time');
    expect(radius(p, 1)).toBeLessThan(radius(p, 2));
    expect(radius(p, 2)).toBeLessThan(radius(p, 3));
  });
  it('place a node beside the peer that brought it the tx', () => {
    const p = ringPositions(view, 'hops');
    expect(Math.abs(angle(p, 2) - angle(p, 1))).toBeLessThan(Math.abs(angle(p, 2) - angle(p, 3)));
  });
});
