// Messages between the page and workers/sim.worker.ts. One request in flight per worker; typed
// arrays in a result are transferred, not copied.

import { SendField, type MessageClass, type NodeInspection } from '../web/wasm/txcast_wasm.js';
import type { PeelData } from '../web/peel/graph';

/** Numbers per send in `RunTrace.sends`: the WASM `take_sends` layout, `SendField`. */
export const SEND_STRIDE: number = SendField.Stride;

export interface RunRequest {
  kind: 'run';
  id: number;
  /** The scenario as JSON text, exactly as the engine parses it. */
  scenario: string;
  /** Index into the scenario's `protocols`. */
  run: number;
  /** Overrides the scenario's seed when set. */
  seed?: bigint;
  /** Seeds the drawing layout, so every run of a scenario shares one picture. */
  layoutSeed: bigint;
  /**
   * Whether to compute the layout. The runs of a scenario share one network, so one of them
   * does; the others send no positions (`RunStart.positions` empty) and the page gives them its.
   */
  layout: boolean;
  /** Permits to compute shared by the page's workers (`workers/permits.ts`) and this worker's slot. */
  permits?: { buffer: SharedArrayBuffer; slot: number };
  /**
   * Continues a run the page already shows up to this time (a change applied live, appended to
   * the scenario's events): the worker computes the new scenario silently before it and streams
   * from it. What came before is the same in both (the core's events never change the past).
   */
  resumeUs?: number;
}

/** Sent between slices of a long run so the page can show a progress bar. */
export interface RunProgress {
  kind: 'progress';
  id: number;
  nowUs: number;
  endUs: number;
  events: number;
}

/** Kinds of adversary effect the worker picks out of the protocol counters (`RunChunk.effects`). */
export const EFFECTS = ['withheld', 'corrupt'] as const;
export type Effect = (typeof EFFECTS)[number];

/** The first message of a run: the network, before anything happens on it. */
export type RunStart = {
  kind: 'start';
  id: number;
  label: string;
  protocol: string;
  nodes: number;
  endUs: number;
  /** Flattened undirected links: a0, b0, a1, b1, ... */
  edges: Uint32Array;
  /** 1 for each adversarial node. */
  adversaries: Uint8Array;
  /** Each node's behaviour by name ("honest", "censor", ...). */
  behaviours: string[];
  /** Seeded force-directed layout, x0, y0, ... in [-1, 1] (empty when the request asked for none). */
  positions: Float32Array;
  /** lat0, lon0, ... for geographic scenarios; empty otherwise. */
  coordinates: Float64Array;
  /** Per tx: created_us, origin. */
  txPlan: Float64Array;
  layoutMs: number;
  /** Where this run's chunks start: 0, or the time it resumes from (`RunRequest.resumeUs`). */
  resumeUs: number;
} & RunEvents;

/** What the run's timed events change, as the core resolved them (`Simulation.changes` and its kin). */
export interface RunEvents {
  /** Laid out by `ChangeField` (what each row changes: `ChangeWhat`), in time order. */
  changes: Float64Array;
  /** Behaviour names, as `ChangeWhat.Behaviour` rows index them. */
  behaviourNames: string[];
  /** When the events happen (and churns end), in ms, and what each is. */
  markTimes: number[];
  markKinds: string[];
  /** Behaviours given in this run that its protocol ignores, one sentence each. */
  notes: string[];
  /** Each node's continent name (geographic scenarios), for picking a region; empty otherwise. */
  continents: string[];
}

/** What a run did in the simulated time since the last chunk (arrays in the `RunTrace` layouts). */
export type RunChunk = {
  kind: 'chunk';
  id: number;
  /** Simulated time computed so far: the page can play up to here. */
  nowUs: number;
  events: number;
  /** Sends kept for drawing (nothing once `SEND_CAP` are kept; the page asks for later ones: `SendsRequest`). */
  sends: Float64Array;
  effects: Float64Array;
} & Pick<RunTrace, 'deliveries' | 'sendCount' | 'kinds' | 'kindClasses'>;

