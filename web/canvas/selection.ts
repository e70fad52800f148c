// Picking nodes for a live change: those inside a rectangle on a panel, a random share of
// them, or those of a continent. Pure functions of positions and the view, so every panel picks
// the same nodes (they share one network and one layout).
import { baseMapping, type ViewTransform } from './render';

export interface Area {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The nodes drawn inside `area` (CSS pixels of a canvas of this size), ascending. */
export function nodesIn(positions: Float32Array, width: number, height: number, t: ViewTransform, area: Area): number[] {
  const { cx, cy, scale } = baseMapping(width, height);
  const out: number[] = [];
  for (let i = 0; i < positions.length / 2; i += 1) {
    const x = t.k * (cx + positions[2 * i] * scale) + t.x;
    const y = t.k * (cy + positions[2 * i + 1] * scale) + t.y;
    if (x >= area.x0 && x <= area.x1 && y >= area.y0 && y <= area.y1) out.push(i);
  }
  return out;
}

/** `share` of the `nodes` nodes, drawn with `random` (in [0, 1)), ascending. */
export function randomShare(nodes: number, share: number, random: () => number): number[] {
  const count = Math.round(Math.min(1, Math.max(0, share)) * nodes);
  const all = Array.from({ length: nodes }, (_, i) => i);
  for (let i = 0; i < count; i += 1) {
    const j = i + Math.floor(random() * (nodes - i));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, count).sort((a, b) => a - b);
}

/** The nodes placed on a continent (names as a scenario's `region` gives them). */
export function nodesOn(continents: string[], continent: string): number[] {
  return continents.flatMap((c, i) => (c === continent ? [i] : []));
}

/** A selection as a mask over `nodes`, from a list (out-of-range entries left out). */
export function mask(nodes: number, picked: Iterable<number>): Uint8Array {
  const out = new Uint8Array(nodes);
  for (const v of picked) if (v >= 0 && v < nodes) out[v] = 1;
  return out;
}

/** The picked nodes of a mask, ascending. */
export function picked(selection: Uint8Array | null): number[] {
  if (!selection) return [];
  const out: number[] = [];
  selection.forEach((on, i) => on && out.push(i));
  return out;
}
