// Hosts the WASM simulation engine: runs one scenario run in bounded slices and streams what
// happened to the page chunk by chunk, so playback starts while the run is still computing.
// Between slices it yields, so the page's seeks (arrival-log range scans) are answered mid-run,
// and it computes a slice only while it holds a permit (workers/permits.ts), so the page's
// workers leave the page a core.
import init, { CountField, Simulation } from '../web/wasm/txcast_wasm.js';
import { layoutPositions } from './layout';
import type { PeelData } from '../web/peel/graph';
import { SEND_STRIDE, type ArrivalsRequest, type DuplicatesRequest, type FirstCopiesRequest, type SendsRequest, type Inspection, type InspectRequest, type RunChunk, type RunRequest, type RunStart, type WorkerReply, type WorkerRequest } from './protocol';
import { NO_PERMIT, SharedPermit, type Permit } from './permits';
import { concat, counterEffects, CounterBins, SEND_CAP, SendLog } from './record';
import { SendStore } from './send-store';
import { DuplicateStore } from './duplicate-store';

/** Events per slice: between slices the worker checks its turn and the size of its chunk. */
const SLICE_EVENTS = 10_000;
/**
 * Wall time a worker computes, slice after slice, before it gives its permit back (and answers the
 * page while it waits for the next). Where runs take turns on fewer cores than workers, each hand-over
 * costs the next worker's wake-up and the caches the last one left warm: 4 Strokkur runs on 2 cores
 * computed 11-13% more in 10 s in turns of 100 ms than in turns of one 10,000-event slice (turns of
 * 50 ms: 3-15%).
 */
const PERMIT_TURN_MS = 100;
/** Wall time between chunks: often enough to play smoothly behind the engine, rarely enough to batch. */
const CHUNK_EVERY_MS = 120;
/** Sends per chunk at most: the page indexes a chunk in one task, which must stay short. */
const CHUNK_MAX_SENDS = 8192;

// The page sends the engine compiled once for all its workers as its first message (every worker
// compiling its own, all at once, would hold the cores the page needs as it starts). Handlers
// await it: a top-level await would drop early messages.
let engineArrived: (module: WebAssembly.Module | undefined) => void = () => undefined;
const ready = new Promise<WebAssembly.Module | undefined>((resolve) => (engineArrived = resolve)).then((module) => init(module ? { module_or_path: module } : undefined));

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

/** The run in progress, or the last one finished (its arrival logs stay scannable, its sends and duplicates drawable). */
let current: { id: number; sim: Simulation; sends: SendStore; duplicates: DuplicateStore; done: boolean; cancelled: boolean } | null = null;

function dropCurrent(): void {
  if (!current) return;
  current.cancelled = true;
  current.sim.free();
  current = null;
}

/** Each counter's adversary effect, as the core describes its counters (read once the engine is ready). */
let effectOf: Map<string, number> | null = null;

/** Picks the adversary effects out of counter moves (t, node, counter, n), by counter name. */
function effects(counts: Float64Array, names: string[]): Float64Array {
  effectOf ??= counterEffects();
  const out: number[] = [];
  for (let i = 0; i + CountField.Stride <= counts.length; i += CountField.Stride) {
    const effect = effectOf.get(names[counts[i + CountField.Counter]] ?? '') ?? -1;
    if (effect >= 0) out.push(counts[i + CountField.Time], counts[i + CountField.Node], effect, counts[i + CountField.N]);
  }
  return Float64Array.from(out);
}

/**
 * Runs `work` holding a permit to compute, asked for with the run's simulated time `nowUs`;
 * undefined, without running it, if `stale()` by then.
 */
async function holding<T>(permit: Permit, nowUs: number, stale: () => boolean, work: () => T): Promise<T | undefined> {
  await permit.acquire(nowUs / 1000);
  try {
    return stale() ? undefined : work();
  } finally {
    permit.release();
  }
}

