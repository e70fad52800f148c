// GossipSub's control entries, live and simulated: what this page's router sent and received
// about txs next to the simulator's per-node averages for the same router code and settings on a
// network like the one the page sees (a comparison run, at most one at a time).
import { DEFAULT_TX_BYTES } from '../p2p/txwire.mjs';
import { effectiveVersion } from './settings';
import { CONTROL, log, type LightStore, type Renders, type Tally } from './state';
import { cell } from './tables-view';

/** Runs at most this often while the inputs keep changing (txs arriving). */
const SIM_EVERY_MS = 1500;

function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1);
}

export function mountControl(store: LightStore, root: HTMLElement, renders: Renders): void {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;

  /** Starts a comparison run when its inputs changed (at most one at a time, every SIM_EVERY_MS). */
  const maybeSimulate = (gossipsub: Tally) => {
    const { light, started, simcompare, sim } = store.get();
    if (!light || !started || !simcompare || sim.running || gossipsub.txs === 0) return;
    const input = {
      nodes: light.topicPeers() + 1,
      txs: gossipsub.txs,
      txBytes: gossipsub.sized ? gossipsub.bytes / gossipsub.sized : DEFAULT_TX_BYTES,
      version: effectiveVersion(started),
      dAnnounce: started.dAnnounce,
    };
    const key = simcompare.inputKey(input);
    if (key === sim.key) return;
    if (performance.now() - sim.startedMs < SIM_EVERY_MS) return renders.later();
    store.update({ sim: { ...sim, key, running: true, startedMs: performance.now(), error: '' } });
    const { simulateCounts } = simcompare;
    const change = (patch: Partial<typeof sim>) => store.update((s) => ({ sim: { ...s.sim, ...patch } }));
    void (async () => {
      try {
        // The same module the light node runs on (already initialised by it).
        const wasm = await import('../wasm/txcast_wasm.js');
        await wasm.default();
        const result = await simulateCounts(wasm.Simulation, input, { cancelled: () => !store.get().light });
        if (result) change({ result });
      } catch (error) {
        change({ error: (error as Error).message });
        log(store, `simulator comparison failed: ${store.get().sim.error}`);
      }
      change({ running: false });
      renders.soon();
    })();
  };

  /** The live counts of this page's router next to the simulator's per-node averages. */
  store.subscribe(
    (s) => s.snapshot,
    (snapshot) => {
      const { started, sim } = store.get();
      if (!snapshot || !started) return;
      const { light, seen } = snapshot;
      const gossipsub = seen.gossipsub;
      const gossip = light.gossip!;
      const visible = gossip.router === 'txcast';
      const counters = gossip.counters();
      const result = sim.result;
      const rows = CONTROL.map(([kind, name]) => {
        const tr = document.createElement('tr');
        tr.dataset.kind = kind;
        const own = counters.txTopic;
        const live = visible ? [fmt(own.sent[kind] ?? 0), fmt(own.received[kind] ?? 0)] : ['not visible', 'not visible'];
        tr.append(cell(name), ...live.map(cell), cell(result ? fmt(result.sent[kind]) : '…'), cell(result ? fmt(result.received[kind]) : '…'));
        return tr;
      });
      const dups = document.createElement('tr');
      dups.dataset.kind = 'duplicates';
      const perTx = gossipsub.txs - gossipsub.own > 0 ? gossip.stats.duplicates / (gossipsub.txs - gossipsub.own) : Number.NaN;
      dups.append(cell('duplicates per tx received'), cell(''), cell(fmt(perTx)), cell(''), cell(result ? fmt(result.duplicatesPerTx) : '…'));
      $<HTMLTableSectionElement>('ln-gs').replaceChildren(...rows, dups);
      const version = effectiveVersion(started);
      const nodes = Math.max(4, light.topicPeers() + 1);
      $<HTMLParagraphElement>('ln-gs-note').textContent =
        `Live: the entries this page's router sent and received about txs (the tx topic; address announcements left out)` +
        `${visible ? '' : '; @libp2p/gossipsub does not show them to the page'}. Simulator: the same router code and settings (${version}` +
        `${version === 'v2.0' ? `, D_announce ${started.dAnnounce}` : ''}) on a complete graph of ${result?.nodes ?? Math.min(32, nodes)} nodes ` +
        `(this page and its topic peers, at least 4) carrying the ${gossipsub.txs} txs this page saw, at their mean size, from random publishers; averages per node.`;
      const data = root.dataset;
      if (result) {
        data.simNodes = String(result.nodes);
        data.simTxs = String(result.simulatedTxs);
        for (const [kind] of CONTROL) {
          data[`sim${kind[0].toUpperCase()}${kind.slice(1)}Sent`] = fmt(result.sent[kind]);
          data[`sim${kind[0].toUpperCase()}${kind.slice(1)}Received`] = fmt(result.received[kind]);
        }
        data.simDuplicatesPerTx = fmt(result.duplicatesPerTx);
      }
      data.simState = sim.running ? 'running' : sim.error ? 'error' : result ? 'done' : 'idle';
      $<HTMLParagraphElement>('ln-sim-status').textContent = sim.error
        ? `simulator: ${sim.error}`
        : sim.running
          ? 'simulator: running…'
          : result
            ? `simulator: ${result.simulatedTxs} txs on ${result.nodes} nodes in ${result.wallMs.toFixed(0)} ms${result.scale > 1 ? `, counts scaled by ${result.scale.toFixed(2)} to ${gossipsub.txs} txs` : ''}; delivery ${(100 * result.delivery).toFixed(0)}%`
            : 'simulator: runs once this page has seen a gossipsub tx';
      maybeSimulate(gossipsub);
    },
  );
}
