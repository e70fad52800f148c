// CAT and Strokkur on real libp2p streams: one length-prefixed frame per message, driven by the
// Rust state machines (the WASM `LightNode` engine) with the real clock. Shared by the page and the
// Node relay, so plain JS. Hostile peers are contained here: frames above a size cap end that stream
// (not the connection), frames beyond a per-peer rate are dropped, frames the engine cannot decode
// are dropped; every one of these is counted and is a strike, and a peer with too many strikes
// in a short time is disconnected and banned for a while (ban.mjs): its reconnects are refused.
import { lpStream } from '@libp2p/utils';

export const PROTOCOL_IDS = { cat: '/txcast/cat/1.0.0', strokkur: '/txcast/lt/1.0.0' };

export const DEFAULT_LIMITS = {
  /** Largest frame read from a peer (the engine's own cap is higher). */
  maxFrameBytes: 1 << 20,
  /** Per peer: sustained frames per second, and the burst allowed above it. */
  framesPerSecond: 500,
  frameBurst: 1000,
  /** Per peer: sustained bytes per second, and the burst. */
  bytesPerSecond: 8 << 20,
  byteBurst: 16 << 20,
  /** Strikes leak away at one per second; a peer above this many is disconnected. */
  maxStrikes: 20,
  /** Bytes queued for one peer before further frames to it are dropped. */
  maxQueuedBytes: 8 << 20,
};

/**
 * Protocol options for a live network (JSON, as in a scenario). Strokkur pauses its codeword
 * streams once no new symbol entered the window for `idle_after_ms`; a light node's traffic
 * comes in small bursts with the rate still low, so the simulator's 500 ms pause could stop
 * coding before the last txs of a burst decode. It codes on for 5 s instead.
 */
export const LIVE_CONFIGS = { cat: {}, strokkur: { idle_after_ms: 5000 } };

const LENGTH_ERRORS = new Set(['InvalidDataLengthError', 'InvalidDataLengthLengthError', 'InvalidMessageLengthError']);

/** A token bucket: `take(n)` is false when the peer is over its rate. */
class Bucket {
  constructor(rate, burst, now) {
    this.rate = rate;
    this.burst = burst;
    this.tokens = burst;
    this.at = now;
  }
  take(n, now) {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** Splits take_frames()'s flat buffer: [peer u32 LE][length u32 LE][bytes] repeated. */
export function splitFrames(flat) {
  const out = [];
  const view = new DataView(flat.buffer, flat.byteOffset, flat.byteLength);
  let at = 0;
  while (at + 8 <= flat.length) {
    const peer = view.getUint32(at, true);
    const len = view.getUint32(at + 4, true);
    at += 8;
    if (at + len > flat.length) throw new Error('take_frames: truncated frame');
    out.push([peer, flat.subarray(at, at + len)]);
    at += len;
  }
  return out;
}

export class FramedProtocol {
  /**
   * @param {{libp2p: any, name: 'cat' | 'strokkur', engine: any, limits?: Partial<typeof DEFAULT_LIMITS>,
   *          now?: () => number, onChange?: () => void, log?: (line: string) => void}} options
   */
  constructor({ libp2p, name, engine, limits = {}, now = () => Date.now(), onChange = () => {}, onArrival = () => {}, onWire = null, bans = null, log = () => {} }) {
    this.onArrival = onArrival;
    /** Called per frame in and out with what it carries (only when given: it decodes each frame). */
    this.onWire = onWire;
    /** Peers cut off here stay out for a while (shared with the connection gater). */
    this.bans = bans;
    this.libp2p = libp2p;
    this.name = name;
    this.protocol = PROTOCOL_IDS[name];
    this.engine = engine;
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.now = now;
    this.onChange = onChange;
    this.log = log;
    /** peer id string -> {idx, peerId, out, queue, queued, frames, bytes, strikes, strikeAt} */
    this.peers = new Map();
    this.byIdx = new Map();
    this.freeIdx = [];
    this.nextIdx = 0;
    /** tx id -> {firstMs, own, from} */
    this.arrivals = new Map();
    this.stats = { delivered: 0, own: 0, framesIn: 0, framesOut: 0, bytesIn: 0, bytesOut: 0, malformed: 0, oversized: 0, rateLimited: 0, dropped: 0, disconnected: 0, duplicates: 0, refused: 0, payloadIn: 0, payloadOut: 0 };
    this.timer = null;
    this.timerAt = Infinity;
    this.topologyId = null;
  }

  async start() {
    await this.libp2p.handle(this.protocol, (stream, connection) => this.onInbound(stream, connection), {
      runOnLimitedConnection: false,
      maxInboundStreams: 4,
      maxOutboundStreams: 4,
    });
    this.topologyId = await this.libp2p.register(this.protocol, {
      onConnect: (peerId, connection) => this.up(peerId, connection),
      onDisconnect: (peerId) => this.down(peerId.toString()),
      notifyOnLimitedConnection: false,
    });
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.topologyId) this.libp2p.unregister(this.topologyId);
    await this.libp2p.unhandle(this.protocol).catch(() => undefined);
  }

  /** Creates a tx of `bytes` here and hands it to the protocol; returns its id. */
  submit(bytes) {
    const id = this.engine.submit(bytes, this.now());
    const arrival = { firstMs: this.now(), own: true, from: '' };
    this.arrivals.set(id, arrival);
    this.onArrival({ protocol: this.name, id, ...arrival });
    this.stats.own += 1;
    this.pump('');
    return id;
  }

  counters() {
    try {
      return JSON.parse(this.engine.counters());
    } catch {
      return {};
    }
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
      out: null,
      opening: null,
      queue: [],
      queued: 0,
      frames: new Bucket(this.limits.framesPerSecond, this.limits.frameBurst, now),
      bytes: new Bucket(this.limits.bytesPerSecond, this.limits.byteBurst, now),
      strikes: 0,
      strikeAt: now,
    };
    this.peers.set(key, peer);
    this.byIdx.set(idx, peer);
    peer.opening = this.openOutbound(peer, connection);
    this.engine.peer_up(idx, now);
    this.pump(key);
    this.onChange();
    return peer;
  }

