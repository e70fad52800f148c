// Draws one run's network on a 2D canvas at one instant of simulated time for one picked tx.
// Display state is a pure function of (panel, tx, time, view transform): pausing, seeking or
// resizing just draws again.
import { SEND_STRIDE, type RunTrace } from '../workers/protocol';
import { ARRIVAL_BUCKET_COLOURS, ARRIVAL_BUCKETS, arrivalBucket, BACKGROUND, edgeColour, LAND, MARKS, UNREACHED } from './palette';
import type { TxView } from './trace';

/** Pan and zoom, as d3-zoom gives them: screen = k * base + (x, y). */
export interface ViewTransform {
  k: number;
  x: number;
  y: number;
}

export interface FrameInput {
  trace: RunTrace;
  /** Node positions in [-1, 1] (the layout, or a map projection). */
  positions: Float32Array;
  tx: TxView;
  tUs: number;
  /** Arrival colours span this many microseconds after the tx was created (shared across panels). */
  spanUs: number;
  transform: ViewTransform;
  /** Drawn under the network in the same unit box (the world's land in the map view). */
  background?: Path2D | null;
}

/** Messages drawn in flight at most per frame, and how far back to look for them (us). */
const MAX_FLASHES = 4000;
const FLASH_LOOKBACK_US = 2_000_000;
/** A duplicate stays marked this long after it lands (us). */
const DUPLICATE_MARK_US = 250_000;

/** Matches the canvas backing store to its CSS size; returns the CSS size. */
function fitCanvas(canvas: HTMLCanvasElement, context: CanvasRenderingContext2D): { width: number; height: number } {
  const width = Math.max(1, canvas.clientWidth);
  const height = Math.max(1, canvas.clientHeight);
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { width, height };
}

/** Where node positions land on a canvas of this size before pan and zoom. */
export function baseMapping(width: number, height: number): { cx: number; cy: number; scale: number } {
  const margin = 14;
  return { cx: width / 2, cy: height / 2, scale: Math.max(10, Math.min(width, height) / 2 - margin) };
}

