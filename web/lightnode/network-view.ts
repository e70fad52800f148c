// The network, live: this page in the middle and every peer it has met round it, drawn with the
// simulator's renderer on frames of its own (flashes move along the links), coloured by when the
// picked tx reached each node; and the list to pick a tx from.
import { keyLabel, type LightStore } from './state';

export interface NetworkView {
  /** Refreshes the list of txs to pick from (not while it is being used). */
  refreshPickList(): void;
  /** Picks the tx with key `key` ("protocol:hash"), adding it to the list if needed. */
  pickTx(key: string): void;
  /** Draws the network at the next frame. */
  schedule(): void;
}

export function mountNetwork(store: LightStore, root: HTMLElement): NetworkView {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const pick = $<HTMLSelectElement>('ln-pick');
  const canvas = $<HTMLCanvasElement>('ln-net');
  const legend = $<HTMLElement>('ln-legend') as unknown as SVGSVGElement;
  let frame = 0;
  let legendSpan = -1;

  /** The picked tx: the one chosen in the list, else the newest this page has seen. */
  const pickedTx = (): string | null => {
    const net = store.get().net;
    if (!net) return null;
    const ids = net.txIds();
    if (pick.value && ids.includes(pick.value)) return pick.value;
    return ids.at(-1) ?? null;
  };

  const draw = () => {
    frame = 0;
    const { net, views, open } = store.get();
    if (!net || !views || !open) return;
    const picked = pickedTx();
    const { spanUs, nodes, links, view } = views.netdraw.drawLiveNet(canvas, net, picked);
    canvas.dataset.nodes = String(nodes);
    canvas.dataset.links = String(links);
    canvas.dataset.picked = picked ?? '';
    if (Math.round(spanUs / 1000) !== legendSpan) {
      legendSpan = Math.round(spanUs / 1000);
      views.legend.drawLegend(legend, legendSpan);
    }
    const reached = view ? [...view.arrivalUs].filter((t) => t >= 0).length : 0;
    $<HTMLSpanElement>('ln-pick-info').textContent = view && picked
      ? `${keyLabel(picked)}: ${reached} of ${nodes} nodes known to have it, ${view.duplicates.length / 2} duplicates here`
      : 'no tx yet';
    // Keep animating while flashes are on their way.
    if (net.busy(net.nowUs())) schedule();
  };
  // The network view animates on its own frames (flashes move), apart from the tables and charts.
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(draw);
  };

  const refreshPickList = () => {
    const net = store.get().net;
    if (!net || document.activeElement === pick) return;
    const ids = net.txIds().slice(-50).reverse();
    const keep = pick.value;
    pick.replaceChildren(new Option('newest', ''), ...ids.map((id) => new Option(keyLabel(id), id)));
    pick.value = ids.includes(keep) ? keep : '';
  };

  store.subscribe((s) => s.snapshot, (snapshot) => snapshot && schedule());
  pick.addEventListener('change', schedule);

  return {
    refreshPickList,
    pickTx(key) {
      refreshPickList();
      if (![...pick.options].some((o) => o.value === key)) pick.append(new Option(keyLabel(key), key));
      pick.value = key;
    },
    schedule,
  };
}
