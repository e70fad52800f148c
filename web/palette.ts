// Colours for arrival times: a perceptually uniform, colour-blind-safe sequential scale (viridis),
// bright for early arrivals so the spreading front stands out on the dark background.
import { interpolateViridis } from 'd3';

export const BACKGROUND = '#111821';
export const UNREACHED = '#2e3845';

/** Edges stay faint however many there are: their summed ink is roughly constant. */
export function edgeColour(edgeCount: number): string {
  const alpha = Math.min(0.08, Math.max(0.015, 120 / Math.max(1, edgeCount)));
  return `rgba(140, 160, 185, ${alpha.toFixed(3)})`;
}

/** Scale position in [0, 1] for an arrival at `arrivalUs` when the last one was at `maxUs`. */
export function arrivalFraction(arrivalUs: number, maxUs: number): number {
  if (maxUs <= 0) return 0;
  return Math.min(1, Math.max(0, arrivalUs / maxUs));
}

/** Early = yellow, late = blue. The darkest third of viridis is skipped: it vanishes on the background. */
export function arrivalColour(fraction: number): string {
  return interpolateViridis(1 - 0.72 * fraction);
}

export interface ArrivalSummary {
  reached: number;
  maxUs: number;
  p50Us: number;
  p95Us: number;
}

/** Nearest-rank percentiles over the nodes the tx reached. */
export function summariseArrivals(arrivalUs: Float64Array): ArrivalSummary {
  const times = Array.from(arrivalUs).filter((t) => t >= 0).sort((a, b) => a - b);
  const rank = (p: number) => times[Math.max(0, Math.ceil((p / 100) * times.length) - 1)] ?? 0;
  return { reached: times.length, maxUs: times.at(-1) ?? 0, p50Us: rank(50), p95Us: rank(95) };
}
