import { describe, expect, it } from 'vitest';
import { createStore, shallowEqual } from './store';

describe('the state store', () => {
  it('merges patches and functions of the state into a new object', () => {
    const store = createStore({ a: 1, b: 'x' });
    const before = store.get();
    store.update({ a: 2 });
    store.update((s) => ({ b: `${s.b}${s.a}` }));
    expect(store.get()).toEqual({ a: 2, b: 'x2' });
    expect(before).toEqual({ a: 1, b: 'x' });
  });

  it('notifies a subscriber only when its slice changes, with the previous value', () => {
    const store = createStore({ a: 1, b: 1 });
    const heard: [number, number][] = [];
    store.subscribe((s) => s.a, (value, previous) => heard.push([value, previous]));
    store.update({ b: 2 });
    store.update({ a: 1 });
    store.update({ a: 3 });
    expect(heard).toEqual([[3, 1]]);
  });

  it('compares tuples shallowly when asked, and can call at once', () => {
    const store = createStore({ a: 1, b: 2, c: 0 });
    let calls = 0;
    store.subscribe((s) => [s.a, s.b], () => (calls += 1), { equals: shallowEqual, immediate: true });
    store.update({ c: 1 });
    store.update({ a: 1, b: 2 });
    expect(calls).toBe(1);
    store.update({ b: 5 });
    expect(calls).toBe(2);
  });

  it('applies an update made by a listener at once, and tells each subscriber of each change once', () => {
    const store = createStore({ a: 0, doubled: 0 });
    const seen: number[] = [];
    store.subscribe((s) => s.a, (a) => store.update({ doubled: 2 * a }));
    store.subscribe((s) => s.doubled, (d) => seen.push(d));
    store.update({ a: 4 });
    expect(store.get().doubled).toBe(8);
    expect(seen).toEqual([8]);
  });

  it('stops notifying once unsubscribed', () => {
    const store = createStore({ a: 0 });
    let calls = 0;
    const stop = store.subscribe((s) => s.a, () => (calls += 1));
    store.update({ a: 1 });
    stop();
    store.update({ a: 2 });
    expect(calls).toBe(1);
  });
});
