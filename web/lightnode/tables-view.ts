// The panel's tables of the node as it is now, drawn at each render: its peers (and their
// roles on the network view), its protocols with their frame counts, and the peers it banned.
import type { PeerRole } from './netview';
import { short, type LightStore, type Snapshot } from './state';

export function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/** Who each connected peer is: the relay we dialled, a browser (it announced /webrtc), or other. */
function roles({ light, conns }: Snapshot): Map<string, PeerRole> {
  const out = new Map<string, PeerRole>();
  const relay = light.relayPeer();
  for (const [peer, list] of conns) {
    const browser = light.browsers.has(peer) || list.some((c) => c.transport === 'webrtc' || c.transport === 'relayed');
    out.set(peer, peer === relay ? 'relay' : browser ? 'browser' : 'other');
  }
  return out;
}

export function mountTables(store: LightStore, root: HTMLElement): void {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  store.subscribe(
    (s) => s.snapshot,
    (snapshot) => {
      if (!snapshot) return;
      const { light, conns } = snapshot;
      const gossip = light.gossip!;
      const net = store.get().net;
      net?.setConnected(roles(snapshot));
      $<HTMLTableSectionElement>('ln-peers').replaceChildren(
        ...[...conns].map(([peer, list]) => {
          const tr = document.createElement('tr');
          tr.dataset.peer = peer;
          tr.dataset.transports = [...new Set(list.map((c) => c.transport))].sort().join(' ');
          tr.append(
            cell(short(peer)),
            cell(tr.dataset.transports),
            cell(list.map((c) => `${c.direction}${c.limited ? ' (limited)' : ''} ${c.addr}`).join('\n')),
          );
          return tr;
        }),
      );

      // Gossipsub first (the stats @libp2p/gossipsub does not show are blank), then CAT and Strokkur;
      // each row's title holds its live node's own counters.
      const gossipRow = document.createElement('tr');
      const g = gossip.stats;
      const blank = (n: number | undefined) => (n === undefined ? '' : String(n));
      gossipRow.title = JSON.stringify(gossip.counters().live);
      gossipRow.dataset.protocol = 'gossipsub';
      gossipRow.append(
        cell(`gossipsub (${gossip.router === 'js' ? '@libp2p' : 'txcast'} ${gossip.version})`),
        cell(String(light.topicPeers())),
        cell(String(g.own)),
        cell(String(g.delivered)),
        cell(g.framesIn === undefined ? '' : `${g.framesIn} / ${g.framesOut}`),
        cell(String(g.malformed)),
        cell(blank(g.oversized)),
        cell(blank(g.throttled)),
        cell(blank(g.disconnected)),
      );
      $<HTMLTableSectionElement>('ln-framed').replaceChildren(
        gossipRow,
        ...light.framed.map((f) => {
          const tr = document.createElement('tr');
          tr.title = JSON.stringify(f.counters());
          tr.dataset.protocol = f.name;
          const st = f.stats;
          tr.append(
            cell(f.name),
            cell(String(f.peers.size)),
            cell(String(st.own)),
            cell(String(st.delivered)),
            cell(`${st.framesIn} / ${st.framesOut}`),
            cell(String(st.malformed)),
            cell(String(st.oversized)),
            cell(String(st.throttled)),
            cell(String(st.disconnected)),
          );
          return tr;
        }),
      );
      $<HTMLTableSectionElement>('ln-bans').replaceChildren(
        ...light.bans.list().map((ban) => {
          const tr = document.createElement('tr');
          tr.dataset.peer = ban.peer;
          tr.append(cell(short(ban.peer)), cell(ban.reason), cell(`${Math.ceil(ban.remainingMs / 1000)} s`));
          net?.markHostile(ban.peer);
          return tr;
        }),
      );
    },
  );
}
