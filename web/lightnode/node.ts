// The browser light node: a js-libp2p node on the page's main thread (WebRTC is window-only).
// It dials a bootstrap relay over WebSockets, reserves a slot on it (so other browsers can reach
// it through the relay), announces its /webrtc address on gossipsub and dials the addresses other
// browsers announce, which upgrades to a direct WebRTC connection. Txs go out on gossipsub.
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { gossipsub, TopicValidatorResult } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { webRTC } from '@libp2p/webrtc';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import init, { LightNode as Engine } from '../wasm/txcast_wasm.js';
import type { Copy } from './arrivals';
import { BanList } from './ban.mjs';
import { FramedProtocol, LIVE_CONFIGS, type ProtocolName } from './framed.mjs';
import { shouldDial, transportOf, type TransportName } from './transport';
import { ANNOUNCE_TOPIC, decodeTx, encodeTx, messageId, randomTxId, TX_TOPIC } from './txwire.mjs';

/** How often a node repeats its address announcement (new peers learn it from the next one). */
const ANNOUNCE_MS = 1500;
const MAX_ANNOUNCE_BYTES = 4096;

export interface ConnectionView {
  addr: string;
  transport: TransportName;
  direction: string;
  limited: boolean;
}

export interface TxRecord {
  id: string;
  own: boolean;
  bytes: number;
  sentAtMs: number;
  /** Local wall-clock time of the first copy (or of the submission, for our own txs). */
  firstMs: number;
  /** The peer the first copy came from ('' for our own). */
  from: string;
  /** Copies gossipsub saw: the publish or the first arrival, then every duplicate. */
  copies: number;
}

export interface Counters {
  published: number;
  delivered: number;
  duplicates: number;
  malformed: number;
  announcesSent: number;
  dials: number;
  dialErrors: number;
}

export interface LightNodeOptions {
  /** Called (coalesced by the caller) whenever anything shown changed. */
  onChange: () => void;
  /** Every copy of a tx seen here, on any protocol: its first arrival (or submission), then duplicates. */
  onArrival: (copy: Copy & { duplicate?: boolean; sentAtMs?: number }) => void;
  /** Every frame or message that crosses a link, for the network view (payload: bytes of tx payload). */
  onWire?: (protocol: Copy['protocol'], direction: 'in' | 'out', peer: string, bytes: number, payload: number) => void;
  log: (line: string) => void;
}

type Node = Awaited<ReturnType<typeof makeNode>>;

