// Permits to compute, shared by the page and its simulation workers, so that at most `cap`
// workers run the engine at once: no more workers compute than there are cores, and the runs of
// a scenario advance together rather than one after another. `setCap` changes the cap while
// they run (the perf spec compares caps in one session).
//
// One word of shared memory holds who holds a permit (bit k for worker slot k) and who waits for
// one (bit 16 + k); beside it, each slot's progress: how far its run has simulated when it asks.
// A worker asks before each turn of computing and gives the permit back after it; giving back hands
// it straight to the waiting worker whose run is furthest behind (round robin among equals), so
// the runs advance together in simulated time: the page can show a scenario only as far as its
// slowest run has computed, and a run that costs more per simulated second gets more turns. The
// page forgets a worker it terminates, so a permit a dead worker held is never lost. Waiting is
// asynchronous: a waiting worker still answers the page's messages.

/** Worker slots the word has room for. */
export const PERMIT_SLOTS = 16;
const STATE = 0;
const CAP = 1;
/** Where slot k's progress is: the simulated milliseconds its run had computed when it last asked. */
const PROGRESS = 2;
/** Progress is kept in an int32: about 24 simulated days, more than any run lasts. */
const MAX_PROGRESS_MS = 0x7fffffff;

/** Shared memory for `cap` permits, or null where the page is not cross-origin isolated. */
export function createPermits(cap: number): SharedArrayBuffer | null {
  if (typeof SharedArrayBuffer === 'undefined' || !globalThis.crossOriginIsolated) return null;
  const buffer = new SharedArrayBuffer((PROGRESS + PERMIT_SLOTS) * Int32Array.BYTES_PER_ELEMENT);
  new Int32Array(buffer)[CAP] = Math.max(1, cap);
  return buffer;
}

/** Lets `cap` workers compute at once from their next slice on. */
export function setCap(buffer: SharedArrayBuffer, cap: number): void {
  Atomics.store(new Int32Array(buffer), CAP, Math.max(1, Math.floor(cap)));
}

const holds = (state: number, slot: number) => (state & (1 << slot)) !== 0;

function holders(state: number): number {
  let n = 0;
  for (let bits = state & 0xffff; bits; bits &= bits - 1) n += 1;
  return n;
}

/**
 * The state once `slot` no longer holds or waits: a permit it held goes to the waiter whose run is
 * furthest behind (`progress` of a slot), the first after `slot` among equals.
 */
function without(state: number, slot: number, progress: (slot: number) => number): number {
  const next = state & ~(1 << slot) & ~(1 << (16 + slot));
  if (!holds(state, slot)) return next;
  let chosen = -1;
  for (let step = 1; step <= PERMIT_SLOTS; step += 1) {
    const other = (slot + step) % PERMIT_SLOTS;
    if (next & (1 << (16 + other)) && (chosen < 0 || progress(other) < progress(chosen))) chosen = other;
  }
  return chosen < 0 ? next : (next & ~(1 << (16 + chosen))) | (1 << chosen);
}

/** Each slot's progress as the word's neighbours hold it. */
const progressIn = (word: Int32Array) => (slot: number) => Atomics.load(word, PROGRESS + slot);

/** Atomically replaces the state by `change(state)`; returns the new state. */
function update(word: Int32Array, change: (state: number) => number): number {
  for (;;) {
    const state = Atomics.load(word, STATE);
    const next = change(state);
    if (Atomics.compareExchange(word, STATE, state, next) === state) return next;
  }
}

/** Frees whatever slot `slot` held or waited for (the page calls this when it terminates that worker). */
export function forget(buffer: SharedArrayBuffer, slot: number): void {
  const word = new Int32Array(buffer);
  update(word, (state) => without(state, slot, progressIn(word)));
  Atomics.notify(word, STATE);
}

type WaitAsync = (word: Int32Array, index: number, value: number) => { async: boolean; value: Promise<unknown> | string };

/** A worker's side: ask for a permit before computing, give it back after. */
export interface Permit {
  /**
   * Resolves once this worker holds a permit; `progressMs`: how far its run has simulated, so
   * permits go to the runs furthest behind first.
   */
  acquire(progressMs: number): Promise<void>;
  /** Gives the permit back, to the waiting worker furthest behind if there is one. */
  release(): void;
}

/** Where there is no shared memory (a page that is not cross-origin isolated): no limit. */
export const NO_PERMIT: Permit = { acquire: () => Promise.resolve(), release: () => undefined };

export class SharedPermit implements Permit {
  private readonly word: Int32Array;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly slot: number,
  ) {
    this.word = new Int32Array(buffer);
  }

  async acquire(progressMs: number): Promise<void> {
    const cap = this.word[CAP];
    Atomics.store(this.word, PROGRESS + this.slot, Math.min(MAX_PROGRESS_MS, Math.max(0, Math.floor(progressMs))));
    let state = update(this.word, (s) => {
      if (holds(s, this.slot)) return s;
      // Take a free permit unless others already wait for one (they come first).
      const free = holders(s) < cap && s >>> 16 === 0;
      return s | (1 << (free ? this.slot : 16 + this.slot));
    });
    const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
    while (!holds(state, this.slot)) {
      const wait = waitAsync(this.word, STATE, state);
      if (wait.async) await wait.value;
      state = Atomics.load(this.word, STATE);
    }
  }

  release(): void {
    update(this.word, (state) => without(state, this.slot, progressIn(this.word)));
    Atomics.notify(this.word, STATE);
  }
}
