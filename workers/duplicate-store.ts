// Every duplicate copy of a run (a full copy that reached a node already holding its tx), kept in
// the worker in typed columns (16 bytes each rather than the page's 24 as flat triples plus an
// index). A 50,000-node flood lands about 6 million of them; the page draws only the picked tx's,
// so it asks for those (`of`), and for all of them only to export the trace (`all`).
import { ArrivalField } from '../web/wasm/txcast_wasm.js';

/** Copies per block: a block's columns are allocated whole, so memory grows by at most one block. */
const BLOCK = 1 << 16;

/** Bytes a copy takes in a block. */
export const DUPLICATE_BYTES = 8 + 4 + 4;
/**
 * Copies a run keeps at most (about 190 MB): a 50,000-node flood of 20 txs lands about 6.3
 * million; past the bound the rest are counted, not kept, so a bigger run cannot take the tab's
 * memory with it.
 */
export const MAX_DUPLICATES = 12_000_000;

class Block {
  readonly time = new Float64Array(BLOCK);
  readonly node = new Uint32Array(BLOCK);
  readonly tx = new Uint32Array(BLOCK);
  /** The least and greatest tx in the block: a tx's copies land within a while of its creation, so most blocks hold none of a given tx's. */
  minTx = Infinity;
  maxTx = -Infinity;
}

/** One tx's copies from a row on: t_us, node pairs in time order, and the row to go on from. */
export interface TxDuplicates {
  pairs: Float64Array;
  /** Rows read: copies of the tx recorded later are at this row or after it. */
  rows: number;
}

export class DuplicateStore {
  private readonly blocks: Block[] = [];
  count = 0;
  /** Copies not kept, past `max`. */
  dropped = 0;
  /** When the first copy not kept landed: a tx's copies are all here only before it. */
  keptUntilUs = Infinity;

  constructor(private readonly max = MAX_DUPLICATES) {}

  /** Memory held (bytes). */
  get bytes(): number {
    return this.blocks.length * BLOCK * DUPLICATE_BYTES;
  }

  /** Appends the engine's `take_duplicates` (t_us, node, tx triples, in time order). */
  append(triples: Float64Array): void {
    for (let o = 0; o + ArrivalField.Stride <= triples.length; o += ArrivalField.Stride) {
      if (this.count >= this.max) {
        if (!this.dropped) this.keptUntilUs = triples[o + ArrivalField.Time];
        this.dropped += (triples.length - o) / ArrivalField.Stride;
        return;
      }
      const at = this.count % BLOCK;
      if (at === 0) this.blocks.push(new Block());
      const b = this.blocks[this.blocks.length - 1];
      b.time[at] = triples[o + ArrivalField.Time];
      b.node[at] = triples[o + ArrivalField.Node];
      const tx = triples[o + ArrivalField.Tx];
      b.tx[at] = tx;
      b.minTx = Math.min(b.minTx, tx);
      b.maxTx = Math.max(b.maxTx, tx);
      this.count += 1;
    }
  }

  /** Tx `tx`'s copies recorded at row `from` or later. */
  of(tx: number, from: number): TxDuplicates {
    const out: number[] = [];
    for (let i = Math.max(0, from); i < this.count; ) {
      const b = this.blocks[Math.floor(i / BLOCK)];
      const end = Math.min(this.count, (Math.floor(i / BLOCK) + 1) * BLOCK);
      if (tx >= b.minTx && tx <= b.maxTx) {
        for (; i < end; i += 1) if (b.tx[i % BLOCK] === tx) out.push(b.time[i % BLOCK], b.node[i % BLOCK]);
      }
      i = end;
    }
    return { pairs: Float64Array.from(out), rows: Math.max(from, this.count) };
  }

  /** Every copy kept, as the engine gave them (t_us, node, tx triples). */
  all(): Float64Array {
    const out = new Float64Array(this.count * ArrivalField.Stride);
    for (let i = 0; i < this.count; i += 1) {
      const b = this.blocks[Math.floor(i / BLOCK)];
      const at = i % BLOCK;
      const o = i * ArrivalField.Stride;
      out[o + ArrivalField.Time] = b.time[at];
      out[o + ArrivalField.Node] = b.node[at];
      out[o + ArrivalField.Tx] = b.tx[at];
    }
    return out;
  }
}