/** The node nearest to a point in CSS pixels, within `reach` pixels, or -1. */
export function nodeAt(positions: Float32Array, width: number, height: number, t: ViewTransform, px: number, py: number, reach = 8): number {
  const { cx, cy, scale } = baseMapping(width, height);
  let best = -1;
  let bestD = reach * reach;
  for (let i = 0; i < positions.length / 2; i += 1) {
    const dx = t.k * (cx + positions[2 * i] * scale) + t.x - px;
    const dy = t.k * (cy + positions[2 * i + 1] * scale) + t.y - py;
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** First index (in sends) of a send at or after tUs: sends are recorded in time order. */
function firstSendAfter(sends: Float64Array, tUs: number): number {
  let lo = 0;
  let hi = sends.length / SEND_STRIDE;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sends[mid * SEND_STRIDE] <= tUs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function drawFrame(canvas: HTMLCanvasElement, frame: FrameInput | null, selected = -1): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  const { width, height } = fitCanvas(canvas, context);
  context.fillStyle = BACKGROUND;
  context.fillRect(0, 0, width, height);
  if (!frame) return;

  const { trace, positions, tx, tUs, spanUs, transform } = frame;
  const { cx, cy, scale } = baseMapping(width, height);
  const k = transform.k;
  const x = (i: number) => k * (cx + positions[2 * i] * scale) + transform.x;
  const y = (i: number) => k * (cy + positions[2 * i + 1] * scale) + transform.y;
  if (frame.background) {
    const ratio = canvas.width / width;
    context.save();
    context.setTransform(ratio * k * scale, 0, 0, ratio * k * scale, ratio * (k * cx + transform.x), ratio * (k * cy + transform.y));
    context.fillStyle = LAND;
    context.fill(frame.background);
    context.restore();
  }
  const radius = Math.min(6, Math.max(1.2, (0.16 * 2 * scale) / Math.sqrt(trace.nodes))) * Math.sqrt(k);

  // Links, faint.
  const { edges } = trace;
  context.strokeStyle = edgeColour(edges.length / 2);
  context.lineWidth = 1;
  context.beginPath();
  for (let e = 0; e + 1 < edges.length; e += 2) {
    context.moveTo(x(edges[e]), y(edges[e]));
    context.lineTo(x(edges[e + 1]), y(edges[e + 1]));
  }
  context.stroke();

  // Messages in flight (every tx): a stroke from the sender along the link, as far as it has got.
  const { sends } = trace;
  const end = firstSendAfter(sends, tUs);
  const payload = new Path2D();
  const control = new Path2D();
  let drawn = 0;
  for (let s = end - 1; s >= 0 && drawn < MAX_FLASHES; s -= 1) {
    const o = s * SEND_STRIDE;
    const sent = sends[o];
    if (sent < tUs - FLASH_LOOKBACK_US) break;
    const arrive = sends[o + 6];
    if (arrive <= tUs || sends[o + 7] !== 0) continue;
    const from = sends[o + 1];
    const to = sends[o + 2];
    const progress = arrive > sent ? (tUs - sent) / (arrive - sent) : 1;
    const path = sends[o + 5] > 0 ? payload : control;
    path.moveTo(x(from), y(from));
    path.lineTo(x(from) + (x(to) - x(from)) * progress, y(from) + (y(to) - y(from)) * progress);
    drawn += 1;
  }
  context.lineWidth = 1.2;
  context.globalAlpha = 0.55;
  context.strokeStyle = MARKS.control;
  context.stroke(control);
  context.strokeStyle = MARKS.payload;
  context.stroke(payload);
  context.globalAlpha = 1;

  // Nodes: one path per colour bucket; a node is coloured once the picked tx has reached it.
  const buckets: Path2D[] = Array.from({ length: ARRIVAL_BUCKETS }, () => new Path2D());
  const unreached = new Path2D();
  const span = Math.max(1, spanUs);
  for (let i = 0; i < trace.nodes; i += 1) {
    const t = tx.arrivalUs[i];
    const path = t >= 0 && t <= tUs ? buckets[arrivalBucket((t - tx.createdUs) / span)] : unreached;
    path.moveTo(x(i) + radius, y(i));
    path.arc(x(i), y(i), radius, 0, 2 * Math.PI);
  }
  context.fillStyle = UNREACHED;
  context.fill(unreached);
  buckets.forEach((path, b) => {
    context.fillStyle = ARRIVAL_BUCKET_COLOURS[b];
    context.fill(path);
  });

  // Adversaries: a diamond outline, so they read by shape as well as colour.
  const adversaries = new Path2D();
  const a = radius + 2.5;
  for (let i = 0; i < trace.nodes; i += 1) {
    if (!trace.adversaries[i]) continue;
    adversaries.moveTo(x(i), y(i) - a);
    adversaries.lineTo(x(i) + a, y(i));
    adversaries.lineTo(x(i), y(i) + a);
    adversaries.lineTo(x(i) - a, y(i));
    adversaries.closePath();
  }
  context.strokeStyle = MARKS.adversary;
  context.lineWidth = 1.4;
  context.stroke(adversaries);

  // Duplicates of the picked tx that landed recently: a ring where they land.
  const duplicates = new Path2D();
  for (let d = 0; d + 1 < tx.duplicates.length; d += 2) {
    const t = tx.duplicates[d];
    if (t > tUs || t < tUs - DUPLICATE_MARK_US) continue;
    const n = tx.duplicates[d + 1];
    duplicates.moveTo(x(n) + radius + 3, y(n));
    duplicates.arc(x(n), y(n), radius + 3, 0, 2 * Math.PI);
  }
  context.strokeStyle = MARKS.duplicate;
  context.lineWidth = 1.2;
  context.stroke(duplicates);

  // The tx's origin, once created, and the inspected node.
  context.strokeStyle = MARKS.origin;
  context.lineWidth = 1.5;
  if (tUs >= tx.createdUs) {
    context.beginPath();
    context.arc(x(tx.origin), y(tx.origin), radius + 4.5, 0, 2 * Math.PI);
    context.stroke();
  }
  if (selected >= 0 && selected < trace.nodes) {
    context.setLineDash([3, 3]);
    context.beginPath();
    context.arc(x(selected), y(selected), radius + 7, 0, 2 * Math.PI);
    context.stroke();
    context.setLineDash([]);
  }
}
