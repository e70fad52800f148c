import { describe, expect, it } from 'vitest';
import type { RunChunk, RunStart } from '../../workers/protocol';
import { LiveTrace } from './live';
import { MessageClass } from '../wasm/txcast_wasm.js';

describe('LiveTrace', () => {
  const start: RunStart = {
    kind: 'start', id: 3, label: 'flood', protocol: 'flood', nodes: 2, endUs: 1000, edges: Uint32Array.of(0, 1), adversaries: Uint8Array.of(0, 1),
    behaviours: ['honest', 'silent'], positions: new Float32Array(4), coordinates: new Float64Array(0), txPlan: Float64Array.of(0, 0), layoutMs: 1,
    resumeUs: 0, changes: new Float64Array(0), behaviourNames: ['honest', 'silent'], markTimes: [], markKinds: [], notes: [], continents: [],
  };
  const chunk = (nowUs: number, deliveries: number[]): RunChunk => ({
    kind: 'chunk', id: 3, nowUs, events: 1, deliveries: Float64Array.from(deliveries),
    sends: new Float64Array(0), sendCount: 0, kinds: ['tx'], kindClasses: [MessageClass.Payload], effects: new Float64Array(0),
  });

  it('grows the trace chunk by chunk and tracks the computed time', () => {
    const live = new LiveTrace(start);
    expect(live.trace.computedUs).toBe(0);
    live.add(chunk(400, [0, 0, 0]));
    live.add(chunk(900, [500, 1, 0]));
    expect(Array.from(live.trace.deliveries)).toEqual([0, 0, 0, 500, 1, 0]);
    expect(live.trace.computedUs).toBe(900);
    expect(live.done).toBe(false);
    live.finish({ kind: 'done', id: 3, nowUs: 950, events: 2, sendCount: 0, kinds: ['tx'], kindClasses: [MessageClass.Payload], bandwidth: new Float64Array(2), binUs: 1000, counterBins: new Float64Array(0), counterNames: [], report: '{}', engineMs: 5 });
    expect(live.trace.computedUs).toBe(1000);
    expect(live.done).toBe(true);
  });

  it('rewinds to a live change: what came before stays, the rest streams again', () => {
    const live = new LiveTrace(start);
    live.add(chunk(400, [0, 0, 0, 300, 1, 0]));
    live.add(chunk(900, [500, 1, 0]));
    live.finish({ kind: 'done', id: 3, nowUs: 950, events: 2, sendCount: 0, kinds: ['tx'], kindClasses: [MessageClass.Payload], bandwidth: new Float64Array(2), binUs: 1000, counterBins: new Float64Array(0), counterNames: [], report: '{}', engineMs: 5 });
    const changes = Float64Array.of(450, 1, 1, 1);
    live.rewind({ ...start, id: 4, resumeUs: 450, changes, markTimes: [0.45], markKinds: ['leave'] });
    expect(Array.from(live.trace.deliveries)).toEqual([0, 0, 0, 300, 1, 0]);
    expect(live.trace.computedUs).toBe(450);
    expect(live.done).toBe(false);
    expect(live.trace.report).toBe('');
    expect(live.trace.markKinds).toEqual(['leave']);
    expect(Array.from(live.trace.changes)).toEqual([450, 1, 1, 1]);
    live.add(chunk(900, [600, 1, 0]));
    expect(Array.from(live.trace.deliveries)).toEqual([0, 0, 0, 300, 1, 0, 600, 1, 0]);
  });
});
