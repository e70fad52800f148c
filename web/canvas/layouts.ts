// Node positions for the three views: the seeded force layout (computed in the worker), a circle,
// and a world map for geographic scenarios (web/canvas/map.ts, loaded when first shown). All in the
// renderer's unit box ([-1, 1] wide).

export type LayoutKind = 'force' | 'circular' | 'map';

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
