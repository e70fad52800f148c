// Colours for arrival times: a perceptually uniform, colour-blind-safe sequential scale (viridis),
// bright for early arrivals so the spreading front stands out on the dark background.
import { interpolateViridis } from 'd3';

export const BACKGROUND = '#111821';
export const UNREACHED = '#2e3845';
/** Land in the map view: a shade above the background, below the links. */
export const LAND = '#1b2633';

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

/** Marks drawn over the arrival colours (Okabe-Ito: distinguishable with any colour vision). */
export const MARKS = {
  adversary: '#d55e00',
  duplicate: '#cc79a7',
  payload: '#e69f00',
  control: '#56b4e9',
  origin: '#ffffff',
  /** What adversaries did (withheld requests, rejected corrupt data, censoring), told apart by shape. */
  effect: '#f0e442',
  /** Links a partition cut (dashed), and nodes picked for a change (a ring). */
  cut: '#cc79a7',
  selected: '#009e73',
} as const;

/** One colour per run in compare mode and in the charts (Okabe-Ito, in a fixed order). */
export const RUN_COLOURS = ['#56b4e9', '#e69f00', '#009e73', '#cc79a7', '#f0e442', '#0072b2', '#d55e00'] as const;

export function runColour(index: number): string {
  return RUN_COLOURS[index % RUN_COLOURS.length];
}

/** Arrival colours quantised into this many buckets so a frame fills one path per bucket. */
export const ARRIVAL_BUCKETS = 24;
export const ARRIVAL_BUCKET_COLOURS: readonly string[] = Array.from({ length: ARRIVAL_BUCKETS }, (_, k) => arrivalColour(k / (ARRIVAL_BUCKETS - 1)));

export function arrivalBucket(fraction: number): number {
  return Math.round(Math.min(1, Math.max(0, fraction)) * (ARRIVAL_BUCKETS - 1));
}
