import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppStore, type AppState } from '../app/state';
import { FrameLoop } from './frames';

/**
 * A frame loop over one panel whose drawing takes `drawMs` of the page's thread and the browser's
 * rendering of it `renderMs` more, with the clock playing; `drawn()` counts the frames drawn so far
 * (advance the fake timers to let time pass).
 */
function frameLoop(drawMs: number, computing: boolean, renderMs = 0) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  // The page's clock: timers' time plus the time frames spent drawing (timers do not see it pass).
  let drawing = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => Date.now() + drawing);
  vi.stubGlobal('window', globalThis);
  // Frames come at the display's refresh, every 16 ms.
  vi.stubGlobal('requestAnimationFrame', (callback: (now: number) => void) => setTimeout(() => callback(performance.now()), 16 - (Date.now() % 16)));
  let drawn = 0;
  const panel = {
    view: undefined,
    tx: () => undefined,
    draw: () => {
      drawn += 1;
      drawing += drawMs;
      return false;
    },
  } as unknown as AppState['panels'][number];
  const store = createAppStore();
  const rendered = (callback: () => void) =>
    setTimeout(() => {
      drawing += renderMs;
      callback();
    }, 0);
  const frames = new FrameLoop(store, { frameTimes: [], frameIntervals: [] }, () => undefined, rendered);
  store.update((s) => ({ panels: [panel], computing, clock: { ...s.clock, endUs: 1e12, computedUs: 1e12, playing: true } }));
  frames.request();
  return { store, drawn: () => drawn };
}

/** Frames drawn in `forMs` of wall time (see `frameLoop`). */
function framesDrawn(drawMs: number, computing: boolean, forMs = 1000, renderMs = 0): number {
  const loop = frameLoop(drawMs, computing, renderMs);
  vi.advanceTimersByTime(forMs);
  return loop.drawn();
}

describe('FrameLoop', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('while runs compute, spaces costly frames so drawing takes at most a quarter of the thread', () => {
    // 40 ms frames: one every 160 ms at most while computing (40 drawing, 120 left to the runs).
    const computing = framesDrawn(40, true);
    expect(computing).toBeGreaterThanOrEqual(5);
    expect(computing).toBeLessThanOrEqual(Math.ceil(1000 / 120) + 1);
    // Once the runs are computed, every refresh draws.
    expect(framesDrawn(40, false)).toBeGreaterThanOrEqual(50);
  });

  it("counts the browser's rendering of a frame in its cost, not only the drawing", () => {
    // 5 ms of drawing and 35 ms of style, layout, paint and commit: paced as a 40 ms frame.
    const computing = framesDrawn(5, true, 1000, 35);
    expect(computing).toBeGreaterThanOrEqual(5);
    expect(computing).toBeLessThanOrEqual(Math.ceil(1000 / 120) + 1);
    expect(framesDrawn(5, false, 1000, 35)).toBeGreaterThanOrEqual(20);
  });

  it('draws the frame it held back for the runs as soon as they are computed', () => {
    // A 1 s frame while computing holds the next one back 3 s; the runs end 100 ms later.
    const loop = frameLoop(1000, true);
    vi.advanceTimersByTime(100);
    expect(loop.drawn()).toBe(1);
    loop.store.update({ computing: false });
    vi.advanceTimersByTime(50);
    expect(loop.drawn()).toBeGreaterThanOrEqual(2);
  });

  it('draws cheap frames every refresh while runs compute', () => {
    expect(framesDrawn(2, true)).toBeGreaterThanOrEqual(50);
  });
});
