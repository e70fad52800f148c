// Seeded node positions for drawing a graph: the same graph and seed always give the same picture.
import { forceCenter, forceLink, forceManyBody, forceSimulation, forceX, forceY, randomLcg } from 'd3';
import type { SimulationNodeDatum } from 'd3';

interface Point extends SimulationNodeDatum {
  index: number;
}

/** A layout seed in [0, 1) from a 64-bit simulation seed, through the SplitMix64 finaliser so nearby seeds differ. */
export function layoutSeed(seed: bigint): number {
  const mask = (1n << 64n) - 1n;
  let z = (BigInt.asUintN(64, seed) + 0x9e3779b97f4a7c15n) & mask;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
  z ^= z >> 31n;
  return Number(z >> 32n) / 2 ** 32;
}

/** Node-ticks a layout may take: 80 ticks of 10,000 nodes (a tick costs about its nodes' count). */
const TICK_BUDGET = 800_000;
/** The fewest ticks: past this the picture barely leaves d3's starting spiral. */
const MIN_TICKS = 12;

/**
 * Iterations of the force layout: fewer for big graphs keep a rerun interactive, and from 10,000
 * nodes on they share a budget (a 50,000-node layout took 50 s at 80 ticks, longer than its runs).
 */
export function layoutTicks(nodes: number): number {
  if (nodes <= 500) return 220;
  if (nodes <= 1500) return 140;
  return Math.max(MIN_TICKS, Math.min(80, Math.floor(TICK_BUDGET / nodes)));
}

/**
 * Force-directed layout over the flattened edge list, normalised to [-1, 1] on both axes.
 * Deterministic: d3 starts nodes on a fixed spiral and draws its jitter from the seeded source.
 */
export function layoutPositions(nodes: number, edges: Uint32Array, seed: bigint): Float32Array {
  const points: Point[] = Array.from({ length: nodes }, (_, index) => ({ index }));
  const links: { source: number; target: number }[] = [];
  for (let i = 0; i + 1 < edges.length; i += 2) links.push({ source: edges[i], target: edges[i + 1] });

  const ticks = layoutTicks(nodes);
  const simulation = forceSimulation(points)
    .randomSource(randomLcg(layoutSeed(seed)))
    .force('charge', forceManyBody().strength(-24).theta(0.9))
    .force('link', forceLink(links).distance(24).strength(0.04))
    .force('x', forceX(0).strength(0.06))
    .force('y', forceY(0).strength(0.06))
    .force('center', forceCenter(0, 0))
    .stop();
  simulation.tick(ticks);

  let extent = 1e-9;
  for (const p of points) extent = Math.max(extent, Math.abs(p.x ?? 0), Math.abs(p.y ?? 0));
  const out = new Float32Array(nodes * 2);
  for (const p of points) {
    out[p.index * 2] = (p.x ?? 0) / extent;
    out[p.index * 2 + 1] = (p.y ?? 0) / extent;
  }
  return out;
}
