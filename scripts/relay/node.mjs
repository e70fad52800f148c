// The relay's libp2p node: transports, services, gossipsub (txcast's router or @libp2p/gossipsub),
// CAT and Strokkur, and the optional load generator.
import { circuitRelayServer } from '@libp2p/circuit-relay-v2';
import { generateKeyPair } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { webSockets } from '@libp2p/websockets';
import { createLibp2p } from 'libp2p';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { buildWasm, WASM_BINARY, WASM_GLUE } from '../lib/bootstrap.mjs';
import { ConnectionLimits } from './limits.mjs';
import { BanList, LiveNode, FramedProtocol, generatedTx, gossipServices, LIVE_CONFIGS, loadEngine, makeGossip, TX_TOPIC, txcastMuxer, wallMs } from '../../web/p2p/index.mjs';

/** The WASM build, built first if missing. */
async function built() {
  if (!fs.existsSync(WASM_GLUE) || !fs.existsSync(WASM_BINARY)) await buildWasm();
}

/** The same Rust core as the page, from the WASM build: its glue module, initialised. */
export async function loadWasm() {
  await built();
  const wasm = await import(WASM_GLUE);
  wasm.initSync({ module: fs.readFileSync(WASM_BINARY) });
  return wasm;
}

let compiled = null;

/** A WebAssembly instance of the core for one engine alone (live-node.mjs `loadEngine`). */
export async function freshEngine() {
  await built();
  compiled ??= new WebAssembly.Module(fs.readFileSync(WASM_BINARY));
  return loadEngine(pathToFileURL(WASM_GLUE).href, compiled);
}

const seed = () => crypto.randomBytes(8).readBigUInt64LE();
const mb = (bytes) => Math.round(bytes / 2 ** 20);

/**
 * A txcast peer on a libp2p node: gossipsub (`router` 'txcast' or 'js'), CAT and Strokkur,
 * each engine in a WebAssembly instance of its own. The node is made here with the router's
 * services added to `services`; returns {node, gossip, framed, stats(), publishTx(bytes), stop()}.
 */
export async function startPeer({ libp2pOptions, services = {}, router = 'txcast', version = 'v2.0', dAnnounce = 4, framed: framedNames = ['cat', 'strokkur'], limits = {}, now = () => performance.now(), log = () => {}, onDeliver = () => {} }) {
  const bans = new BanList({ now });
  const privateKey = await generateKeyPair('Ed25519');
  let gossip = null;
  const node = await createLibp2p({
    ...libp2pOptions,
    privateKey,
    connectionGater: bans.gater(libp2pOptions.connectionGater),
    services: { identify: identify(), ping: ping(), ...services, ...gossipServices(router, { onCopy: (topic, hash) => gossip?.copy?.(topic, hash) }) },
  });
  gossip = makeGossip(router, {
    libp2p: node,
    engine: router === 'txcast' ? await freshEngine() : null,
    privateKey,
    version,
    dAnnounce,
    seed: seed(),
    now,
    limits,
    bans,
    log,
    onDeliver: (d) => onDeliver({ protocol: 'gossipsub', ...d }),
  });
  await gossip.start();
  const framed = [];
  for (const name of framedNames) {
    const live = new LiveNode(await freshEngine(), name, LIVE_CONFIGS[name], seed(), now());
    const protocol = new FramedProtocol({ libp2p: node, name, live, limits, now, bans, log, onDeliver: (d) => onDeliver({ protocol: name, ...d }) });
    await protocol.start();
    framed.push(protocol);
  }

  /** One generated tx on gossipsub and one on each framed protocol. */
  async function publishTx(bytes = 250) {
    for (const protocol of framed) protocol.submit(generatedTx({ sentAtMs: wallMs(), bytes }));
    return gossip.publish(TX_TOPIC, generatedTx({ sentAtMs: wallMs(), bytes }));
  }

  function stats() {
    const out = {
      peers: node.getPeers().length,
      gossipsub: { router: gossip.router, version: gossip.version, peers: gossip.topicPeers(TX_TOPIC), mesh: gossip.meshPeers(TX_TOPIC), ...gossip.stats, ...gossip.counters() },
      // Delivered and published on gossipsub, as before the router could be chosen.
      delivered: gossip.stats.delivered,
      published: gossip.stats.own,
      duplicates: gossip.stats.duplicates,
      bans: bans.banned,
      banRefused: bans.refused,
      banned: bans.list().length,
      memory: memory(),
    };
    for (const protocol of framed) out[protocol.name] = { ...protocol.stats, peers: protocol.peers.size, queued: protocol.queued, counters: protocol.counters() };
    return out;
  }

  /** Makes a protocol's engine panic on frames starting with `prefix` (tests of the recovery). */
  function armTrap(name, prefix) {
    const live = name === 'gossipsub' ? gossip.live : framed.find((f) => f.name === name)?.live;
    if (!live) throw new Error(`${name} does not run here`);
    live.trapForTest(prefix);
  }

  /**
   * MiB: resident now and at most so far, the JS heap, the buffers outside it (frames being read
   * and written), and the engines' WebAssembly memories.
   */
  function memory() {
    const engines = [...framed.map((f) => f.live), ...(gossip.live ? [gossip.live] : [])];
    // Node reads RSS from /proc: with every file descriptor taken (EMFILE) it cannot, and the
    // stats line goes on without the figures that come with it.
    let usage = null;
    try {
      usage = process.memoryUsage();
    } catch {}
    return {
      rss: usage && mb(usage.rss),
      maxRss: mb(process.resourceUsage().maxRSS * 1024),
      heap: usage && mb(usage.heapUsed),
      buffers: usage && mb(usage.arrayBuffers),
      wasm: mb(engines.reduce((sum, live) => sum + live.memoryBytes(), 0)),
    };
  }

  async function stop() {
    for (const protocol of framed) await protocol.stop();
    await gossip.stop();
    await node.stop();
  }

  return { node, gossip, framed, bans, stats, publishTx, armTrap, stop };
}

