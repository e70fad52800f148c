// The WASM live node (web/wasm LiveNode: a protocol on real frames) as plain JS: what it returns is copied out of
// WebAssembly memory into plain objects and the wrappers are freed at once. Shared by the page
// and the Node relay, so plain JS; the WASM module must be initialised by the caller.

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
   * @param {any} WasmLiveNode the WASM class (web/wasm LiveNode)
   * @param {'cat' | 'strokkur' | 'gossipsub'} protocol
   * @param {object} config the protocol's options (as in a scenario)
   * @param {bigint} seed real randomness
   * @param {number} nowMs the host's monotonic clock
   */
  constructor(WasmLiveNode, protocol, config, seed, nowMs) {
    this.inner = new WasmLiveNode(protocol, JSON.stringify(config), seed, nowMs);
  }

  peerUp(peer, nowMs, protocolId = '') {
    this.inner.peer_up(peer, nowMs, protocolId);
  }

  peerDown(peer, nowMs) {
    this.inner.peer_down(peer, nowMs);
  }

  /** What the frame carries ({kinds, payload, txs}), or null if it is malformed (counted). */
  onFrame(peer, bytes, nowMs) {
    const info = this.inner.on_frame(peer, bytes, nowMs);
    return info ? plainInfo(info) : null;
  }

  /** A tx of these bytes created here; returns its SHA-256 (hex). */
  submit(bytes, nowMs) {
    return this.inner.submit(bytes, nowMs);
  }

  /** GossipSub: what a StrictSign signature covers. */
  signable(topic, data, from, seqno) {
    return this.inner.signable(topic, data, from, seqno);
  }

  /** GossipSub: publishes on a topic; `signed` = {from, seqno, signature} under StrictSign. */
  publish(topic, data, nowMs, signed = null) {
    return this.inner.publish(topic, data, nowMs, signed?.from, signed?.seqno, signed?.signature);
  }

  /** GossipSub: the host's verdict ('accept' | 'reject' | 'ignore'). */
  validated(handle, verdict, nowMs) {
    this.inner.validated(handle, verdict, nowMs);
  }

  /** GossipSub: connected peers subscribed to a topic, and those in our mesh. */
  topicPeers(topic) {
    return this.inner.topic_peers(topic);
  }

  meshPeers(topic) {
    return this.inner.mesh_peers(topic);
  }

  poll(nowMs) {
    this.inner.poll(nowMs);
  }

  nextDeadlineMs() {
    return this.inner.next_deadline_ms();
  }

  /** [{peer, bytes, urgent, info}] */
  takeFrames() {
    return drain(this.inner.take_frames(), (f) => ({ peer: f.peer, bytes: f.bytes, urgent: f.urgent, info: plainInfo(f.info) }));
  }

  /** [{hash, topic, data}] */
  takeDelivered() {
    return drain(this.inner.take_delivered(), (d) => ({ hash: d.hash, topic: d.topic, data: d.data }));
  }

  /** [{handle, topic, data, signable, signature, from, publicKey}] */
  takeValidations() {
    return drain(this.inner.take_validations(), (v) => ({
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
    return [...this.inner.take_disconnects()];
  }

  counters() {
    try {
      return JSON.parse(this.inner.counters());
    } catch {
      return {};
    }
  }

  free() {
    this.inner.free();
  }
}
