// The arrival log this browser keeps (IndexedDB through the arrivals crate, store.ts): opened with
// the panel, fed every copy the node sees, counted under "Saved arrivals", exported as JSON, CSV
// or the tickets log, and cleared.
import type { Copy } from './arrivals';
import { log, type LightStore, type Renders } from './state';
import type { ArrivalStore } from './store';
import { txKey } from './txtable';

/** Saves `body` as a file named `name`. */
export function save(name: string, type: string, body: BlobPart): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([body], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

export class SavedArrivals {
  // Opened with the panel, not with the page: the visualizer page need not load it at all.
  private opening: Promise<ArrivalStore | null> | null = null;
  private savedTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly $: <T extends HTMLElement>(id: string) => T;

  constructor(
    private readonly store: LightStore,
    private readonly root: HTMLElement,
    private readonly renders: Renders,
  ) {
    this.$ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
    this.$<HTMLButtonElement>('ln-export').addEventListener('click', () => void this.export('json'));
    this.$<HTMLButtonElement>('ln-export-csv').addEventListener('click', () => void this.export('csv'));
    this.$<HTMLButtonElement>('ln-export-log').addEventListener('click', () => void this.export('txal'));
    this.$<HTMLButtonElement>('ln-clear').addEventListener('click', () => {
      void this.ready()
        .then((arrivals) => arrivals?.clear())
        .then(() => this.show());
    });
    // A tab that closes, or is hidden (where a phone may end it unannounced), writes the
    // arrivals still waiting for the next batch.
    const flushNow = () => void this.opening?.then((arrivals) => arrivals?.flush());
    addEventListener('pagehide', flushNow);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flushNow();
    });
  }

  /** The arrival store, opened on first use (null if it cannot be). */
  ready(): Promise<ArrivalStore | null> {
    this.opening ??= import('./store')
      .then(({ ArrivalStore }) => ArrivalStore.open())
      .catch((error) => {
        this.showError(`arrival store unavailable: ${(error as Error).message}`);
        return null;
      });
    return this.opening;
  }

  private showError(message: string): void {
    this.$<HTMLParagraphElement>('ln-store-error').textContent = message;
    this.root.dataset.storeError = message;
    if (message) log(this.store, message);
  }

  /** Shows how many arrivals are stored and what they take, after the store's own batching. */
  async show(): Promise<void> {
    const arrivals = await this.ready();
    if (!arrivals) return;
    await arrivals.flush();
    const book = arrivals.book;
    const saved = book.size;
    const data = this.root.dataset;
    data.saved = String(saved);
    data.storedCells = String(await arrivals.storedCells());
    data.storedBytes = String(book.storedBytes());
    data.savedDuplicates = String(book.duplicates);
    this.$<HTMLSpanElement>('ln-saved').textContent = String(saved);
    const perRecord = saved ? (book.storedBytes() / saved).toFixed(1) : '–';
    this.$<HTMLSpanElement>('ln-saved-bytes').textContent = `${book.storedBytes()} bytes of cells (${perRecord} per arrival), ${book.duplicates} duplicates counted`;
    const problems: string[] = [];
    if (book.loadErrors) problems.push(`${book.loadErrors} stored records unreadable and skipped (first: ${book.loadError})`);
    if (arrivals.writeErrors) problems.push(`${arrivals.writeErrors} writes failed (last: ${arrivals.writeError})`);
    if (book.overflow) problems.push(`${book.overflow} copies not recorded: the log is full`);
    this.showError(problems.join('; '));
    data.storeLoadErrors = String(book.loadErrors);
  }

  /** A copy the node saw: logged, drawn on the network, counted. */
  record(copy: Copy & { duplicate?: boolean; sentAtMs?: number }): void {
    void this.ready().then((arrivals) => {
      const outcome = arrivals?.record(copy);
      const first = outcome ? outcome.first : !copy.duplicate;
      this.store.get().net?.arrival(txKey(copy), copy.from, first, copy.atMs, copy.sentAtMs);
      this.savedTimer ??= setTimeout(() => {
        this.savedTimer = null;
        void this.show();
      }, 300);
      this.renders.soon();
    });
  }

  private async export(format: 'json' | 'csv' | 'txal'): Promise<void> {
    const arrivals = await this.ready();
    if (!arrivals) return;
    await arrivals.flush();
    const { exportJson } = await import('./arrivals');
    const name = (ext: string) => `txcast-arrivals-${stamp()}.${ext}`;
    if (format === 'json') save(name('json'), 'application/json', exportJson(arrivals.book, this.store.get().light?.peerId ?? ''));
    else if (format === 'txal') save(name('txal'), 'application/octet-stream', arrivals.book.exportBlob() as Uint8Array<ArrayBuffer>);
    else {
      const rows = arrivals.book.rows();
      const lines = ['seq,id,protocol,own,first_ms,latency_ms,copies,duplicates,from'];
      for (const r of rows) lines.push([r.seq, r.id, r.protocol, r.own, r.firstMs.toFixed(3), r.latencyMs ?? '', r.copies, r.duplicates, r.from].join(','));
      save(name('csv'), 'text/csv', `${lines.join('\n')}\n`);
    }
  }
}
