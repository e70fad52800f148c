// Arrivals the light node saw, kept in IndexedDB so that they survive a page reload, and
// exported as JSON. Writes are batched: arrivals can come in faster than one transaction each.
export interface ArrivalRecord {
  protocol: 'gossipsub' | 'cat' | 'strokkur';
  id: string;
  /** Wall-clock ms of the first copy here (of the submission, for our own txs). */
  firstMs: number;
  own: boolean;
  /** The peer the first copy came from ('' when unknown or our own). */
  from: string;
  /** The node (peer id) that saw it: one per page session. */
  node: string;
  /** End-to-end latency from the submitter's clock, when the tx carries it (gossipsub). */
  latencyMs?: number;
}

const DB_NAME = 'txcast-lightnode';
const STORE = 'arrivals';
const FLUSH_MS = 250;
/** Oldest records go once there are more than this many. */
const MAX_RECORDS = 200_000;

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

export class ArrivalStore {
  private pending: ArrivalRecord[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  private constructor(private readonly db: IDBDatabase) {}

  static async open(): Promise<ArrivalStore> {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { autoIncrement: true });
      store.createIndex('key', ['node', 'protocol', 'id'], { unique: true });
    };
    return new ArrivalStore(await request(req));
  }

  add(record: ArrivalRecord): void {
    this.pending.push(record);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const tx = this.db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const record of batch) store.put(record).onerror = (event) => event.preventDefault(); // a repeat: keep the first
    await done(tx).catch(() => undefined);
    const total = await this.count();
    if (total > MAX_RECORDS) await this.trim(total - MAX_RECORDS);
  }

  async count(): Promise<number> {
    return request(this.db.transaction(STORE).objectStore(STORE).count());
  }

  async all(): Promise<ArrivalRecord[]> {
    await this.flush();
    return request(this.db.transaction(STORE).objectStore(STORE).getAll());
  }

  async clear(): Promise<void> {
    this.pending = [];
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await done(tx);
  }

  private async trim(n: number): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    const cursorReq = tx.objectStore(STORE).openCursor();
    let left = n;
    cursorReq.onsuccess = () => {
      const cursor = cursorReq.result;
      if (!cursor || left <= 0) return;
      cursor.delete();
      left -= 1;
      cursor.continue();
    };
    await done(tx);
  }
}

/** The export file: every stored arrival, oldest first. */
export function exportJson(records: ArrivalRecord[]): string {
  const arrivals = [...records].sort((a, b) => a.firstMs - b.firstMs);
  return JSON.stringify({ format: 'txcast-lightnode-arrivals/1', exportedAt: new Date().toISOString(), arrivals }, null, 1);
}
