// The panel's list of txs this node has seen, on every protocol: hash (abbreviated; the full
// one in the title and by the copy button), protocol, size, latency where the tx carries its
// submit time, copies, the peer it came from, and a download button while the bytes are kept.
// Rows are kept and updated in place (not rebuilt), so a focused button keeps its focus while
// txs keep arriving.
import type { TxRecord } from './node';

/** Rows shown: the newest txs, and the newest of our own however many came after them. */
export const MAX_ROWS = 100;
export const MAX_OWN_ROWS = 20;

export function abbreviate(hash: string): string {
  return hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash;
}

export const txKey = (tx: Pick<TxRecord, 'protocol' | 'id'>) => `${tx.protocol}:${tx.id}`;

/** The txs the list shows, newest first: the newest MAX_ROWS, and our newest MAX_OWN_ROWS among them. */
export function shownTxs(txs: Iterable<TxRecord>): TxRecord[] {
  const byNewest = [...txs].sort((a, b) => b.firstMs - a.firstMs || (txKey(a) < txKey(b) ? -1 : 1));
  const own = byNewest.filter((tx) => tx.own).slice(0, MAX_OWN_ROWS);
  const shown = new Set([...byNewest.slice(0, MAX_ROWS), ...own]);
  return byNewest.filter((tx) => shown.has(tx));
}

/** What a row shows, as text per cell (the cells after the hash), and whether bytes are kept. */
export function rowText(tx: TxRecord, short: (peer: string) => string): { cells: string[]; kept: boolean } {
  const latency = tx.own ? '–' : tx.sentAtMs === undefined ? '' : Math.max(0, tx.firstMs - tx.sentAtMs).toFixed(0);
  return {
    cells: [tx.protocol, tx.own ? 'self' : 'peer', String(tx.bytes), latency, String(tx.copies), tx.own ? '' : short(tx.from)],
    kept: tx.data !== undefined,
  };
}

function button(action: string, text: string, label: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.action = action;
  b.textContent = text;
  b.setAttribute('aria-label', label);
  return b;
}

export class TxTable {
  private readonly rows = new Map<string, HTMLTableRowElement>();

  constructor(
    private readonly body: HTMLTableSectionElement,
    private readonly short: (peer: string) => string,
  ) {}

  /** Shows `shownTxs(txs)`: a tx the user sent stays listed while a busy network's scroll past. */
  update(txs: Iterable<TxRecord>): void {
    const newest = shownTxs(txs);
    const wanted = new Set(newest.map(txKey));
    for (const [key, tr] of this.rows) {
      if (!wanted.has(key)) {
        tr.remove();
        this.rows.delete(key);
      }
    }
    let previous: HTMLTableRowElement | null = null;
    for (const tx of newest) {
      const key = txKey(tx);
      let tr = this.rows.get(key);
      if (!tr) {
        tr = this.row(tx);
        this.rows.set(key, tr);
      }
      this.fill(tr, tx);
      // Only rows out of place move (new ones, at the top): the others keep their focus.
      const at: Element | null = previous ? previous.nextElementSibling : this.body.firstElementChild;
      if (at !== tr) this.body.insertBefore(tr, at);
      previous = tr;
    }
  }

  private row(tx: TxRecord): HTMLTableRowElement {
    const tr = document.createElement('tr');
    tr.dataset.key = txKey(tx);
    tr.dataset.tx = tx.id;
    tr.dataset.protocol = tx.protocol;
    tr.title = 'click to pick this tx in the network view';
    const hash = document.createElement('td');
    const code = document.createElement('code');
    code.textContent = abbreviate(tx.id);
    code.title = tx.id;
    hash.append(code, ' ', button('copy', 'copy', `copy the full hash ${tx.id}`));
    tr.append(hash);
    for (let i = 0; i < 6; i++) tr.append(document.createElement('td'));
    const actions = document.createElement('td');
    actions.append(button('download', 'download', `download the bytes of ${abbreviate(tx.id)} (${tx.protocol})`));
    tr.append(actions);
    return tr;
  }

  private fill(tr: HTMLTableRowElement, tx: TxRecord): void {
    const { cells, kept } = rowText(tx, this.short);
    cells.forEach((text, i) => {
      const td = tr.cells[i + 1];
      if (td.textContent !== text) td.textContent = text;
    });
    tr.dataset.bytes = String(tx.bytes);
    tr.dataset.copies = String(tx.copies);
    const download = tr.querySelector<HTMLButtonElement>('button[data-action="download"]')!;
    if (download.disabled === kept) {
      download.disabled = !kept;
      download.title = kept ? '' : 'no longer kept: only the newest 16 MiB of txs keep their bytes';
    }
  }
}
