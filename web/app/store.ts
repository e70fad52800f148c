// A small typed state store, no framework: one state object, replaced (never mutated) by
// `update`; views `subscribe` to the slice they draw and hear of it only when that slice changes.
// The visualizer page (web/app/state.ts) and the light node page (web/lightnode/state.ts) each
// keep their page's state in one.

/** A change: the fields to replace, or a function of the current state that returns them. */
export type Patch<S> = Partial<S> | ((state: Readonly<S>) => Partial<S>);

/** Whether two selected values are the same (no notification then). */
export type Equality<T> = (a: T, b: T) => boolean;

export interface SubscribeOptions<T> {
  /** How selected values compare; `Object.is` by default (use `shallowEqual` for tuples and records). */
  equals?: Equality<T>;
  /** Calls the listener at once with the current value (its `previous` is that same value). */
  immediate?: boolean;
}

export interface Store<S extends object> {
  /** The current state (do not mutate it: `update` replaces it). */
  get(): Readonly<S>;
  /** Merges `patch` into a new state object, then notifies the subscribers whose slice changed. */
  update(patch: Patch<S>): void;
  /**
   * Calls `listener` whenever `selector`'s value changes, in the order subscriptions were made.
   * An update made by a listener is applied at once; subscribers later in line then see its state.
   * Returns the function that ends the subscription.
   */
  subscribe<T>(selector: (state: Readonly<S>) => T, listener: (value: T, previous: T, state: Readonly<S>) => void, options?: SubscribeOptions<T>): () => void;
}

/** A store as a view that only reads it sees it (any store whose state has the fields it reads). */
export type Subscribable<S extends object> = Pick<Store<S>, 'get' | 'subscribe'>;

/** Same keys with `Object.is` values (arrays element by element); for selectors that build a tuple or record. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

interface Subscription<S> {
  select(state: S): unknown;
  listener(value: unknown, previous: unknown, state: S): void;
  equals: Equality<unknown>;
  last: unknown;
  active: boolean;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state: S = { ...initial };
  let subscriptions: Subscription<S>[] = [];

  function notify(): void {
    // A listener that updates the state notifies again (nested): each subscription remembers the
    // last value it was told of, so none hears of the same change twice.
    for (const sub of subscriptions) {
      if (!sub.active) continue;
      const value = sub.select(state);
      if (sub.equals(sub.last, value)) continue;
      const previous = sub.last;
      sub.last = value;
      sub.listener(value, previous, state);
    }
  }

  return {
    get: () => state,
    update(patch) {
      const changes = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...changes };
      notify();
    },
    subscribe(selector, listener, options = {}) {
      const sub: Subscription<S> = {
        select: selector,
        listener: listener as Subscription<S>['listener'],
        equals: (options.equals ?? Object.is) as Equality<unknown>,
        last: selector(state),
        active: true,
      };
      subscriptions = [...subscriptions, sub];
      if (options.immediate) sub.listener(sub.last, sub.last, state);
      return () => {
        sub.active = false;
        subscriptions = subscriptions.filter((s) => s !== sub);
      };
    },
  };
}
