import { describe, expect, it } from 'vitest';
import { shouldDial, transportOf } from './transport';
import { decodeTx, encodeTx, MAX_TX_BYTES, TX_HEADER_BYTES } from './txwire.mjs';

describe('transportOf', () => {
  it('tells a direct WebRTC connection from a relayed one and from WebSockets', () => {
    const relay = '/ip4/10.0.0.1/tcp/9090/ws/p2p/12D3KooWRelay';
    expect(transportOf(`${relay}/p2p-circuit/webrtc/p2p/12D3KooWPeer`)).toBe('webrtc');
    expect(transportOf(`${relay}/p2p-circuit/p2p/12D3KooWPeer`)).toBe('relayed');
    expect(transportOf(relay)).toBe('websockets');
    expect(transportOf('/ip4/10.0.0.1/tcp/9091/p2p/12D3KooWRelay')).toBe('tcp');
  });
  it('dials in exactly one direction', () => {
    expect(shouldDial('a', 'b')).not.toBe(shouldDial('b', 'a'));
  });
});

describe('tx wire', () => {
  it('round-trips id, time and size', () => {
    const bytes = encodeTx({ id: '0123456789abcdef', sentAtMs: 1_700_000_000_123.5, bytes: 300 });
    expect(bytes.length).toBe(300);
    expect(decodeTx(bytes)).toEqual({ id: '0123456789abcdef', sentAtMs: 1_700_000_000_123.5, bytes: 300 });
  });
  it('rejects short, oversized and non-finite txs', () => {
    expect(decodeTx(new Uint8Array(TX_HEADER_BYTES - 1))).toBeNull();
    expect(decodeTx(new Uint8Array(MAX_TX_BYTES + 1))).toBeNull();
    const nan = encodeTx({ id: '0000000000000000', sentAtMs: 0 });
    new DataView(nan.buffer).setFloat64(8, Number.NaN);
    expect(decodeTx(nan)).toBeNull();
  });
  it('refuses a bad id', () => {
    expect(() => encodeTx({ id: 'xyz', sentAtMs: 0 })).toThrow();
  });
});
