// Every send of a run, kept in the worker in typed columns (42 bytes a send rather than the 80 of
// the flat rows the engine hands over), so the page need not hold them all: it asks for the
// sends it can draw around the time it shows (`window`) and gets them as flat rows again.
// Each tx's sends are also listed by index (4 bytes a send, 8 if a send carries one tx and names
// another), so a window about one tx visits that tx's sends only, not every send after its time.
import { SendField } from '../web/wasm/txcast_wasm.js';
import { SEND_STRIDE } from './protocol';

/** Sends per block: a block's columns are allocated whole, so memory grows by at most one block. */
const BLOCK = 1 << 16;
const LOST = 0x8000;

/** One block's columns. */
class Block {
  readonly time = new Float64Array(BLOCK);
  readonly arrive = new Float64Array(BLOCK);
  readonly from = new Uint32Array(BLOCK);
  readonly to = new Uint32Array(BLOCK);
  readonly bytes = new Uint32Array(BLOCK);
  readonly payload = new Uint32Array(BLOCK);
  readonly tx = new Int32Array(BLOCK);
  readonly subject = new Int32Array(BLOCK);
  /** The kind, with `LOST` set if the link lost the send. */
  readonly kind = new Uint16Array(BLOCK);
}

/**
 * The indexes of one tx's sends, in send order, in an array that doubles as it fills: appends
 * cost what they add, and room unused is at most what is filled.
 */
class TxSends {
  ids = new Uint32Array(16);
  length = 0;

  push(i: number): void {
    if (this.length === this.ids.length) {
      const bigger = new Uint32Array(this.ids.length * 2);
      bigger.set(this.ids);
      this.ids = bigger;
    }
    this.ids[this.length] = i;
    this.length += 1;
  }

  /** Gives back the room not filled (the run is over: nothing more comes). */
  trim(): void {
    if (this.length < this.ids.length) this.ids = this.ids.slice(0, this.length);
  }

