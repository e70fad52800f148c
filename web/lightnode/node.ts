// The browser light node: a js-libp2p node on the page's main thread (WebRTC is window-only).
// It dials a bootstrap relay over WebSockets, reserves a slot on it (so other browsers can reach
// it through the relay), announces its /webrtc address on gossipsub and dials the addresses other
// browsers announce, which upgrades to a direct WebRTC connection. Txs go out on gossipsub (txcast's
// own router by default, or @libp2p/gossipsub), CAT and Strokkur, all driven by the Rust core.
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { generateKeyPair } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { webRTC } from '@libp2p/webrtc';
import { webSockets } from '@libp2p/websockets';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import type { Copy } from './arrivals';
import { freshEngine } from './engines';
import type { IceServer } from './ice';
import { BanList } from '../p2p/ban.mjs';
import { LiveNode, type FrameInfo } from '../p2p/live-node.mjs';
import { txcastMuxer } from '../p2p/muxer.mjs';
import { FramedProtocol, LIVE_CONFIGS, MAX_TX_BYTES, type ProtocolName } from '../p2p/framed.mjs';
import { announcementOf, gossipServices, makeGossip, MAX_ANNOUNCED_ADDRS, ownRelayedAddr, type Gossip, type GossipVersion, type Router, type TxcastGossip } from '../p2p/gossip.mjs';
import { dialTarget, shouldDial, transportOf, type TransportName } from './transport';
import { ANNOUNCE_TOPIC, generatedTx, sentAtOf, TX_TOPIC, wallMs } from '../p2p/txwire.mjs';

/** How often a node repeats its address announcement (new peers learn it from the next one). */
const ANNOUNCE_MS = 1500;
/** Bytes of received txs kept for download (the newest first; older ones keep hash and size). */
const KEPT_BYTES = 16 << 20;
/** How far another machine's clock may run behind ours for a tx's submit time to be read as one. */
const CLOCK_SKEW_MS = 5_000;
/** WebRTC dials to announced peers under way at once. */
const MAX_DIALING = 4;
/**
 * A page's main thread also draws the panel and answers libp2p's pings (a connection whose
 * ping goes unanswered is closed): it reads a peer's frames at most 500 a second (a relay
 * 2,000), the rest by backpressure.
 */
const LIMITS = { framesPerSecond: 500, frameBurst: 1000 };

export interface ConnectionView {
  addr: string;
  transport: TransportName;
  direction: string;
  limited: boolean;
}

/** A tx this node has seen on a protocol: its hash, size and, while kept, its bytes. */
export interface TxRecord {
  protocol: ProtocolName;
  /** SHA-256 of the bytes, hex. */
  id: string;
  own: boolean;
  bytes: number;
  /** The submitter's clock at submission, for generated txs (else undefined). */
  sentAtMs?: number;
  /** Local wall-clock time of the first copy (or of the submission, for our own txs). */
  firstMs: number;
  /** The peer the first copy came from ('' for our own). */
  from: string;
  /** Copies seen: the first (or the submission), then every duplicate. */
  copies: number;
  /** The bytes, while kept (see KEPT_BYTES). */
  data?: Uint8Array;
}

export interface Counters {
  published: number;
  announcesSent: number;
  dials: number;
  dialErrors: number;
}

export interface LightNodeOptions {
  /** Called (coalesced by the caller) whenever anything shown changed. */
  onChange: () => void;
  /** Every copy of a tx seen here, on any protocol: its first arrival (or submission), then duplicates. */
  onArrival: (copy: Copy & { duplicate?: boolean; sentAtMs?: number }) => void;
  /** Every frame or message that crosses a link, for the network view. */
  onWire?: (protocol: ProtocolName, direction: 'in' | 'out', peer: string, bytes: number, info: FrameInfo) => void;
  log: (line: string) => void;
  /** GossipSub's router: txcast's own (default) or @libp2p/gossipsub. */
  router?: Router;
  /** txcast's router: the version it offers (default v2.0) and D_announce (default 4). */
  version?: GossipVersion;
  dAnnounce?: number;
  /** STUN/TURN servers for the direct WebRTC connections (ice.ts); none by default. */
  iceServers?: IceServer[];
}

type Node = Awaited<ReturnType<typeof makeNode>>;

