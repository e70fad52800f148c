// Messages between the Learn page (web/learn/) and workers/lesson.worker.ts: a lesson's small
// scenario recorded step by step, and the reports an experiment compares.
import type { MessageClass } from '../web/wasm/txcast_wasm.js';
import type { PeelData } from '../web/peel/graph';

export interface LessonRequest {
  id: number;
  /**
   * 'record': run the scenario's first protocol with every step kept; 'report': run it and
   * report; 'peel': run it watching `node`'s decoder (Strokkur) and return its peeling.
   */
  kind: 'record' | 'report' | 'peel';
  scenario: string;
  /** Seeds the drawing layout ('record' only). */
  layoutSeed: bigint;
  /** The node whose decoder to watch ('peel' only). */
  node?: number;
}

/** A kind of message as the registry describes it. */
export interface MessageNote {
  kind: string;
  label: string;
  about: string;
}

/** One run of a lesson's scenario, every step and send kept. */
export interface LessonRecord {
  protocol: string;
  nodes: number;
  edges: Uint32Array;
  positions: Float32Array;
  /** Per tx: created_us, origin. */
  txPlan: Float64Array;
  /** Laid out by `StepField`; each step's actions follow in `actions` (`ActionField`). */
  steps: Float64Array;
  actions: Float64Array;
  /** Laid out by `SendField`. */
  sends: Float64Array;
  kinds: string[];
  kindClasses: MessageClass[];
  timerKinds: string[];
  counterNames: string[];
  messages: MessageNote[];
  /** The run's report JSON, as `txsim run` writes it. */
  report: string;
}

export type LessonReply =
  | { id: number; kind: 'record'; record: LessonRecord }
  | { id: number; kind: 'peel'; peeling: PeelData }
  | { id: number; kind: 'report'; report: string }
  | { id: number; kind: 'error'; message: string };