/**
 * Starts the relay and returns a handle: {peerId, multiaddrs(), stats(), publishTx(), stop()}.
 * `host` is an IPv4 or IPv6 address; `announce` holds multiaddrs announced besides the listen
 * addresses; `maxConnections` and `maxPerIp` limit inbound connections (limits.mjs).
 * @param {{host: string, wsPort: number, tcpPort: number, announce?: string[], loadTps?: number, txBytes?: number,
 *          router?: 'txcast' | 'js', version?: string, dAnnounce?: number, maxConnections?: number, maxPerIp?: number,
 *          log?: (line: string) => void}} options
 */
export async function startRelay({ host, wsPort, tcpPort, announce = [], loadTps = 0, txBytes = 250, router = 'txcast', version = 'v2.0', dAnnounce = 4, maxConnections = 1024, maxPerIp = 64, log = () => {} }) {
  const family = host.includes(':') ? 'ip6' : 'ip4';
  const limits = new ConnectionLimits({ maxTotal: maxConnections, maxPerIp });
  const peer = await startPeer({
    router,
    version,
    dAnnounce,
    log,
    libp2pOptions: {
      addresses: {
        listen: [`/${family}/${host}/tcp/${wsPort}/ws`, `/${family}/${host}/tcp/${tcpPort}`],
        appendAnnounce: announce,
      },
      transports: [webSockets(), tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [txcastMuxer()],
      connectionManager: limits.connectionManager(),
      connectionGater: limits.gater(),
    },
    services: { relay: circuitRelayServer({ reservations: { maxReservations: 1024 } }) },
  });
  const { node } = peer;
  limits.node = node;
  // The WebSocket listener's own servers (@libp2p/websockets keeps them as fields): none of its
  // options limits a socket before its upgrade.
  const webSocketListeners = node.components.transportManager.getListeners().filter((l) => l.server && l.http);
  if (webSocketListeners.length === 0) throw new Error('no WebSocket listener to guard (has @libp2p/websockets changed?)');
  for (const listener of webSocketListeners) limits.guardWebSockets(listener.server, listener.http);
  // A reservation lasts while its peer is connected. The server keeps one for its TTL (2 h) after
  // the peer has gone, so peers that reserve and leave filled its 1,024 and shut the pages out.
  const reservations = node.services.relay.reservations;
  node.addEventListener('peer:disconnect', (event) => {
    reservations.get(event.detail)?.signal.clear();
    reservations.delete(event.detail);
  });

  let load = null;
  if (loadTps > 0) {
    // A Poisson process: exponential gaps with mean 1/TPS.
    const next = () => {
      const gapMs = (-Math.log(1 - Math.random()) * 1000) / loadTps;
      load = setTimeout(() => {
        peer.publishTx(txBytes).catch((error) => console.error(`publish failed: ${error.message}`));
        next();
      }, gapMs);
    };
    next();
  }

  return {
    peerId: node.peerId.toString(),
    node,
    multiaddrs: () => node.getMultiaddrs().map((ma) => ma.toString()),
    stats: () => ({ ...peer.stats(), reservations: reservations.size, limits: limits.stats() }),
    publishTx: (bytes = txBytes) => peer.publishTx(bytes),
    async stop() {
      if (load) clearTimeout(load);
      await peer.stop();
    },
  };
}