  down(key) {
    const peer = this.peers.get(key);
    if (!peer) return;
    this.peers.delete(key);
    this.byIdx.delete(peer.idx);
    this.freeIdx.push(peer.idx);
    peer.out?.unwrap().abort(new Error('peer down'));
    this.engine.peer_down(peer.idx, this.now());
    this.pump('');
    this.onChange();
  }

  async openOutbound(peer, connection) {
    try {
      const stream = await connection.newStream(this.protocol, { signal: AbortSignal.timeout(10_000) });
      if (this.peers.get(peer.key) !== peer) {
        stream.abort(new Error('peer went down'));
        return;
      }
      peer.out = lpStream(stream, { maxDataLength: this.limits.maxFrameBytes });
      await this.flush(peer);
    } catch (error) {
      this.log(`${this.name}: cannot open a stream to ${peer.key.slice(-8)}: ${error.message}`);
      this.down(peer.key);
    }
  }

  send(peer, bytes) {
    if (peer.queued + bytes.length > this.limits.maxQueuedBytes) {
      this.stats.dropped += 1;
      return;
    }
    peer.queue.push(bytes.slice());
    peer.queued += bytes.length;
    if (peer.out && peer.queue.length === 1) void this.flush(peer);
  }

  async flush(peer) {
    while (peer.out && peer.queue.length > 0) {
      const bytes = peer.queue[0];
      try {
        await peer.out.write(bytes);
      } catch (error) {
        this.log(`${this.name}: write to ${peer.key.slice(-8)} failed: ${error.message}`);
        this.down(peer.key);
        return;
      }
      peer.queue.shift();
      peer.queued -= bytes.length;
      this.stats.framesOut += 1;
      this.stats.bytesOut += bytes.length;
      if (this.onWire) this.wire('out', peer.key, bytes);
    }
  }