async function makeNode(bans: BanList, router: Router, iceServers: IceServer[], onCopy: (topic: string, hash: string) => void) {
  const privateKey = await generateKeyPair('Ed25519');
  const node = await createLibp2p({
    privateKey,
    addresses: { listen: ['/p2p-circuit', '/webrtc'] },
    transports: [
      webSockets(),
      // No STUN/TURN unless given: then direct connections use host candidates only (same LAN, or
      // the test's namespace), and the page never asks a public server for its address.
      webRTC({ rtcConfiguration: { iceServers } }),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noise()],
    streamMuxers: [txcastMuxer()],
    // The browser default gater refuses ws:// and private addresses: a local relay is both (wss://
    // to a relay behind a TLS proxy passes either way). Banned peers are turned away both ways.
    connectionGater: bans.gater({ denyDialMultiaddr: () => false }),
    services: { identify: identify(), ping: ping(), ...gossipServices(router, { onCopy }) },
  });
  return { node, privateKey };
}

export class LightNode {
  node: Node['node'] | null = null;
  gossip: Gossip | null = null;
  /** Every tx seen, per protocol, by `${protocol}:${hash}`. */
  readonly txs = new Map<string, TxRecord>();
  readonly counters: Counters = { published: 0, announcesSent: 0, dials: 0, dialErrors: 0 };
  relayAddr = '';
  /** CAT and Strokkur over their own streams, driven by the Rust state machines. */
  readonly framed: FramedProtocol[] = [];
  /** Peers cut off for garbage stay out for a while (connection gater and protocol streams). */
  readonly bans = new BanList();
  /** Peers that announced a /webrtc address: other browsers. */
  readonly browsers = new Set<string>();
  readonly router: Router;
  private dialing = new Set<string>();
  private announceTimer: ReturnType<typeof setInterval> | null = null;
  private keptBytes = 0;
  /** When this node started (wall clock, as txs carry it): a tx submitted before has no latency here, only an age. */
  private startedMs = Infinity;

  constructor(private readonly options: LightNodeOptions) {
    this.router = options.router ?? 'txcast';
  }

  get peerId(): string {
    return this.node?.peerId.toString() ?? '';
  }

  /** The protocols running, gossipsub first. */
  get protocols(): ProtocolName[] {
    return ['gossipsub', ...this.framed.map((f) => f.name)];
  }

  async start(relayAddr: string): Promise<void> {
    this.startedMs = wallMs();
    this.relayAddr = relayAddr.trim();
    const { node, privateKey } = await makeNode(this.bans, this.router, this.options.iceServers ?? [], (topic, hash) => (this.gossip as { copy?: (t: string, h: string) => void } | null)?.copy?.(topic, hash));
    this.node = node;
    for (const name of ['connection:open', 'connection:close', 'self:peer:update', 'peer:update'] as const) {
      node.addEventListener(name, () => this.options.onChange());
    }
    const wire = (name: ProtocolName) =>
      this.options.onWire ? (direction: 'in' | 'out', peer: string, bytes: number, info: FrameInfo) => this.options.onWire!(name, direction, peer, bytes, info) : null;
    this.gossip = makeGossip(this.router, {
      libp2p: node,
      engine: this.router === 'txcast' ? await freshEngine() : null,
      limits: LIMITS,
      privateKey,
      version: this.options.version,
      dAnnounce: this.options.dAnnounce,
      seed: randomSeed(),
      bans: this.bans,
      onChange: this.options.onChange,
      onArrival: (a) => this.arrival(a),
      onDeliver: (d) => {
        if (d.topic === TX_TOPIC) this.keep('gossipsub', d.hash, d.data);
        else if (d.topic === ANNOUNCE_TOPIC) this.onAnnounce(d.data);
      },
      onWire: wire('gossipsub'),
      log: this.options.log,
    });
    await this.gossip.start();
    for (const name of ['cat', 'strokkur'] as const) {
      const live = new LiveNode(await freshEngine(), name, LIVE_CONFIGS[name], randomSeed(), performance.now());
      const framed = new FramedProtocol({
        libp2p: node,
        name,
        live,
        limits: LIMITS,
        onChange: this.options.onChange,
        onArrival: (a) => this.arrival(a),
        onDeliver: (d) => this.keep(name, d.hash, d.data),
        onWire: wire(name),
        bans: this.bans,
        log: this.options.log,
      });
      await framed.start();
      this.framed.push(framed);
    }
    this.options.log(`started ${node.peerId.toString()} (gossipsub: ${this.router === 'js' ? '@libp2p/gossipsub' : `txcast ${this.gossip.version}`})`);
    if (this.relayAddr) {
      await node.dial(multiaddr(this.relayAddr));
      this.options.log(`dialled ${this.relayAddr}`);
    }
    this.announceTimer = setInterval(() => void this.announce(), ANNOUNCE_MS);
    this.options.onChange();
  }

