// The light node's charts, at most twice a second (D3 rebuilds the SVG each time): txs received
// over time, the latency CDF, duplicates and overhead, and bytes over time, per protocol.
import type { ProtocolName } from './arrivals';
import type { NetworkView } from './network-view';
import type { SavedArrivals } from './saved-view';
import { tally, type LightStore, type Renders } from './state';
import { wallMs } from '../p2p/txwire.mjs';

export function mountCharts(store: LightStore, root: HTMLElement, renders: Renders, saved: SavedArrivals, network: NetworkView): void {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const svg = (id: string) => $<HTMLElement>(id) as unknown as SVGSVGElement;
  let drawnMs = 0;

  // What the bytes chart can show depends on the router.
  store.subscribe(
    (s) => (s.phase === 'running' ? s.light : null),
    (light) => {
      if (!light?.gossip) return;
      $<HTMLElement>('ln-bandwidth-caption').textContent =
        light.gossip.router === 'txcast'
          ? 'Bytes over time: bytes sent and received per second, per protocol (every frame, gossipsub control included).'
          : 'Bytes over time: bytes sent and received per second, per protocol (gossipsub: tx and announcement payloads only; @libp2p/gossipsub does not show its control messages to the page).';
    },
  );

  store.subscribe(
    (s) => s.snapshot,
    (snapshot) => {
      const { views, startedMs } = store.get();
      if (!snapshot || !views) return;
      const light = snapshot.light;
      const now = wallMs();
      if (now - drawnMs < 500) {
        renders.later();
        return;
      }
      drawnMs = now;
      network.refreshPickList();
      const { charts, live } = views;
      $<HTMLUListElement>('ln-run-legend').replaceChildren(
        ...live.PROTOCOLS.map((protocol) => {
          const li = document.createElement('li');
          const swatch = document.createElement('span');
          swatch.className = 'run-swatch';
          swatch.style.background = live.colourOf(protocol);
          li.append(swatch, protocol);
          return li;
        }),
      );
      const received: Record<ProtocolName, number[]> = { gossipsub: [], cat: [], strokkur: [] };
      for (const tx of light.txs.values()) if (!tx.own) received[tx.protocol].push((tx.firstMs - startedMs) / 1000);
      const series = live.PROTOCOLS.map((label) => {
        const times = received[label].sort((a, b) => a - b);
        return { label, colour: live.colourOf(label), x: [0, ...times], y: [0, ...times.map((_, k) => k + 1)] };
      });
      const chart = svg('ln-chart');
      charts.lineChart(chart, { width: 340, height: 200, xLabel: 's since start', yLabel: 'txs received' }, series);
      chart.dataset.series = series.map((s) => `${s.label}:${s.x.length - 1}`).join(' ');

      void saved.ready().then((arrivals) => {
        const { light, net, views } = store.get();
        if (!arrivals || !light || !net || !views || !light.gossip) return;
        const rows = arrivals.book.rows();
        svg('ln-latency').dataset.series = views.live.drawLatency(svg('ln-latency'), rows);
        // Overhead as the simulator defines it: bytes received per byte of new tx received.
        const seen = tally(light.txs.values());
        const overhead = { gossipsub: Number.NaN, cat: Number.NaN, strokkur: Number.NaN };
        const gossipIn = light.gossip.stats.bytesIn;
        if (gossipIn !== undefined) overhead.gossipsub = seen.gossipsub.receivedBytes ? gossipIn / seen.gossipsub.receivedBytes : Number.NaN;
        else {
          // @libp2p/gossipsub shows the page only the messages: full copies received per new byte.
          let copiesIn = 0;
          for (const tx of light.txs.values()) if (tx.protocol === 'gossipsub' && !tx.own) copiesIn += tx.bytes * tx.copies;
          overhead.gossipsub = seen.gossipsub.receivedBytes ? copiesIn / seen.gossipsub.receivedBytes : Number.NaN;
        }
        for (const f of light.framed) overhead[f.name] = seen[f.name].receivedBytes ? f.stats.bytesIn / seen[f.name].receivedBytes : Number.NaN;
        views.live.drawDuplicates(svg('ln-dups'), rows, overhead);
        svg('ln-dups').dataset.duplicates = views.live.PROTOCOLS.map((p) => `${p}:${rows.filter((r) => r.protocol === p && !r.own).reduce((sum, r) => sum + r.duplicates, 0)}`).join(' ');
        views.live.drawBytes(svg('ln-bandwidth'), net.bins);
      });
    },
  );
}
