// A txcast protocol on real libp2p streams: one length-prefixed frame per message (per RPC for
// GossipSub), driven by the Rust state machines (the WASM engine, live-node.mjs) with the real
// clock. CAT, Strokkur and txcast's GossipSub all run through here. Shared by the page and the
// Node relay, so plain JS.
//
// A peer's engine index is used only after our outbound stream to it has negotiated a protocol
// id (GossipSub takes its version from it). Each connection of a peer is a record of its own
// (`peers`), and a frame reaches the engine only while its record still owns the index: when
// the peer goes, its streams are aborted and whatever they still yield is dropped, so a reused
// index starts empty (the WASM node checks the same: frames for a number no peer holds).
//
// Rate is backpressure, never a penalty: a peer's frames are read no faster than its rate (we
// stop reading, its writes wait), and what we queue for a peer is bounded per peer and in
// total (beyond, frames are dropped and counted; a peer that reads nothing for `stallMs` is let
// go, unbanned). Penalties are for misbehaviour: frames above the size cap end that stream (not
// the connection) and frames the live node cannot decode are dropped; each is counted and is a
// strike, and a peer with too many strikes in a short time is disconnected and banned for a
// while (ban.mjs): its reconnects are refused. An engine that traps is rebuilt
// (live-node.mjs); the peer whose frame did it is cut off and the others reconnect to the new one.
import { lpStream } from '@libp2p/utils';
import { monotonic } from './clock.mjs';
import { BadFrameLength, FrameCutShort, FrameReader, FrameTooLong, FrameTooSlow, ReadBudget } from './frame-reader.mjs';
import { wallMs } from './txwire.mjs';
import { MessageClass } from '../wasm/txcast_wasm.js';

export const PROTOCOL_IDS = { cat: '/txcast/cat/1.0.0', strokkur: '/txcast/lt/1.0.0' };

export const DEFAULT_LIMITS = {
  /** Largest frame read from a peer: the live node's own cap (max_frame_bytes in the WASM). */
  maxFrameBytes: 1 << 20,
  /** Per peer: frames per second read, and the burst allowed above it (beyond: backpressure). */
  framesPerSecond: 2000,
  frameBurst: 4000,
  /** Per peer: bytes per second read, and the burst. */
  bytesPerSecond: 8 << 20,
  byteBurst: 16 << 20,
  /** Strikes leak away at one per second; a peer above this many is disconnected. */
  maxStrikes: 20,
  /** Bytes queued for one peer, and for all peers, before further frames are dropped. */
  maxQueuedBytes: 8 << 20,
  maxQueuedTotal: 64 << 20,
  /** A peer we have frames for that takes none of them this long is let go. */
  stallMs: 30_000,
  /** Bytes the long frames being read from all peers may hold together (beyond 64 KiB a stream). */
  maxReadingBytes: 16 << 20,
  /** A long frame's bytes, once let in, must all come within this (else its stream ends: a strike). */
  frameMs: 60_000,
};

/**
 * Protocol options for a live network (JSON, as in a scenario): the budgets of what one peer
 * and all peers together can make a node keep (the simulator's defaults never bind them), and:
 * - Strokkur pauses its codeword streams once no new symbol entered the window for
 *   `idle_after_ms`; a light node's traffic comes in small bursts with the rate still low, so the
 *   simulator's 500 ms pause could stop coding before the last txs of a burst decode. It codes on
 *   for 5 s instead. It reassembles txs of up to 64 fragments (the protocol takes 1,024, but at a
 *   light node's low codeword rates a longer tx would take minutes to decode), peels with the
 *   last 65,536 symbols and re-keys 8,192 of them for a peer that connects (0.8 ms, not 32 ms).
 */
export const LIVE_CONFIGS = {
  cat: { max_pending_per_peer: 1024, max_pending: 16_384, max_pool_txs: 65_536 },
  strokkur: {
    idle_after_ms: 5000,
    max_fragments: 64,
    peel_window_symbols: 65_536,
    rekey_symbols: 8192,
    max_pending_codewords: 16_384,
    max_pending_codewords_per_peer: 2048,
    max_known_txs: 65_536,
  },
};