/** The end of a run: the aggregates and the report. */
export type RunDone = {
  kind: 'done';
  id: number;
  nowUs: number;
  events: number;
} & Pick<RunTrace, 'sendCount' | 'sendBytes' | 'duplicateCount' | 'duplicateBytes' | 'sendsKeptUs' | 'kinds' | 'kindClasses' | 'bandwidth' | 'binUs' | 'counterBins' | 'counterNames' | 'report' | 'engineMs'>;

/**
 * Everything the page needs to replay one run, assembled from the start, chunks and end of it
 * (the light node's view builds one by hand, without the optional fields).
 */
export type RunTrace = {
  kind: 'trace';
  id: number;
  label: string;
  protocol: string;
  nodes: number;
  endUs: number;
  /** Simulated time computed so far (`endUs` once the run is done). */
  computedUs?: number;
  edges: Uint32Array;
  adversaries: Uint8Array;
  /** Each node's behaviour by name. */
  behaviours?: string[];
  positions: Float32Array;
  coordinates: Float64Array;
  txPlan: Float64Array;
  /**
   * First arrivals: t_us, node, tx. (Duplicate copies stay in the worker, `DuplicateStore`: the
   * page asks for the picked tx's, `DuplicatesRequest`.)
   */
  deliveries: Float64Array;
  /**
   * Sends kept for drawing (the first `SEND_CAP`), laid out by `SendField` (`SEND_STRIDE` numbers
   * each); the worker keeps them all, and the page asks it for those past these (`SendsRequest`).
   */
  sends: Float64Array;
  /** Sends seen in all (may exceed what `sends` holds). */
  sendCount: number;
  /** Memory the worker keeps all the run's sends in (bytes; `SendStore`), once the run is done. */
  sendBytes?: number;
  /** Duplicate copies the run landed, and the memory the worker keeps them in (bytes; `DuplicateStore`), once it is done. */
  duplicateCount?: number;
  duplicateBytes?: number;
  /** Sends can be drawn before this time (Infinity: all): the worker keeps at most `MAX_SENDS`. */
  sendsKeptUs?: number;
  kinds: string[];
  /** What each kind does (`MessageClass`), index for index with `kinds`. */
  kindClasses: MessageClass[];
  /** Adversary effects: t_us, node, effect (index into `EFFECTS`), n. */
  effects?: Float64Array;
  /** Bytes on the wire per time bin of `binUs`: payload and control, interleaved (empty until done). */
  bandwidth: Float64Array;
  binUs: number;
  /** Protocol counters over time: counter c's per-bin sums (bins of `binUs`) at [c * bins, (c + 1) * bins). */
  counterBins: Float64Array;
  counterNames: string[];
  /** The run's report JSON, exactly as `txsim run --out` writes it ('' until done). */
  report: string;
  engineMs: number;
  layoutMs: number;
} & Partial<RunEvents>;

export interface RunFailure {
  kind: 'error';
  id: number;
  message: string;
  /** The WASM instance trapped: the worker must be replaced before the next run. */
  fatal: boolean;
}

/** A node's state at a simulated time: the run is replayed to that time (deterministically). */
export interface InspectRequest {
  kind: 'inspect';
  id: number;
  scenario: string;
  run: number;
  seed?: bigint;
  tUs: number;
  node: number;
  /** Also watch the node's decoder peel (Strokkur) from the start, and return its peeling. */
  peel?: boolean;
}

/** The engine's `inspect(node)` (a `NodeInspection`), copied out of WASM memory to cross to the page. */
export type Inspection = Fields<NodeInspection>;

/** A wasm-bindgen class's data fields (its methods, `free` among them, left out). */
export type Fields<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };

export interface InspectReply {
  kind: 'inspected';
  id: number;
  inspection: Inspection;
  nowUs: number;
  /** The decoder's peeling up to then, when asked for (`InspectRequest.peel`). */
  peeling?: PeelData;
}

/** A run's trace as the visualizer streams it: every field present. */
export type StreamedTrace = RunTrace & Required<Pick<RunTrace, 'computedUs' | 'behaviours' | 'effects'>> & RunEvents;

/** Who has which tx at a time: the run's arrival logs scanned over txs [seqLo, seqHi). */
export interface ArrivalsRequest {
  kind: 'arrivals';
  id: number;
  /** The run (`RunRequest.id`) to scan: the one in progress or the last finished. */
  run: number;
  seqLo: number;
  seqHi: number;
  untilUs: number;
}

