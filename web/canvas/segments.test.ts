import { describe, expect, it } from 'vitest';
import { BUCKET_RGBA, PAYLOAD_RGBA, Segments } from './segments';
import { ARRIVAL_BUCKETS } from './palette';

describe('Segments', () => {
  it('grows past its first size and keeps what it held', () => {
    const s = new Segments();
    const n = 5000;
    for (let i = 0; i < n; i += 1) s.push(i, -i, i + 1, -i - 1, PAYLOAD_RGBA, 120);
    expect(s.count).toBe(n);
    expect(Array.from(s.coords.subarray(4 * 4999, 4 * 5000))).toEqual([4999, -4999, 5000, -5000]);
    expect(Array.from(s.colours.subarray(8 * 10, 8 * 11))).toEqual([...PAYLOAD_RGBA.slice(0, 3), 120, ...PAYLOAD_RGBA.slice(0, 3), 120]);
    s.reset();
    expect(s.count).toBe(0);
  });

  it('shortens segments to streaks behind their heads, from a given one on', () => {
    const s = new Segments();
    s.push(0, 0, 1, 0, PAYLOAD_RGBA, 255);
    s.push(0, 0, 0, 2, PAYLOAD_RGBA, 255);
    s.push(0, 0, 0.05, 0, PAYLOAD_RGBA, 255);
    s.shorten(1, 0.1);
    // The first is left whole; the second ends where it did, 0.1 long; the third was short already.
    expect(Array.from(s.coords.subarray(0, 4))).toEqual([0, 0, 1, 0]);
    expect(s.coords[4]).toBeCloseTo(0);
    expect(s.coords[5]).toBeCloseTo(1.9);
    expect(Array.from(s.coords.subarray(6, 8))).toEqual([0, 2]);
    expect(s.coords[8]).toBe(0);
  });
});

describe('colours', () => {
  it('has one RGBA per arrival bucket, parsed from the palette', () => {
    expect(BUCKET_RGBA).toHaveLength(ARRIVAL_BUCKETS);
    for (const c of BUCKET_RGBA) {
      expect(c).toHaveLength(4);
      for (const v of c) expect(v >= 0 && v <= 255).toBe(true);
    }
    // Viridis runs from yellow (early) to blue (late).
    expect(BUCKET_RGBA[0][0]).toBeGreaterThan(BUCKET_RGBA[ARRIVAL_BUCKETS - 1][0]);
  });
});
