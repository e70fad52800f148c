import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPermits, forget, setCap, SharedPermit } from './permits';

/** Whether `acquire()` has resolved, after letting pending wakeups run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
}

describe('permits to compute', () => {
  beforeEach(() => vi.stubGlobal('crossOriginIsolated', true));
  afterEach(() => vi.unstubAllGlobals());

  it('are not made without cross-origin isolation', () => {
    vi.stubGlobal('crossOriginIsolated', false);
    expect(createPermits(1)).toBeNull();
  });

  it('let `cap` workers compute at once and hand a permit round robin', async () => {
    const buffer = createPermits(1)!;
    const [a, b, c] = [0, 1, 2].map((slot) => new SharedPermit(buffer, slot));
    expect(await settled(a.acquire(0))).toBe(true);
    const bWaits = b.acquire(0);
    const cWaits = c.acquire(0);
    expect(await settled(bWaits)).toBe(false);
    a.release();
    expect(await settled(bWaits)).toBe(true);
    expect(await settled(cWaits)).toBe(false);
    // a asks again: it queues behind c, who waited longer.
    const aAgain = a.acquire(0);
    b.release();
    expect(await settled(cWaits)).toBe(true);
    expect(await settled(aAgain)).toBe(false);
    c.release();
    expect(await settled(aAgain)).toBe(true);
  });

  it('hand a permit to the waiting worker whose run is furthest behind in simulated time', async () => {
    const buffer = createPermits(1)!;
    const [a, b, c, d] = [0, 1, 2, 3].map((slot) => new SharedPermit(buffer, slot));
    await a.acquire(900);
    const bWaits = b.acquire(700);
    const cWaits = c.acquire(300);
    const dWaits = d.acquire(300);
    // c and d are equally far behind: c comes first after a.
    a.release();
    expect(await settled(cWaits)).toBe(true);
    expect(await settled(bWaits)).toBe(false);
    // a asks again from 1,000 ms: it waits behind b (700) and d (300), and d comes before b.
    const aAgain = a.acquire(1_000);
    c.release();
    expect(await settled(dWaits)).toBe(true);
    expect(await settled(bWaits)).toBe(false);
    d.release();
    expect(await settled(bWaits)).toBe(true);
    expect(await settled(aAgain)).toBe(false);
    // A terminated holder's permit goes the same way.
    forget(buffer, 1);
    expect(await settled(aAgain)).toBe(true);
  });

  it('give a terminated worker\'s permit to the next, and forget it where it waited', async () => {
    const buffer = createPermits(1)!;
    const [a, b, c] = [0, 1, 2].map((slot) => new SharedPermit(buffer, slot));
    await a.acquire(0);
    const bWaits = b.acquire(0);
    const cWaits = c.acquire(0);
    forget(buffer, 1); // b is terminated while it waits
    forget(buffer, 0); // a is terminated while it holds
    expect(await settled(cWaits)).toBe(true);
    expect(await settled(bWaits)).toBe(false);
  });

  it('take a new cap from the next permit asked for on', async () => {
    const buffer = createPermits(1)!;
    expect(await settled(new SharedPermit(buffer, 0).acquire(0))).toBe(true);
    setCap(buffer, 2);
    expect(await settled(new SharedPermit(buffer, 1).acquire(0))).toBe(true);
    expect(await settled(new SharedPermit(buffer, 2).acquire(0))).toBe(false);
    setCap(buffer, 0.5); // never below one
    expect(new Int32Array(buffer)[1]).toBe(1);
  });

  it('let as many compute as the cap allows without waiting', async () => {
    const buffer = createPermits(2)!;
    expect(await settled(new SharedPermit(buffer, 0).acquire(0))).toBe(true);
    expect(await settled(new SharedPermit(buffer, 5).acquire(0))).toBe(true);
    expect(await settled(new SharedPermit(buffer, 15).acquire(0))).toBe(false);
  });
});
