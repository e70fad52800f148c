import { describe, expect, it } from 'vitest';
import { changeAtMs, withEvent } from './events';

describe('a live change in the scenario', () => {
  it('goes into the events in time order, and into every run that brings its own', () => {
    const text = JSON.stringify({
      name: 's',
      events: [
        { at_ms: 1000, kind: 'leave', nodes: [1] },
        { at_ms: 3000, kind: 'join' },
      ],
      protocols: [{ protocol: 'flood' }, { protocol: 'cat', events: [{ at_ms: 2500, kind: 'heal' }] }],
    });
    const out = JSON.parse(withEvent(text, { kind: 'behaviour', nodes: [4, 5], behaviour: { kind: 'silent' } }, 2000));
    expect(out.events.map((e: { at_ms: number; kind: string }) => `${e.at_ms} ${e.kind}`)).toEqual(['1000 leave', '2000 behaviour', '3000 join']);
    expect(out.events[1]).toEqual({ at_ms: 2000, kind: 'behaviour', nodes: [4, 5], behaviour: { kind: 'silent' } });
    expect(out.protocols[0].events).toBeUndefined();
    expect(out.protocols[1].events.map((e: { at_ms: number }) => e.at_ms)).toEqual([2000, 2500]);
  });

  it('starts a list where there was none, after events at the same time', () => {
    expect(JSON.parse(withEvent('{"name":"s"}', { kind: 'heal' }, 5)).events).toEqual([{ at_ms: 5, kind: 'heal' }]);
    const same = JSON.parse(withEvent('{"events":[{"at_ms":5,"kind":"partition","fraction":0.5}]}', { kind: 'heal' }, 5));
    expect(same.events.map((e: { kind: string }) => e.kind)).toEqual(['partition', 'heal']);
    expect(() => withEvent('[1]', { kind: 'heal' }, 5)).toThrow('not a JSON object');
  });

  it('takes effect after the time shown, never at it', () => {
    expect(changeAtMs(0)).toBe(1);
    expect(changeAtMs(2_000_000)).toBe(2001);
    expect(changeAtMs(2_000_999)).toBe(2001);
  });
});
