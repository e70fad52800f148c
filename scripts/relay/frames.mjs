// Frames of the live protocols built by hand, for test peers that speak them without an engine
// (the hostile peers, the interop test's raw /meshsub peer): CAT's and Strokkur's messages as
// their decoders read them (proto/src/cat/msg.rs, proto/src/strokkur/msg.rs, ltcode/src/wire.rs)
// and libp2p pubsub RPCs (protobuf). Each function returns the frame's bytes, without the
// stream's length prefix (lpStream adds it).

export const utf8 = (s) => new TextEncoder().encode(s);

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function varint(n) {
  const out = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/** A length-delimited protobuf field (wire type 2) and a varint field (wire type 0). */
export const lenField = (field, body) => concat(varint(field * 8 + 2), varint(body.length), body);
export const intField = (field, value) => concat(varint(field * 8), varint(value));

/** Bytes prefixed with their varint length (CAT's and Strokkur's frames carry one inside). */
const delimited = (body) => concat(varint(body.length), body);

export function randomBytes(n) {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += 65_536) globalThis.crypto.getRandomValues(out.subarray(at, Math.min(n, at + 65_536)));
  return out;
}

// ---- CAT: Message { oneof txs = 1, seen_tx = 2, want_tx = 3 }, tx_key = 1 ----

export const cat = {
  seenTx: (key) => delimited(lenField(2, lenField(1, key))),
  wantTx: (key) => delimited(lenField(3, lenField(1, key))),
  txs: (tx) => delimited(lenField(1, lenField(1, tx))),
};

// ---- Strokkur: losses:varint, then version 1, kind (1 codeword, 2 key) and the body ----

export const strokkur = {
  key: (key16) => delimited(concat([0, 1, 2], key16)),
  /** A codeword of `ids` (32-bit short ids) and a payload of the symbol size. */
  codeword(ids, payload, losses = 0) {
    const idBytes = new Uint8Array(4 * ids.length);
    const view = new DataView(idBytes.buffer);
    ids.forEach((id, i) => view.setUint32(4 * i, id >>> 0, true));
    return delimited(concat(varint(losses), [1, 1], varint(ids.length), varint(payload.length), idBytes, payload));
  },
};

// ---- libp2p pubsub RPC: 1 subscriptions, 2 messages, 3 control ----

/** An RPC of subscriptions, messages and one control message (all built below). */
export const rpc = ({ subs = [], messages = [], control = null, extra = new Uint8Array() }) =>
  concat(...subs.map((s) => lenField(1, s)), ...messages.map((m) => lenField(2, m)), control ? lenField(3, control) : [], extra);
/** SubOpts: 1 subscribe, 2 topic. */
export const subscription = (topic, subscribe = true) => concat(intField(1, subscribe ? 1 : 0), lenField(2, utf8(topic)));
/** ControlMessage entries: 1 ihave {topic, ids}, 3 graft {topic}, 6 iannounce {topic, id}, 7 ineed {id}. */
export const ihave = (topic, ids) => lenField(1, concat(lenField(1, utf8(topic)), ...ids.map((id) => lenField(2, id))));
export const graft = (topic) => lenField(3, lenField(1, utf8(topic)));
export const iannounce = (topic, id) => lenField(6, concat(lenField(1, utf8(topic)), lenField(2, id)));
export const ineed = (id) => lenField(7, lenField(2, id));

/**
 * A message under StrictSign (Message: 1 from, 2 data, 3 seqno, 4 topic, 5 signature, 6 key),
 * signed with `key` (a libp2p private key) as `from` (its peer id's multihash bytes).
 * `badSignature` flips a bit of the signature; `extra` is appended (unknown fields).
 */
export async function signedMessage({ key, from, publicKey, topic, data, seqno, badSignature = false, extra = new Uint8Array() }) {
  const seq = new Uint8Array(8);
  new DataView(seq.buffer).setBigUint64(0, BigInt(seqno));
  const signed = concat(lenField(1, from), lenField(2, data), lenField(3, seq), lenField(4, utf8(topic)));
  const signature = Uint8Array.from(await key.sign(concat(utf8('libp2p-pubsub:'), signed)));
  if (badSignature) signature[10] ^= 0x01;
  return concat(signed, lenField(5, signature), lenField(6, publicKey), extra);
}
