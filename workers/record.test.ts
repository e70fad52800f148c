import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EFFECTS, SEND_STRIDE } from './protocol';
import { initSync } from '../web/wasm/txcast_wasm.js';
import { counterEffects, CounterBins, SendLog, Series } from './record';

describe('Series', () => {
  it('concatenates chunks in order and skips empty ones', () => {
    const s = new Series();
    s.push(Float64Array.of(1, 2));
    s.push(new Float64Array(0));
    s.push(Float64Array.of(3));
    expect(s.length).toBe(3);
    expect(Array.from(s.concat())).toEqual([1, 2, 3]);
  });
});

describe('SendLog', () => {
  // t_us, from, to, kind, bytes, payload, arrive_us, lost
  // One send in the WASM layout: t_us, from, to, kind, bytes, payload, arrive_us, lost, tx, subject.
  const send = (t: number, bytes: number, payload: number) => [t, 0, 1, 0, bytes, payload, t + 5, 0, 7, 7];

  it('bins payload and control bytes by send time', () => {
    const log = new SendLog(200_000);
    log.push(Float64Array.from([...send(0, 300, 250), ...send(999, 50, 0), ...send(150_000, 40, 0)]));
    expect(log.binUs).toBe(1000);
    expect(log.bandwidth[0]).toBe(250);
    expect(log.bandwidth[1]).toBe(100);
    expect(log.bandwidth[2 * 150 + 1]).toBe(40);
    const total = log.bandwidth.reduce((a, b) => a + b, 0);
    expect(total).toBe(390);
  });

  it('keeps at most the cap of sends but counts them all', () => {
    const log = new SendLog(10_000, 3);
    const kept = new Series();
    kept.push(log.push(Float64Array.from([...send(1, 10, 0), ...send(2, 10, 0)])));
    kept.push(log.push(Float64Array.from([...send(3, 10, 0), ...send(4, 10, 0)])));
    expect(log.count).toBe(4);
    const all = kept.concat();
    expect(all.length).toBe(3 * SEND_STRIDE);
    expect(all[2 * SEND_STRIDE]).toBe(3);
  });

  it('puts sends past the end into the last bin', () => {
    const log = new SendLog(5000);
    log.push(Float64Array.from(send(9_999_999, 7, 7)));
    expect(log.bandwidth[log.bandwidth.length - 2]).toBe(7);
  });
});

describe('CounterBins', () => {
  it('sums counter moves per counter and time bin, counter-major', () => {
    const bins = new CounterBins(3000, 1000);
    expect(bins.bins).toBe(4);
    bins.push(Float64Array.of(10, 0, 1, 2, 1500, 3, 1, 5, 20, 1, 0, 7, 99_999, 0, 0, 1));
    expect(Array.from(bins.flat(2))).toEqual([7, 0, 0, 1, 2, 5, 0, 0]);
    expect(bins.flat(3).length).toBe(12);
  });
});

describe('counterEffects', () => {
  it('sorts the protocols\' counters into adversary effects, as the core describes them', () => {
    initSync({ module: readFileSync('web/wasm/txcast_wasm_bg.wasm') });
    const effects = counterEffects();
    const effectOf = (name: string) => effects.get(name) ?? -1;
    const withheld = EFFECTS.indexOf('withheld');
    const corrupt = EFFECTS.indexOf('corrupt');
    for (const name of ['gossipsub.request_withheld', 'inv.retries', 'shrec.retries', 'gossipsub.broken_promises', 'gossipsub.ineed_timeout']) expect(effectOf(name)).toBe(withheld);
    for (const name of ['strokkur.corrupt_codewords', 'strokkur.rejected_codewords', 'gossipsub.invalid_message', 'strokkur.invalid_symbols']) expect(effectOf(name)).toBe(corrupt);
    for (const name of ['cat.requested_txs', 'strokkur.codewords_sent', 'inv.requests', '']) expect(effectOf(name)).toBe(-1);
  });
});