  /** Records a copy of a tx (first, own, or duplicate) and passes it on to the arrival store. */
  private arrival(a: { protocol: ProtocolName; id: string; firstMs: number; own: boolean; from: string; duplicate?: boolean }): void {
    const key = `${a.protocol}:${a.id}`;
    let tx = this.txs.get(key);
    if (!tx) {
      tx = { protocol: a.protocol, id: a.id, own: a.own, bytes: 0, firstMs: a.firstMs, from: a.from, copies: 0 };
      this.txs.set(key, tx);
      if (this.txs.size > 100_000) this.txs.delete(this.txs.keys().next().value!);
    }
    if (tx.copies === 0) {
      // The bytes came first (a delivery): the arrival says who sent them, when, and whose they are.
      tx.own = a.own;
      tx.from = a.from;
      tx.firstMs = a.firstMs;
    }
    tx.copies += 1;
    const copy: Copy & { duplicate?: boolean; sentAtMs?: number } = { protocol: a.protocol, id: a.id, atMs: a.firstMs, own: a.own, from: a.from };
    if (a.duplicate) copy.duplicate = true;
    if (tx.sentAtMs !== undefined) {
      copy.sentAtMs = tx.sentAtMs;
      if (!a.own && !a.duplicate) copy.latencyMs = a.firstMs - tx.sentAtMs;
    }
    this.options.onArrival(copy);
    this.options.onChange();
  }

  /** Keeps the bytes of a tx for download (the oldest kept bytes go first past KEPT_BYTES). */
  private keep(protocol: ProtocolName, hash: string, data: Uint8Array): void {
    const tx = this.txs.get(`${protocol}:${hash}`);
    // A tx that waited in peers' pools since before we started (CAT sends its pool to a new peer)
    // would show its age as its latency. The stamp is the sender's clock: a few seconds of skew
    // are allowed for.
    const stamped = sentAtOf(data);
    const sentAt = stamped !== null && stamped >= this.startedMs - CLOCK_SKEW_MS ? stamped : null;
    if (!tx) {
      // Deliveries come before the arrival is recorded: remember what to fill in.
      this.txs.set(`${protocol}:${hash}`, { protocol, id: hash, own: false, bytes: data.length, firstMs: wallMs(), from: '', copies: 0, data, sentAtMs: sentAt ?? undefined });
    } else {
      tx.bytes = data.length;
      tx.data = data;
      if (sentAt !== null) tx.sentAtMs = sentAt;
    }
    this.keptBytes += data.length;
    for (const old of this.txs.values()) {
      if (this.keptBytes <= KEPT_BYTES) break;
      if (old.data) {
        this.keptBytes -= old.data.length;
        old.data = undefined;
      }
    }
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
    await this.gossip?.stop();
    await this.node?.stop();
    this.node = null;
    this.options.onChange();
  }

