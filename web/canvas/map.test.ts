import { describe, expect, it } from 'vitest';
import { mapPositions } from './map';

describe('the map view', () => {
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
