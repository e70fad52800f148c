// Hosts the WASM simulation engine: runs one scenario run in bounded slices and streams what
// happened to the page chunk by chunk, so playback starts while the run is still computing.
// Between slices it yields, so the page's seeks (arrival-log range scans) are answered mid-run.
import init, { Simulation } from '../web/wasm/txcast_wasm.js';
import { layoutPositions } from './layout';
import { SEND_STRIDE, type ArrivalsRequest, type InspectRequest, type RunChunk, type RunRequest, type RunStart, type WorkerReply, type WorkerRequest } from './protocol';
import { CounterBins, effectOf, SendLog } from './record';

/** Events per slice: a slice holds the worker for a few ms, so seeks are answered quickly. */
const SLICE_EVENTS = 10_000;
/** Wall time between chunks: often enough to play smoothly behind the engine, rarely enough to batch. */
const CHUNK_EVERY_MS = 120;
/** Sends per chunk at most: the page indexes a chunk in one task, which must stay short. */
const CHUNK_MAX_SENDS = 16_384;

// Start loading at once but await inside the handler: a top-level await would drop early messages.
const ready = init();

function post(reply: WorkerReply, transfer: Transferable[] = []): void {
  self.postMessage(reply, { transfer });
}

/** Lets queued messages (seeks) in between slices: a message-channel hop, not a clamped timer. */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(0);
  });
}

/** The run in progress, or the last one finished (its arrival logs stay scannable). */
let current: { id: number; sim: Simulation; cancelled: boolean } | null = null;

function dropCurrent(): void {
  if (!current) return;
  current.cancelled = true;
  current.sim.free();
  current = null;
}

/** Picks the adversary effects out of counter moves (t, node, counter, n), by counter name. */
function effects(counts: Float64Array, names: string[]): Float64Array {
  const out: number[] = [];
  for (let i = 0; i + 3 < counts.length; i += 4) {
    const effect = effectOf(names[counts[i + 2]] ?? '');
    if (effect >= 0) out.push(counts[i], counts[i + 1], effect, counts[i + 3]);
  }
  return Float64Array.from(out);
}

async function simulate(request: RunRequest): Promise<void> {
  const started = performance.now();
  dropCurrent();
  const sim = new Simulation(request.scenario, request.run, request.seed);
  const me = { id: request.id, sim, cancelled: false };
  current = me;
  sim.capture_sends(true);
  const endUs = sim.end_us;
  const nodes = sim.nodes;
  const edges = sim.edges();
  const layoutStarted = performance.now();
  const positions = layoutPositions(nodes, edges, request.layoutSeed);
  const start: RunStart = {
    kind: 'start',
    id: request.id,
    label: sim.label,
    protocol: sim.protocol,
    nodes,
    endUs,
    edges,
    adversaries: sim.adversaries(),
    behaviours: sim.behaviours(),
    positions,
    coordinates: sim.coordinates(),
    txPlan: sim.tx_plan(),
    layoutMs: performance.now() - layoutStarted,
  };
  const hasAdversaries = start.adversaries.some((a) => a === 1); // read before the buffer is transferred
  post(start, [start.edges.buffer, start.adversaries.buffer, start.positions.buffer, start.coordinates.buffer, start.txPlan.buffer] as ArrayBuffer[]);

  const sends = new SendLog(endUs);
  const counters = new CounterBins(endUs, sends.binUs);
  const pending = { deliveries: [] as Float64Array[], duplicates: [] as Float64Array[], sends: [] as Float64Array[], effects: [] as Float64Array[], sendCount: 0 };
  let lastChunk = performance.now();
  const flush = () => {
    const chunk: RunChunk = {
      kind: 'chunk',
      id: request.id,
      nowUs: sim.now_us,
      events: sim.events,
      deliveries: join(pending.deliveries),
      duplicates: join(pending.duplicates),
      sends: join(pending.sends),
      sendCount: sends.count,
      kinds: sim.kinds(),
      effects: join(pending.effects),
    };
    pending.deliveries = [];
    pending.duplicates = [];
    pending.sends = [];
    pending.effects = [];
    pending.sendCount = 0;
    post(chunk, [chunk.deliveries.buffer, chunk.duplicates.buffer, chunk.sends.buffer, chunk.effects.buffer] as ArrayBuffer[]);
    lastChunk = performance.now();
  };
  let names: string[] = [];
  let more = true;
  while (more) {
    more = sim.advance(endUs, SLICE_EVENTS);
    pending.deliveries.push(sim.take_deliveries());
    pending.duplicates.push(sim.take_duplicates());
    const kept = sends.push(sim.take_sends());
    if (kept.length) pending.sends.push(kept);
    pending.sendCount += kept.length / SEND_STRIDE;
    const counts = sim.take_counts();
    counters.push(counts);
    // Counter names only grow: ask the engine again only when a new one shows up.
    for (let i = 2; i < counts.length; i += 4) if (counts[i] >= names.length) names = sim.counter_names();
    // Timeouts happen in honest networks too: they are marked as effects only where there are adversaries.
    if (hasAdversaries) pending.effects.push(effects(counts, names));
    if (!more || pending.sendCount >= CHUNK_MAX_SENDS || performance.now() - lastChunk > CHUNK_EVERY_MS) {
      flush();
      await yieldToMessages();
      if (me.cancelled) return;
    }
  }
  const counterNames = sim.counter_names();
  const nowUs = sim.now_us;
  const events = sim.events;
  const report = sim.finish();
  const counterBins = counters.flat(counterNames.length);
  post(
    {
      kind: 'done',
      id: request.id,
      nowUs,
      events,
      sendCount: sends.count,
      kinds: sim.kinds(),
      bandwidth: sends.bandwidth,
      binUs: sends.binUs,
      counterBins,
      counterNames,
      report,
      engineMs: performance.now() - started,
    },
    [sends.bandwidth.buffer, counterBins.buffer] as ArrayBuffer[],
  );
}

function join(parts: Float64Array[]): Float64Array {
  if (parts.length === 1) return parts[0];
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function arrivals(request: ArrivalsRequest): void {
  if (!current || current.id !== request.run) {
    post({ kind: 'error', id: request.id, message: 'that run is no longer held by the worker', fatal: false });
    return;
  }
  const found = current.sim.arrivals_range(request.seqLo, request.seqHi, request.untilUs);
  const censoring = current.sim.censoring(request.seqLo);
  post({ kind: 'arrivals', id: request.id, arrivals: found, censoring }, [found.buffer, censoring.buffer] as ArrayBuffer[]);
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
    if (request.kind === 'arrivals') return arrivals(request);
    await simulate(request);
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError;
    if (request.kind === 'run' && current?.id === request.id) dropCurrent();
    post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error), fatal });
  }
};
