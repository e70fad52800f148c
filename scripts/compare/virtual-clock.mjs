// A virtual clock, so that many real nodes in one process see simulated time however slowly the
// machine runs them: while installed, setTimeout, setInterval, AbortSignal.timeout, Date.now and
// performance.now read and schedule on it, and `runUntil(ms)` fires the timers in time order
// (ties in the order they were set), letting every promise settle between two timers, as the
// event loop would. Nothing else moves the clock: CPU time costs no simulated time.

const INTERVAL_MIN_MS = 1;

export class VirtualClock {
  constructor() {
    this.nowMs = 0;
    this.seq = 0;
    this.fired = 0;
    /** Min-heap of timer entries by (at, seq); cancelled or moved ones are skipped when they come up. */
    this.heap = [];
    this.real = null;
  }

  install() {
    const g = globalThis;
    this.real = {
      setTimeout: g.setTimeout,
      clearTimeout: g.clearTimeout,
      setInterval: g.setInterval,
      clearInterval: g.clearInterval,
      setImmediate: g.setImmediate,
      dateNow: Date.now,
      perfNow: performance.now,
      abortTimeout: AbortSignal.timeout,
    };
    const clock = this;
    const cancel = (t) => {
      if (t && typeof t === 'object' && 'active' in t) t.active = false;
    };
    g.setTimeout = (fn, ms, ...args) => this.schedule(fn, ms, args, null);
    g.setInterval = (fn, ms, ...args) => this.schedule(fn, ms, args, Math.max(INTERVAL_MIN_MS, Number(ms) || 0));
    g.clearTimeout = cancel;
    g.clearInterval = cancel;
    Date.now = () => Math.floor(clock.nowMs);
    performance.now = () => clock.nowMs;
    AbortSignal.timeout = (ms) => {
      const controller = new AbortController();
      clock.schedule(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms, [], null);
      return controller.signal;
    };
    return this;
  }

  uninstall() {
    if (!this.real) return;
    const g = globalThis;
    g.setTimeout = this.real.setTimeout;
    g.clearTimeout = this.real.clearTimeout;
    g.setInterval = this.real.setInterval;
    g.clearInterval = this.real.clearInterval;
    Date.now = this.real.dateNow;
    performance.now = this.real.perfNow;
    AbortSignal.timeout = this.real.abortTimeout;
    this.real = null;
  }

  now() {
    return this.nowMs;
  }

  schedule(fn, ms, args, interval) {
    const clock = this;
    const delay = Math.max(0, Number(ms) || 0);
    const timer = {
      fn,
      args,
      interval,
      active: true,
      gen: 0,
      id: this.seq,
      ref() {
        return this;
      },
      unref() {
        return this;
      },
      hasRef() {
        return true;
      },
      refresh() {
        timer.active = true;
        clock.enter(timer, delay);
        return timer;
      },
      [Symbol.toPrimitive]() {
        return timer.id;
      },
    };
    this.enter(timer, delay);
    return timer;
  }

  /** Puts `timer` in the heap `delay` ms from now; an earlier entry of it no longer counts. */
  enter(timer, delay) {
    timer.gen += 1;
    this.push({ at: this.nowMs + delay, seq: this.seq++, timer, gen: timer.gen });
  }

  /** Fires every timer due up to `untilMs` (virtual), then sets the clock there. */
  async runUntil(untilMs) {
    for (;;) {
      // Every promise chain, nextTick and immediate queued so far runs first.
      await new Promise((resolve) => this.real.setImmediate(resolve));
      const top = this.peek();
      if (top === undefined || top.at > untilMs) break;
      this.pop();
      this.nowMs = Math.max(this.nowMs, top.at);
      const timer = top.timer;
      if (timer.interval !== null) this.enter(timer, timer.interval);
      else timer.active = false;
      this.fired += 1;
      if (typeof timer.fn === 'function') timer.fn(...timer.args);
    }
    this.nowMs = Math.max(this.nowMs, untilMs);
  }

  /** Runs while `pending()` holds, looking every `stepMs` (virtual), for at most `limitMs`. */
  async runWhile(pending, { stepMs = 10, limitMs = 60_000, what = 'a condition' } = {}) {
    const limit = this.nowMs + limitMs;
    while (pending()) {
      if (this.nowMs >= limit) throw new Error(`${what} did not happen within ${limitMs} ms of simulated time`);
      await this.runUntil(this.nowMs + stepMs);
    }
  }

  // The heap, by (at, seq), skipping cancelled timers.
  peek() {
    while (this.heap.length && !live(this.heap[0])) this.pop();
    return this.heap[0];
  }

  push(timer) {
    const h = this.heap;
    h.push(timer);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  pop() {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

function live(entry) {
  return entry.timer.active && entry.timer.gen === entry.gen;
}

function before(a, b) {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