  /** Position of the first index at or after `i`. */
  firstFrom(i: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ids[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Bytes a send takes in a block (its tx's index adds 4). */
export const SEND_BYTES = 8 + 8 + 4 * 6 + 2;
/**
 * Sends a run keeps at most (about 550 MB with their index by tx): a 50,000-node run of 20 txs
 * sends about 7.5 million; past it the rest are not kept, so a bigger run cannot take the page's
 * memory with it.
 */
export const MAX_SENDS = 12_000_000;

/** The sends a page can draw over a stretch of time (`SendStore.window`). */
export interface SendWindow {
  /** Flat rows laid out by `SendField`, in send order. */
  rows: Float64Array;
  /** Index in the run's sends of the first row (the count of sends before it when there are none). */
  first: number;
  /** Times in [from, through) can be drawn from `rows`: every send that may be in flight then is in it. */
  through: number;
  /** Sends looked at to answer (every send from the window's start, or only the tx's asked about). */
  visited: number;
}

export class SendStore {
  private readonly blocks: Block[] = [];
  /** Each tx's sends (carrying, announcing or asking for it), by tx id. */
  private readonly byTx: TxSends[] = [];
  count = 0;
  /** Sends not kept, past `max`. */
  dropped = 0;
  /** When the first send not kept was sent: windows hold every send only before it. */
  keptUntilUs = Infinity;

  constructor(private readonly max = MAX_SENDS) {}

  /** Memory held (bytes). */
  get bytes(): number {
    const index = this.byTx.reduce((sum, list) => sum + list.ids.byteLength, 0);
    return this.blocks.length * BLOCK * SEND_BYTES + index;
  }

  /** Appends flat rows (the engine's `take_sends`), which come in send order. */
  append(rows: Float64Array): void {
    const n = Math.floor(rows.length / SEND_STRIDE);
    const kept = Math.min(n, Math.max(0, this.max - this.count));
    if (kept < n) {
      if (!this.dropped) this.keptUntilUs = rows[kept * SEND_STRIDE + SendField.Time];
      this.dropped += n - kept;
    }
    // A block at a time, so each send is written into columns already at hand.
    for (let row = 0; row < kept; ) {
      const at = this.count % BLOCK;
      if (at === 0) this.blocks.push(new Block());
      const rowsHere = Math.min(BLOCK - at, kept - row);
      this.fill(this.blocks[this.blocks.length - 1], at, rows, row, rowsHere);
      row += rowsHere;
      this.count += rowsHere;
    }
  }

  /** Writes `count` rows from row `row` on into block `b` from `at` on, and indexes them by tx. */
  private fill(b: Block, at: number, rows: Float64Array, row: number, count: number): void {
    const { Time, Arrive, From, To, Bytes, Payload, Tx, Subject, Kind, Lost } = SendField;
    for (let k = 0; k < count; k += 1) {
      const o = (row + k) * SEND_STRIDE;
      const i = at + k;
      b.time[i] = rows[o + Time];
      b.arrive[i] = rows[o + Arrive];
      b.from[i] = rows[o + From];
      b.to[i] = rows[o + To];
      b.bytes[i] = rows[o + Bytes];
      b.payload[i] = rows[o + Payload];
      b.kind[i] = rows[o + Kind] | (rows[o + Lost] !== 0 ? LOST : 0);
      b.tx[i] = rows[o + Tx];
      b.subject[i] = rows[o + Subject];
      const tx = b.tx[i];
      const subject = b.subject[i];
      const index = this.count + k;
      if (tx >= 0) this.listOf(tx).push(index);
      if (subject >= 0 && subject !== tx) this.listOf(subject).push(index);
    }
  }

  /** The run is over: its index by tx keeps no room to grow. */
  trim(): void {
    this.byTx.forEach((list) => list.trim());
  }

  /** Tx ids are the workload's sequence numbers, so the array stays dense. */
  private listOf(tx: number): TxSends {
    let list = this.byTx[tx];
    if (!list) this.byTx[tx] = list = new TxSends();
    return list;
  }

  private time(i: number): number {
    return this.blocks[Math.floor(i / BLOCK)].time[i % BLOCK];
  }

  /** Index of the first send at or after `tUs`. */
  firstAt(tUs: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.time(mid) < tUs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Where copies of tx `tx` landed first, from position `fromRow` of the tx's list of sends on,
   * among the sends from index `fromIndex` on (those the run's chunks did not carry): per node
   * one of them reached, the earliest landing of a copy not lost and its sender (the first sent
   * wins a tie), as (node, lands_us, from) triples; and the list's length, to go on from next.
   */
  firstCopies(tx: number, fromRow: number, fromIndex: number): { copies: Float64Array; rows: number } {
    const list = this.byTx[tx];
    if (!list) return { copies: new Float64Array(0), rows: 0 };
    const found: number[] = [];
    /** Per node, where its triple is in `found`. */
    const at = new Map<number, number>();
    for (let p = Math.max(fromRow, list.firstFrom(fromIndex)); p < list.length; p += 1) {
      const i = list.ids[p];
      const b = this.blocks[Math.floor(i / BLOCK)];
      const k = i % BLOCK;
      // Listed for the tx it names (an announcement or a request) without carrying it, or lost.
      if (b.tx[k] !== tx || b.kind[k] & LOST) continue;
      const node = b.to[k];
      const held = at.get(node);
      if (held === undefined) {
        at.set(node, found.length);
        found.push(node, b.arrive[k], b.from[k]);
      } else if (b.arrive[k] < found[held + 1]) {
        found[held + 1] = b.arrive[k];
        found[held + 2] = b.from[k];
      }
    }
    return { copies: Float64Array.from(found), rows: list.length };
  }

  /**
   * The sends sent in [sentFrom, until) that land after `landsAfter` (about tx `about` only, if
   * not negative: carrying, announcing or asking for it), at most `max` of them. Cut short by
   * `max`, the window holds every such send sent before the first one left out; `computed` is
   * how far the run has been computed (sends at that time may still come), and none is held
   * from the first send not kept on.
   */
  window(sentFrom: number, landsAfter: number, until: number, max: number, computed: number, about = -1): SendWindow {
    const start = this.firstAt(sentFrom);
    const picked: number[] = [];
    let through = Math.min(until, computed, this.keptUntilUs);
    let visited = 0;
    /** Takes send `i` if it lands late enough; false once the window is over. */
    const take = (i: number): boolean => {
      visited += 1;
      const b = this.blocks[Math.floor(i / BLOCK)];
      const at = i % BLOCK;
      if (b.time[at] >= until) return false;
      if (b.arrive[at] <= landsAfter) return true;
      if (picked.length === max) {
        through = Math.min(through, b.time[at]);
        return false;
      }
      picked.push(i);
      return true;
    };
    if (about < 0) {
      let i = start;
      while (i < this.count && take(i)) i += 1;
    } else {
      const list = this.byTx[about];
      let p = list ? list.firstFrom(start) : 0;
      while (list && p < list.length && take(list.ids[p])) p += 1;
    }
    const rows = new Float64Array(picked.length * SEND_STRIDE);
    picked.forEach((i, n) => {
      const b = this.blocks[Math.floor(i / BLOCK)];
      const at = i % BLOCK;
      const o = n * SEND_STRIDE;
      rows[o + SendField.Time] = b.time[at];
      rows[o + SendField.From] = b.from[at];
      rows[o + SendField.To] = b.to[at];
      rows[o + SendField.Kind] = b.kind[at] & ~LOST;
      rows[o + SendField.Bytes] = b.bytes[at];
      rows[o + SendField.Payload] = b.payload[at];
      rows[o + SendField.Arrive] = b.arrive[at];
      rows[o + SendField.Lost] = b.kind[at] & LOST ? 1 : 0;
      rows[o + SendField.Tx] = b.tx[at];
      rows[o + SendField.Subject] = b.subject[at];
    });
    return { rows, first: picked.length ? picked[0] : start, through, visited };
  }
}
