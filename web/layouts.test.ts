import { describe, expect, it } from 'vitest';
import { circularPositions, mapPositions } from './layouts';

describe('layouts', () => {
  it('puts nodes on the unit circle, node 0 on top', () => {
    const p = circularPositions(8);
    expect(p[0]).toBeCloseTo(0, 6);
    expect(p[1]).toBeCloseTo(-1, 6);
    for (let i = 0; i < 8; i += 1) expect(Math.hypot(p[2 * i], p[2 * i + 1])).toBeCloseTo(1, 5);
  });

  it('projects cities west to east and north above south, inside the unit box', () => {
    // lat, lon: London, Sydney, New York
    const p = mapPositions(Float64Array.of(51.5, -0.13, -33.87, 151.2, 40.7, -74));
    const x = (i: number) => p[2 * i];
    const y = (i: number) => p[2 * i + 1];
    expect(x(2)).toBeLessThan(x(0));
    expect(x(0)).toBeLessThan(x(1));
    expect(y(0)).toBeLessThan(y(1)); // screen y grows downwards
    for (const v of p) expect(Math.abs(v)).toBeLessThanOrEqual(1);
  });
});
