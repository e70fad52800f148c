// Messages between the page and workers/sim.worker.ts. One request in flight at a time;
// typed arrays in a result are transferred, not copied.

export interface RunRequest {
  kind: 'run';
  id: number;
  seed: bigint;
  nodes: number;
  degree: number;
}

export interface RunResult {
  kind: 'result';
  id: number;
  seed: bigint;
  digest: string;
  events: number;
  nodes: number;
  degree: number;
  origin: number;
  /** Flattened undirected edges: a0, b0, a1, b1, ... */
  edges: Uint32Array;
  /** First arrival per node in simulated microseconds; -1 when the tx never arrived. */
  arrivalUs: Float64Array;
  /** Seeded layout, x0, y0, x1, y1, ... in [-1, 1]. */
  positions: Float32Array;
  /** Wall time spent in the engine and in the layout, in milliseconds. */
  engineMs: number;
  layoutMs: number;
  engineVersion: string;
}

export interface RunFailure {
  kind: 'error';
  id: number;
  message: string;
}

export type WorkerReply = RunResult | RunFailure;
