// The light node's arrival log in memory: the Rust `arrivals` table (tickets encoding, through
// the WASM ArrivalStore) keyed by this node's own dense sequence number of the txs it has seen,
// plus the side table that maps a tx to its seq and keeps what the cells do not (who sent it,
// copies). A tx is named by its protocol and its id (the SHA-256 of its bytes): the same bytes
// sent on gossipsub and on CAT are two arrivals, each with a seq of its own. No storage here:
// store.ts persists the cells and side records.
import type { ArrivalStore } from '../wasm/txcast_wasm.js';

export type ProtocolName = 'gossipsub' | 'cat' | 'strokkur';

/** One copy of a tx observed here (the first one, or our own submission, or a duplicate). */
export interface Copy {
  protocol: ProtocolName;
  id: string;
  /** Wall-clock ms when the copy arrived (or the tx was submitted here). */
  atMs: number;
  own: boolean;
  /** The peer it came from ('' when unknown or our own). */
  from: string;
  /** End-to-end latency from the submitter's clock, when the tx carries it (generated txs). */
  latencyMs?: number;
}

/** The side record of one tx: stored next to its cell, keyed by (protocol, id). */
export interface TxSide {
  /** SHA-256 of the tx's bytes, 64 hex digits (16 in records stored before they were hashes). */
  id: string;
  seq: number;
  protocol: ProtocolName;
  own: boolean;
  from: string;
  /** Copies seen: the first arrival and every duplicate. */
  copies: number;
  latencyMs?: number;
}

/** One arrival as exported and charted. */
export interface ArrivalRow extends TxSide {
  firstMs: number;
  duplicates: number;
}

/** Txs beyond this many are not recorded (counted instead): the log lives in one browser. */
export const MAX_TXS = 200_000;

/** Flat cells from ArrivalStore.cells: [key length][key][value length][value] repeated. */
export function splitCells(flat: Uint8Array): Array<[Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>]> {
  const out: Array<[Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>]> = [];
  let at = 0;
  while (at < flat.length) {
    const keyLen = flat[at];
    const key = flat.slice(at + 1, at + 1 + keyLen);
    at += 1 + keyLen;
    const valueLen = flat[at];
    if (valueLen === undefined || at + 1 + valueLen > flat.length) throw new Error('cells: truncated buffer');
    out.push([key, flat.slice(at + 1, at + 1 + valueLen)]);
    at += 1 + valueLen;
  }
  return out;
}

/** The key of a tx in the side table: its protocol and its id. */
export const sideKey = (protocol: string, id: string) => `${protocol}:${id}`;

/**
 * A tx id as stored: 64 hex digits (SHA-256 of the bytes), or the 16 of the synthetic ids
 * arrivals were stored under before txs carried bytes (kept: they are still arrivals).
 */
export const STORED_ID = /^(?:[0-9a-f]{64}|[0-9a-f]{16})$/;

export function isSide(value: unknown): value is TxSide {
  const v = value as TxSide;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    STORED_ID.test(v.id) &&
    Number.isSafeInteger(v.seq) &&
    v.seq >= 0 &&
    ['gossipsub', 'cat', 'strokkur'].includes(v.protocol) &&
    Number.isSafeInteger(v.copies) &&
    v.copies >= 1
  );
}

/**
 * Side records of an older database (keyed by id alone) for the store keyed by (protocol, id):
 * those that have both key fields as strings are kept (read and judged on load like any
 * other), the rest cannot be stored under the new key and are dropped, counted.
 */
export function upgradeSides(records: unknown[]): { keep: object[]; dropped: number } {
  const keep = records.filter((r): r is object => {
    const v = r as { protocol?: unknown; id?: unknown };
    return typeof v === 'object' && v !== null && typeof v.protocol === 'string' && typeof v.id === 'string';
  });
  return { keep, dropped: records.length - keep.length };
}

export class ArrivalBook {
  /** Side records by sideKey(protocol, id). */
  readonly sides = new Map<string, TxSide>();
  /** Seqs whose cell or side record changed since the last `takeDirty`. */
  private dirtySeqs: number[] = [];
  private dirtySides = new Set<string>();
  private bySeq = new Map<number, string>();
  nextSeq = 0;
  /** Copies not recorded because the log is full. */
  overflow = 0;
  /** Stored records that could not be read back, and the first reason. */
  loadErrors = 0;
  loadError = '';

  constructor(
    private readonly cells: ArrivalStore,
    /** Wall-clock ms the stored arrival times count from. */
    readonly epochMs: number,
  ) {}

  get size(): number {
    return this.cells.len();
  }

  /** Later copies of known txs. */
  get duplicates(): number {
    let sum = 0;
    for (const side of this.sides.values()) sum += side.copies - 1;
    return sum;
  }

