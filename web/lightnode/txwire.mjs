// The transaction bytes the light node and the relay publish on gossipsub, shared by the page and
// the Node relay (plain JS so both can import it). Layout, big-endian:
//   8 bytes  tx id (random)
//   8 bytes  submission time, ms since the Unix epoch (float64), to show end-to-end latency
//   rest     body (deterministic filler; its length is the tx size)
// A tx shorter than the header or longer than MAX_TX_BYTES is malformed.

export const TX_TOPIC = 'txcast/tx/1';
/** Light nodes publish their own addresses here so that others can dial them over WebRTC. */
export const ANNOUNCE_TOPIC = 'txcast/announce/1';
export const TX_HEADER_BYTES = 16;
export const MAX_TX_BYTES = 64 * 1024;
export const DEFAULT_TX_BYTES = 250;

/** A fresh 8-byte id as 16 hex digits. */
export function randomTxId() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export function toHex(bytes) {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function encodeTx({ id, sentAtMs, bytes = DEFAULT_TX_BYTES }) {
  const len = Math.min(MAX_TX_BYTES, Math.max(TX_HEADER_BYTES, Math.floor(bytes)));
  const out = new Uint8Array(len);
  if (!/^[0-9a-f]{16}$/.test(id)) throw new Error(`tx id must be 16 hex digits, got ${id}`);
  for (let i = 0; i < 8; i++) out[i] = parseInt(id.slice(2 * i, 2 * i + 2), 16);
  new DataView(out.buffer).setFloat64(8, sentAtMs);
  for (let i = TX_HEADER_BYTES; i < len; i++) out[i] = (out[i % 8] + i) & 0xff;
  return out;
}

/** Returns {id, sentAtMs, bytes} or null when the bytes are not a tx. */
export function decodeTx(data) {
  if (!(data instanceof Uint8Array) || data.length < TX_HEADER_BYTES || data.length > MAX_TX_BYTES) return null;
  const sentAtMs = new DataView(data.buffer, data.byteOffset, data.byteLength).getFloat64(8);
  if (!Number.isFinite(sentAtMs)) return null;
  return { id: toHex(data.subarray(0, 8)), sentAtMs, bytes: data.length };
}

/**
 * Gossipsub message id. On the tx topic it is the tx id (a tx published twice is one message);
 * elsewhere it is the publisher and sequence number, as gossipsub does by default.
 */
export function messageId(msg) {
  if (msg.topic === TX_TOPIC && msg.data && msg.data.length >= 8) return msg.data.slice(0, 8);
  return new TextEncoder().encode(`${msg.from ?? ''}/${msg.sequenceNumber ?? ''}/${msg.topic}`);
}
