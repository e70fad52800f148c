import { describe, expect, it } from 'vitest';
import { SEND_STRIDE } from './protocol';
import { SendStore } from './send-store';

// One send in the WASM layout: t_us, from, to, kind, bytes, payload, arrive_us, lost, tx, subject.
const send = (t: number, arrive: number, lost = 0, n = t) => [t, n % 7, n % 5, n % 3, 100 + n, n % 2 ? 0 : 60, arrive, lost, n % 2 ? -1 : n, n % 11];
const rows = (sends: number[][]) => Float64Array.from(sends.flat());
const times = (w: Float64Array) => Array.from({ length: w.length / SEND_STRIDE }, (_, i) => w[i * SEND_STRIDE]);

describe('SendStore', () => {
  it('gives back every field of every send, across blocks', () => {
    const store = new SendStore();
    const all = Array.from({ length: 70_000 }, (_, n) => send(n, n + 40, n % 13 === 0 ? 1 : 0));
    store.append(rows(all.slice(0, 30_000)));
    store.append(rows(all.slice(30_000)));
    expect(store.count).toBe(70_000);
    const w = store.window(0, -1, Infinity, 100_000, Infinity);
    expect(w.first).toBe(0);
    expect(w.through).toBe(Infinity);
    expect(Array.from(w.rows)).toEqual(all.flat());
    expect(store.bytes).toBe(2 * 65_536 * 42);
  });

  it('holds the sends that may be drawn over a stretch: sent since the lookback, landing after the mark', () => {
    const store = new SendStore();
    // Sent at 0 landing at 50; at 10 landing at 900; at 500 landing at 520; at 600 (lost); at 1000.
    store.append(rows([send(0, 50), send(10, 900), send(500, 520), send(600, 700, 1), send(1000, 1100)]));
    const w = store.window(400 - 300, 400 - 100, 800, 10, Infinity);
    // Sent from 100 to 800 and landing after 300 (the one sent at 10 left before the lookback).
    expect(times(w.rows)).toEqual([500, 600]);
    expect(w.first).toBe(2);
    expect(w.through).toBe(800);
    const wide = store.window(0, 200, Infinity, 10, Infinity);
    expect(times(wide.rows)).toEqual([10, 500, 600, 1000]);
  });

  it('says how far a window cut short holds every send, and how far the run was computed', () => {
    const store = new SendStore();
    store.append(rows([send(100, 900), send(200, 900), send(200, 900), send(300, 900)]));
    const cut = store.window(0, 0, Infinity, 2, Infinity);
    expect(times(cut.rows)).toEqual([100, 200]);
    // The second send at 200 was left out: only times before 200 hold every send.
    expect(cut.through).toBe(200);
    const computing = store.window(0, 0, Infinity, 10, 250);
    expect(computing.through).toBe(250);
    expect(times(computing.rows)).toEqual([100, 200, 200, 300]);
  });

  it('holds only the sends about a tx when asked: those carrying it, announcing it or asking for it', () => {
    const store = new SendStore();
    // tx and subject: a copy of tx 2, an announcement of tx 2, a copy of tx 3, a request for tx 2.
    const about = (t: number, tx: number, subject: number) => [t, 0, 1, 0, 10, 0, t + 100, 0, tx, subject];
    store.append(rows([about(1, 2, 2), about(2, -1, 2), about(3, 3, 3), about(4, -1, 2)]));
    expect(times(store.window(0, 0, Infinity, 10, Infinity, 2).rows)).toEqual([1, 2, 4]);
    expect(times(store.window(0, 0, Infinity, 10, Infinity, 3).rows)).toEqual([3]);
  });

  it('keeps at most its bound of sends and says from when it holds them no longer', () => {
    const store = new SendStore(3);
    store.append(rows([send(1, 900), send(2, 900)]));
    store.append(rows([send(3, 900), send(4, 900), send(5, 900)]));
    expect(store.count).toBe(3);
    expect(store.dropped).toBe(2);
    expect(store.keptUntilUs).toBe(4);
    const w = store.window(0, 0, Infinity, 10, Infinity);
    expect(times(w.rows)).toEqual([1, 2, 3]);
    expect(w.through).toBe(4);
  });

  it('answers an empty store and a window past every send', () => {
    const store = new SendStore();
    expect(store.window(0, 0, Infinity, 10, Infinity).rows.length).toBe(0);
    store.append(rows([send(5, 6)]));
    const after = store.window(100, 100, 200, 10, Infinity);
    expect(after.rows.length).toBe(0);
    expect(after.first).toBe(1);
    expect(after.through).toBe(200);
  });
});