  /** Records one copy: its seq and whether it was the tx's first (false: a duplicate). */
  record(copy: Copy): { seq: number; first: boolean } | null {
    const key = sideKey(copy.protocol, copy.id);
    let side = this.sides.get(key);
    if (!side) {
      if (this.sides.size >= MAX_TXS) {
        this.overflow += 1;
        return null;
      }
      side = { id: copy.id, seq: this.nextSeq++, protocol: copy.protocol, own: copy.own, from: copy.from, copies: 0 };
      if (copy.latencyMs !== undefined) side.latencyMs = copy.latencyMs;
      this.sides.set(key, side);
      this.bySeq.set(side.seq, key);
    }
    const afterUs = Math.max(0, Math.round((copy.atMs - this.epochMs) * 1000));
    const first = this.cells.put(side.seq, afterUs);
    if (first) this.dirtySeqs.push(side.seq);
    // Who sent the first copy can be learnt just after it (gossipsub tells the source later).
    if (!side.from && copy.from) side.from = copy.from;
    if (side.latencyMs === undefined && copy.latencyMs !== undefined) side.latencyMs = copy.latencyMs;
    side.copies += 1;
    this.dirtySides.add(key);
    return { seq: side.seq, first };
  }

  /** The cells and side records to write since the last call. */
  takeDirty(): { cells: Array<[Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>]>; sides: TxSide[] } {
    const cells: Array<[Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>]> = [];
    const seqs = this.dirtySeqs.splice(0).sort((a, b) => a - b);
    // New seqs are dense and mostly in order: one range scan per run of consecutive seqs.
    for (let i = 0; i < seqs.length; ) {
      let j = i + 1;
      while (j < seqs.length && seqs[j] === seqs[j - 1] + 1) j += 1;
      cells.push(...splitCells(this.cells.cells(seqs[i], seqs[j - 1] + 1)));
      i = j;
    }
    const sides = [...this.dirtySides].map((key) => this.sides.get(key)!).filter(Boolean);
    this.dirtySides.clear();
    return { cells, sides };
  }

  /** Loads one stored cell; hostile bytes are counted and remembered, never thrown. */
  loadCell(key: Uint8Array, value: Uint8Array): void {
    try {
      this.cells.load_cell(key, value);
    } catch (error) {
      this.noteLoadError((error as Error).message ?? String(error));
    }
  }

  /** Loads one stored side record; one that does not parse is counted and skipped. */
  loadSide(value: unknown): void {
    const key = isSide(value) ? sideKey(value.protocol, value.id) : '';
    if (!isSide(value) || this.bySeq.has(value.seq) || this.sides.has(key)) {
      this.noteLoadError('stored tx record unreadable');
      return;
    }
    const side: TxSide = { id: value.id, seq: value.seq, protocol: value.protocol, own: !!value.own, from: String(value.from ?? ''), copies: value.copies };
    if (Number.isFinite(value.latencyMs)) side.latencyMs = value.latencyMs;
    this.sides.set(key, side);
    this.bySeq.set(side.seq, key);
    this.nextSeq = Math.max(this.nextSeq, side.seq + 1);
  }

  /** After loading: new txs get seqs above every stored cell, even a cell without a side record. */
  finishLoad(): void {
    const flat = this.cells.scan(0, Number.MAX_SAFE_INTEGER);
    if (flat.length >= 2) this.nextSeq = Math.max(this.nextSeq, flat[flat.length - 2] + 1);
  }

  /** Records that could not be read back elsewhere (e.g. dropped by a database upgrade). */
  noteLoadError(message: string, n = 1): void {
    if (n <= 0) return;
    this.loadErrors += n;
    this.loadError ||= message;
  }

  /** Every tx with both a cell and a side record, in seq order (a range scan of the log). */
  rows(): ArrivalRow[] {
    const flat = this.cells.scan(0, this.nextSeq);
    const out: ArrivalRow[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const key = this.bySeq.get(flat[i]);
      const side = key === undefined ? undefined : this.sides.get(key);
      if (!side || flat[i + 1] < 0) continue;
      out.push({ ...side, firstMs: this.epochMs + flat[i + 1] / 1000, duplicates: side.copies - 1 });
    }
    return out;
  }

  /** Bytes the cells take as stored (row key, column, value), without the database's overhead. */
  storedBytes(): number {
    return this.cells.stored_bytes();
  }

  /** The log in the crate's export encoding (TXAL blob). */
  exportBlob(): Uint8Array {
    return this.cells.export();
  }
}

/** The readable export: every arrival with its seq, oldest first. */
export function exportJson(book: ArrivalBook, node: string): string {
  const arrivals = book.rows().sort((a, b) => a.seq - b.seq);
  return JSON.stringify(
    {
      format: 'txcast-lightnode-arrivals/3',
      exportedAt: new Date().toISOString(),
      node,
      epochMs: book.epochMs,
      encoding: 'arrivals crate tickets layout (PQ 25000000, NP 16); the .txal export holds the same cells, values in us after epochMs',
      arrivals,
    },
    null,
    1,
  );
}