  /**
   * MiB: the protocol engines' WebAssembly memories together (each its own instance), and the
   * page's JS heap where the browser tells (Chromium's performance.memory; else 0).
   */
  memory(): { engines: number; heap: number } {
    const lives = [...this.framed.map((f) => f.live), ...(this.gossip?.router === 'txcast' ? [(this.gossip as TxcastGossip).live] : [])];
    const engines = lives.reduce((sum, live) => sum + live.memoryBytes(), 0);
    const heap = (performance as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
    return { engines: Math.round(engines / 2 ** 20), heap: Math.round(heap / 2 ** 20) };
  }

  /** Our addresses through a relay reservation that other browsers can dial for WebRTC. */
  webrtcAddrs(): string[] {
    return (this.node?.getMultiaddrs() ?? []).map((ma) => ma.toString()).filter((a) => a.includes('/p2p-circuit/webrtc'));
  }

  /** The relays we hold a reservation on (each gives us an address per listen address it has). */
  reservations(): string[] {
    const relays = new Set<string>();
    for (const ma of this.node?.getMultiaddrs() ?? []) {
      const relay = /\/p2p\/([^/]+)\/p2p-circuit/.exec(ma.toString())?.[1];
      if (relay) relays.add(relay);
    }
    return [...relays];
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
    return this.gossip?.topicPeers(TX_TOPIC) ?? 0;
  }

  meshPeers(): number {
    return this.gossip?.meshPeers(TX_TOPIC) ?? 0;
  }

  /**
   * Sends the same bytes as one tx on each of `protocols`; returns its hash. A protocol whose
   * cap the bytes exceed is refused with an Error naming the cap, before anything is sent.
   */
  async submitBytes(protocols: ProtocolName[], data: Uint8Array): Promise<string> {
    if (!this.node || !this.gossip) throw new Error('the node is not running');
    if (data.length === 0) throw new Error('a tx needs at least one byte');
    for (const p of protocols) {
      if (data.length > MAX_TX_BYTES[p]) throw new Error(`${p} carries txs of at most ${MAX_TX_BYTES[p]} bytes; this one has ${data.length}`);
    }
    let hash = '';
    for (const p of protocols) {
      if (p === 'gossipsub') {
        hash = await this.gossip.publish(TX_TOPIC, data);
        this.counters.published += 1;
      } else {
        const framed = this.framed.find((f) => f.name === p);
        if (!framed) throw new Error(`${p} is not running`);
        hash = framed.submit(data);
      }
      this.keep(p, hash, data);
    }
    this.options.onChange();
    return hash;
  }

  /** A generated tx of `bytes` bytes (stamped with its submission time) on each protocol. */
  submitGenerated(protocols: ProtocolName[], bytes: number): Promise<string[]> {
    const over = protocols.find((p) => bytes > MAX_TX_BYTES[p]);
    if (over) return Promise.reject(new Error(`${over} carries txs of at most ${MAX_TX_BYTES[over]} bytes; asked for ${bytes}`));
    return Promise.all(protocols.map((p) => this.submitBytes([p], generatedTx({ sentAtMs: wallMs(), bytes }))));
  }

  private async announce(): Promise<void> {
    // Only addresses the topic's rules take (announcementOf), and no more than they allow.
    const addrs = this.webrtcAddrs()
      .filter((a) => ownRelayedAddr(a, this.peerId))
      .slice(0, MAX_ANNOUNCED_ADDRS);
    if (!this.node || !this.gossip || addrs.length === 0) return;
    // Message ids are content hashes: the time makes each announcement a new message (an
    // unchanged body would be dropped as a duplicate, and late joiners would never hear it).
    const body = new TextEncoder().encode(JSON.stringify({ peer: this.peerId, addrs, at: wallMs() }));
    try {
      await this.gossip.publish(ANNOUNCE_TOPIC, body);
      this.counters.announcesSent += 1;
    } catch (error) {
      this.options.log(`announce failed: ${(error as Error).message}`);
    }
  }

  /**
   * An announcement the router delivered (its author checked: the topic's rules). A peer is
   * dialled only through a relay this node is connected to already: an announcement cannot
   * make it open a connection to an address of someone else's choosing.
   */
  private onAnnounce(data: Uint8Array): void {
    if (!this.node) return;
    let claimed: unknown;
    try {
      claimed = JSON.parse(new TextDecoder().decode(data))?.peer;
    } catch {
      return;
    }
    const announced = typeof claimed === 'string' ? announcementOf(data, claimed) : null;
    if (!announced) return;
    const { peer, addrs } = announced;
    if (peer !== this.peerId && this.browsers.size < 1024) this.browsers.add(peer);
    if (this.bans.isBanned(peer)) return;
    if (peer === this.peerId || !shouldDial(this.peerId, peer) || this.dialing.has(peer) || this.dialing.size >= MAX_DIALING) return;
    const connections = this.node.getConnections();
    const direct = connections.some((c) => c.remotePeer.toString() === peer && transportOf(c.remoteAddr.toString()) === 'webrtc');
    if (direct) return;
    const relays = new Set(connections.filter((c) => c.limits == null).map((c) => c.remotePeer.toString()));
    const addr = dialTarget(addrs, (relay) => relays.has(relay));
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

/** A 64-bit seed from the browser's real randomness, for the protocol nodes. */
function randomSeed(): bigint {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}