async function simulate(request: RunRequest): Promise<void> {
  const started = performance.now();
  dropCurrent();
  const sim = new Simulation(request.scenario, request.run, request.seed);
  const me = { id: request.id, sim, sends: new SendStore(), duplicates: new DuplicateStore(), done: false, cancelled: false };
  current = me;
  sim.capture_sends(true);
  const permit = request.permits ? new SharedPermit(request.permits.buffer, request.permits.slot) : NO_PERMIT;
  const cancelled = () => me.cancelled;
  const endUs = sim.end_us;
  const nodes = sim.nodes;
  const edges = sim.edges();
  // The layout is the heaviest part of a big run's start.
  const layout = !request.layout
    ? { positions: new Float32Array(0), ms: 0 }
    : await holding(permit, sim.now_us, cancelled, () => {
        const layoutStarted = performance.now();
        return { positions: layoutPositions(nodes, edges, request.layoutSeed), ms: performance.now() - layoutStarted };
      });
  if (!layout) return;
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
    positions: layout.positions,
    coordinates: sim.coordinates(),
    txPlan: sim.tx_plan(),
    layoutMs: layout.ms,
    resumeUs: request.resumeUs ?? 0,
    changes: sim.changes(),
    behaviourNames: sim.behaviour_names(),
    markTimes: Array.from(sim.mark_times()),
    markKinds: sim.mark_kinds(),
    notes: sim.notes(),
    continents: sim.node_continents(),
  };
  const hasAdversaries = start.adversaries.some((a) => a === 1); // read before the buffer is transferred
  post(start, [start.edges.buffer, start.adversaries.buffer, start.positions.buffer, start.coordinates.buffer, start.txPlan.buffer, start.changes.buffer] as ArrayBuffer[]);

  const sends = new SendLog(endUs);
  const counters = new CounterBins(endUs, sends.binUs);
  const pending = { deliveries: [] as Float64Array[], sends: [] as Float64Array[], effects: [] as Float64Array[], sendCount: 0 };
  let lastChunk = performance.now();
  const flush = () => {
    const chunk: RunChunk = {
      kind: 'chunk',
      id: request.id,
      nowUs: sim.now_us,
      events: sim.events,
      deliveries: concat(pending.deliveries),
      sends: concat(pending.sends),
      sendCount: sends.count,
      kinds: sim.kinds(),
      kindClasses: sim.kind_classes(),
      effects: concat(pending.effects),
    };
    pending.deliveries = [];
    pending.sends = [];
    pending.effects = [];
    pending.sendCount = 0;
    post(chunk, [chunk.deliveries.buffer, chunk.sends.buffer, chunk.effects.buffer] as ArrayBuffer[]);
    lastChunk = performance.now();
  };
  let names: string[] = [];
  const resumeUs = request.resumeUs ?? 0;
  /**
   * One slice of events, and what it recorded added to the pending chunk (before `resumeUs`, the
   * page has it already: only the bandwidth and counter bins take it); false once the run is over.
   */
  const slice = (): boolean => {
    const quiet = sim.now_us + 1 < resumeUs;
    const more = sim.advance(quiet ? resumeUs - 1 : endUs, SLICE_EVENTS);
    const deliveries = sim.take_deliveries();
    // Kept here, before `resumeUs` too (the page asks for them: it holds only the picked tx's).
    me.duplicates.append(sim.take_duplicates());
    const all = sim.take_sends();
    me.sends.append(all);
    const kept = sends.push(all);
    const counts = sim.take_counts();
    counters.push(counts);
    // Counter names only grow: ask the engine again only when a new one shows up.
    for (let i = CountField.Counter; i < counts.length; i += CountField.Stride) if (counts[i] >= names.length) names = sim.counter_names();
    if (quiet) return more;
    pending.deliveries.push(deliveries);
    if (kept.length) pending.sends.push(kept);
    pending.sendCount += kept.length / SEND_STRIDE;
    // Timeouts happen in honest networks too: they are marked as effects only where there are adversaries.
    if (hasAdversaries) pending.effects.push(effects(counts, names));
    return more;
  };
  const chunkFull = () => pending.sendCount >= CHUNK_MAX_SENDS;
  const chunkDue = () => chunkFull() || performance.now() - lastChunk > CHUNK_EVERY_MS;
  /** Slices while the permit is held: until the run ends, the chunk is full or the turn is over. */
  const turn = (): boolean => {
    const started = performance.now();
    let more = slice();
    while (more && !chunkFull() && performance.now() - started < PERMIT_TURN_MS) more = slice();
    return more;
  };
  for (let more = true; more; ) {
    const next = await holding(permit, sim.now_us, cancelled, turn);
    if (next === undefined) return;
    more = next;
    if (!more || chunkDue()) {
      // Before `resumeUs` there is nothing to send: the page shows it already.
      if (!more || sim.now_us + 1 >= resumeUs) flush();
      else lastChunk = performance.now();
      await yieldToMessages();
      if (me.cancelled) return;
    }
  }
  me.done = true;
  me.sends.trim();
  // Finishing is short and frees the run's memory: it goes first, as a run that has not begun would.
  const end = await holding(permit, 0, cancelled, () => {
    const counterNames = sim.counter_names();
    return { counterNames, nowUs: sim.now_us, events: sim.events, report: sim.finish(), counterBins: counters.flat(counterNames.length) };
  });
  if (!end) return;
  post(
    {
      kind: 'done',
      id: request.id,
      nowUs: end.nowUs,
      events: end.events,
      sendCount: sends.count,
      sendBytes: me.sends.bytes,
      duplicateCount: me.duplicates.count + me.duplicates.dropped,
      duplicateBytes: me.duplicates.bytes,
      sendsKeptUs: me.sends.keptUntilUs,
      kinds: sim.kinds(),
      kindClasses: sim.kind_classes(),
      bandwidth: sends.bandwidth,
      binUs: sends.binUs,
      counterBins: end.counterBins,
      counterNames: end.counterNames,
      report: end.report,
      engineMs: performance.now() - started,
    },
    [sends.bandwidth.buffer, end.counterBins.buffer] as ArrayBuffer[],
  );
}

