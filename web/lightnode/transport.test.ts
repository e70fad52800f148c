import { describe, expect, it } from 'vitest';
import { shouldDial, transportOf } from './transport';
import { GENERATED_HEADER_BYTES, generatedTx, parseTx, sentAtOf } from '../p2p/txwire.mjs';

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
  it('generated txs carry their submission time and size, and differ', () => {
    const a = generatedTx({ sentAtMs: 1_700_000_000_123.5, bytes: 300 });
    const b = generatedTx({ sentAtMs: 1_700_000_000_123.5, bytes: 300 });
    expect(a.length).toBe(300);
    expect(sentAtOf(a)).toBe(1_700_000_000_123.5);
    expect(a).not.toEqual(b);
    expect(generatedTx({ sentAtMs: 0, bytes: 1 }).length).toBe(GENERATED_HEADER_BYTES);
  });
  it('other bytes carry no time', () => {
    expect(sentAtOf(new Uint8Array(GENERATED_HEADER_BYTES - 1))).toBeNull();
    expect(sentAtOf(new TextEncoder().encode('just some text, long enough to have a header'))).toBeNull();
    const nan = generatedTx({ sentAtMs: 0 });
    new DataView(nan.buffer).setFloat64(12, Number.NaN);
    expect(sentAtOf(nan)).toBeNull();
  });
  it('reads a user tx from text or hex, and says what is wrong', () => {
    expect([...parseTx('hé', 'text')]).toEqual([0x68, 0xc3, 0xa9]);
    expect([...parseTx('0x01 ff\n0A', 'hex')]).toEqual([1, 255, 10]);
    expect(() => parseTx('', 'text')).toThrow(/empty/);
    expect(() => parseTx('abc', 'hex')).toThrow(/odd number/);
    expect(() => parseTx('0g', 'hex')).toThrow(/position 2/);
  });
});
