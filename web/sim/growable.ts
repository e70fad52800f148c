// A Float64Array filled a chunk at a time. Up to `limit` numbers it grows in place, in a resizable
// ArrayBuffer: nothing it holds is copied again, and room not yet used costs nothing (an array
// of a run's sends doubling by copying took one 30 ms task; one allocated at full size up front
// must be zeroed when the allocator reuses memory). Past `limit`, or where buffers cannot be
// resized, it doubles by copying.

/** ES2024 resizable buffers, which this project's TypeScript library does not declare. */
type ResizableBuffer = ArrayBuffer & { resize(byteLength: number): void; readonly resizable: boolean; readonly maxByteLength: number };
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;
const canResize = typeof (ArrayBuffer.prototype as Partial<ResizableBuffer>).resize === 'function';

const BYTES = Float64Array.BYTES_PER_ELEMENT;

function allocate(capacity: number, limit: number): Float64Array {
  if (!canResize || limit <= capacity) return new Float64Array(capacity);
  try {
    return new Float64Array(new ResizableArrayBuffer(capacity * BYTES, { maxByteLength: limit * BYTES }), 0, capacity);
  } catch {
    return new Float64Array(capacity); // no address space to reserve: grow by copying
  }
}

/** `view()` is the filled part. */
export class Growable {
  private data: Float64Array;
  length = 0;

  constructor(
    capacity = 1024,
    private readonly limit = capacity,
  ) {
    this.data = allocate(capacity, limit);
  }

  append(data: ArrayLike<number>): void {
    this.reserve(data.length);
    this.data.set(data, this.length);
    this.length += data.length;
  }

  /** Appends `count` numbers of `source` from `start` on. */
  appendFrom(source: Float64Array, start: number, count: number): void {
    this.reserve(count);
    for (let i = 0; i < count; i += 1) this.data[this.length + i] = source[start + i];
    this.length += count;
  }

  /** Appends one number. */
  push(value: number): void {
    this.reserve(1);
    this.data[this.length] = value;
    this.length += 1;
  }

  /** Keeps the first `length` numbers. */
  truncate(length: number): void {
    this.length = Math.min(this.length, Math.max(0, length));
  }

  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }

  /** Makes room for `more` numbers (at least doubling, so appends cost what they add). */
  reserve(more: number): void {
    const needed = this.length + more;
    if (needed <= this.data.length) return;
    let capacity = Math.max(16, this.data.length * 2);
    while (capacity < needed) capacity *= 2;
    const buffer = this.data.buffer as ResizableBuffer;
    if (buffer.resizable && needed * BYTES <= buffer.maxByteLength) {
      const bytes = Math.min(capacity * BYTES, buffer.maxByteLength);
      buffer.resize(bytes);
      this.data = new Float64Array(buffer, 0, bytes / BYTES);
      return;
    }
    const bigger = allocate(capacity, Math.max(this.limit, capacity));
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }
}
