import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../../scripts/lib/bootstrap.mjs';
import { ArrivalStore, initSync } from '../wasm/txcast_wasm.js';
import { ArrivalBook, exportJson, sideKey, splitCells, upgradeSides, type Copy } from './arrivals';

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

const EPOCH = 1_700_000_000_000;
const copy = (id: string, atMs: number, extra: Partial<Copy> = {}): Copy => ({ protocol: 'cat', id, atMs, own: false, from: 'peer', ...extra });
/** A tx id as the protocols name txs now: 64 hex digits (SHA-256). */
const hex = (n: number) => n.toString(16).padStart(64, '0');

/** A book reloaded from the cells and side records another one wrote, as after a page reload. */
function reload(from: ArrivalBook, cells: Array<[Uint8Array, Uint8Array]>, sides: unknown[]): ArrivalBook {
  const book = new ArrivalBook(new ArrivalStore(), from.epochMs);
  for (const [key, value] of cells) book.loadCell(key, value);
  for (const side of sides) book.loadSide(structuredClone(side));
  book.finishLoad();
  return book;
}

describe('ArrivalBook', () => {
  it('numbers txs densely, keeps the first arrival and counts duplicates per tx', () => {
    const book = new ArrivalBook(new ArrivalStore(), EPOCH);
    expect(book.record(copy(hex(7), EPOCH + 12.5))).toEqual({ seq: 0, first: true });
    expect(book.record(copy(hex(9), EPOCH + 20, { protocol: 'gossipsub', latencyMs: 14 }))).toEqual({ seq: 1, first: true });
    expect(book.record(copy(hex(7), EPOCH + 30))).toEqual({ seq: 0, first: false });
    expect(book.record(copy(hex(7), EPOCH + 31))).toEqual({ seq: 0, first: false });
    expect(book.size).toBe(2);
    expect(book.duplicates).toBe(2);
    const rows = book.rows();
    expect(rows.map((r) => [r.seq, r.id, r.firstMs - EPOCH, r.duplicates])).toEqual([
      [0, hex(7), 12.5, 2],
      [1, hex(9), 20, 0],
    ]);
    expect(rows[1].latencyMs).toBe(14);
  });

  it('writes tickets cells that reload into the same log, and only new ones', () => {
    const book = new ArrivalBook(new ArrivalStore(), EPOCH);
    for (let i = 0; i < 50; i++) book.record(copy(hex(i), EPOCH + i * 3));
    const first = book.takeDirty();
    expect(first.cells).toHaveLength(50);
    // Row key (8 bytes) and a 1-byte column VAR_LONG; values are VAR_LONG delays.
    expect(first.cells.every(([key]) => key.length === 9)).toBe(true);
    book.record(copy(hex(3), EPOCH + 999)); // a duplicate: no new cell, its side record changes
    book.record(copy(hex(50), EPOCH + 200));
    const second = book.takeDirty();
    expect(second.cells).toHaveLength(1);
    expect(second.sides.map((s) => s.id).sort()).toEqual([hex(3), hex(50)]);

    const back = reload(book, [...first.cells, ...second.cells], [...book.sides.values()]);
    expect(back.rows()).toEqual(book.rows());
    expect(back.duplicates).toBe(1);
    expect(back.exportBlob()).toEqual(book.exportBlob());
    expect(Array.from(book.exportBlob().subarray(0, 4), (b) => String.fromCharCode(b)).join('')).toBe('TXAL');
    // New txs after the reload continue the sequence.
    expect(back.record(copy(hex(99), EPOCH + 500))?.seq).toBe(51);
    const json = JSON.parse(exportJson(book, 'me'));
    expect(json.arrivals).toHaveLength(51);
    expect(json.epochMs).toBe(EPOCH);
  });

  it('counts hostile stored cells and records instead of throwing', () => {
    const book = new ArrivalBook(new ArrivalStore(), EPOCH);
    book.record(copy(hex(1), EPOCH + 5));
    const { cells, sides } = book.takeDirty();
    const back = reload(
      book,
      [[new Uint8Array([1, 2, 3]), new Uint8Array([1])], [cells[0][0], new Uint8Array([0xff, 0xc0])], ...cells],
      [{ id: 'nope' }, null, 42, { ...sides[0], seq: -1 }, sides[0]],
    );
    expect(back.loadErrors).toBe(6);
    expect(back.loadError).toMatch(/unreadable/);
    expect(back.rows().map((r) => r.id)).toEqual([hex(1)]);
  });

  it('keeps the same bytes arriving on two protocols apart: one seq and one side record each', () => {
    const book = new ArrivalBook(new ArrivalStore(), EPOCH);
    const id = hex(0xabc);
    expect(book.record(copy(id, EPOCH + 1, { protocol: 'gossipsub' }))).toEqual({ seq: 0, first: true });
    expect(book.record(copy(id, EPOCH + 2, { protocol: 'cat' }))).toEqual({ seq: 1, first: true });
    expect(book.record(copy(id, EPOCH + 3, { protocol: 'cat' }))).toEqual({ seq: 1, first: false });
    expect(book.record(copy(id, EPOCH + 4, { protocol: 'strokkur', latencyMs: 9 }))).toEqual({ seq: 2, first: true });
    expect(book.size).toBe(3);
    expect([...book.sides.keys()]).toEqual([sideKey('gossipsub', id), sideKey('cat', id), sideKey('strokkur', id)]);
    expect(book.rows().map((r) => [r.protocol, r.id, r.duplicates, r.latencyMs])).toEqual([
      ['gossipsub', id, 0, undefined],
      ['cat', id, 1, undefined],
      ['strokkur', id, 0, 9],
    ]);
    // Reloaded, the three stay three; a second record for a (protocol, id) already loaded is refused.
    const { cells, sides } = book.takeDirty();
    expect(sides).toHaveLength(3);
    const back = reload(book, cells, [...sides, { ...sides[1], seq: 7 }]);
    expect(back.rows()).toEqual(book.rows());
    expect(back.loadErrors).toBe(1);
  });

  it('reads side records stored before ids were hashes, and upgrades only records it can key', () => {
    const book = new ArrivalBook(new ArrivalStore(), EPOCH);
    book.record(copy(hex(5), EPOCH + 5));
    const { cells } = book.takeDirty();
    // Version 2 stored a 16-digit id; it is still this node's arrival of that tx.
    const legacy = { id: '00000000000000ff', seq: 0, protocol: 'cat', own: false, from: 'p', copies: 2 };
    const back = reload(book, cells, [legacy]);
    expect(back.loadErrors).toBe(0);
    expect(back.rows().map((r) => [r.id, r.duplicates])).toEqual([['00000000000000ff', 1]]);
    // Neither 16 nor 64 digits, or not hex: unreadable.
    expect(reload(book, cells, [{ ...legacy, id: 'ff' }, { ...legacy, id: 'g'.repeat(64) }]).loadErrors).toBe(2);

    const { keep, dropped } = upgradeSides([legacy, { id: 'x', protocol: 'cat', seq: 'junk' }, { id: 'no protocol' }, null, 'text', { protocol: 'cat', id: 7 }]);
    // Kept: both have the two key fields (the second is judged, and refused, on load).
    expect(keep).toEqual([legacy, { id: 'x', protocol: 'cat', seq: 'junk' }]);
    expect(dropped).toBe(4);
    const counted = new ArrivalBook(new ArrivalStore(), EPOCH);
    counted.noteLoadError('dropped by the upgrade', dropped);
    counted.noteLoadError('later reason');
    expect([counted.loadErrors, counted.loadError]).toEqual([5, 'dropped by the upgrade']);
  });

  it('splits flat cells and refuses a truncated buffer', () => {
    expect(splitCells(Uint8Array.of(2, 9, 8, 1, 7, 1, 5, 0))).toEqual([
      [Uint8Array.of(9, 8), Uint8Array.of(7)],
      [Uint8Array.of(5), new Uint8Array(0)],
    ]);
    expect(() => splitCells(Uint8Array.of(2, 9, 8, 3, 1))).toThrow(/truncated/);
  });
});
