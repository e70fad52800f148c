import { describe, expect, it } from 'vitest';
import type { TxRecord } from './node';
import { abbreviate, MAX_OWN_ROWS, MAX_ROWS, rowText, shownTxs, txKey } from './txtable';

const HASH = 'ab'.repeat(32);
const tx = (extra: Partial<TxRecord> = {}): TxRecord => ({ protocol: 'cat', id: HASH, own: false, bytes: 300, firstMs: 10_250, from: '12D3KooWpeer', copies: 2, ...extra });
const short = (peer: string) => `…${peer.slice(-4)}`;

describe('the tx list', () => {
  it('abbreviates a hash to its ends and keys a tx by protocol and hash', () => {
    expect(abbreviate(HASH)).toBe('abababab…ababab');
    expect(abbreviate('0123456789abcdef')).toBe('0123456789abcdef');
    expect(txKey(tx({ protocol: 'strokkur' }))).toBe(`strokkur:${HASH}`);
  });

  it('shows latency only when the tx carries its submit time, and whether the bytes are kept', () => {
    expect(rowText(tx({ sentAtMs: 10_000 }), short)).toEqual({ cells: ['cat', 'peer', '300', '250', '2', '…peer'], kept: false });
    expect(rowText(tx(), short).cells[3]).toBe('');
    // A clock behind the submitter's never shows a negative latency.
    expect(rowText(tx({ sentAtMs: 10_400 }), short).cells[3]).toBe('0');
    const own = rowText(tx({ own: true, from: '', sentAtMs: 10_000, data: new Uint8Array(300) }), short);
    expect(own).toEqual({ cells: ['cat', 'self', '300', '–', '2', ''], kept: true });
  });

  it('lists the newest txs, and keeps the newest of our own however many arrived after them', () => {
    const id = (n: number) => n.toString(16).padStart(64, '0');
    const ours = Array.from({ length: MAX_OWN_ROWS + 5 }, (_, i) => tx({ id: id(i), own: true, firstMs: i }));
    const theirs = Array.from({ length: MAX_ROWS + 50 }, (_, i) => tx({ id: id(1000 + i), firstMs: 1000 + i }));
    const shown = shownTxs([...ours, ...theirs]);
    expect(shown).toHaveLength(MAX_ROWS + MAX_OWN_ROWS);
    expect(shown.slice(0, MAX_ROWS)).toEqual(theirs.slice(-MAX_ROWS).reverse());
    expect(shown.slice(MAX_ROWS)).toEqual(ours.slice(-MAX_OWN_ROWS).reverse());
    // With few txs, all of them, newest first.
    expect(shownTxs([ours[0], theirs[0]])).toEqual([theirs[0], ours[0]]);
  });
});
