import { describe, expect, it } from 'vitest';
import { circularPositions } from './layouts';

describe('layouts', () => {
  it('puts nodes on the unit circle, node 0 on top', () => {
    const p = circularPositions(8);
    expect(p[0]).toBeCloseTo(0, 6);
    expect(p[1]).toBeCloseTo(-1, 6);
    for (let i = 0; i < 8; i += 1) expect(Math.hypot(p[2 * i], p[2 * i + 1])).toBeCloseTo(1, 5);
  });
});
