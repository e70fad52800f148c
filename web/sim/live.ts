// A run's trace assembled while it is computed: the worker's start message gives the network,
// each chunk appends what happened next, the end adds the aggregates and the report. Appending a
// chunk costs what the chunk holds, not what came before. Duplicate copies are not among them:
// the worker keeps those, and the page asks for the picked tx's (`TraceView.addDuplicates`).
import { SEND_STRIDE, type RunChunk, type RunDone, type RunEvents, type RunStart, type StreamedTrace } from '../../workers/protocol';
import { SEND_CAP } from '../../workers/record';
import { Growable } from './growable';

/** Numbers an array grows to in place at most when it knows no bound of its own (128 MB). */
const IN_PLACE = 1 << 24;

export class LiveTrace {
  readonly trace: StreamedTrace;
  private readonly deliveries: Growable;
  /** The worker keeps at most `SEND_CAP` sends: they all fit in place. */
  private readonly sends = new Growable(1024 * SEND_STRIDE, SEND_CAP * SEND_STRIDE);
  private readonly effects = new Growable(256);
  done = false;
  events = 0;

  constructor(start: RunStart) {
    // A node's first arrival of a tx happens once: nodes x txs records at most.
    this.deliveries = new Growable(1024, Math.min(IN_PLACE, 3 * start.nodes * (start.txPlan.length / 2)));
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
      sends: new Float64Array(0),
      sendCount: 0,
      kinds: [],
      kindClasses: [],
      effects: new Float64Array(0),
      bandwidth: new Float64Array(0),
      binUs: 1,
      counterBins: new Float64Array(0),
      counterNames: [],
      report: '',
      engineMs: 0,
      layoutMs: start.layoutMs,
      ...events(start),
    };
  }

  /**
   * A change was applied at `start.resumeUs`: the run goes on from there under the new scenario
   * (`start` is its first message). What happened before stays; what came after goes, to be
   * streamed again.
   */
  rewind(start: RunStart): void {
    const t = this.trace;
    const before = start.resumeUs;
    const keep = (g: Growable, stride: number) => {
      const data = g.view();
      let lo = 0;
      let hi = data.length / stride;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (data[mid * stride] < before) lo = mid + 1;
        else hi = mid;
      }
      g.truncate(lo * stride);
    };
    keep(this.deliveries, 3);
    keep(this.sends, SEND_STRIDE);
    keep(this.effects, 4);
    Object.assign(t, {
      deliveries: this.deliveries.view(),
      sends: this.sends.view(),
      effects: this.effects.view(),
      computedUs: before,
      adversaries: start.adversaries,
      behaviours: start.behaviours,
      txPlan: start.txPlan,
      bandwidth: new Float64Array(0),
      counterBins: new Float64Array(0),
      report: '',
      ...events(start),
    });
    this.done = false;
  }

  /** Appends a chunk; the trace's arrays are replaced by views that include it. */
  add(chunk: RunChunk): void {
    const t = this.trace;
    this.deliveries.append(chunk.deliveries);
    this.sends.append(chunk.sends);
    this.effects.append(chunk.effects);
    t.deliveries = this.deliveries.view();
    t.sends = this.sends.view();
    t.effects = this.effects.view();
    t.sendCount = chunk.sendCount;
    t.kinds = chunk.kinds;
    t.kindClasses = chunk.kindClasses;
    t.computedUs = chunk.nowUs;
    this.events = chunk.events;
  }

  finish(done: RunDone): void {
    const t = this.trace;
    Object.assign(t, {
      computedUs: t.endUs,
      sendCount: done.sendCount,
      sendBytes: done.sendBytes,
      duplicateCount: done.duplicateCount,
      duplicateBytes: done.duplicateBytes,
      sendsKeptUs: done.sendsKeptUs,
      kinds: done.kinds,
      kindClasses: done.kindClasses,
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

/** The timed events' part of a run's first message. */
function events(start: RunStart): RunEvents {
  const { changes, behaviourNames, markTimes, markKinds, notes, continents } = start;
  return { changes, behaviourNames, markTimes, markKinds, notes, continents };
}