async function makeNode(msgIdFn: (msg: Parameters<typeof messageId>[0]) => Uint8Array, bans: BanList) {
  return createLibp2p({
    addresses: { listen: ['/p2p-circuit', '/webrtc'] },
    transports: [
      webSockets(),
      // No STUN/TURN: direct connections use host candidates (same LAN, or the test's namespace).
      webRTC({ rtcConfiguration: { iceServers: [] } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // The browser default gater refuses ws:// and private addresses: a local relay is both.
    // Banned peers are turned away both ways.
    connectionGater: bans.gater({ denyDialMultiaddr: () => false }),
    services: {
      identify: identify(),
      ping: ping(),
      pubsub: gossipsub({ allowPublishToZeroTopicPeers: true, emitSelf: false, msgIdFn }),
    },
  });
}

export class LightNode {
  node: Node | null = null;
  readonly txs = new Map<string, TxRecord>();
  readonly counters: Counters = {
    published: 0,
    delivered: 0,
    duplicates: 0,
    malformed: 0,
    announcesSent: 0,
    dials: 0,
    dialErrors: 0,
  };
  relayAddr = '';
  /** CAT and Strokkur over their own streams, driven by the Rust state machines. */
  readonly framed: FramedProtocol[] = [];
  /** Peers cut off for garbage stay out for a while (connection gater and protocol streams). */
  readonly bans = new BanList();
  /** Peers that announced a /webrtc address: other browsers. */
  readonly browsers = new Set<string>();
  private dialing = new Set<string>();
  private announceTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: LightNodeOptions) {}

  get peerId(): string {
    return this.node?.peerId.toString() ?? '';
  }

  /** Gossipsub calls this once per publish and once per received copy, duplicates included. */
  private countCopy = (msg: Parameters<typeof messageId>[0]): Uint8Array => {
    if (msg.topic === TX_TOPIC) {
      const tx = msg.data ? decodeTx(msg.data) : null;
      if (tx) {
        const known = this.txs.get(tx.id);
        if (known) {
          // Our own submission's publish is its first copy, not a duplicate.
          if (known.copies > 0) {
            this.counters.duplicates += 1;
            this.options.onArrival({ protocol: 'gossipsub', id: tx.id, atMs: Date.now(), own: false, from: '', duplicate: true });
          }
          known.copies += 1;
        } else {
          this.txs.set(tx.id, { ...tx, own: false, firstMs: Date.now(), from: '', copies: 1 });
        }
        this.options.onChange();
      }
    }
    return messageId(msg);
  };

  async start(relayAddr: string): Promise<void> {
    this.relayAddr = relayAddr.trim();
    const node = await makeNode(this.countCopy, this.bans);
    this.node = node;
    const pubsub = node.services.pubsub;
    pubsub.topicValidators.set(TX_TOPIC, (_peer, msg) => {
      if (decodeTx(msg.data)) return TopicValidatorResult.Accept;
      this.counters.malformed += 1;
      return TopicValidatorResult.Reject;
    });
    pubsub.addEventListener('gossipsub:message', (event) => {
      const { msg, propagationSource } = event.detail;
      const source = propagationSource.toString();
      if (msg.topic === TX_TOPIC) this.onTx(msg.data, source);
      else if (msg.topic === ANNOUNCE_TOPIC) {
        this.options.onWire?.('gossipsub', 'in', source, msg.data.length, 0);
        this.onAnnounce(msg.data);
      }
    });
    for (const name of ['connection:open', 'connection:close', 'self:peer:update', 'peer:update'] as const) {
      node.addEventListener(name, () => this.options.onChange());
    }
    pubsub.addEventListener('subscription-change', () => this.options.onChange());
    pubsub.subscribe(TX_TOPIC);
    pubsub.subscribe(ANNOUNCE_TOPIC);
    await init();
    for (const name of ['cat', 'strokkur'] as ProtocolName[]) {
      const engine = new Engine(name, JSON.stringify(LIVE_CONFIGS[name]), randomSeed(), Date.now());
      const framed = new FramedProtocol({
        libp2p: node,
        name,
        engine,
        onChange: this.options.onChange,
        onArrival: ({ firstMs, ...rest }) => this.options.onArrival({ ...rest, atMs: firstMs }),
        onWire: this.options.onWire ? (direction, peer, bytes, info) => this.options.onWire!(name, direction, peer, bytes, info.payload) : null,
        bans: this.bans,
        log: this.options.log,
      });
      await framed.start();
      this.framed.push(framed);
    }
    this.options.log(`started ${node.peerId.toString()}`);
    if (this.relayAddr) {
      await node.dial(multiaddr(this.relayAddr));
      this.options.log(`dialled ${this.relayAddr}`);
    }
    this.announceTimer = setInterval(() => void this.announce(), ANNOUNCE_MS);
    this.options.onChange();
  }

  /** Dials another peer (a second relay, a peer met elsewhere); a banned one is refused. */
  async dial(addr: string): Promise<void> {
    if (!this.node) throw new Error('the node is not running');
    await this.node.dial(multiaddr(addr.trim()), { signal: AbortSignal.timeout(10_000) });
    this.options.log(`dialled ${addr.trim()}`);
    this.options.onChange();
  }

  /** The bootstrap peer's id, from its multiaddr. */
  relayPeer(): string {
    return this.relayAddr.match(/\/p2p\/([^/]+)$/)?.[1] ?? '';
  }

  async stop(): Promise<void> {
    if (this.announceTimer) clearInterval(this.announceTimer);
    this.announceTimer = null;
    for (const framed of this.framed.splice(0)) await framed.stop();
    await this.node?.stop();
    this.node = null;
    this.options.onChange();
  }

  /** Our addresses through a relay reservation that other browsers can dial for WebRTC. */
  webrtcAddrs(): string[] {
    return (this.node?.getMultiaddrs() ?? []).map((ma) => ma.toString()).filter((a) => a.includes('/p2p-circuit/webrtc'));
  }

  reservations(): string[] {
    return (this.node?.getMultiaddrs() ?? []).map((ma) => ma.toString()).filter((a) => a.includes('/p2p-circuit'));
  }

  connections(): Map<string, ConnectionView[]> {
    const byPeer = new Map<string, ConnectionView[]>();
    for (const conn of this.node?.getConnections() ?? []) {
      const peer = conn.remotePeer.toString();
      const list = byPeer.get(peer) ?? [];
      const addr = conn.remoteAddr.toString();
      list.push({ addr, transport: transportOf(addr), direction: conn.direction, limited: conn.limits != null });
      byPeer.set(peer, list);
    }
    return byPeer;
  }

  /** Peers we share the tx topic with over a connection gossipsub runs on. */
  topicPeers(): number {
    return this.node?.services.pubsub.getSubscribers(TX_TOPIC).length ?? 0;
  }

  meshPeers(): number {
    // getMeshPeers exists on the implementation but not on the exported interface.
    const pubsub = this.node?.services.pubsub as unknown as { getMeshPeers(topic: string): string[] } | undefined;
    return pubsub?.getMeshPeers(TX_TOPIC).length ?? 0;
  }

  async submit(bytes: number): Promise<string> {
    if (!this.node) throw new Error('the node is not running');
    const id = randomTxId();
    const now = Date.now();
    const data = encodeTx({ id, sentAtMs: now, bytes });
    // Recorded before publishing: the publish is the tx's first copy.
    this.txs.set(id, { id, own: true, bytes: data.length, sentAtMs: now, firstMs: now, from: '', copies: 0 });
    this.options.onArrival({ protocol: 'gossipsub', id, atMs: now, own: true, from: '', sentAtMs: now, latencyMs: 0 });
    const pubsub = this.node.services.pubsub;
    for (const peer of pubsub.getSubscribers(TX_TOPIC)) this.options.onWire?.('gossipsub', 'out', peer.toString(), data.length, data.length);
    await pubsub.publish(TX_TOPIC, data);
    this.counters.published += 1;
    this.options.onChange();
    return id;
  }

  /** Submits one tx of `bytes` on CAT or Strokkur; returns its id. */
  submitFramed(name: ProtocolName, bytes: number): string {
    const framed = this.framed.find((f) => f.name === name);
    if (!framed) throw new Error(`${name} is not running`);
    const id = framed.submit(bytes);
    this.options.onChange();
    return id;
  }

  private onTx(data: Uint8Array, from: string): void {
    const tx = decodeTx(data);
    if (!tx) return; // rejected by the validator already
    const record = this.txs.get(tx.id);
    this.options.onWire?.('gossipsub', 'in', from, data.length, data.length);
    if (record && !record.own && record.from === '') {
      record.from = from;
      this.counters.delivered += 1;
      const latencyMs = record.firstMs - record.sentAtMs;
      this.options.onArrival({ protocol: 'gossipsub', id: tx.id, atMs: record.firstMs, own: false, from, latencyMs, sentAtMs: record.sentAtMs });
    }
    this.options.onChange();
  }

  private async announce(): Promise<void> {
    const addrs = this.webrtcAddrs();
    if (!this.node || addrs.length === 0) return;
    const body = new TextEncoder().encode(JSON.stringify({ peer: this.peerId, addrs }));
    try {
      const pubsub = this.node.services.pubsub;
      for (const peer of pubsub.getSubscribers(ANNOUNCE_TOPIC)) this.options.onWire?.('gossipsub', 'out', peer.toString(), body.length, 0);
      await pubsub.publish(ANNOUNCE_TOPIC, body);
      this.counters.announcesSent += 1;
    } catch (error) {
      this.options.log(`announce failed: ${(error as Error).message}`);
    }
  }

  private onAnnounce(data: Uint8Array): void {
    if (!this.node || data.length > MAX_ANNOUNCE_BYTES) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(data));
    } catch {
      return;
    }
    const { peer, addrs } = (parsed ?? {}) as { peer?: unknown; addrs?: unknown };
    if (typeof peer !== 'string' || !Array.isArray(addrs)) return;
    if (peer !== this.peerId && this.browsers.size < 1024) this.browsers.add(peer);
    if (this.bans.isBanned(peer)) return;
    if (peer === this.peerId || !shouldDial(this.peerId, peer) || this.dialing.has(peer)) return;
    const direct = this.node.getConnections().some((c) => c.remotePeer.toString() === peer && transportOf(c.remoteAddr.toString()) === 'webrtc');
    if (direct) return;
    const addr = addrs.find((a): a is string => typeof a === 'string' && a.includes('/webrtc') && a.endsWith(`/p2p/${peer}`));
    if (!addr) return;
    void this.dialWebRTC(peer, addr);
  }

  private async dialWebRTC(peer: string, addr: string): Promise<void> {
    if (!this.node) return;
    this.dialing.add(peer);
    this.counters.dials += 1;
    try {
      await this.node.dial(multiaddr(addr), { signal: AbortSignal.timeout(20_000) });
      this.options.log(`webrtc to ${peer.slice(-8)}`);
    } catch (error) {
      this.counters.dialErrors += 1;
      this.options.log(`dial ${peer.slice(-8)} failed: ${(error as Error).message}`);
    } finally {
      this.dialing.delete(peer);
      this.options.onChange();
    }
  }
}

/** A 64-bit seed from the browser's real randomness, for the protocol engines. */
function randomSeed(): bigint {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}