  async onInbound(stream, connection) {
    const peer = this.up(connection.remotePeer, connection);
    if (!peer) {
      stream.abort(new Error('banned'));
      return;
    }
    const lp = lpStream(stream, { maxDataLength: this.limits.maxFrameBytes });
    while (this.peers.get(peer.key) === peer) {
      let frame;
      try {
        frame = (await lp.read()).subarray();
      } catch (error) {
        if (LENGTH_ERRORS.has(error?.name)) {
          // The rest of this stream cannot be framed any more: end it, keep the connection.
          this.stats.oversized += 1;
          this.strike(peer, 5);
          stream.abort(error);
          this.onChange();
        }
        return;
      }
      this.onFrame(peer, frame);
    }
  }

  onFrame(peer, frame) {
    const now = this.now();
    this.stats.framesIn += 1;
    this.stats.bytesIn += frame.length;
    if (!peer.frames.take(1, now) || !peer.bytes.take(frame.length, now)) {
      this.stats.rateLimited += 1;
      this.strike(peer, 1);
      return;
    }
    const info = this.onWire ? this.wire('in', peer.key, frame) : null;
    const repeat = info?.tx ? this.arrivals.has(info.tx) : false;
    if (!this.engine.on_frame(peer.idx, frame, now)) {
      this.stats.malformed += 1;
      this.strike(peer, 1);
    }
    this.pump(peer.key);
    if (repeat) {
      // A full copy of a tx we already had: the protocol's duplicate.
      this.stats.duplicates += 1;
      this.onArrival({ protocol: this.name, id: info.tx, firstMs: now, own: false, from: peer.key, duplicate: true });
    }
    this.onChange();
  }

  /** Reports a frame to onWire: {kind, payload bytes, tx id of the full tx it carries or ''}. */
  wire(direction, key, bytes) {
    const [kind, payload = '0', tx = '-'] = (this.engine.frame_info(bytes) || 'malformed').split(' ');
    const info = { kind, payload: Number(payload) || 0, tx: tx === '-' ? '' : tx };
    if (direction === 'in') this.stats.payloadIn += info.payload;
    else this.stats.payloadOut += info.payload;
    this.onWire(direction, key, bytes.length, info);
    return info;
  }

  /** Cuts a peer off and bans it for a while. */
  cutOff(peer, reason) {
    this.stats.disconnected += 1;
    this.bans?.ban(peer.key, `${this.name}: ${reason}`);
    this.down(peer.key);
    void this.libp2p.hangUp(peer.peerId).catch(() => undefined);
  }

  strike(peer, n) {
    const now = this.now();
    peer.strikes = Math.max(0, peer.strikes - (now - peer.strikeAt) / 1000) + n;
    peer.strikeAt = now;
    if (peer.strikes > this.limits.maxStrikes && this.peers.get(peer.key) === peer) {
      this.log(`${this.name}: disconnecting and banning ${peer.key.slice(-8)} (${Math.round(peer.strikes)} strikes)`);
      this.cutOff(peer, 'garbage frames');
    }
  }

  /** Carries out what the engine asked for; `from` is the peer whose frame caused it. */
  pump(from) {
    for (const [idx, bytes] of splitFrames(this.engine.take_frames())) {
      const peer = this.byIdx.get(idx);
      if (peer) this.send(peer, bytes);
    }
    for (const id of this.engine.take_delivered()) {
      if (this.arrivals.has(id)) continue;
      const arrival = { firstMs: this.now(), own: false, from };
      this.arrivals.set(id, arrival);
      this.stats.delivered += 1;
      this.onArrival({ protocol: this.name, id, ...arrival });
      if (this.arrivals.size > 100_000) this.arrivals.delete(this.arrivals.keys().next().value);
    }
    for (const idx of this.engine.take_disconnects()) {
      const peer = this.byIdx.get(idx);
      if (!peer) continue;
      this.log(`${this.name}: the protocol cut off ${peer.key.slice(-8)}`);
      this.cutOff(peer, 'protocol violation');
    }
    this.schedule();
  }

  /** One timer, at the engine's next deadline. */
  schedule() {
    const at = this.engine.next_deadline_ms();
    if (at === undefined || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.engine.poll(this.now());
      this.pump('');
    }, Math.max(0, at - this.now()));
  }
}
