// Transactions on the live network are their bytes: any bytes a user gives, named by their
// SHA-256 on every protocol. The panel's and the relay's load generator make txs that also carry
// their submission time, to show end-to-end latency:
//   4 bytes  "TXC1"
//   8 bytes  random (so that two generated txs never collide)
//   8 bytes  submission time, ms since the Unix epoch (float64, big-endian)
//   rest     filler up to the size asked for
// Shared by the page and the Node relay, so plain JS.

export const TX_TOPIC = 'txcast/tx/1';
/** Light nodes publish their own addresses here so that others can dial them over WebRTC. */
export const ANNOUNCE_TOPIC = 'txcast/announce/1';
export const GENERATED_HEADER_BYTES = 20;
export const DEFAULT_TX_BYTES = 250;
const MAGIC = [0x54, 0x58, 0x43, 0x31];

/**
 * Wall-clock ms that never go backwards: the time origin plus the monotonic clock. Arrival and
 * submission times are compared across machines, so they are wall-clock, but a clock step on
 * this machine must not reorder what it records.
 */
export function wallMs() {
  return performance.timeOrigin + performance.now();
}

/** A generated tx of `bytes` bytes (at least the header) stamped with `sentAtMs`. */
export function generatedTx({ sentAtMs, bytes = DEFAULT_TX_BYTES }) {
  const out = new Uint8Array(Math.max(GENERATED_HEADER_BYTES, Math.floor(bytes)));
  out.set(MAGIC, 0);
  globalThis.crypto.getRandomValues(out.subarray(4, 12));
  new DataView(out.buffer).setFloat64(12, sentAtMs);
  for (let i = GENERATED_HEADER_BYTES; i < out.length; i++) out[i] = (out[4 + (i % 8)] + i) & 0xff;
  return out;
}

/** The submission time a generated tx carries, or null for any other bytes. */
export function sentAtOf(data) {
  if (!(data instanceof Uint8Array) || data.length < GENERATED_HEADER_BYTES) return null;
  if (!MAGIC.every((b, i) => data[i] === b)) return null;
  const sentAtMs = new DataView(data.buffer, data.byteOffset, data.byteLength).getFloat64(12);
  return Number.isFinite(sentAtMs) ? sentAtMs : null;
}

export function toHex(bytes) {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * A user's tx from what they typed: 'text' (UTF-8) or 'hex' (whitespace and a 0x prefix
 * allowed). Throws an Error that says what is wrong.
 */
export function parseTx(input, format) {
  if (format === 'text') {
    const bytes = new TextEncoder().encode(input);
    if (bytes.length === 0) throw new Error('the text is empty');
    return bytes;
  }
  if (format !== 'hex') throw new Error(`a tx is given as text or hex, not ${format}`);
  const digits = input.replace(/\s+/g, '').replace(/^0x/i, '');
  if (digits.length === 0) throw new Error('the hex is empty');
  const bad = digits.search(/[^0-9a-fA-F]/);
  if (bad >= 0) throw new Error(`not a hex digit at position ${bad + 1}: ${JSON.stringify(digits[bad])}`);
  if (digits.length % 2) throw new Error(`odd number of hex digits (${digits.length}): each byte takes two`);
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}
