// The messages a frame drew in flight on a canvas, kept until the next frame so a pointer (or
// the keyboard) can pick one out: where each stroke went, and which send record it was.
export interface DrawnMessage {
  /** The send's record (`SendField` layout) and its offset in it. */
  data: Float64Array;
  offset: number;
  /** The stroke's head: where the message is now (CSS pixels). */
  x: number;
  y: number;
}

export class DrawnMessages {
  private segments = new Float32Array(4 * 256);
  private offsets = new Int32Array(256);
  private sources: Float64Array[] = [];
  private source = new Uint8Array(256);
  count = 0;

  clear(): void {
    this.count = 0;
    this.sources = [];
  }

  add(x0: number, y0: number, x1: number, y1: number, data: Float64Array, offset: number): void {
    if (this.count === this.offsets.length) {
      const grow = <T extends Float32Array | Int32Array | Uint8Array>(a: T, n: number): T => {
        const b = new (a.constructor as new (n: number) => T)(n);
        b.set(a);
        return b;
      };
      this.segments = grow(this.segments, this.segments.length * 2);
      this.offsets = grow(this.offsets, this.offsets.length * 2);
      this.source = grow(this.source, this.source.length * 2);
    }
    let s = this.sources.indexOf(data);
    if (s < 0) s = this.sources.push(data) - 1;
    this.segments.set([x0, y0, x1, y1], 4 * this.count);
    this.offsets[this.count] = offset;
    this.source[this.count] = s;
    this.count += 1;
  }

  at(i: number): DrawnMessage | null {
    if (i < 0 || i >= this.count) return null;
    return { data: this.sources[this.source[i]], offset: this.offsets[i], x: this.segments[4 * i + 2], y: this.segments[4 * i + 3] };
  }

  /** The message whose stroke passes nearest to (px, py), within `reach` pixels; its index or -1. */
  nearest(px: number, py: number, reach = 6): number {
    let best = -1;
    let bestD = reach * reach;
    for (let i = 0; i < this.count; i += 1) {
      const [x0, y0, x1, y1] = this.segments.subarray(4 * i, 4 * i + 4);
      const dx = x1 - x0;
      const dy = y1 - y0;
      const len = dx * dx + dy * dy;
      const u = len > 0 ? Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len)) : 0;
      const ex = x0 + u * dx - px;
      const ey = y0 + u * dy - py;
      const d = ex * ex + ey * ey;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }
}

const drawn = new WeakMap<HTMLCanvasElement, DrawnMessages>();

/** The messages last drawn on `canvas` (an empty list before its first frame). */
export function drawnOn(canvas: HTMLCanvasElement): DrawnMessages {
  let d = drawn.get(canvas);
  if (!d) {
    d = new DrawnMessages();
    drawn.set(canvas, d);
  }
  return d;
}