/** Largest transaction each protocol carries on the live network: each engine's `maxTxBytes()`. */
export const MAX_TX_BYTES = {
  // Within the 1 MiB frame, with room for the framing (the engine holds CAT's cap to it).
  cat: (1 << 20) - 1024,
  // 64 fragments of 128 - 35 bytes (LIVE_CONFIGS.strokkur).
  strokkur: 64 * (128 - 35),
  // A message and its envelope within the 1 MiB RPC other implementations accept.
  gossipsub: (1 << 20) - 1024,
};

/** A token bucket on a monotonic clock: `wait(n)` is how long until n tokens are there. */
class Bucket {
  constructor(rate, burst, now) {
    this.rate = rate;
    this.burst = burst;
    this.tokens = burst;
    this.at = now;
  }
  refill(now) {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
  }
  /** Ms until `n` tokens (at most the burst) are there; 0 if they are. */
  wait(n, now) {
    this.refill(now);
    const short = Math.min(n, this.burst) - this.tokens;
    return short > 0 ? (short / this.rate) * 1000 : 0;
  }
  take(n, now) {
    this.refill(now);
    this.tokens -= Math.min(n, this.burst);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Peers whose frames read are remembered (the most recent). */
const READ_FROM_PEERS = 4096;

/** Counts a frame's entries by kind, in all and under each entry's topic (when it has one). */
function tally(kinds, byTopic, info) {
  info.kinds.forEach((kind, i) => {
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    const topic = info.topics?.[i];
    if (topic === undefined) return;
    byTopic[topic] ??= {};
    byTopic[topic][kind] = (byTopic[topic][kind] ?? 0) + 1;
  });
}

export class FramedProtocol {
  /**
   * @param {{libp2p: any, name: 'cat' | 'strokkur' | 'gossipsub', live: any, protocols?: string[],
   *          limits?: object, now?: () => number, onChange?: () => void, onArrival?: Function,
   *          onDeliver?: Function, onValidate?: Function, isTx?: Function, onWire?: Function | null,
   *          bans?: any, log?: (line: string) => void}} options
   */
  constructor({
    libp2p,
    name,
    live,
    protocols = [PROTOCOL_IDS[name]],
    limits = {},
    now = () => performance.now(),
    onChange = () => {},
    onArrival = () => {},
    onDeliver = () => {},
    onValidate = null,
    isTx = () => true,
    onWire = null,
    bans = null,
    log = () => {},
  }) {
    this.libp2p = libp2p;
    this.name = name;
    this.live = live;
    /** Protocol ids, best first: offered on our streams, accepted on theirs. */
    this.protocols = protocols;
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.now = monotonic(now);
    this.onChange = onChange;
    /** Every copy of a tx seen here: its first arrival (or submission), then duplicates. */
    this.onArrival = onArrival;
    /** Every tx accepted for the first time, with its bytes ({hash, topic, data, from}). */
    this.onDeliver = onDeliver;
    /** GossipSub: messages for the host to judge (it answers through the live node). */
    this.onValidate = onValidate;
    /** Which deliveries are transactions (GossipSub also carries address announcements). */
    this.isTx = isTx;
    /** Called per frame in and out with what it carries (kinds, payload bytes, tx hashes). */
    this.onWire = onWire;
    /** Peers cut off here stay out for a while (shared with the connection gater). */
    this.bans = bans;
    this.log = log;
    /** peer id string -> {idx, peerId, ready, out, queue, ...} */
    this.peers = new Map();
    this.byIdx = new Map();
    this.freeIdx = [];
    this.nextIdx = 0;
    /** tx hash -> {firstMs, own, from} */
    this.arrivals = new Map();
    this.stats = {
      delivered: 0,
      own: 0,
      framesIn: 0,
      framesOut: 0,
      bytesIn: 0,
      bytesOut: 0,
      malformed: 0,
      oversized: 0,
      cutShort: 0,
      slowFrames: 0,
      throttled: 0,
      dropped: 0,
      stalled: 0,
      streamFailures: 0,
      peersUp: 0,
      disconnected: 0,
      duplicates: 0,
      refused: 0,
      payloadIn: 0,
      payloadOut: 0,
      traps: 0,
    };
    /** Bytes queued for all peers. */
    this.queued = 0;
    /** What the long frames being read from all peers may hold (FrameReader). */
    this.reading = new ReadBudget(this.limits.maxReadingBytes);
    /** Frames read per peer id, over all its connections (the latest READ_FROM_PEERS peers). */
    this.readFrom = new Map();
    live.onTrap = (trap) => this.onTrap(trap);
    /** Message kinds sent and received (GossipSub: per RPC entry), in all and by topic. */
    this.kindsIn = {};
    this.kindsOut = {};
    this.topicKindsIn = {};
    this.topicKindsOut = {};
    this.timer = null;
    this.timerAt = Infinity;
    this.topologyIds = [];
    this.stopped = false;
  }

  async start() {
    await this.libp2p.handle(this.protocols, (stream, connection) => this.onInbound(stream, connection), {
      runOnLimitedConnection: false,
      maxInboundStreams: 4,
      maxOutboundStreams: 4,
    });
    for (const protocol of this.protocols) {
      this.topologyIds.push(
        await this.libp2p.register(protocol, {
          onConnect: (peerId, connection) => this.up(peerId, connection),
          onDisconnect: (peerId) => this.down(peerId.toString()),
          notifyOnLimitedConnection: false,
        }),
      );
    }
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const id of this.topologyIds.splice(0)) this.libp2p.unregister(id);
    await this.libp2p.unhandle(this.protocols).catch(() => undefined);
    for (const key of [...this.peers.keys()]) this.down(key, false);
  }

  /** Creates a tx of these bytes here and hands it to the protocol; returns its hash. */
  submit(bytes) {
    const hash = this.live.submit(bytes, this.now());
    if (hash === null) throw new Error(`${this.name}: the engine failed on this tx and was rebuilt`);
    this.recordOwn(hash);
    this.pump('');
    return hash;
  }

  /** Our own tx, first seen now. */
  recordOwn(hash) {
    if (this.arrivals.has(hash)) return;
    const arrival = { firstMs: wallMs(), own: true, from: '' };
    this.arrivals.set(hash, arrival);
    this.onArrival({ protocol: this.name, id: hash, ...arrival });
    this.stats.own += 1;
  }

  counters() {
    return this.live.counters();
  }

  up(peerId, connection) {
    const key = peerId.toString();
    if (this.peers.has(key)) return this.peers.get(key);
    if (this.bans?.refuse(key)) {
      this.stats.refused += 1;
      void this.libp2p.hangUp(peerId).catch(() => undefined);
      this.onChange();
      return null;
    }
    const idx = this.freeIdx.length ? this.freeIdx.pop() : this.nextIdx++;
    const now = this.now();
    const peer = {
      idx,
      key,
      peerId,
      /** The protocol id our stream negotiated, once the live node knows the peer. */
      protocol: '',
      ready: null,
      out: null,
      inbound: new Set(),
      flushing: false,
      queue: [],
      queued: 0,
      /** When a write last completed, or the queue last started filling. */
      progressAt: now,
      frames: new Bucket(this.limits.framesPerSecond, this.limits.frameBurst, now),
      bytes: new Bucket(this.limits.bytesPerSecond, this.limits.byteBurst, now),
      strikes: 0,
      strikeAt: now,
    };
    this.peers.set(key, peer);
    this.byIdx.set(idx, peer);
    this.stats.peersUp += 1;
    peer.ready = this.openOutbound(peer, connection);
    this.onChange();
    return peer;
  }

  /**
   * The peer is gone for this protocol. Unless it was cut off (`again` false), it may still be
   * connected over another connection (a browser's first WebRTC connection closing after a second
   * one opened): libp2p reports a peer once, so look for an open one a moment later and start over.
   */
  down(key, again = true) {
    const peer = this.peers.get(key);
    if (!peer) return;
    if (again) this.tryAgain(peer.peerId);
    this.peers.delete(key);
    this.byIdx.delete(peer.idx);
    this.freeIdx.push(peer.idx);
    this.queued -= peer.queued;
    peer.queue = [];
    peer.queued = 0;
    peer.out?.unwrap().abort(new Error('peer down'));
    // Its inbound streams end too: nothing it sent may reach the next owner of its index.
    for (const stream of peer.inbound) stream.abort(new Error('peer down'));
    if (peer.protocol) this.live.peerDown(peer.idx, this.now());
    this.pump('');
    this.onChange();
  }

  tryAgain(peerId) {
    setTimeout(() => {
      if (this.stopped || this.peers.has(peerId.toString())) return;
      const open = this.libp2p.getConnections?.(peerId) ?? [];
      const connection = open.find((c) => c.status === 'open' && c.limits == null);
      if (connection) this.up(peerId, connection);
    }, 1000);
  }

  /** Opens our stream to the peer; the live node learns of the peer once it is open. */
  async openOutbound(peer, connection) {
    try {
      const stream = await connection.newStream(this.protocols, { signal: AbortSignal.timeout(10_000) });
      if (!this.owns(peer)) {
        stream.abort(new Error('peer went down'));
        return false;
      }
      // A stream the peer resets ends the peer here at once (it comes back over its connection).
      stream.addEventListener?.('close', () => this.owns(peer) && this.lost(peer), { once: true });
      this.attach(peer, lpStream(stream, { maxDataLength: this.limits.maxFrameBytes }), stream.protocol ?? this.protocols[0]);
      return true;
    } catch (error) {
      this.log(`${this.name}: cannot open a stream to ${peer.key.slice(-8)}: ${error.message}`);
      if (this.owns(peer)) this.lost(peer);
      return false;
    }
  }

  /** Our stream to the peer failed or was reset: it goes, and may come back (`tryAgain`). */
  lost(peer) {
    this.stats.streamFailures += 1;
    this.down(peer.key);
  }

  /** Our stream to the peer is open with `protocol`: the live node learns of the peer now. */
  attach(peer, out, protocol) {
    peer.out = out;
    peer.protocol = protocol;
    this.live.peerUp(peer.idx, this.now(), protocol);
    this.pump(peer.key);
    void this.flush(peer);
  }

  /** Whether this record still owns its peer's index (frames of an older connection never do). */
  owns(peer) {
    return this.peers.get(peer.key) === peer;
  }

  send(peer, frame) {
    const n = frame.bytes.length;
    const now = this.now();
    const idle = peer.queue.length === 0;
    if (!idle && now - peer.progressAt > this.limits.stallMs) {
      // It has taken none of what we queued for a long while: let it go (no ban; it may come back).
      this.stats.stalled += 1;
      this.log(`${this.name}: ${peer.key.slice(-8)} reads nothing; letting it go`);
      this.down(peer.key, false);
      return;
    }
    if (peer.queued + n > this.limits.maxQueuedBytes || this.queued + n > this.limits.maxQueuedTotal) {
      this.stats.dropped += 1;
      return;
    }
    if (idle) peer.progressAt = now;
    // An urgent frame goes after the one being written and any urgent ones before it.
    if (frame.urgent && !idle) {
      let at = 1;
      while (at < peer.queue.length && peer.queue[at].urgent) at += 1;
      peer.queue.splice(at, 0, frame);
    } else peer.queue.push(frame);
    peer.queued += n;
    this.queued += n;
    if (idle) void this.flush(peer);
  }

  /** Writes the queue out, one frame at a time (one writer per peer). */
  async flush(peer) {
    if (peer.flushing || !peer.out) return;
    peer.flushing = true;
    try {
      await this.write(peer);
    } finally {
      peer.flushing = false;
    }
    // A frame queued after the writer last found the queue empty, but before it let go, saw a
    // writer still at work and started none: write it now.
    if (peer.queue.length > 0 && this.owns(peer)) void this.flush(peer);
  }

  async write(peer) {
    while (peer.out && peer.queue.length > 0) {
      const frame = peer.queue[0];
      try {
        await peer.out.write(frame.bytes);
      } catch (error) {
        this.log(`${this.name}: write to ${peer.key.slice(-8)} failed: ${error.message}`);
        if (this.owns(peer)) this.lost(peer);
        return;
      }
      if (!this.owns(peer)) return;
      peer.queue.shift();
      peer.queued -= frame.bytes.length;
      this.queued -= frame.bytes.length;
      peer.progressAt = this.now();
      this.stats.framesOut += 1;
      this.stats.bytesOut += frame.bytes.length;
      this.stats.payloadOut += frame.info.payload;
      tally(this.kindsOut, this.topicKindsOut, frame.info);
      this.onWire?.('out', peer.key, frame.bytes.length, frame.info);
    }
  }

  async onInbound(stream, connection) {
    const peer = this.up(connection.remotePeer, connection);
    if (!peer) {
      stream.abort(new Error('banned'));
      return;
    }
    peer.inbound.add(stream);
    // Read with flow control: what waits unread is bounded, and beyond it the peer's writes wait.
    const reader = new FrameReader(stream, { maxFrameBytes: this.limits.maxFrameBytes, budget: this.reading, frameMs: this.limits.frameMs });
    try {
      if (!(await peer.ready)) return;
      while (this.owns(peer)) {
        let frame;
        try {
          frame = await reader.read();
        } catch (error) {
          if (error instanceof FrameCutShort) {
            // The stream ended mid-frame (a peer that went, or a tab closed): no misdeed.
            this.stats.cutShort += 1;
          } else if (error instanceof FrameTooLong || error instanceof BadFrameLength || error instanceof FrameTooSlow) {
            // The rest of this stream cannot be framed any more, or it holds bytes it does not
            // finish: end it, keep the connection.
            if (error instanceof FrameTooSlow) this.stats.slowFrames += 1;
            else this.stats.oversized += 1;
            this.strike(peer, 5);
            stream.abort(error);
            this.onChange();
          }
          return;
        }
        // The peer may have gone (and its index been reused) while we waited, here or below.
        if (frame === null || !this.owns(peer)) return;
        await this.throttle(peer, frame.length);
        if (!this.owns(peer)) return;
        this.onFrame(peer, frame);
      }
    } finally {
      peer.inbound.delete(stream);
    }
  }

  /**
   * Backpressure: waits until the peer's rate allows a frame of `bytes` and takes it from its
   * buckets. Meanwhile its frames wait unread (FrameReader pauses the stream once they pass its
   * high-water mark, and the peer's writes wait); it is never a strike.
   */
  async throttle(peer, bytes) {
    let delayed = false;
    for (;;) {
      const now = this.now();
      const wait = Math.max(peer.frames.wait(1, now), peer.bytes.wait(bytes, now));
      if (wait <= 0) break;
      if (!delayed) this.stats.throttled += 1;
      delayed = true;
      await sleep(wait);
      if (!this.owns(peer)) return;
    }
    const now = this.now();
    peer.frames.take(1, now);
    peer.bytes.take(bytes, now);
  }

  /** Frames read from a peer (by id) over all its connections, while it is among the latest. */
  framesFrom(key) {
    return this.readFrom.get(key) ?? 0;
  }

  onFrame(peer, frame) {
    const now = this.now();
    this.stats.framesIn += 1;
    this.stats.bytesIn += frame.length;
    const read = this.readFrom.get(peer.key) ?? 0;
    this.readFrom.delete(peer.key);
    this.readFrom.set(peer.key, read + 1);
    if (this.readFrom.size > READ_FROM_PEERS) this.readFrom.delete(this.readFrom.keys().next().value);
    const info = this.live.onFrame(peer.idx, frame, now);
    // A frame that trapped the engine cut its peer off (onTrap).
    if (!this.owns(peer)) return;
    if (!info) {
      this.stats.malformed += 1;
      this.onWire?.('in', peer.key, frame.length, { kinds: ['malformed'], classes: [MessageClass.Control], topics: [], payload: 0, txs: [] });
      this.strike(peer, 1);
      this.pump(peer.key);
      this.onChange();
      return;
    }
    this.stats.payloadIn += info.payload;
    tally(this.kindsIn, this.topicKindsIn, info);
    this.onWire?.('in', peer.key, frame.length, info);
    // Full copies of txs we already had: the protocol's duplicates (before the live node's
    // deliveries of this frame are recorded, so first copies are not counted).
    const repeats = info.txs.filter((hash) => this.arrivals.has(hash));
    this.pump(peer.key);
    for (const hash of repeats) {
      this.stats.duplicates += 1;
      this.onArrival({ protocol: this.name, id: hash, firstMs: wallMs(), own: false, from: peer.key, duplicate: true });
    }
    this.onChange();
  }

  /** Cuts a peer off and bans it for a while. */
  cutOff(peer, reason) {
    this.stats.disconnected += 1;
    this.bans?.ban(peer.key, `${this.name}: ${reason}`);
    this.down(peer.key, false);
    void this.libp2p.hangUp(peer.peerId).catch(() => undefined);
  }

  strike(peer, n) {
    const now = this.now();
    peer.strikes = Math.max(0, peer.strikes - (now - peer.strikeAt) / 1000) + n;
    peer.strikeAt = now;
    if (peer.strikes > this.limits.maxStrikes && this.owns(peer)) {
      this.log(`${this.name}: disconnecting and banning ${peer.key.slice(-8)} (${Math.round(peer.strikes)} strikes)`);
      this.cutOff(peer, 'garbage frames');
    }
  }

  /**
   * The engine trapped and was rebuilt empty (live-node.mjs). The peer whose frame did it is cut
   * off; every other peer is let go and comes back a second later over its open connection
   * (`tryAgain`), so the new engine meets it as a new peer: fresh streams, keys, subscriptions.
   */
  onTrap({ during, peer: idx, error }) {
    this.stats.traps += 1;
    const culprit = during === 'on_frame' ? this.byIdx.get(idx) : undefined;
    this.log(`${this.name}: the engine trapped in ${during} (${error}) and was rebuilt${culprit ? `; ${culprit.key.slice(-8)}'s frame did it` : ''}`);
    // The new engine never saw these peers: nothing to tell it when they go.
    for (const p of this.peers.values()) p.protocol = '';
    this.timerAt = Infinity;
    if (culprit) this.cutOff(culprit, 'its frame trapped the engine');
    for (const key of [...this.peers.keys()]) this.down(key);
  }

  /** Carries out what the live node asked for; `from` is the peer whose frame caused it. */
  pump(from) {
    for (const frame of this.live.takeFrames()) {
      const peer = this.byIdx.get(frame.peer);
      if (peer) this.send(peer, frame);
    }
    for (const delivery of this.live.takeDelivered()) {
      this.onDeliver({ ...delivery, from });
      if (!this.isTx(delivery) || this.arrivals.has(delivery.hash)) continue;
      const arrival = { firstMs: wallMs(), own: false, from };
      this.arrivals.set(delivery.hash, arrival);
      this.stats.delivered += 1;
      this.onArrival({ protocol: this.name, id: delivery.hash, ...arrival });
      if (this.arrivals.size > 100_000) this.arrivals.delete(this.arrivals.keys().next().value);
    }
    if (this.onValidate) {
      const asked = this.live.takeValidations();
      // The messages of `from`'s frame: what validation releases was sent by it.
      if (asked.length) this.onValidate(asked, from);
    }
    for (const idx of this.live.takeDisconnects()) {
      const peer = this.byIdx.get(idx);
      if (!peer) continue;
      this.log(`${this.name}: the protocol cut off ${peer.key.slice(-8)}`);
      this.cutOff(peer, 'protocol violation');
    }
    this.schedule();
  }

  /** One timer, at the live node's next deadline. */
  schedule() {
    const at = this.live.nextDeadlineMs();
    if (at === undefined || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.live.poll(this.now());
      this.pump('');
    }, Math.max(0, at - this.now()));
  }
}
