// The relay's libp2p node: transports, services, the tx topic and the optional load generator.
import { circuitRelayServer } from '@libp2p/circuit-relay-v2';
import { gossipsub } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { createLibp2p } from 'libp2p';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { buildWasm, WASM_BINARY, WASM_GLUE } from '../lib/bootstrap.mjs';
import { BanList } from '../../web/lightnode/ban.mjs';
import { FramedProtocol, LIVE_CONFIGS } from '../../web/lightnode/framed.mjs';
import { ANNOUNCE_TOPIC, decodeTx, encodeTx, messageId, randomTxId, TX_TOPIC } from '../../web/lightnode/txwire.mjs';

/**
 * Starts the relay and returns a handle: {peerId, multiaddrs(), stats(), publishTx(), stop()}.
 * @param {{host: string, wsPort: number, tcpPort: number, announce?: string[], loadTps?: number, txBytes?: number}} options
 */
/** The same Rust state machines as the page, from the WASM build (built first if missing). */
async function loadEngines() {
  if (!fs.existsSync(WASM_GLUE) || !fs.existsSync(WASM_BINARY)) await buildWasm();
  const wasm = await import(WASM_GLUE);
  wasm.initSync({ module: fs.readFileSync(WASM_BINARY) });
  return wasm.LightNode;
}

export async function startRelay({ host, wsPort, tcpPort, announce = [], loadTps = 0, txBytes = 250, log = () => {} }) {
  const Engine = await loadEngines();
  const stats = { peers: 0, published: 0, delivered: 0, copies: 0, duplicates: 0, malformed: 0, reservations: 0, bans: 0, banRefused: 0, banned: 0 };
  // A peer cut off for garbage on CAT or Strokkur is turned away for a while, at the gater too.
  const bans = new BanList();
  // Gossipsub computes a message id once per publish and once per received copy (duplicates
  // included), so counting the calls per tx gives the copies it saw.
  const seen = new Map();
  const msgIdFn = (msg) => {
    const id = messageId(msg);
    if (msg.topic === TX_TOPIC) {
      const key = decodeTx(msg.data)?.id ?? 'malformed';
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      if (count > 1) stats.duplicates += 1;
      if (seen.size > 100_000) seen.delete(seen.keys().next().value);
    }
    return id;
  };

  const extra = announce.flatMap((ip) => {
    const family = ip.includes(':') ? 'ip6' : 'ip4';
    return [`/${family}/${ip}/tcp/${wsPort}/ws`, `/${family}/${ip}/tcp/${tcpPort}`];
  });
  const node = await createLibp2p({
    addresses: {
      listen: [`/ip4/${host}/tcp/${wsPort}/ws`, `/ip4/${host}/tcp/${tcpPort}`],
      appendAnnounce: extra,
    },
    transports: [webSockets(), tcp()],
    connectionGater: bans.gater(),
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionManager: { maxConnections: 1024 },
    services: {
      identify: identify(),
      ping: ping(),
      relay: circuitRelayServer({ reservations: { maxReservations: 1024 } }),
      pubsub: gossipsub({
        allowPublishToZeroTopicPeers: true,
        emitSelf: false,
        msgIdFn,
        maxInboundDataLength: 1024 * 1024,
      }),
    },
  });

  node.addEventListener('connection:open', () => (stats.peers = node.getPeers().length));
  node.addEventListener('connection:close', () => (stats.peers = node.getPeers().length));
  node.services.relay.addEventListener('relay:reservation', () => (stats.reservations += 1));
  const pubsub = node.services.pubsub;
  pubsub.subscribe(TX_TOPIC);
  pubsub.subscribe(ANNOUNCE_TOPIC); // forwards the light nodes' address announcements
  pubsub.addEventListener('gossipsub:message', (event) => {
    const { msg } = event.detail;
    if (msg.topic !== TX_TOPIC) return;
    if (decodeTx(msg.data)) stats.delivered += 1;
    else stats.malformed += 1;
  });

  const framed = [];
  for (const name of ['cat', 'strokkur']) {
    const engine = new Engine(name, JSON.stringify(LIVE_CONFIGS[name]), crypto.randomBytes(8).readBigUInt64LE(), Date.now());
    const protocol = new FramedProtocol({ libp2p: node, name, engine, bans, log });
    await protocol.start();
    framed.push(protocol);
  }

  /** One tx on gossipsub and one on each framed protocol. */
  async function publishTx(bytes = txBytes) {
    for (const protocol of framed) protocol.submit(bytes);
    const id = randomTxId();
    await pubsub.publish(TX_TOPIC, encodeTx({ id, sentAtMs: Date.now(), bytes }));
    stats.published += 1;
    return id;
  }

  let load = null;
  if (loadTps > 0) {
    // A Poisson process: exponential gaps with mean 1/TPS.
    const next = () => {
      const gapMs = (-Math.log(1 - Math.random()) * 1000) / loadTps;
      load = setTimeout(() => {
        publishTx().catch((error) => console.error(`publish failed: ${error.message}`));
        next();
      }, gapMs);
    };
    next();
  }

  return {
    peerId: node.peerId.toString(),
    node,
    multiaddrs: () => node.getMultiaddrs().map((ma) => ma.toString()),
    stats: () => {
      stats.copies = stats.delivered + stats.duplicates;
      stats.bans = bans.banned;
      stats.banRefused = bans.refused;
      stats.banned = bans.list().length;
      const out = { ...stats };
      for (const protocol of framed) out[protocol.name] = { ...protocol.stats, peers: protocol.peers.size };
      return out;
    },
    publishTx,
    async stop() {
      if (load) clearTimeout(load);
      for (const protocol of framed) await protocol.stop();
      await node.stop();
    },
  };
}
