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
  });

  it('counts the memory of its columns and of its index by tx', () => {
    const store = new SendStore();
    // 70,000 sends about tx 4: two blocks of columns, and one list of 70,000 indexes (room for 131,072).
    store.append(rows(Array.from({ length: 70_000 }, (_, n) => [n, 0, 1, 0, 10, 10, n + 5, 0, 4, 4])));
    expect(store.bytes).toBe(2 * 65_536 * 42 + 131_072 * 4);
    // Once the run is over, the index keeps no room to grow, and answers as before.
    const before = store.window(100, 100, 50_000, 250_000, Infinity, 4);
    store.trim();
    expect(store.bytes).toBe(2 * 65_536 * 42 + 70_000 * 4);
    expect(store.window(100, 100, 50_000, 250_000, Infinity, 4)).toEqual(before);
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

  it("finds each node's first copy of a tx past an index, asked for from a row on, as a scan of every send does", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    // Sends of txs 0-3 (some announcing tx 2 without carrying it) among 12 nodes, some lost, landing in any order.
    const all = Array.from({ length: 3000 }, (_, n) => {
      const tx = Math.floor(rand() * 4);
      const carries = rand() < 0.8;
      return [n, Math.floor(rand() * 12), Math.floor(rand() * 12), 0, 100, 60, n + Math.floor(rand() * 500), rand() < 0.1 ? 1 : 0, carries ? tx : -1, carries ? tx : 2];
    });
    const store = new SendStore();
    const cap = 1000;
    for (const tx of [0, 2]) {
      // Asked twice while the run computes: after 2,000 sends, then for the rest from where it stopped.
      const fresh = new SendStore();
      fresh.append(rows(all.slice(0, 2000)));
      const first = fresh.firstCopies(tx, 0, cap);
      fresh.append(rows(all.slice(2000)));
      const then = fresh.firstCopies(tx, first.rows, cap);
      const got = new Map<number, [number, number]>();
      for (const part of [first.copies, then.copies])
        for (let i = 0; i < part.length; i += 3) if (!got.has(part[i]) || part[i + 1] < got.get(part[i])![0]) got.set(part[i], [part[i + 1], part[i + 2]]);
      const expected = new Map<number, [number, number]>();
      all.forEach(([, from, to, , , , arrive, lost, carried], n) => {
        if (n < cap || carried !== tx || lost) return;
        if (!expected.has(to) || arrive < expected.get(to)![0]) expected.set(to, [arrive, from]);
      });
      expect(expected.size).toBeGreaterThan(5);
      expect(new Map([...got].sort())).toEqual(new Map([...expected].sort()));
    }
    store.append(rows(all));
    expect(store.firstCopies(9, 0, 0)).toEqual({ copies: new Float64Array(0), rows: 0 });
  });

  it('holds only the sends about a tx when asked: those carrying it, announcing it or asking for it', () => {
    const store = new SendStore();
    // tx and subject: a copy of tx 2, an announcement of tx 2, a copy of tx 3, a request for tx 2.
    const about = (t: number, tx: number, subject: number) => [t, 0, 1, 0, 10, 0, t + 100, 0, tx, subject];
    store.append(rows([about(1, 2, 2), about(2, -1, 2), about(3, 3, 3), about(4, -1, 2)]));
    expect(times(store.window(0, 0, Infinity, 10, Infinity, 2).rows)).toEqual([1, 2, 4]);
    expect(times(store.window(0, 0, Infinity, 10, Infinity, 3).rows)).toEqual([3]);
  });

  // Stores of up to 82,000 sends (two blocks) checked against a scan: seconds on a busy machine.
  it('answers a window about one tx as a scan of every send would, visiting only that tx\'s sends', () => {
    // A scan of every send from the window's start: what the store did before it indexed sends by tx.
    const scan = (all: number[][], sentFrom: number, landsAfter: number, until: number, max: number, computed: number, about: number) => {
      let start = all.findIndex((s) => s[0] >= sentFrom);
      if (start < 0) start = all.length;
      const picked: number[] = [];
      let through = Math.min(until, computed);
      for (let i = start; i < all.length && all[i][0] < until; i += 1) {
        const [, , , , , , arrive, , tx, subject] = all[i];
        if (arrive <= landsAfter || (tx !== about && subject !== about)) continue;
        if (picked.length === max) {
          through = Math.min(through, all[i][0]);
          break;
        }
        picked.push(i);
      }
      return { rows: picked.flatMap((i) => all[i]), first: picked.length ? picked[0] : start, through };
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 20; round += 1) {
      const txs = 1 + random(30);
      let t = 0;
      const all = Array.from({ length: 2_000 + random(80_000) }, () => {
        t += random(3);
        // Payloads carry their tx; announcements and requests only name it; control messages neither.
        const tx = random(3) === 0 ? -1 : random(txs);
        const subject = random(5) === 0 ? -1 : tx >= 0 && random(4) > 0 ? tx : random(txs);
        return [t, random(50), random(50), random(4), 100, 0, t + random(400), random(20) === 0 ? 1 : 0, tx, subject];
      });
      const store = new SendStore();
      for (let o = 0; o < all.length; o += 5_000) store.append(rows(all.slice(o, o + 5_000)));
      for (let ask = 0; ask < 10; ask += 1) {
        const about = random(txs + 1) - 1 >= 0 ? random(txs) : txs + 3; // sometimes a tx that sent nothing
        const sentFrom = random(t + 10);
        const landsAfter = sentFrom + random(300);
        const until = random(4) === 0 ? Infinity : landsAfter + random(t);
        const max = random(3) === 0 ? 1 + random(50) : 250_000;
        const computed = random(3) === 0 ? random(t + 10) : Infinity;
        const w = store.window(sentFrom, landsAfter, until, max, computed, about);
        const expected = scan(all, sentFrom, landsAfter, until, max, computed, about);
        expect({ rows: Array.from(w.rows), first: w.first, through: w.through }).toEqual(expected);
        // Visited: the tx's sends from the window's start to its end (and the one that ended it).
        const ofTx = all.filter((s) => s[0] >= sentFrom && s[0] < until && (s[8] === about || s[9] === about)).length;
        expect(w.visited).toBeLessThanOrEqual(ofTx + 1);
        expect(w.visited).toBeGreaterThanOrEqual(Math.min(ofTx, expected.rows.length / SEND_STRIDE));
      }
    }
  }, 60_000);

  it('visits only the picked tx\'s sends, however many others were sent after its time', () => {
    const store = new SendStore();
    // 20 txs, one send each per time step, 300,000 sends: tx 5 has 15,000 of them.
    store.append(rows(Array.from({ length: 300_000 }, (_, n) => [n, 0, 1, 0, 10, 10, n + 30, 0, n % 20, n % 20])));
    const about5 = store.window(1_000, 1_000, Infinity, 250_000, Infinity, 5);
    expect(about5.rows.length / SEND_STRIDE).toBe(15_000 - 50);
    expect(about5.visited).toBe(15_000 - 50);
    // The same window for every tx looks at every send from its start.
    expect(store.window(1_000, 1_000, Infinity, 300_000, Infinity).visited).toBe(300_000 - 1_000);
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