/** The run a question is about, if this worker still holds it (else the question is answered with an error). */
function heldRun(request: ArrivalsRequest | SendsRequest | DuplicatesRequest | FirstCopiesRequest): NonNullable<typeof current> | null {
  if (current && current.id === request.run) return current;
  post({ kind: 'error', id: request.id, message: 'that run is no longer held by the worker', fatal: false });
  return null;
}

function arrivals(request: ArrivalsRequest): void {
  const run = heldRun(request);
  if (!run) return;
  const found = run.sim.arrivals_range(request.seqLo, request.seqHi, request.untilUs);
  const censoring = run.sim.censoring(request.seqLo, request.untilUs);
  post({ kind: 'arrivals', id: request.id, arrivals: found, censoring }, [found.buffer, censoring.buffer] as ArrayBuffer[]);
}

/** The sends of the run held that can be drawn over a stretch of time (`SendsRequest`). */
function sendsWindow(request: SendsRequest): void {
  const run = heldRun(request);
  if (!run) return;
  const { fromUs, untilUs, lookbackUs, max, tx } = request;
  const computed = run.done ? Infinity : run.sim.now_us;
  const found = run.sends.window(fromUs - lookbackUs, fromUs, untilUs, max, computed, tx);
  post({ kind: 'sends', id: request.id, sends: found.rows, first: found.first, fromUs, tx, throughUs: found.through }, [found.rows.buffer] as ArrayBuffer[]);
}

/** Duplicate copies of the run held: one tx's from a row on, or all of them (`DuplicatesRequest`). */
function duplicatesOf(request: DuplicatesRequest): void {
  const run = heldRun(request);
  if (!run) return;
  const { tx, fromRow } = request;
  const found = tx >= 0 ? run.duplicates.of(tx, fromRow) : { pairs: run.duplicates.all(), rows: run.duplicates.count };
  const throughUs = run.done ? Infinity : run.sim.now_us;
  const keptUntilUs = run.duplicates.keptUntilUs;
  post({ kind: 'duplicates', id: request.id, tx, fromRow, duplicates: found.pairs, rows: found.rows, throughUs, keptUntilUs }, [found.pairs.buffer] as ArrayBuffer[]);
}

