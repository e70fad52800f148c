// GossipSub for the light node and the relay, behind one face, with two routers to choose from:
//   'txcast'  txcast's own router (the Rust state machine of the simulator, through framed.mjs),
//             speaking /meshsub/2.0.0 (v2.0: IANNOUNCE/INEED), 1.2.0, 1.1.0 and 1.0.0;
//   'js'      @libp2p/gossipsub, the reference implementation (it speaks up to /meshsub/1.2.0).
// Both: StrictSign with the node's Ed25519 key, message id = SHA-256 of the data, the tx topic and
// the address-announcement topic, the same topic rules (`judge`: an announcement speaks for its
// own author only) and the same score for a peer that sends what the rules reject. Shared by the
// page and the Node relay, so plain JS.
import { gossipsub, TopicValidatorResult } from '@libp2p/gossipsub';
import { createPeerScoreParams, createPeerScoreThresholds, createTopicScoreParams } from '@libp2p/gossipsub/score';
import { publicKeyFromProtobuf } from '@libp2p/crypto/keys';
import { sha256 } from '@noble/hashes/sha2.js';
import { LiveNode } from './live-node.mjs';
import { FramedProtocol, MAX_TX_BYTES } from './framed.mjs';
import { ANNOUNCE_TOPIC, TX_TOPIC, wallMs } from './txwire.mjs';
import { MessageClass } from '../wasm/txcast_wasm.js';

export const ROUTERS = ['txcast', 'js'];
export const VERSIONS = ['v1.2', 'v2.0'];
/** Address announcements are small JSON objects, of a few addresses. */
export const MAX_ANNOUNCE_BYTES = 4096;
export const MAX_ANNOUNCED_ADDRS = 8;

/** How every txcast node runs GossipSub on a live network (the simulator's defaults otherwise). */
export function liveConfig({ version = 'v2.0', dAnnounce = 4 } = {}) {
  return {
    version,
    d_announce: version === 'v2.0' ? dAnnounce : 0,
    topics: [TX_TOPIC, ANNOUNCE_TOPIC],
    signature_policy: 'strict_sign',
    message_id: 'content',
    // Browsers on a loaded machine answer slower than the draft's 400 ms now and then: wait as
    // the Shadow study of seed 002 did (1 s), and forgive two unanswered INEEDs before a peer's
    // score drops (a peer that never answers still falls below zero at the third).
    ineed_timeout_ms: 1000,
    behaviour_penalty_threshold: 2,
  };
}

/** Whether `addr` is one of `peer`'s own relayed WebRTC addresses (`.../p2p/RELAY/p2p-circuit/webrtc/p2p/PEER`). */
export function ownRelayedAddr(addr, peer) {
  return typeof addr === 'string' && addr.length <= 512 && /\/p2p\/[^/]+\/p2p-circuit\/webrtc\/p2p\/[^/]+$/.test(addr) && addr.endsWith(`/p2p/${peer}`);
}

/**
 * An address announcement, if `data` is one that `author` (the signer's peer id) may make:
 * JSON {peer, addrs, at?} where `peer` is the author and `addrs` are 1 to 8 of its own relayed
 * WebRTC addresses (`.../p2p/RELAY/p2p-circuit/webrtc/p2p/PEER`). Anything else is null: no
 * peer can make others dial an address of its choosing in someone else's name.
 */
export function announcementOf(data, author) {
  if (!author || data.length > MAX_ANNOUNCE_BYTES) return null;
  let parsed;
  try {
    parsed = JSON.parse(new TextDecoder().decode(data));
  } catch {
    return null;
  }
  const { peer, addrs } = parsed ?? {};
  if (peer !== author || !Array.isArray(addrs) || addrs.length < 1 || addrs.length > MAX_ANNOUNCED_ADDRS) return null;
  return addrs.every((a) => ownRelayedAddr(a, peer)) ? { peer, addrs } : null;
}

