// The WASM live node (web/wasm LiveNode: a protocol on real frames) as plain JS: what it returns
// is copied out of WebAssembly memory into plain objects and the wrappers are freed at once.
// Shared by the page and the Node relay, so plain JS.
//
// Each engine runs in a WebAssembly instance of its own (`loadEngine`: a copy of the core's glue
// module), because on wasm32 a panic or running out of memory is a trap: the instance's memory
// can no longer be trusted and every later call would fail. A call that traps starts a fresh
// instance of that engine's module and a new engine in it (counted as lightnode.engine_rebuilt),
// tells the host (`onTrap`: which call, and the peer whose frame it was handling) and returns
// what a call that did nothing would. The other engines keep their state.

let copies = 0;

/**
 * A fresh copy of the core's glue module, initialised with `module` (compiled once): a new
 * WebAssembly instance for one engine. `glueUrl` is the glue's URL (a file: URL in Node); a
 * query string makes each import a module of its own.
 */
export async function loadEngine(glueUrl, module) {
  copies += 1;
  const glue = await import(/* @vite-ignore */ `${glueUrl}${glueUrl.includes('?') ? '&' : '?'}engine=${copies}`);
  glue.initSync({ module });
  return glue;
}

/** A trap (a panic or out of memory in the engine), as opposed to an error it reported. */
function isTrap(error) {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
}

/** 64 bits of real randomness. */
function randomSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/** Copies a FrameInfo wrapper into a plain object and frees it. */
function plainInfo(info) {
  const out = { kinds: info.kinds, classes: info.classes, topics: info.topics, payload: info.payload, txs: info.txs };
  info.free();
  return out;
}

/** Takes a list of wrappers, maps each to a plain object and frees it. */
function drain(list, plain) {
  return list.map((item) => {
    const out = plain(item);
    item.free();
    return out;
  });
}

export class LiveNode {
  /**
   * @param {any} glue this engine's own glue module (`loadEngine`)
   * @param {'cat' | 'strokkur' | 'gossipsub'} protocol
   * @param {object} config the protocol's options (as in a scenario)
   * @param {bigint} seed real randomness
   * @param {number} nowMs the host's monotonic clock
   */
  constructor(glue, protocol, config, seed, nowMs) {
    this.glue = glue;
    this.protocol = protocol;
    this.config = JSON.stringify(config);
    /** Times the engine trapped and was rebuilt. */
    this.rebuilt = 0;
    /** Told of each trap: {during, peer (the frame's peer number, if a frame did it), error}. */
    this.onTrap = () => {};
    /** The host's clock at the latest call that gave it (a rebuilt engine starts there). */
    this.lastMs = nowMs;
    this.inner = new glue.LiveNode(protocol, this.config, seed, nowMs);
  }

  /** Runs `call` on the engine; a trap rebuilds it and gives `otherwise`. */
  guard(during, call, otherwise, { nowMs = this.lastMs, peer = undefined } = {}) {
    this.lastMs = nowMs;
    try {
      return call(this.inner);
    } catch (error) {
      if (!isTrap(error)) throw error;
      this.rebuild(nowMs);
      this.onTrap({ during, peer, error: error.message });
      return otherwise;
    }
  }

  /** A fresh instance and an empty engine in place of the one that trapped. */
  rebuild(nowMs) {
    this.rebuilt += 1;
    this.glue.__wbg_reset_state();
    this.inner = new this.glue.LiveNode(this.protocol, this.config, randomSeed(), nowMs);
  }

  peerUp(peer, nowMs, protocolId = '') {
    this.guard('peer_up', (e) => e.peer_up(peer, nowMs, protocolId), undefined, { nowMs, peer });
  }

  peerDown(peer, nowMs) {
    this.guard('peer_down', (e) => e.peer_down(peer, nowMs), undefined, { nowMs });
  }

  /** What the frame carries ({kinds, payload, txs}), or null if it is malformed (counted) or trapped the engine. */
  onFrame(peer, bytes, nowMs) {
    const info = this.guard('on_frame', (e) => e.on_frame(peer, bytes, nowMs), null, { nowMs, peer });
    return info ? plainInfo(info) : null;
  }

  /** A tx of these bytes created here; returns its SHA-256 (hex). */
  submit(bytes, nowMs) {
    return this.guard('submit', (e) => e.submit(bytes, nowMs), null, { nowMs });
  }

  /** The largest tx this engine sends and accepts. */
  maxTxBytes() {
    return this.guard('max_tx_bytes', (e) => e.max_tx_bytes(), 0);
  }

  /** GossipSub: what a StrictSign signature covers (null if the engine trapped on it). */
  signable(topic, data, from, seqno) {
    return this.guard('signable', (e) => e.signable(topic, data, from, seqno), null);
  }

  /** GossipSub: publishes on a topic; `signed` = {from, seqno, signature} under StrictSign. */
  publish(topic, data, nowMs, signed = null) {
    return this.guard('publish', (e) => e.publish(topic, data, nowMs, signed?.from, signed?.seqno, signed?.signature), null, { nowMs });
  }

  /** GossipSub: the host's verdict ('accept' | 'reject' | 'ignore'). */
  validated(handle, verdict, nowMs) {
    this.guard('validated', (e) => e.validated(handle, verdict, nowMs), undefined, { nowMs });
  }

  /** GossipSub: connected peers subscribed to a topic, and those in our mesh. */
  topicPeers(topic) {
    return this.guard('topic_peers', (e) => e.topic_peers(topic), 0);
  }

  meshPeers(topic) {
    return this.guard('mesh_peers', (e) => e.mesh_peers(topic), 0);
  }

  poll(nowMs) {
    this.guard('poll', (e) => e.poll(nowMs), undefined, { nowMs });
  }

  nextDeadlineMs() {
    return this.guard('next_deadline_ms', (e) => e.next_deadline_ms(), undefined);
  }

  /** [{peer, bytes, urgent, info}] */
  takeFrames() {
    return drain(this.guard('take_frames', (e) => e.take_frames(), []), (f) => ({ peer: f.peer, bytes: f.bytes, urgent: f.urgent, info: plainInfo(f.info) }));
  }

  /** [{hash, topic, data}] */
  takeDelivered() {
    return drain(this.guard('take_delivered', (e) => e.take_delivered(), []), (d) => ({ hash: d.hash, topic: d.topic, data: d.data }));
  }

  /** [{handle, topic, data, signable, signature, from, publicKey}] */
  takeValidations() {
    return drain(this.guard('take_validations', (e) => e.take_validations(), []), (v) => ({
      handle: v.handle,
      topic: v.topic,
      data: v.data,
      signable: v.signable,
      signature: v.signature,
      from: v.from,
      publicKey: v.public_key,
    }));
  }

  takeDisconnects() {
    return [...this.guard('take_disconnects', (e) => e.take_disconnects(), [])];
  }

  /** The engine's counters (since it was last built) and the times it was rebuilt. */
  counters() {
    const counted = JSON.parse(this.guard('counters', (e) => e.counters(), '{}'));
    if (this.rebuilt) counted['lightnode.engine_rebuilt'] = this.rebuilt;
    return counted;
  }

  /** Bytes of this engine's WebAssembly memory (it only grows). */
  memoryBytes() {
    return this.glue.initSync().memory.buffer.byteLength;
  }

  /** Frames starting with `prefix` make the engine panic: a test of the host's recovery. */
  trapForTest(prefix) {
    this.guard('set_trap_for_test', (e) => e.set_trap_for_test(prefix), undefined);
  }

  free() {
    this.guard('free', (e) => e.free(), undefined);
  }
}
