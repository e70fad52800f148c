// The node's counts at each render: a summary line, every counter under "all counters", and each
// of them as a data attribute on #lightnode (the e2e tests read them there).
import { CONTROL, NAMES, plural, PROTOCOLS, type LightStore } from './state';

export function mountFacts(store: LightStore, root: HTMLElement): void {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  store.subscribe(
    (s) => s.snapshot,
    (snapshot) => {
      if (!snapshot) return;
      const { light, conns, seen } = snapshot;
      const gossip = light.gossip!;
      const { net, started } = store.get();
      let webrtc = 0;
      let relayConnected = false;
      for (const list of conns.values()) {
        if (list.some((c) => c.transport === 'webrtc')) webrtc += 1;
        if (light.relayAddr && list.some((c) => light.relayAddr.includes(c.addr.split('/p2p/')[0]) && c.transport !== 'webrtc')) relayConnected = true;
      }
      const gs = gossip.stats;
      const counters = gossip.counters();
      const facts: Record<string, string | number> = {
        peerId: light.peerId,
        router: gossip.router,
        version: gossip.version,
        peers: conns.size,
        webrtcPeers: webrtc,
        relayConnected: String(relayConnected),
        reservations: light.reservations().length,
        topicPeers: light.topicPeers(),
        meshPeers: light.meshPeers(),
        // Gossipsub's txs, as the e2e tests have always read them.
        txs: seen.gossipsub.txs,
        own: gs.own,
        delivered: gs.delivered,
        copies: seen.gossipsub.copies,
        duplicates: gs.duplicates,
        malformed: gs.malformed,
        ...light.counters,
        badSignatures: counters.badSignatures,
        rejected: counters.rejected,
        bans: light.bans.banned,
        banRefused: light.bans.refused,
        banned: light.bans.list().length,
      };
      facts.dAnnounce = gossip.router === 'txcast' && gossip.version === 'v2.0' ? (started?.dAnnounce ?? '') : 'n/a';
      for (const [key, value] of Object.entries(gs)) facts[`gossipsub${key[0].toUpperCase()}${key.slice(1)}`] = value as number;
      if (gossip.router === 'txcast') {
        for (const [kind] of CONTROL) {
          // About txs (the tx topic), as the comparison table shows them.
          facts[`${kind}Sent`] = counters.txTopic.sent[kind] ?? 0;
          facts[`${kind}Received`] = counters.txTopic.received[kind] ?? 0;
        }
      }
      for (const f of light.framed) {
        facts[`${f.name}Peers`] = f.peers.size;
        facts[`${f.name}Txs`] = seen[f.name].txs;
        facts[`${f.name}Copies`] = seen[f.name].copies;
        for (const [key, value] of Object.entries(f.stats)) facts[`${f.name}${key[0].toUpperCase()}${key.slice(1)}`] = value;
      }
      const memory = light.memory();
      facts.engineMemoryMb = memory.engines;
      facts.heapMb = memory.heap;
      if (net) {
        facts.netNodes = net.peers.length;
        facts.netPayload = net.payloadSends;
        facts.netControl = net.controlSends;
      }
      const rejected = gs.malformed + (gs.oversized ?? 0) + light.framed.reduce((sum, f) => sum + f.stats.malformed + f.stats.oversized, 0);
      $<HTMLParagraphElement>('ln-summary').textContent = [
        `${plural(conns.size, 'peer')} (${webrtc} over WebRTC)${relayConnected ? ', relay connected' : ''}, ${plural(light.reservations().length, 'relay reservation')}`,
        `txs seen: ${PROTOCOLS.map((p) => `${seen[p].txs} ${NAMES[p]}`).join(', ')} (${PROTOCOLS.reduce((sum, p) => sum + seen[p].own, 0)} submitted here)`,
        `${plural(gs.duplicates, 'duplicate')} over gossipsub`,
        `gossipsub mesh ${light.meshPeers()} of ${light.topicPeers()} topic peers`,
        `${plural(rejected, 'frame')} rejected, ${plural(light.bans.list().length, 'peer')} banned`,
      ].join(' · ');
      $<HTMLDListElement>('ln-facts').replaceChildren(
        ...Object.entries(facts).map(([key, value]) => {
          root.dataset[key] = String(value);
          const div = document.createElement('div');
          const dt = document.createElement('dt');
          const dd = document.createElement('dd');
          dt.textContent = key;
          dd.textContent = String(value);
          div.append(dt, dd);
          return div;
        }),
      );
    },
  );
}
