// Hosts the WASM simulation engine: runs one scenario run in bounded slices (posting progress
// between them), records what happened, and transfers the trace and the report to the page.
import init, { Simulation } from '../web/wasm/txcast_wasm.js';
import { layoutPositions } from './layout';
import type { InspectRequest, RunRequest, RunTrace, WorkerReply, WorkerRequest } from './protocol';
import { CounterBins, SendLog, Series } from './record';

/** Events per slice: small enough to post progress often, big enough to keep overhead low. */
const SLICE_EVENTS = 200_000;
const PROGRESS_EVERY_MS = 80;

// Start loading at once but await inside the handler: a top-level await would drop early messages.
const ready = init();

function post(reply: WorkerReply, transfer: Transferable[] = []): void {
  self.postMessage(reply, { transfer });
}

function simulate(request: RunRequest): RunTrace {
  const started = performance.now();
  const sim = new Simulation(request.scenario, request.run, request.seed);
  try {
    sim.capture_sends(true);
    const endUs = sim.end_us;
    const deliveries = new Series();
    const duplicates = new Series();
    const sends = new SendLog(endUs);
    const counters = new CounterBins(endUs, sends.binUs);
    let lastProgress = started;
    let more = true;
    while (more) {
      more = sim.advance(endUs, SLICE_EVENTS);
      deliveries.push(sim.take_deliveries());
      duplicates.push(sim.take_duplicates());
      sends.push(sim.take_sends());
      counters.push(sim.take_counts());
      const now = performance.now();
      if (more && now - lastProgress > PROGRESS_EVERY_MS) {
        lastProgress = now;
        post({ kind: 'progress', id: request.id, nowUs: sim.now_us, endUs, events: sim.events });
      }
    }
    const edges = sim.edges();
    const nodes = sim.nodes;
    const trace = {
      label: sim.label,
      protocol: sim.protocol,
      kinds: sim.kinds(),
      adversaries: sim.adversaries(),
      coordinates: sim.coordinates(),
      txPlan: sim.tx_plan(),
      counterNames: sim.counter_names(),
    };
    const report = sim.finish();
    const engineMs = performance.now() - started;
    const layoutStarted = performance.now();
    const positions = layoutPositions(nodes, edges, request.layoutSeed);
    return {
      kind: 'trace',
      id: request.id,
      ...trace,
      nodes,
      endUs,
      edges,
      positions,
      deliveries: deliveries.concat(),
      duplicates: duplicates.concat(),
      sends: sends.kept.concat(),
      sendCount: sends.count,
      bandwidth: sends.bandwidth,
      binUs: sends.binUs,
      counterBins: counters.flat(trace.counterNames.length),
      report,
      engineMs,
      layoutMs: performance.now() - layoutStarted,
    };
  } finally {
    sim.free();
  }
}

/** The run last inspected, kept so inspecting later times of it only simulates forward. */
let inspected: { key: string; sim: Simulation } | null = null;

function inspect(request: InspectRequest): string {
  const key = `${request.run}|${request.seed ?? ''}|${request.scenario}`;
  if (!inspected || inspected.key !== key || inspected.sim.now_us > request.tUs) {
    inspected?.sim.free();
    inspected = null;
    inspected = { key, sim: new Simulation(request.scenario, request.run, request.seed) };
  }
  const { sim } = inspected;
  for (;;) {
    const before = sim.events;
    const more = sim.advance(request.tUs, SLICE_EVENTS);
    // Nothing is kept: the trace arrays are only drained.
    sim.take_deliveries();
    sim.take_duplicates();
    sim.take_counts();
    if (!more || sim.now_us >= request.tUs || sim.events === before) break;
  }
  return sim.inspect(request.node);
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.kind === 'crash') {
    setTimeout(() => {
      throw new Error('crash requested by the page');
    });
    return;
  }
  try {
    await ready;
    if (request.kind === 'inspect') {
      const json = inspect(request);
      post({ kind: 'inspected', id: request.id, json, nowUs: inspected?.sim.now_us ?? request.tUs });
      return;
    }
    const trace = simulate(request);
    const buffers = [trace.edges, trace.adversaries, trace.positions, trace.coordinates, trace.txPlan, trace.deliveries, trace.duplicates, trace.sends, trace.bandwidth, trace.counterBins];
    post(trace, buffers.map((a) => a.buffer as ArrayBuffer));
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError;
    post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error), fatal });
  }
};
