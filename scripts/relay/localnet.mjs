// Small libp2p networks on 127.0.0.1 TCP for the interop test (web/p2p/interop.test.ts) and
// the mixed-network measurement (mixed.mjs): peers with either GossipSub router (txcast's own or
// @libp2p/gossipsub), made by startPeer (node.mjs) without CAT and Strokkur, a seeded connected
// random graph, and polling for a condition instead of sleeping.
import { noise } from '@libp2p/noise';
import { tcp } from '@libp2p/tcp';
import { TX_TOPIC, txcastMuxer } from '../../web/p2p/index.mjs';
import { startPeer } from './node.mjs';

export { freshEngine, loadWasm } from './node.mjs';

/**
 * What every local node listens on and speaks: TCP on loopback, a free port each. Every peer
 * comes from 127.0.0.1, so libp2p's limit of 5 inbound connections per second per host would
 * reset the dials of a network made at once: it is raised.
 */
export function loopbackOptions() {
  return {
    addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [txcastMuxer()],
    connectionManager: { inboundConnectionThreshold: 1000 },
  };
}

/**
 * A GossipSub peer on loopback: `router` 'txcast' (with `version` and `dAnnounce`) or 'js'.
 * `onDeliver(delivery)` gets every message accepted for the first time ({hash, topic, data, from}).
 */
export async function localPeer({ router = 'txcast', version = 'v2.0', dAnnounce = 4, onDeliver = () => {}, log = () => {} } = {}) {
  const peer = await startPeer({ libp2pOptions: loopbackOptions(), router, version, dAnnounce, framed: [], log, onDeliver });
  return { ...peer, router, id: peer.node.peerId.toString() };
}

/** Dials `b` from `a` over loopback TCP. */
export async function connect(a, b) {
  const addr = b.node.getMultiaddrs().find((ma) => ma.toString().includes('/tcp/'));
  if (!addr) throw new Error(`${b.id} listens on nothing`);
  await a.node.dial(addr, { signal: AbortSignal.timeout(10_000) });
}

/**
 * Resolves once `condition()` is truthy (polled every `intervalMs`), with its value; rejects
 * after `timeoutMs` with `what` (a string, or a function giving one, to say what was missing).
 */
export async function waitFor(condition, { timeoutMs = 10_000, intervalMs = 20, what = 'a condition' } = {}) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (performance.now() > deadline) {
      const said = typeof what === 'function' ? what() : what;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${said}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A seeded generator of floats in [0, 1) (mulberry32), so a graph can be made again. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A connected random graph on `n` nodes as edges [i, j] (i dials j): each node after the first
 * dials one earlier node (a random spanning tree, so the graph is connected), then every node
 * dials `extra` more random distinct nodes it has no edge with yet.
 */
export function connectedRandomGraph(n, { extra = 2, random = Math.random } = {}) {
  const edges = [];
  const has = new Set();
  const add = (i, j) => {
    const key = i < j ? `${i}-${j}` : `${j}-${i}`;
    if (i === j || has.has(key)) return false;
    has.add(key);
    edges.push([i, j]);
    return true;
  };
  for (let i = 1; i < n; i++) add(i, Math.floor(random() * i));
  for (let i = 0; i < n; i++) {
    let added = 0;
    for (let tries = 0; added < extra && tries < 20 * n; tries++) if (add(i, Math.floor(random() * n))) added += 1;
  }
  return edges;
}

/** Whether the edges connect all `n` nodes. */
export function isConnected(n, edges) {
  const next = Array.from({ length: n }, () => []);
  for (const [i, j] of edges) {
    next[i].push(j);
    next[j].push(i);
  }
  const seen = new Set([0]);
  const todo = [0];
  while (todo.length) {
    for (const j of next[todo.pop()]) {
      if (seen.has(j)) continue;
      seen.add(j);
      todo.push(j);
    }
  }
  return seen.size === n;
}

/**
 * The protocol id of this peer's own GossipSub stream to `remote` (a peer id string), which
 * is what each router takes the remote's version from; undefined while there is none.
 */
export function outboundProtocol(peer, remote) {
  if (peer.router === 'js') return peer.node.services.pubsub.streamsOutbound.get(remote)?.protocol;
  const p = peer.gossip.peers.get(remote);
  return p?.protocol || undefined;
}

/** Whether every peer sees all its connected peers subscribed to the tx topic and has a mesh. */
export function meshesFormed(peers) {
  return peers.every((p) => {
    const connected = p.node.getPeers().length;
    return connected > 0 && p.gossip.topicPeers(TX_TOPIC) === connected && p.gossip.meshPeers(TX_TOPIC) >= 1;
  });
}

/** What each peer lacks for `meshesFormed`, for a timeout's message. */
export function meshReport(peers) {
  return peers
    .map((p, i) => `${i}:${p.router} peers ${p.node.getPeers().length} subscribed ${p.gossip.topicPeers(TX_TOPIC)} mesh ${p.gossip.meshPeers(TX_TOPIC)}`)
    .join('; ');
}

/**
 * A mixed network on loopback: `txcast` nodes of txcast's router (`version`, `dAnnounce`), then
 * `js` nodes of @libp2p/gossipsub, on a connected random graph from `seed` (each node dials
 * one earlier node and `extra` more). `onDeliver(index, delivery)` gets every node's first
 * copies. Resolves once the dials are done; wait for `meshesFormed(peers)` before publishing.
 */
export async function mixedNetwork({ txcast = 5, js = 5, version = 'v2.0', dAnnounce = 4, seed = 1, extra = 2, onDeliver = () => {} } = {}) {
  const routers = [...Array(txcast).fill('txcast'), ...Array(js).fill('js')];
  const peers = [];
  try {
    for (const [index, router] of routers.entries()) {
      peers.push(await localPeer({ router, version, dAnnounce, onDeliver: (d) => onDeliver(index, d) }));
    }
    const edges = connectedRandomGraph(peers.length, { extra, random: seededRandom(seed) });
    await Promise.all(edges.map(([i, j]) => connect(peers[i], peers[j])));
    return { peers, edges };
  } catch (error) {
    await stopAll(peers);
    throw error;
  }
}

/** Stops every peer (the ones that fail to stop are reported, the rest still stopped). */
export async function stopAll(peers) {
  const results = await Promise.allSettled(peers.map((p) => p.stop()));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) throw new Error(`${failed.length} peers failed to stop: ${failed[0].reason?.message ?? failed[0].reason}`);
}
