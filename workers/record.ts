// Collects what a run emits, slice by slice, into flat arrays the page can replay.

import { counters, CountField, SendField } from '../web/wasm/txcast_wasm.js';
import { EFFECTS, SEND_STRIDE, type Effect } from './protocol';

/** The arrays one after another, in one (the one itself if there is only one). */
export function concat(parts: Float64Array[]): Float64Array {
  if (parts.length === 1) return parts[0];
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Sends the chunks carry to the page (a run's first, `SEND_STRIDE` numbers each); bandwidth bins
 * count them all, the worker keeps them all (`SendStore`) and the page asks for later ones by time.
 */
export const SEND_CAP = 250_000;
/** Bandwidth-over-time resolution: the run is cut into this many bins. */
export const BANDWIDTH_BINS = 200;

/** A growing Float64Array built from chunks without copying until the end. */
export class Series {
  private chunks: Float64Array[] = [];
  length = 0;

  push(chunk: Float64Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  concat(): Float64Array {
    const out = new Float64Array(this.length);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/** Sends: every one counted into bandwidth bins by send time, the first SEND_CAP passed on in chunks. */
export class SendLog {
  readonly bandwidth: Float64Array;
  readonly binUs: number;
  count = 0;

  constructor(endUs: number, private readonly cap = SEND_CAP) {
    this.binUs = Math.max(1000, Math.ceil(endUs / BANDWIDTH_BINS));
    this.bandwidth = new Float64Array(2 * (Math.ceil(endUs / this.binUs) + 1));
  }

  /** Counts `sends` into the bins; returns the part kept for drawing. */
  push(sends: Float64Array): Float64Array {
    const bins = this.bandwidth.length / 2;
    for (let i = 0; i + SEND_STRIDE <= sends.length; i += SEND_STRIDE) {
      const bin = Math.min(bins - 1, Math.floor(sends[i + SendField.Time] / this.binUs));
      const bytes = sends[i + SendField.Bytes];
      const payload = sends[i + SendField.Payload];
      this.bandwidth[2 * bin] += payload;
      this.bandwidth[2 * bin + 1] += bytes - payload;
    }
    const n = sends.length / SEND_STRIDE;
    const room = Math.max(0, this.cap - this.count);
    const kept = room <= 0 ? new Float64Array(0) : n <= room ? sends : sends.slice(0, room * SEND_STRIDE);
    this.count += n;
    return kept;
  }
}

/** Counter moves (t_us, node, counter, n) summed per counter into time bins. */
export class CounterBins {
  private readonly rows: Float64Array[] = [];
  readonly bins: number;

  constructor(endUs: number, readonly binUs: number) {
    this.bins = Math.ceil(endUs / binUs) + 1;
  }

  push(counts: Float64Array): void {
    for (let i = 0; i + CountField.Stride <= counts.length; i += CountField.Stride) {
      const counter = counts[i + CountField.Counter];
      while (this.rows.length <= counter) this.rows.push(new Float64Array(this.bins));
      const bin = Math.min(this.bins - 1, Math.floor(counts[i + CountField.Time] / this.binUs));
      this.rows[counter][bin] += counts[i + CountField.N];
    }
  }

  /** counter-major: counter c's bins at [c * bins, (c + 1) * bins). */
  flat(counters: number): Float64Array {
    const out = new Float64Array(counters * this.bins);
    this.rows.forEach((row, c) => {
      if (c < counters) out.set(row, c * this.bins);
    });
    return out;
  }
}

/**
 * Which adversary effect each counter records, as an index into `EFFECTS` (absent: none), as the
 * core describes its counters (the WASM `counters()`; the module must be initialised): withheld,
 * a request an adversary left unanswered; corrupt, data that failed its checks where it was rejected.
 */
export function counterEffects(): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of counters()) {
    const effect = EFFECTS.indexOf(c.effect as Effect);
    if (effect >= 0) out.set(c.name, effect);
    c.free();
  }
  return out;
}
