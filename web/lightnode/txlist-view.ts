// The list of txs this node has seen (txtable.ts draws the rows) and its buttons: a row picks its
// tx in the network view, "copy" copies its full hash, "download" saves its bytes while kept.
import type { NetworkView } from './network-view';
import { save } from './saved-view';
import { keyLabel, log, short, type LightStore, type Renders } from './state';
import { TxTable } from './txtable';

export function mountTxList(store: LightStore, root: HTMLElement, renders: Renders, network: NetworkView): void {
  const body = root.querySelector<HTMLTableSectionElement>('#ln-txs')!;
  let table: TxTable | null = null;
  store.subscribe(
    (s) => s.phase === 'running',
    (running) => {
      if (running) table ??= new TxTable(body, short);
    },
  );
  store.subscribe(
    (s) => s.snapshot,
    (snapshot) => snapshot && table?.update(snapshot.light.txs.values()),
  );

  const copyHash = async (hash: string) => {
    try {
      await navigator.clipboard.writeText(hash);
      log(store, `copied ${hash}`);
    } catch {
      // No clipboard here (an insecure origin, or refused): show the hash to copy by hand.
      window.prompt('the full SHA-256 of the tx', hash);
    }
  };

  const downloadTx = (key: string) => {
    const tx = store.get().light?.txs.get(key);
    if (!tx?.data) {
      log(store, `${keyLabel(key)}: its bytes are no longer kept`);
      return;
    }
    save(`tx-${tx.protocol}-${tx.id.slice(0, 16)}.bin`, 'application/octet-stream', tx.data as Uint8Array<ArrayBuffer>);
  };

  body.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const key = target.closest('tr')?.dataset.key;
    if (!key) return;
    const action = target.closest<HTMLButtonElement>('button[data-action]')?.dataset.action;
    if (action === 'copy') return void copyHash(key.slice(key.indexOf(':') + 1));
    if (action === 'download') return downloadTx(key);
    network.pickTx(key);
    renders.soon();
  });
}