export interface ArrivalsReply {
  kind: 'arrivals';
  id: number;
  /** node, seq, arrival_us triples. */
  arrivals: Float64Array;
  /** Nodes that censor tx `seqLo` at `untilUs` (they hold it and do not pass it on). */
  censoring: Uint32Array;
}

/**
 * The sends the page can draw in flight from `fromUs` on (past those the run's chunks carried,
 * `SEND_CAP`): every send sent in [fromUs - lookbackUs, untilUs) that lands after fromUs, at most
 * `max`. The worker keeps every send of its run (`SendStore`). (A request that lands on a node
 * that withholds the answer marks the node for a while after: windows leave those marks out.)
 */
export interface SendsRequest {
  kind: 'sends';
  id: number;
  /** The run (`RunRequest.id`): the one in progress or the last finished. */
  run: number;
  fromUs: number;
  untilUs: number;
  /** How far back a send may have left and still be drawn at `fromUs`. */
  lookbackUs: number;
  /** Only the sends about this tx (carrying, announcing or asking for it), if not negative. */
  tx: number;
  max: number;
}

export interface SendsReply {
  kind: 'sends';
  id: number;
  /** Laid out by `SendField`, in send order. */
  sends: Float64Array;
  /** Index in the run's sends of the first one here. */
  first: number;
  fromUs: number;
  /** The tx the sends are about, or -1 for all. */
  tx: number;
  /** Times in [fromUs, throughUs) can be drawn from `sends`. */
  throughUs: number;
}

/**
 * Duplicate copies of the run held (`DuplicateStore`): those of tx `tx` recorded from row
 * `fromRow` on (the page holds the picked tx's and asks for what came since), or, with `tx`
 * negative, every one (the trace export).
 */
export interface DuplicatesRequest {
  kind: 'duplicates';
  id: number;
  /** The run (`RunRequest.id`): the one in progress or the last finished. */
  run: number;
  tx: number;
  fromRow: number;
}

export interface DuplicatesReply {
  kind: 'duplicates';
  id: number;
  tx: number;
  fromRow: number;
  /** t_us, node pairs in time order (t_us, node, tx triples when all were asked for). */
  duplicates: Float64Array;
  /** Rows read: ask from here for what comes next. */
  rows: number;
  /** Computed up to here (Infinity once the run is done): copies landing later may still come. */
  throughUs: number;
  /** Copies landing from here on were not kept (Infinity: all were): the worker keeps `MAX_DUPLICATES` a run. */
  keptUntilUs: number;
}

/**
 * Where tx `tx`'s copies landed first among the run's sends past those its chunks carried
 * (`SEND_CAP`), from row `fromRow` of the tx's sends on: the page's hop rings need each node's
 * first copy, which in a big run often comes later than the chunks reach.
 */
export interface FirstCopiesRequest {
  kind: 'first-copies';
  id: number;
  /** The run (`RunRequest.id`): the one in progress or the last finished. */
  run: number;
  tx: number;
  fromRow: number;
}

export interface FirstCopiesReply {
  kind: 'first-copies';
  id: number;
  tx: number;
  fromRow: number;
  /** Per node reached by one: (node, lands_us, from) of its earliest copy not lost among these rows. */
  copies: Float64Array;
  /** Rows read: ask from here for what comes next. */
  rows: number;
  /** Computed up to here (Infinity once the run is done): copies sent later may still come. */
  throughUs: number;
  /** Sends from here on were not kept (Infinity: all were). */
  keptUntilUs: number;
}

/** Test hook: makes the worker throw outside any handler, as a crash would. */
export interface CrashRequest {
  kind: 'crash';
}

/** The engine the page compiled once for all its workers; none if it could not (the worker compiles its own). */
export interface EngineMessage {
  kind: 'engine';
  module?: WebAssembly.Module;
}

export type WorkerRequest = RunRequest | InspectRequest | ArrivalsRequest | SendsRequest | DuplicatesRequest | FirstCopiesRequest | CrashRequest | EngineMessage;

export type WorkerReply = RunProgress | RunStart | RunChunk | RunDone | RunFailure | InspectReply | ArrivalsReply | SendsReply | DuplicatesReply | FirstCopiesReply;
