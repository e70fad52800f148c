// A run's trace assembled while it is computed: the worker's start message gives the network,
// each chunk appends what happened next, the end adds the aggregates and the report. Arrays
// grow by doubling, so appending a chunk costs what the chunk holds, not what came before.
import type { RunChunk, RunDone, RunStart, StreamedTrace } from '../workers/protocol';

/** A Float64Array that grows by doubling; `view()` is the filled part. */
export class Growable {
  private buffer: Float64Array;
  length = 0;

  constructor(capacity = 1024) {
    this.buffer = new Float64Array(capacity);
  }

  append(data: Float64Array): void {
    if (this.length + data.length > this.buffer.length) {
      let capacity = this.buffer.length * 2;
      while (capacity < this.length + data.length) capacity *= 2;
      const bigger = new Float64Array(capacity);
      bigger.set(this.buffer.subarray(0, this.length));
      this.buffer = bigger;
    }
    this.buffer.set(data, this.length);
    this.length += data.length;
  }

  view(): Float64Array {
    return this.buffer.subarray(0, this.length);
  }
}

export class LiveTrace {
  readonly trace: StreamedTrace;
  private readonly deliveries = new Growable();
  private readonly duplicates = new Growable();
  private readonly sends = new Growable(9 * 1024);
  private readonly effects = new Growable(256);
  done = false;
  events = 0;

  constructor(start: RunStart) {
    this.trace = {
      kind: 'trace',
      id: start.id,
      label: start.label,
      protocol: start.protocol,
      nodes: start.nodes,
      endUs: start.endUs,
      computedUs: 0,
      edges: start.edges,
      adversaries: start.adversaries,
      behaviours: start.behaviours,
      positions: start.positions,
      coordinates: start.coordinates,
      txPlan: start.txPlan,
      deliveries: new Float64Array(0),
      duplicates: new Float64Array(0),
      sends: new Float64Array(0),
      sendCount: 0,
      kinds: [],
      effects: new Float64Array(0),
      bandwidth: new Float64Array(0),
      binUs: 1,
      counterBins: new Float64Array(0),
      counterNames: [],
      report: '',
      engineMs: 0,
      layoutMs: start.layoutMs,
    };
  }

  /** Appends a chunk; the trace's arrays are replaced by views that include it. */
  add(chunk: RunChunk): void {
    const t = this.trace;
    this.deliveries.append(chunk.deliveries);
    this.duplicates.append(chunk.duplicates);
    this.sends.append(chunk.sends);
    this.effects.append(chunk.effects);
    t.deliveries = this.deliveries.view();
    t.duplicates = this.duplicates.view();
    t.sends = this.sends.view();
    t.effects = this.effects.view();
    t.sendCount = chunk.sendCount;
    t.kinds = chunk.kinds;
    t.computedUs = chunk.nowUs;
    this.events = chunk.events;
  }

  finish(done: RunDone): void {
    const t = this.trace;
    Object.assign(t, {
      computedUs: t.endUs,
      sendCount: done.sendCount,
      kinds: done.kinds,
      bandwidth: done.bandwidth,
      binUs: done.binUs,
      counterBins: done.counterBins,
      counterNames: done.counterNames,
      report: done.report,
      engineMs: done.engineMs,
    });
    this.events = done.events;
    this.done = true;
  }
}
