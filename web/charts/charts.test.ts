import { describe, expect, it } from 'vitest';
import { thin } from './charts';

describe('thin', () => {
  it('keeps every index when under the limit', () => {
    expect(thin(3, 10)).toEqual([0, 1, 2]);
  });

  it('keeps the ends and at most the limit', () => {
    const kept = thin(10_000, 400);
    expect(kept.length).toBe(400);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(9_999);
    for (let i = 1; i < kept.length; i += 1) expect(kept[i]).toBeGreaterThan(kept[i - 1]);
  });
});
