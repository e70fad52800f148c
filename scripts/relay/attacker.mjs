// A hostile libp2p peer for the tests and measurements: it claims every live protocol (CAT,
// Strokkur, /meshsub), so a txcast node opens its streams to it and reads the ones it opens, and
// it writes whatever frames an attack gives it (frames.mjs builds them). What it does with the
// streams the node opens to it is its `mode`:
//   'swallow'  reads and drops every frame (the default)
//   'refuse'   aborts each at once: the node's stream to it fails, and the node lets it go
//   'stall'    never reads (pauses the stream): the node's writes to it back up
// It listens on TCP, or on WebSockets for a browser to dial it.
import { generateKeyPair } from '@libp2p/crypto/keys';
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { lpStream } from '@libp2p/utils';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { PROTOCOL_IDS } from '../../web/p2p/index.mjs';

/** Every protocol id a txcast node may open a stream on, best first for GossipSub. */
export const LIVE_PROTOCOLS = { cat: [PROTOCOL_IDS.cat], strokkur: [PROTOCOL_IDS.strokkur], gossipsub: ['/meshsub/2.0.0', '/meshsub/1.2.0', '/meshsub/1.1.0'] };
const ALL = Object.values(LIVE_PROTOCOLS).flat();
/** Frames larger than any node takes are still written (the oversized attacks). */
const MAX_FRAME = 4 << 20;

export class Attacker {
  /**
   * @param {{host?: string, port?: number, websockets?: boolean, mode?: 'swallow' | 'refuse' | 'stall'}} options
   */
  static async start({ host = '127.0.0.1', port = 0, websockets = false, mode = 'swallow' } = {}) {
    const privateKey = await generateKeyPair('Ed25519');
    const node = await createLibp2p({
      privateKey,
      addresses: { listen: [websockets ? `/ip4/${host}/tcp/${port}/ws` : `/ip4/${host}/tcp/${port}`] },
      transports: websockets ? [webSockets()] : [tcp()],
      // Dials private addresses (its targets are on loopback or in the test's namespace).
      connectionGater: { denyDialMultiaddr: () => false },
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      connectionManager: { inboundConnectionThreshold: 10_000 },
      services: { identify: identify(), ping: ping() },
    });
    const attacker = new Attacker(node, privateKey, mode);
    await node.handle(ALL, (stream) => attacker.onStream(stream), { maxInboundStreams: 1024, maxOutboundStreams: 1024 });
    return attacker;
  }

  constructor(node, privateKey, mode) {
    this.node = node;
    this.privateKey = privateKey;
    this.mode = mode;
    /** Frames the nodes sent it, per protocol id (kept while `recording`). */
    this.received = new Map();
    this.recording = false;
    /** Streams the nodes opened to it, and those it aborted. */
    this.inbound = 0;
    this.refused = 0;
  }

  get id() {
    return this.node.peerId.toString();
  }

  /** Its peer id's multihash bytes (a signed message's `from`). */
  get from() {
    return this.node.peerId.toMultihash().bytes;
  }

  get publicKey() {
    return this.privateKey.publicKey;
  }

  addrs() {
    return this.node.getMultiaddrs().map((ma) => ma.toString());
  }

  onStream(stream) {
    this.inbound += 1;
    if (this.mode === 'refuse') {
      this.refused += 1;
      stream.abort(new Error('refused'));
      return;
    }
    if (this.mode === 'stall') {
      // Holds what arrives and grants no more (the node's writes to it wait), without a reset.
      stream.maxReadBufferLength = 64 << 20;
      stream.pause();
      return;
    }
    const lp = lpStream(stream, { maxDataLength: MAX_FRAME });
    void (async () => {
      for (;;) {
        const frame = (await lp.read()).subarray();
        if (!this.recording) continue;
        const list = this.received.get(stream.protocol) ?? [];
        list.push(frame);
        this.received.set(stream.protocol, list);
      }
    })().catch(() => undefined);
  }

  /** Dials a node (a multiaddr string); resolves once connected. */
  async dial(addr) {
    await this.node.dial(multiaddr(addr), { signal: AbortSignal.timeout(10_000) });
  }

  /** Opens a stream of one of `protocols` to an address or a connected peer; a length-prefixed writer. */
  async stream(target, protocols) {
    const to = typeof target === 'string' && target.startsWith('/') ? multiaddr(target) : target;
    const stream = await this.node.dialProtocol(to, protocols, { signal: AbortSignal.timeout(10_000) });
    const lp = lpStream(stream, { maxDataLength: MAX_FRAME });
    return { stream, protocol: stream.protocol, lp };
  }

  /**
   * Writes `count` frames made by `make(i)` in batches of `batch` (one write each); resolves with
   * how many were written before the stream failed (a node that cut it off).
   */
  static async flood(lp, count, make, batch = 64) {
    let sent = 0;
    try {
      while (sent < count) {
        const frames = [];
        for (let i = 0; i < batch && sent + frames.length < count; i++) frames.push(make(sent + frames.length));
        await lp.writeV(frames);
        sent += frames.length;
      }
    } catch {
      // cut off
    }
    return sent;
  }

  async hangUp(peer) {
    await this.node.hangUp(peer).catch(() => undefined);
  }

  stop() {
    return this.node.stop();
  }
}
