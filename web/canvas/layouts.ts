// Node positions for the views: the seeded force layout (computed in the worker), a circle, a
// world map for geographic scenarios (web/canvas/map.ts, loaded when first shown), and rings
// around the picked tx's origin by hops or arrival time (web/canvas/rings.ts, per tx). All in the
// renderer's unit box ([-1, 1] wide).

export type LayoutKind = 'force' | 'circular' | 'map' | 'rings-hops' | 'rings-time';

/** The ring layouts' measure of distance from the origin, for a layout that is one. */
export function ringsBy(kind: LayoutKind): 'hops' | 'time' | null {
  return kind === 'rings-hops' ? 'hops' : kind === 'rings-time' ? 'time' : null;
}

/** Nodes evenly on the unit circle, node 0 at the top, in index order. */
export function circularPositions(nodes: number): Float32Array {
  const out = new Float32Array(2 * nodes);
  for (let i = 0; i < nodes; i += 1) {
    const angle = (2 * Math.PI * i) / Math.max(1, nodes) - Math.PI / 2;
    out[2 * i] = Math.cos(angle);
    out[2 * i + 1] = Math.sin(angle);
  }
  return out;
}
