// Starting the node: the start form (the relay to bootstrap from and the ICE servers; once
// running, "Dial" dials one more peer), the status line and the log. libp2p and the panel's
// drawing code load at Start.
import { wallMs } from '../p2p/txwire.mjs';
import { describeIce, parseIceServers, type IceServer } from './ice';
import type { SavedArrivals } from './saved-view';
import { loadCaps } from './send-view';
import { ROUTER_NAMES, type GossipSettings } from './settings';
import type { SettingsForm } from './settings-view';
import { log, type LightStore, type Renders } from './state';

export interface Starter {
  /** Starts the node with the settings in the form (or dials the address given, once running). */
  start(): Promise<void>;
}

export function mountStart(store: LightStore, root: HTMLElement, renders: Renders, settings: SettingsForm, saved: SavedArrivals, given: { relay: string; ice: string }): Starter {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const relayInput = $<HTMLInputElement>('ln-relay');
  const iceInput = $<HTMLInputElement>('ln-ice');
  const startButton = $<HTMLButtonElement>('ln-start');
  relayInput.value = given.relay;
  iceInput.value = given.ice;

  store.subscribe(
    (s) => s.phase,
    (phase) => {
      root.dataset.state = phase;
      // The ICE servers are the node's for its life: chosen before Start.
      iceInput.disabled = phase === 'starting' || phase === 'running';
    },
    { immediate: true },
  );
  iceInput.addEventListener('input', () => store.update({ settingsError: '' }));
  store.subscribe(
    (s) => s.status,
    (status) => ($<HTMLParagraphElement>('ln-status').textContent = status),
  );
  store.subscribe(
    (s) => s.log,
    (lines) => ($<HTMLPreElement>('ln-log').textContent = lines.join('\n')),
  );

  /** Once running, the start form dials one more peer; a banned one is refused. */
  const dialMore = async () => {
    const light = store.get().light;
    if (!light) return;
    const addr = relayInput.value.trim();
    if (!addr) return;
    root.dataset.dial = 'dialling';
    try {
      await light.dial(addr);
      root.dataset.dial = 'connected';
    } catch (error) {
      root.dataset.dial = 'refused';
      log(store, `dial ${addr} failed: ${(error as Error).message}`);
    }
    renders.soon();
  };

  const start = async () => {
    if (store.get().light) return dialMore();
    let chosen: GossipSettings;
    let iceServers: IceServer[];
    try {
      chosen = settings.read();
      iceServers = parseIceServers(iceInput.value);
    } catch (error) {
      store.update({ settingsError: (error as Error).message, status: 'not started: the settings need fixing' });
      return;
    }
    const { urlErrors } = store.get();
    if (urlErrors.length) log(store, `started with the settings shown; the URL's were refused: ${urlErrors.join('; ')}`);
    store.update({ urlErrors: [], settingsError: '' });
    startButton.disabled = true;
    store.update({ phase: 'starting', status: 'loading libp2p…' });
    try {
      const { LightNode } = await import('./node');
      store.update({ views: await import('./views') });
      store.update({ simcompare: await import('./simcompare') });
      void loadCaps(store);
      const { netview } = store.get().views!;
      const startedMs = wallMs();
      const light = new LightNode({
        onChange: () => renders.soon(),
        onArrival: (copy) => saved.record(copy),
        onWire: (protocol, direction, peer, bytes, info) => {
          const net = store.get().net;
          if (!net) return;
          net.wire(protocol, direction, peer, bytes, info.payload);
          // A peer that sends a full tx has it; one we send it to has it once it lands.
          const at = direction === 'in' ? wallMs() : wallMs() + netview.FLASH_US / 1000;
          for (const hash of info.txs) net.peerHas(`${protocol}:${hash}`, peer, at);
        },
        log: (line) => log(store, line),
        router: chosen.router,
        version: chosen.version,
        dAnnounce: chosen.dAnnounce,
        iceServers,
      });
      root.dataset.ice = iceServers.map((s) => s.urls).join(' ');
      store.update({ startedMs, started: chosen, light });
      await light.start(relayInput.value);
      const net = new netview.LiveNet(light.peerId, startedMs);
      const relayPeer = light.relayPeer();
      if (relayPeer) net.node(relayPeer, 'relay');
      const gossip = light.gossip!;
      const what = gossip.router === 'js' ? `${ROUTER_NAMES.js} (${gossip.version})` : `${ROUTER_NAMES.txcast} ${gossip.version}${gossip.version === 'v2.0' ? `, D_announce ${chosen.dAnnounce}` : ''}`;
      store.update({ net, phase: 'running', status: `running as ${light.peerId}; gossipsub: ${what}; ICE servers: ${describeIce(iceServers)}` });
      startButton.textContent = 'Dial';
      startButton.title = 'dial the address above as well (another relay or peer)';
    } catch (error) {
      const status = `failed: ${(error as Error).message}`;
      store.update({ phase: 'error', status });
      log(store, status);
      await store.get().light?.stop().catch(() => undefined);
      store.update({ light: null, started: null });
    }
    startButton.disabled = false;
    renders.soon();
  };

  $<HTMLFormElement>('ln-start-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void start();
  });
  return { start };
}
