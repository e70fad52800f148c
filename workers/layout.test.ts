import { describe, expect, it } from 'vitest';
import { layoutPositions, layoutSeed, layoutTicks } from './layout';

// A ring with chords: any small connected graph will do for the layout.
function ringEdges(nodes: number): Uint32Array {
  const pairs: number[] = [];
  for (let i = 0; i < nodes; i += 1) pairs.push(i, (i + 1) % nodes, i, (i + 7) % nodes);
  return Uint32Array.from(pairs);
}

describe('layoutPositions', () => {
  it('is the same for the same graph and seed', () => {
    const edges = ringEdges(60);
    expect(Array.from(layoutPositions(60, edges, 4n))).toEqual(Array.from(layoutPositions(60, edges, 4n)));
  });

  it('fits [-1, 1] and touches the edge of that box', () => {
    const positions = layoutPositions(80, ringEdges(80), 1n);
    expect(positions.length).toBe(160);
    const extent = Math.max(...Array.from(positions, Math.abs));
    expect(extent).toBeCloseTo(1, 5);
    for (const v of positions) expect(Number.isFinite(v)).toBe(true);
  });

  it('places distinct nodes apart', () => {
    const positions = layoutPositions(40, ringEdges(40), 2n);
    const distinct = new Set<string>();
    for (let i = 0; i < 40; i += 1) distinct.add(`${positions[2 * i].toFixed(4)},${positions[2 * i + 1].toFixed(4)}`);
    expect(distinct.size).toBe(40);
  });

  it('maps 64-bit seeds to distinct layout seeds in [0, 1)', () => {
    const seeds = [0n, 1n, 2n ** 32n, 2n ** 64n - 1n].map(layoutSeed);
    for (const s of seeds) expect(s >= 0 && s < 1).toBe(true);
    expect(new Set(seeds).size).toBe(4);
  });
});

describe('layoutTicks', () => {
  it('keeps the ticks of networks up to 10,000 nodes and shares a budget past them', () => {
    expect([500, 1500, 5000, 10_000].map(layoutTicks)).toEqual([220, 140, 80, 80]);
    expect(layoutTicks(20_000)).toBe(40);
    expect(layoutTicks(50_000)).toBe(16);
    expect(layoutTicks(100_000)).toBe(12);
  });
});
