// The playback clock over simulated time: pure functions, so the UI state is easy to test.

/** Simulated seconds per real second. */
export const SPEEDS = [0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 20] as const;
export const DEFAULT_SPEED_INDEX = 2;
/** A step when there is no next arrival to jump to, in microseconds. */
export const STEP_US = 10_000;

export interface Clock {
  tUs: number;
  endUs: number;
  /** Simulated time computed so far (a run still in its worker): playing and seeking stop here. */
  computedUs: number;
  playing: boolean;
  speedIndex: number;
}

export function newClock(endUs: number, computedUs = endUs): Clock {
  return { tUs: 0, endUs, computedUs: Math.min(endUs, computedUs), playing: false, speedIndex: DEFAULT_SPEED_INDEX };
}

const clamp = (t: number, end: number) => Math.min(end, Math.max(0, t));
const reach = (clock: Clock) => Math.min(clock.endUs, clock.computedUs);

/** More of the run is computed: the clock may go up to `computedUs` (never back). */
export function extend(clock: Clock, computedUs: number, endUs = clock.endUs): Clock {
  return { ...clock, endUs, computedUs: Math.min(endUs, Math.max(clock.computedUs, computedUs)) };
}

/** The runs go on from `computedUs` again (a live change): what was computed after it is to come. */
export function rewind(clock: Clock, computedUs: number): Clock {
  return { ...clock, computedUs: Math.min(clock.computedUs, computedUs), tUs: Math.min(clock.tUs, computedUs) };
}

/**
 * Advances a playing clock by `realMs` of wall time. It waits (still playing) at the edge of
 * what is computed, and stops at the end.
 */
export function tick(clock: Clock, realMs: number): Clock {
  if (!clock.playing) return clock;
  const tUs = clamp(clock.tUs + realMs * 1000 * SPEEDS[clock.speedIndex], reach(clock));
  return { ...clock, tUs, playing: tUs < clock.endUs };
}

export function seek(clock: Clock, tUs: number): Clock {
  return { ...clock, tUs: clamp(tUs, reach(clock)) };
}

/** Whether a playing clock is held at the edge of what is computed. */
export function waiting(clock: Clock): boolean {
  return clock.playing && clock.tUs >= clock.computedUs && clock.computedUs < clock.endUs;
}

export function togglePlay(clock: Clock): Clock {
  // Playing from the end starts over.
  if (!clock.playing && clock.tUs >= clock.endUs) return { ...clock, tUs: 0, playing: true };
  return { ...clock, playing: !clock.playing };
}

export function setSpeed(clock: Clock, speedIndex: number): Clock {
  return { ...clock, speedIndex: Math.min(SPEEDS.length - 1, Math.max(0, Math.round(speedIndex))) };
}

/**
 * One step forward and paused: to the next arrival in `times` (sorted, us) after now, so a tx
 * is watched hop by hop; by STEP_US when there is none.
 */
export function step(clock: Clock, times: Float64Array): Clock {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= clock.tUs) lo = mid + 1;
    else hi = mid;
  }
  const next = lo < times.length ? times[lo] : clock.tUs + STEP_US;
  return { ...clock, playing: false, tUs: clamp(next, reach(clock)) };
}
