import { describe, expect, it } from 'vitest';
import { extend, newClock, seek, setSpeed, SPEEDS, step, STEP_US, tick, togglePlay, waiting } from './playback';

describe('the playback clock', () => {
  it('moves only while playing, at the chosen speed, and stops at the end', () => {
    let c = newClock(1_000_000);
    expect(tick(c, 100).tUs).toBe(0);
    c = setSpeed(togglePlay(c), SPEEDS.indexOf(1));
    c = tick(c, 100);
    expect(c.tUs).toBe(100_000);
    c = tick(c, 5000);
    expect(c.tUs).toBe(1_000_000);
    expect(c.playing).toBe(false);
    expect(togglePlay(c)).toMatchObject({ tUs: 0, playing: true });
  });

  it('clamps seeks and speeds', () => {
    const c = newClock(500);
    expect(seek(c, -4).tUs).toBe(0);
    expect(seek(c, 900).tUs).toBe(500);
    expect(setSpeed(c, 99).speedIndex).toBe(SPEEDS.length - 1);
    expect(setSpeed(c, -3).speedIndex).toBe(0);
  });

  it('steps to the next arrival, then by a fixed amount, and pauses', () => {
    const times = Float64Array.of(0, 200, 200, 900);
    let c = { ...newClock(1_000_000), playing: true };
    c = step(c, times);
    expect(c).toMatchObject({ tUs: 200, playing: false });
    c = step(c, times);
    expect(c.tUs).toBe(900);
    c = step(c, times);
    expect(c.tUs).toBe(900 + STEP_US);
  });

  it('plays while the run computes: waits at the computed edge, then goes on as more arrives', () => {
    let c = setSpeed(togglePlay(newClock(1_000_000, 200_000)), SPEEDS.indexOf(1));
    c = tick(c, 500);
    expect(c).toMatchObject({ tUs: 200_000, playing: true });
    expect(waiting(c)).toBe(true);
    expect(seek(c, 900_000).tUs).toBe(200_000);
    c = extend(c, 150_000); // never back
    expect(c.computedUs).toBe(200_000);
    c = tick(extend(c, 600_000), 100);
    expect(c.tUs).toBe(300_000);
    expect(waiting(c)).toBe(false);
    c = tick(extend(c, 2_000_000), 5000);
    expect(c).toMatchObject({ tUs: 1_000_000, computedUs: 1_000_000, playing: false });
  });
});
