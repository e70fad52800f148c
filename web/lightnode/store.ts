// Persists the light node's arrival log (arrivals.ts) in IndexedDB, so it survives a reload:
//   cells  key = row key (8 bytes) + column VAR_LONG, value = VAR_LONG of the arrival (us after
//          the epoch): exactly the `arrivals` crate's tickets cells, one IndexedDB record each;
//   txs    the side table: (protocol, tx id) -> seq, sender, copies;
//   meta   the epoch the arrival times count from (and what an upgrade had to drop).
// Writes are batched: arrivals can come in faster than one transaction each. Stored bytes that
// do not decode (a corrupted or hostile database) are counted and reported, never thrown.
import init, { ArrivalStore as Cells } from '../wasm/txcast_wasm.js';
import { ArrivalBook, upgradeSides, type Copy } from './arrivals';
import { wallMs } from '../p2p/txwire.mjs';

const DB_NAME = 'txcast-lightnode';
// 1: JSON records; 2: tickets cells, side records keyed by id; 3: side records keyed by
// (protocol, id), as the same bytes can arrive on several protocols under one SHA-256.
const DB_VERSION = 3;
const SIDE_KEY = ['protocol', 'id'];
const CELLS = 'cells';
const TXS = 'txs';
const META = 'meta';
const FLUSH_MS = 250;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The meta key under which an upgrade notes the side records it could not carry over. */
const DROPPED = 'upgradeDropped';

function openDb(): Promise<IDBDatabase> {
  const req = indexedDB.open(DB_NAME, DB_VERSION);
  req.onupgradeneeded = () => {
    const db = req.result;
    const upgrade = req.transaction!;
    // Version 1 kept JSON records in 'arrivals': superseded by the cells.
    for (const name of [...db.objectStoreNames]) if (![CELLS, TXS, META].includes(name)) db.deleteObjectStore(name);
    if (!db.objectStoreNames.contains(CELLS)) db.createObjectStore(CELLS);
    if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
    if (!db.objectStoreNames.contains(TXS)) {
      db.createObjectStore(TXS, { keyPath: SIDE_KEY });
      return;
    }
    const old = upgrade.objectStore(TXS);
    if (Array.isArray(old.keyPath) && old.keyPath.join() === SIDE_KEY.join()) return;
    // Version 2 keyed side records by id: move them under (protocol, id), in this same
    // upgrade transaction. Their cells stay as they are (their seqs do not change).
    const all = old.getAll();
    all.onsuccess = () => {
      const { keep, dropped } = upgradeSides(all.result as unknown[]);
      db.deleteObjectStore(TXS);
      const sides = db.createObjectStore(TXS, { keyPath: SIDE_KEY });
      for (const side of keep) sides.put(side);
      if (dropped) upgrade.objectStore(META).put(dropped, DROPPED);
    };
  };
  return request(req);
}

/** Visits every record of a store with a cursor. */
function eachRecord(store: IDBObjectStore, visit: (key: IDBValidKey, value: unknown) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const cursor = store.openCursor();
    cursor.onerror = () => reject(cursor.error);
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return resolve();
      visit(c.key, c.value);
      c.continue();
    };
  });
}

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  // Anything else cannot be a cell: hand the decoder nothing, so it reports the record.
  return new Uint8Array(0);
}

export class ArrivalStore {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Write failures (quota, a closed database), and the last reason. */
  writeErrors = 0;
  writeError = '';

  private constructor(
    private readonly db: IDBDatabase,
    public book: ArrivalBook,
  ) {}

  /** Opens the database and loads what it holds into a fresh log. */
  static async open(): Promise<ArrivalStore> {
    await init();
    const db = await openDb();
    const tx = db.transaction([CELLS, TXS, META], 'readwrite');
    const meta = tx.objectStore(META);
    let epochMs = await request(meta.get('epochMs'));
    if (typeof epochMs !== 'number' || !Number.isFinite(epochMs) || epochMs < 0) {
      epochMs = Math.floor(wallMs());
      meta.put(epochMs, 'epochMs');
    }
    const book = new ArrivalBook(new Cells(), epochMs);
    await eachRecord(tx.objectStore(CELLS), (key, value) => book.loadCell(bytesOf(key), bytesOf(value)));
    await eachRecord(tx.objectStore(TXS), (_key, value) => book.loadSide(value));
    const dropped = await request(meta.get(DROPPED));
    if (typeof dropped === 'number') book.noteLoadError('stored tx record unreadable (without a protocol and id, dropped when the database was upgraded)', dropped);
    book.finishLoad();
    await done(tx);
    return new ArrivalStore(db, book);
  }

  /** One copy of a tx seen here; written with the next batch. */
  record(copy: Copy): { seq: number; first: boolean } | null {
    const outcome = this.book.record(copy);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    return outcome;
  }

  /**
   * Writes the pending cells and side records in one transaction, made at once (IndexedDB runs
   * a store's transactions in the order they were made, so it need not wait for the last one;
   * and a tab that is closing gets its write started).
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const { cells, sides } = this.book.takeDirty();
    if (cells.length === 0 && sides.length === 0) return this.writing;
    const written = (async () => {
      try {
        const tx = this.db.transaction([CELLS, TXS], 'readwrite');
        const cellStore = tx.objectStore(CELLS);
        for (const [key, value] of cells) cellStore.put(value, key);
        const txStore = tx.objectStore(TXS);
        for (const side of sides) txStore.put(side);
        // Commit now rather than when the event loop next finds no request pending: a tab
        // closing may not run the loop again (its pagehide write was lost without this).
        tx.commit();
        await done(tx);
      } catch (error) {
        this.writeErrors += 1;
        this.writeError = (error as Error)?.message ?? String(error);
      }
    })();
    this.writing = Promise.all([this.writing, written]).then(() => undefined);
    return this.writing;
  }

  /** Cells as IndexedDB holds them (a check that the database and the log agree). */
  async storedCells(): Promise<number> {
    await this.flush();
    return request(this.db.transaction(CELLS).objectStore(CELLS).count());
  }

  /** Empties the database and starts a new log with a new epoch. */
  async clear(): Promise<void> {
    await this.flush();
    const tx = this.db.transaction([CELLS, TXS, META], 'readwrite');
    tx.objectStore(CELLS).clear();
    tx.objectStore(TXS).clear();
    const epochMs = Math.floor(wallMs());
    tx.objectStore(META).put(epochMs, 'epochMs');
    tx.objectStore(META).delete(DROPPED);
    await done(tx);
    this.book = new ArrivalBook(new Cells(), epochMs);
  }
}
