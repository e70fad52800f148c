// What a WebGL frame is built from on the CPU, kept apart from the renderer (which brings regl
// and loads only when a big network is drawn): colours as bytes, and line segments.
import { rgb } from 'd3';
import { ARRIVAL_BUCKET_COLOURS, MARKS, UNREACHED } from './palette';

/** A CSS colour as RGBA bytes. */
export function rgba(css: string, alpha = 255): [number, number, number, number] {
  const c = rgb(css);
  return [c.r, c.g, c.b, alpha];
}
export const BUCKET_RGBA = ARRIVAL_BUCKET_COLOURS.map((c) => rgba(c));
export const UNREACHED_RGBA = rgba(UNREACHED);
export const PAYLOAD_RGBA = rgba(MARKS.payload);
export const CONTROL_RGBA = rgba(MARKS.control);
export const DUPLICATE_RGBA = rgba(MARKS.duplicate);
/** Colours as 32-bit words of RGBA bytes in memory order, for stamping into an image. */
const word = (c: readonly number[]) => new Uint32Array(Uint8Array.from(c).buffer)[0];
export const BUCKET_WORDS = BUCKET_RGBA.map(word);
export const UNREACHED_WORD = word(UNREACHED_RGBA);

/** Appends segments to growing arrays (reused frame to frame). */
export class Segments {
  coords = new Float32Array(4 * 4096);
  colours = new Uint8Array(8 * 4096);
  count = 0;

  reset(): void {
    this.count = 0;
  }

  push(x0: number, y0: number, x1: number, y1: number, colour: readonly number[], alpha: number): void {
    if (4 * (this.count + 1) > this.coords.length) {
      const coords = new Float32Array(2 * this.coords.length);
      coords.set(this.coords);
      this.coords = coords;
      const colours = new Uint8Array(2 * this.colours.length);
      colours.set(this.colours);
      this.colours = colours;
    }
    const c = 4 * this.count;
    this.coords[c] = x0;
    this.coords[c + 1] = y0;
    this.coords[c + 2] = x1;
    this.coords[c + 3] = y1;
    const o = 8 * this.count;
    for (let v = 0; v < 2; v += 1) {
      this.colours[o + 4 * v] = colour[0];
      this.colours[o + 4 * v + 1] = colour[1];
      this.colours[o + 4 * v + 2] = colour[2];
      this.colours[o + 4 * v + 3] = alpha;
    }
    this.count += 1;
  }

  /** Cuts segments `from` on to at most `length` back from their second end (their head). */
  shorten(from: number, length: number): void {
    for (let c = 4 * from; c < 4 * this.count; c += 4) {
      const dx = this.coords[c] - this.coords[c + 2];
      const dy = this.coords[c + 1] - this.coords[c + 3];
      const d = Math.hypot(dx, dy);
      if (d <= length) continue;
      this.coords[c] = this.coords[c + 2] + (dx * length) / d;
      this.coords[c + 1] = this.coords[c + 3] + (dy * length) / d;
    }
  }
}