/** The application's rules per topic: a verdict for a message's data from `author` (its signer's peer id). */
export function judge(topic, data, author = null) {
  if (topic === TX_TOPIC) return data.length >= 1 && data.length <= MAX_TX_BYTES.gossipsub ? 'accept' : 'reject';
  if (topic === ANNOUNCE_TOPIC) return announcementOf(data, author) ? 'accept' : 'reject';
  return 'ignore';
}

/**
 * @libp2p/gossipsub's score as txcast's router keeps it (liveConfig's defaults): a message the
 * rules reject costs its sender 100 (P4, squared), below -40 its gossip is ignored, below -160
 * all it sends.
 */
function jsScore() {
  const topic = () => createTopicScoreParams({ topicWeight: 1, invalidMessageDeliveriesWeight: -100, invalidMessageDeliveriesDecay: 0.9 });
  return {
    scoreParams: createPeerScoreParams({ topics: { [TX_TOPIC]: topic(), [ANNOUNCE_TOPIC]: topic() }, IPColocationFactorWeight: 0 }),
    scoreThresholds: createPeerScoreThresholds({ gossipThreshold: -40, publishThreshold: -80, graylistThreshold: -160 }),
  };
}

export function toHex(bytes) {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function equal(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A random 64-bit starting point for sequence numbers (unique per node run). */
function randomSeqno() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/**
 * The services entry a libp2p node needs for the router: @libp2p/gossipsub as a service for
 * 'js', nothing for 'txcast' (it registers its own protocol handlers once the node runs).
 */
export function gossipServices(router, { onCopy = () => {}, maxInboundDataLength = 1 << 20 } = {}) {
  if (router !== 'js') return {};
  return {
    pubsub: gossipsub({
      allowPublishToZeroTopicPeers: true,
      emitSelf: false,
      maxInboundDataLength,
      ...jsScore(),
      // Called once per publish and once per received copy, duplicates included.
      // The message id every node on the topics uses. (Not crypto.subtle: a page served over
      // plain http on a LAN address has none.)
      msgIdFn: (msg) => {
        const id = sha256(msg.data ?? new Uint8Array());
        onCopy(msg.topic, toHex(id));
        return id;
      },
    }),
  };
}

/** txcast's router on the node's streams. */
/** Counts by kind, added up. */
function sumKinds(...tallies) {
  const sum = {};
  for (const kinds of tallies) for (const [kind, n] of Object.entries(kinds ?? {})) sum[kind] = (sum[kind] ?? 0) + n;
  return sum;
}

export class TxcastGossip {
  /**
   * @param {{libp2p: any, engine: any, privateKey: any, version?: string, dAnnounce?: number,
   *          seed: bigint, now?: () => number, limits?: object, onDeliver?: Function,
   *          onArrival?: Function, onWire?: Function | null, onChange?: Function, bans?: any,
   *          log?: Function}} options
   * `engine`: the router's own WebAssembly instance of the core (live-node.mjs `loadEngine`);
   * `limits`: FramedProtocol's.
   */
  constructor({ libp2p, engine, privateKey, version = 'v2.0', dAnnounce = 4, seed, now = () => performance.now(), limits = {}, onDeliver = () => {}, onArrival = () => {}, onWire = null, onChange = () => {}, bans = null, log = () => {} }) {
    this.router = 'txcast';
    this.version = version;
    this.dAnnounce = dAnnounce;
    this.libp2p = libp2p;
    this.privateKey = privateKey;
    this.from = libp2p.peerId.toMultihash().bytes;
    this.seqno = randomSeqno();
    this.now = now;
    this.log = log;
    /** Signatures that did not verify, and messages the topic rules turned down. */
    this.badSignatures = 0;
    this.rejected = 0;
    this.live = new LiveNode(engine, 'gossipsub', liveConfig({ version, dAnnounce }), seed, now());
    this.framed = new FramedProtocol({
      libp2p,
      name: 'gossipsub',
      live: this.live,
      protocols: engine.gossipsub_protocol_ids(version),
      limits,
      now,
      onChange,
      onArrival,
      onDeliver,
      onWire,
      bans,
      log,
      isTx: (d) => d.topic === TX_TOPIC,
      onValidate: (asked, from) => void this.validate(asked, from),
    });
  }

  get stats() {
    return this.framed.stats;
  }

  get arrivals() {
    return this.framed.arrivals;
  }

  get peers() {
    return this.framed.peers;
  }

  start() {
    return this.framed.start();
  }

  stop() {
    return this.framed.stop();
  }

  /** Signs and publishes `data` on `topic`; returns the data's SHA-256 (hex). */
  async publish(topic, data) {
    this.seqno = (this.seqno + 1n) & 0xffff_ffff_ffff_ffffn;
    const seqno = new Uint8Array(8);
    new DataView(seqno.buffer).setBigUint64(0, this.seqno);
    const signable = this.live.signable(topic, data, this.from, seqno);
    if (!signable) throw new Error('gossipsub: the engine failed on this message and was rebuilt');
    const signature = await this.privateKey.sign(signable);
    const hash = this.live.publish(topic, data, this.now(), { from: this.from, seqno, signature });
    if (hash === null) throw new Error('gossipsub: the engine failed on this message and was rebuilt');
    if (topic === TX_TOPIC) this.framed.recordOwn(hash);
    this.framed.pump('');
    return hash;
  }

  /** Checks each message's signature and the topic's rules, and tells the router; `from` sent them. */
  async validate(asked, from) {
    for (const v of asked) {
      let verdict = 'reject';
      try {
        const key = v.publicKey && publicKeyFromProtobuf(v.publicKey);
        const author = key && equal(key.toMultihash().bytes, v.from ?? new Uint8Array());
        if (author && v.signature && (await key.verify(v.signable, v.signature))) verdict = judge(v.topic, v.data, key.toString());
        else this.badSignatures += 1;
      } catch {
        this.badSignatures += 1;
      }
      if (verdict === 'reject') this.rejected += 1;
      this.live.validated(v.handle, verdict, this.now());
      // What it releases (a delivery, frames to forward) goes out now, as `from`'s.
      this.framed.pump(from);
    }
  }

  /** Peers subscribed to a topic and in our mesh for it. */
  topicPeers(topic) {
    return this.live.topicPeers(topic);
  }

  meshPeers(topic) {
    return this.live.meshPeers(topic);
  }

  /** Control and data entries sent and received, by kind, and the router's own counters. */
  counters() {
    const f = this.framed;
    return {
      sent: { ...f.kindsOut },
      received: { ...f.kindsIn },
      // IDONTWANT names only message ids: one for a message not seen here yet has no topic to
      // tell ('' below). Such entries count with the tx topic's, where the large messages that
      // draw IDONTWANTs go (announcements are far below the threshold).
      txTopic: { sent: { ...f.topicKindsOut[TX_TOPIC] }, received: sumKinds(f.topicKindsIn[TX_TOPIC], f.topicKindsIn['']) },
      live: this.live.counters(),
      badSignatures: this.badSignatures,
      rejected: this.rejected,
    };
  }
}

/** @libp2p/gossipsub behind the same face (the node must have been made with gossipServices('js')). */
export class JsGossip {
  constructor({ libp2p, onDeliver = () => {}, onArrival = () => {}, onWire = null, onChange = () => {}, log = () => {} }) {
    this.router = 'js';
    this.version = 'v1.2';
    this.libp2p = libp2p;
    this.pubsub = libp2p.services.pubsub;
    this.onDeliver = onDeliver;
    this.onArrival = onArrival;
    this.onWire = onWire;
    this.onChange = onChange;
    this.log = log;
    this.arrivals = new Map();
    this.stats = { delivered: 0, own: 0, duplicates: 0, malformed: 0 };
    this.rejected = 0;
    /** Copies per tx id the router computed ids for (see gossipServices' onCopy). */
    this.copies = new Map();
    this.peers = { get size() { return 0; } };
  }

  /** gossipServices' onCopy lands here: a copy the router saw (publish, first, or duplicate). */
  copy(topic, hash) {
    if (topic !== TX_TOPIC) return;
    const n = (this.copies.get(hash) ?? 0) + 1;
    this.copies.set(hash, n);
    if (this.copies.size > 100_000) this.copies.delete(this.copies.keys().next().value);
    // Every copy after the first is a duplicate, also one named while the first is still being
    // validated (and not yet in arrivals); only those after the first arrival are shown as arrivals.
    if (n > 1) {
      this.stats.duplicates += 1;
      if (this.arrivals.has(hash)) this.onArrival({ protocol: 'gossipsub', id: hash, firstMs: wallMs(), own: false, from: '', duplicate: true });
    }
  }

  async start() {
    for (const topic of [TX_TOPIC, ANNOUNCE_TOPIC]) {
      this.pubsub.topicValidators.set(topic, (_peer, msg) => {
        const verdict = judge(topic, msg.data, msg.type === 'signed' ? msg.from.toString() : null);
        if (verdict === 'reject') this.rejected += 1;
        return verdict === 'accept' ? TopicValidatorResult.Accept : verdict === 'reject' ? TopicValidatorResult.Reject : TopicValidatorResult.Ignore;
      });
      this.pubsub.subscribe(topic);
    }
    this.pubsub.addEventListener('gossipsub:message', (event) => void this.onMessage(event.detail));
    this.pubsub.addEventListener('subscription-change', () => this.onChange());
  }

  async onMessage({ msg, propagationSource }) {
    const from = propagationSource.toString();
    const hash = toHex(sha256(msg.data));
    this.onWire?.('in', from, msg.data.length, { kinds: ['publish'], classes: [MessageClass.Payload], topics: [], payload: msg.topic === TX_TOPIC ? msg.data.length : 0, txs: [hash] });
    this.onDeliver({ hash, topic: msg.topic, data: msg.data, from });
    if (msg.topic !== TX_TOPIC || this.arrivals.has(hash)) return;
    const arrival = { firstMs: wallMs(), own: false, from };
    this.arrivals.set(hash, arrival);
    this.stats.delivered += 1;
    this.onArrival({ protocol: 'gossipsub', id: hash, ...arrival });
    this.onChange();
  }

  async stop() {}

  async publish(topic, data) {
    const hash = toHex(sha256(data));
    if (topic === TX_TOPIC && !this.arrivals.has(hash)) {
      const arrival = { firstMs: wallMs(), own: true, from: '' };
      this.arrivals.set(hash, arrival);
      this.stats.own += 1;
      this.onArrival({ protocol: 'gossipsub', id: hash, ...arrival });
    }
    for (const peer of this.pubsub.getSubscribers(topic)) this.onWire?.('out', peer.toString(), data.length, { kinds: ['publish'], classes: [MessageClass.Payload], topics: [], payload: topic === TX_TOPIC ? data.length : 0, txs: [] });
    await this.pubsub.publish(topic, data);
    return hash;
  }

  topicPeers(topic) {
    return this.pubsub.getSubscribers(topic).length;
  }

  meshPeers(topic) {
    // getMeshPeers exists on the implementation but not on the exported interface.
    return this.pubsub.getMeshPeers(topic).length;
  }

  counters() {
    return { sent: {}, received: {}, txTopic: { sent: {}, received: {} }, live: {}, badSignatures: 0, rejected: this.rejected };
  }
}

/** The router for a node: 'txcast' (default) or 'js'. */
export function makeGossip(router, options) {
  if (!ROUTERS.includes(router)) throw new Error(`the gossipsub router is txcast or js, not ${router}`);
  return router === 'js' ? new JsGossip(options) : new TxcastGossip(options);
}
