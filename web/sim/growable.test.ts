import { describe, expect, it } from 'vitest';
import { Growable } from './growable';

describe('Growable', () => {
  it('appends past its capacity and keeps everything in order', () => {
    const g = new Growable(2);
    g.append(Float64Array.of(1, 2, 3));
    g.append(new Float64Array(0));
    g.append(Float64Array.of(4, 5, 6, 7, 8));
    expect(Array.from(g.view())).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('grows from no capacity, a number at a time', () => {
    const g = new Growable(0);
    for (let i = 0; i < 40; i += 1) g.push(i);
    expect(Array.from(g.view())).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });
});

describe('Growable up to its limit', () => {
  it('grows in place, past its limit by copying, and keeps everything in order', () => {
    const g = new Growable(4, 40);
    const all: number[] = [];
    for (let i = 0; i < 100; i += 1) {
      g.append(Float64Array.of(i, -i));
      all.push(i, -i);
      expect(g.view().length).toBe(all.length);
    }
    expect(Array.from(g.view())).toEqual(all);
  });
});