/** Where one tx's copies landed first among the sends the chunks did not carry (`FirstCopiesRequest`). */
function firstCopiesOf(request: FirstCopiesRequest): void {
  const run = heldRun(request);
  if (!run) return;
  const { tx, fromRow } = request;
  const found = run.sends.firstCopies(tx, fromRow, SEND_CAP);
  const throughUs = run.done ? Infinity : run.sim.now_us;
  post({ kind: 'first-copies', id: request.id, tx, fromRow, copies: found.copies, rows: found.rows, throughUs, keptUntilUs: run.sends.keptUntilUs }, [found.copies.buffer] as ArrayBuffer[]);
}

/** The run last inspected, kept so inspecting later times of it only simulates forward. */
let inspected: { key: string; sim: Simulation } | null = null;

/** Advances `sim` to `tUs`, keeping nothing of its trace. */
function replayTo(sim: Simulation, tUs: number): void {
  for (;;) {
    const before = sim.events;
    const more = sim.advance(tUs, SLICE_EVENTS);
    // Nothing is kept: the trace arrays are only drained.
    sim.take_deliveries();
    sim.take_duplicates();
    sim.take_counts();
    if (!more || sim.now_us >= tUs || sim.events === before) break;
  }
}

/** A node's decoder watched from the start of the run to `tUs`: its peeling. */
function peelTo(request: InspectRequest): PeelData {
  const sim = new Simulation(request.scenario, request.run, request.seed);
  try {
    if (!sim.watch_decoder(request.node)) throw new Error(`node ${request.node} has no decoder to watch`);
    replayTo(sim, request.tUs);
    const view = sim.peeling(request.node);
    if (!view) throw new Error(`node ${request.node}'s decoder was not watched`);
    const out: PeelData = { steps: view.steps, ids: view.ids, senders: view.senders, txs: view.txs };
    view.free();
    return out;
  } finally {
    sim.free();
  }
}

function inspect(request: InspectRequest): Inspection {
  const key = `${request.run}|${request.seed ?? ''}|${request.scenario}`;
  if (!inspected || inspected.key !== key || inspected.sim.now_us > request.tUs) {
    inspected?.sim.free();
    inspected = null;
    inspected = { key, sim: new Simulation(request.scenario, request.run, request.seed) };
  }
  const { sim } = inspected;
  replayTo(sim, request.tUs);
  const found = sim.inspect(request.node);
  const { node, behaviour, peers, state_names, state_values, delivered, duplicates, bytes_up, bytes_down, counter_names, counter_values } = found;
  const { group_names, group_nodes, group_ends, table_titles, columns, column_ends, cells, cell_ends, row_nodes } = found;
  found.free();
  return { node, behaviour, peers, state_names, state_values, delivered, duplicates, bytes_up, bytes_down, counter_names, counter_values, group_names, group_nodes, group_ends, table_titles, columns, column_ends, cells, cell_ends, row_nodes };
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.kind === 'crash') {
    setTimeout(() => {
      throw new Error('crash requested by the page');
    });
    return;
  }
  if (request.kind === 'engine') return engineArrived(request.module);
  try {
    await ready;
    if (request.kind === 'inspect') {
      const inspection = inspect(request);
      const peeling = request.peel ? peelTo(request) : undefined;
      post({ kind: 'inspected', id: request.id, inspection, nowUs: inspected?.sim.now_us ?? request.tUs, peeling });
      return;
    }
    if (request.kind === 'arrivals') return arrivals(request);
    if (request.kind === 'sends') return sendsWindow(request);
    if (request.kind === 'duplicates') return duplicatesOf(request);
    if (request.kind === 'first-copies') return firstCopiesOf(request);
    await simulate(request);
  } catch (error) {
    const fatal = error instanceof WebAssembly.RuntimeError;
    if (request.kind === 'run' && current?.id === request.id) dropCurrent();
    post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error), fatal });
  }
};
