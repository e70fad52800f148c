// Messages between the page and workers/sim.worker.ts. One request in flight per worker; typed
// arrays in a result are transferred, not copied.

/** Numbers per send in `RunTrace.sends` (the WASM `take_sends` layout). */
export const SEND_STRIDE = 9;

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
}

/** Sent between slices of a long run so the page can show a progress bar. */
export interface RunProgress {
  kind: 'progress';
  id: number;
  nowUs: number;
  endUs: number;
  events: number;
}

/** Everything the page needs to replay one run: the network, what happened, and the report. */
export interface RunTrace {
  kind: 'trace';
  id: number;
  label: string;
  protocol: string;
  nodes: number;
  endUs: number;
  /** Flattened undirected links: a0, b0, a1, b1, ... */
  edges: Uint32Array;
  /** 1 for each adversarial node. */
  adversaries: Uint8Array;
  /** Seeded force-directed layout, x0, y0, ... in [-1, 1]. */
  positions: Float32Array;
  /** lat0, lon0, ... for geographic scenarios; empty otherwise. */
  coordinates: Float64Array;
  /** Per tx: created_us, origin. */
  txPlan: Float64Array;
  /** First arrivals: t_us, node, tx. */
  deliveries: Float64Array;
  /** Duplicate full copies: t_us, node, tx. */
  duplicates: Float64Array;
  /** Sends kept for drawing (the first `SEND_CAP`), `SEND_STRIDE` numbers each: t_us, from, to, kind, bytes, payload, arrive_us, lost, tx (-1 when the message carries no single full tx). */
  sends: Float64Array;
  /** Sends seen in all (may exceed what `sends` holds). */
  sendCount: number;
  kinds: string[];
  /** Bytes on the wire per time bin of `binUs`: payload and control, interleaved. */
  bandwidth: Float64Array;
  binUs: number;
  /** Protocol counters over time: counter c's per-bin sums (bins of `binUs`) at [c * bins, (c + 1) * bins). */
  counterBins: Float64Array;
  counterNames: string[];
  /** The run's report JSON, exactly as `txsim run --out` writes it. */
  report: string;
  engineMs: number;
  layoutMs: number;
}

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
}

export interface InspectReply {
  kind: 'inspected';
  id: number;
  /** The engine's `inspect(node)` JSON: behaviour, peers, state pairs, stats, counters. */
  json: string;
  nowUs: number;
}

/** Test hook: makes the worker throw outside any handler, as a crash would. */
export interface CrashRequest {
  kind: 'crash';
}

export type WorkerRequest = RunRequest | InspectRequest | CrashRequest;

export type WorkerReply = RunProgress | RunTrace | RunFailure | InspectReply;
