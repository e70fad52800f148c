import { describe, expect, it } from 'vitest';
import { mask, nodesIn, nodesOn, picked, randomShare } from './selection';

describe('picking nodes for a change', () => {
  it('takes the nodes drawn inside a rectangle', () => {
    // Three nodes at the centre, left and right of a 200 x 200 canvas (no pan or zoom).
    const positions = Float32Array.from([0, 0, -0.9, 0, 0.9, 0]);
    const view = { k: 1, x: 0, y: 0 };
    expect(nodesIn(positions, 200, 200, view, { x0: 90, y0: 90, x1: 110, y1: 110 })).toEqual([0]);
    expect(nodesIn(positions, 200, 200, view, { x0: 0, y0: 0, x1: 110, y1: 200 })).toEqual([0, 1]);
    // Zoomed in twice about the origin: the centre node moves to (200, 200).
    expect(nodesIn(positions, 200, 200, { k: 2, x: 0, y: 0 }, { x0: 190, y0: 190, x1: 210, y1: 210 })).toEqual([0]);
  });

  it('draws a share of the nodes, each at most once', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const some = randomShare(100, 0.3, random);
    expect(some.length).toBe(30);
    expect(new Set(some).size).toBe(30);
    expect(some.every((v) => v >= 0 && v < 100)).toBe(true);
    expect(randomShare(10, 1.5, random)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('picks a continent, and converts between lists and masks', () => {
    expect(nodesOn(['europe', 'asia', 'europe'], 'europe')).toEqual([0, 2]);
    expect(picked(mask(5, [4, 1, 9]))).toEqual([1, 4]);
    expect(picked(null)).toEqual([]);
  });
});
