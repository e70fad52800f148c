// Short explanations shown in the page: one line per protocol, and the report's metrics.
import { COLUMNS } from '../report/report';

export const PROTOCOL_NOTES: [string, string][] = [
  ['flood', 'Flooding: every node forwards each new tx to every peer but the one it came from. Fast, and each node receives about one copy per peer.'],
  ['push', 'Random push: forward each new tx to a few random peers. Fewer copies; slower, and some nodes may never get it.'],
  ['inv', 'INV/GETDATA (Bitcoin): announce tx hashes after a random trickle delay; peers request what they lack. Few full copies, latency from the delays and round trips.'],
  ['shrec', 'Shrec: short keyed ids in announcements, one request per tx at a time, the next announcer asked after a timeout.'],
  ['cat', 'CAT (Celestia ADR 009): SeenTx announcements and WantTx requests, one outstanding request per tx, retried after 200 ms.'],
  ['cat2', 'CAT2: CAT whose SeenTx also names where the tx came from.'],
  ['gossipsub', 'GossipSub: push full messages along a mesh of a few peers, gossip ids (IHAVE/IWANT) to the others; v1.2 adds IDONTWANT, v2.0 announce-and-request.'],
  ['strokkur', 'Strokkur: send rateless (LT) codewords of windows of txs to every peer at a rate each peer controls; decode jointly.'],
];

function fill(list: HTMLElement, items: [string, string][]): void {
  list.replaceChildren(
    ...items.flatMap(([term, text]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = text;
      return [dt, dd];
    }),
  );
}

export function fillGlossary(protocols: HTMLElement, metrics: HTMLElement): void {
  fill(protocols, PROTOCOL_NOTES);
  fill(
    metrics,
    COLUMNS.map((c) => [c.title, c.help]),
  );
}
