// The spread itself as a layout: the picked tx's origin at the centre and every node on a ring
// by how far the tx had to go to reach it (hops, or time after creation), placed around the
// ring beside the peer that first brought it the tx. Nodes it never reached form the outer ring.
import type { TxView } from '../sim/trace';

export type RingsBy = 'hops' | 'time';

/** Angles in [0, 1) of a full turn: each node in the middle of a sector its subtree shares. */
function treeAngles(nodes: number, root: number, parent: (i: number) => number): Float64Array {
  const children: number[][] = Array.from({ length: nodes }, () => []);
  for (let i = 0; i < nodes; i += 1) {
    const p = parent(i);
    if (i !== root && p >= 0) children[p].push(i);
  }
  // Subtree sizes, children before parents (an explicit stack: trees may be deep).
  const size = new Float64Array(nodes).fill(1);
  const order: number[] = [];
  const stack = [root];
  while (stack.length) {
    const v = stack.pop()!;
    order.push(v);
    stack.push(...children[v]);
  }
  for (let k = order.length - 1; k >= 0; k -= 1) {
    const p = parent(order[k]);
    if (order[k] !== root && p >= 0) size[p] += size[order[k]];
  }
  const angle = new Float64Array(nodes).fill(-1);
  const from = new Float64Array(nodes);
  const span = new Float64Array(nodes);
  span[root] = 1;
  for (const v of order) {
    angle[v] = from[v] + span[v] / 2;
    let at = from[v];
    for (const c of children[v]) {
      span[c] = (span[v] * size[c]) / Math.max(1, size[v] - 1);
      from[c] = at;
      at += span[c];
    }
  }
  return angle;
}

export function ringPositions(view: Pick<TxView, 'origin' | 'createdUs' | 'arrivalUs' | 'parent' | 'hops'>, by: RingsBy): Float32Array {
  const n = view.arrivalUs.length;
  const reached = (i: number) => view.arrivalUs[i] >= 0;
  // Who brought each node the tx; a reached node whose sender is unknown hangs off the origin.
  const parent = (i: number) => (!reached(i) || i === view.origin ? -1 : view.parent && view.parent[i] >= 0 ? view.parent[i] : view.origin);
  const angle = treeAngles(n, view.origin, parent);
  let maxHops = 1;
  let maxUs = 1;
  for (let i = 0; i < n; i += 1) {
    if (!reached(i)) continue;
    maxHops = Math.max(maxHops, view.hops?.[i] ?? 1);
    maxUs = Math.max(maxUs, view.arrivalUs[i] - view.createdUs);
  }
  const outer = Array.from({ length: n }, (_, i) => i).filter((i) => angle[i] < 0);
  outer.forEach((i, k) => (angle[i] = (k + 0.5) / outer.length));
  const out = new Float32Array(2 * n);
  for (let i = 0; i < n; i += 1) {
    let r: number;
    if (i === view.origin) r = 0;
    else if (!reached(i)) r = 1;
    else if (by === 'hops') r = (0.9 * Math.max(1, view.hops?.[i] ?? 1)) / (maxHops + (outer.length ? 0.12 : 0));
    else r = 0.08 + (0.82 * (view.arrivalUs[i] - view.createdUs)) / maxUs;
    const a = 2 * Math.PI * angle[i] - Math.PI / 2;
    out[2 * i] = r * Math.cos(a);
    out[2 * i + 1] = r * Math.sin(a);
  }
  return out;
}
