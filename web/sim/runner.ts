// One simulation worker per run slot: start a run, hear its network, its chunks as they are
// computed and its end; ask it who has a tx at a time. A worker that crashes (or whose WASM
// instance traps) is replaced by a fresh one on the next start.
import { createPermits, forget, setCap } from '../../workers/permits';
import type { ArrivalsReply, ArrivalsRequest, DuplicatesReply, DuplicatesRequest, FirstCopiesReply, FirstCopiesRequest, InspectReply, SendsReply, SendsRequest, RunChunk, RunDone, RunRequest, RunStart, WorkerReply, WorkerRequest } from '../../workers/protocol';
import engineUrl from '../wasm/txcast_wasm_bg.wasm?url';

export interface RunHandlers {
  start(s: RunStart): void;
  chunk(c: RunChunk): void;
  done(d: RunDone): void;
  /** The engine rejected the run (e.g. an invalid scenario); the worker is fine. */
  failed(message: string): void;
}

export type RunSpec = Omit<RunRequest, 'kind' | 'id' | 'permits'>;

let nextId = 1;

/** A question before it is given its id. */
type Unsent<T> = Omit<T, 'id'>;
/** Questions about the run a worker holds, and their answers. */
type Question = Unsent<ArrivalsRequest> | Unsent<SendsRequest> | Unsent<DuplicatesRequest> | Unsent<FirstCopiesRequest>;
type Answer = ArrivalsReply | SendsReply | DuplicatesReply | FirstCopiesReply;

/** Workers computing at once: one per core the browser reports, so a scenario's runs use them all. */
const permits = createPermits(navigator.hardwareConcurrency || 2);

/** Changes how many workers compute at once (the perf spec compares); false where there are no permits (no isolation). */
export function setComputeCap(cap: number): boolean {
  if (!permits) return false;
  setCap(permits, cap);
  return true;
}
/** Time after which a terminated worker has surely stopped (it stops at its next interrupt check). */
const FORGET_AGAIN_MS = 500;

/**
 * The engine, compiled once for all the workers: each compiling its own, all at once, would hold
 * the cores the page needs as the runs start. Undefined if it cannot be compiled here (each worker
 * then compiles its own, and says what went wrong).
 */
let engine: Promise<WebAssembly.Module | undefined> | null = null;
export function compiledEngine(): Promise<WebAssembly.Module | undefined> {
  engine ??= WebAssembly.compileStreaming(fetch(engineUrl)).catch(() => undefined);
  return engine;
}

export class RunSlot {
  private worker: Worker | null = null;
  private current = 0;
  private handlers: RunHandlers | null = null;

  /**
   * `slot` numbers this slot among the page's (below `PERMIT_SLOTS`); `onCrash` hears of a worker
   * that died or whose engine trapped, busy or not.
   */
  constructor(
    private readonly slot: number,
    private readonly onCrash: (message: string) => void,
  ) {}

  private spawn(): Worker {
    // Whatever this slot's last worker held is freed (again): it may have taken a permit as it was terminated.
    if (permits) forget(permits, this.slot);
    const worker = new Worker(new URL('../../workers/sim.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => this.receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this.crash(`the simulation worker crashed: ${event.message || 'it could not load the WASM core'}`);
    };
    // The worker waits for this before anything else: requests sent meanwhile queue behind it.
    void compiledEngine().then((module) => worker.postMessage({ kind: 'engine', module } satisfies WorkerRequest));
    return worker;
  }

  private inspecting: { id: number; resolve: (r: InspectReply) => void; reject: (e: Error) => void } | null = null;

  /** Questions about the run held (arrival scans, sends to draw, duplicate copies), answered by id. */
  private scans = new Map<number, { kind: Question['kind']; resolve: (r: Answer) => void; reject: (e: Error) => void }>();
  /** The id of the run whose arrival logs the worker holds (in progress or the last finished). */
  private held = 0;

  private receive(reply: WorkerReply): void {
    const scan = this.scans.get(reply.id);
    if (scan) {
      this.scans.delete(reply.id);
      if (reply.kind === scan.kind) scan.resolve(reply as Answer);
      else scan.reject(new Error(reply.kind === 'error' ? reply.message : 'unexpected reply'));
      return;
    }
    if (this.inspecting && reply.id === this.inspecting.id) {
      const pending = this.inspecting;
      this.inspecting = null;
      if (reply.kind === 'inspected') pending.resolve(reply);
      else if (reply.kind === 'error') {
        pending.reject(new Error(reply.message));
        if (reply.fatal) this.crash(`the simulation engine failed: ${reply.message}`);
      }
      return;
    }
    if (reply.id !== this.current || !this.handlers || reply.kind === 'inspected' || reply.kind === 'arrivals' || reply.kind === 'sends' || reply.kind === 'duplicates' || reply.kind === 'first-copies' || reply.kind === 'progress') return;
    if (reply.kind === 'start') return this.handlers.start(reply);
    if (reply.kind === 'chunk') return this.handlers.chunk(reply);
    const handlers = this.handlers;
    this.handlers = null;
    if (reply.kind === 'done') handlers.done(reply);
    else if (reply.fatal) this.crash(`the simulation engine failed: ${reply.message}`);
    else handlers.failed(reply.message);
  }

  private rejectScans(message: string): void {
    for (const scan of this.scans.values()) scan.reject(new Error(message));
    this.scans.clear();
  }

  private crash(message: string): void {
    this.inspecting?.reject(new Error(message));
    this.inspecting = null;
    this.rejectScans(message);
    this.held = 0;
    this.terminate();
    this.handlers = null;
    this.onCrash(message);
  }

  get busy(): boolean {
    return this.handlers !== null;
  }

  /** Starts a run, abandoning (and so terminating) any run still going in this slot. */
  start(spec: RunSpec, handlers: RunHandlers): void {
    if (this.busy) this.stop();
    this.worker ??= this.spawn();
    this.current = nextId++;
    this.held = this.current;
    this.handlers = handlers;
    const request: WorkerRequest = { kind: 'run', id: this.current, ...spec, permits: permits ? { buffer: permits, slot: this.slot } : undefined };
    this.worker.postMessage(request);
  }

  /**
   * A node's state at a simulated time (the worker replays the run to it); one at a time. A run
   * still computing in the worker answers between its slices.
   */
  inspect(spec: RunSpec, tUs: number, node: number, peel = false): Promise<InspectReply> {
    if (this.inspecting) return Promise.reject(new Error('the worker is still inspecting another node'));
    this.worker ??= this.spawn();
    const id = nextId++;
    const request: WorkerRequest = { kind: 'inspect', id, scenario: spec.scenario, run: spec.run, seed: spec.seed, tUs, node, peel };
    return new Promise((resolve, reject) => {
      this.inspecting = { id, resolve, reject };
      this.worker!.postMessage(request);
    });
  }

  /**
   * Who has tx seqs [seqLo, seqHi) at `untilUs` in the run this slot holds, from range scans of
   * its arrival logs. Answered between slices of a run in progress, or after it finished.
   */
  arrivals(seqLo: number, seqHi: number, untilUs: number): Promise<ArrivalsReply> {
    return this.ask({ kind: 'arrivals', run: this.held, seqLo, seqHi, untilUs }) as Promise<ArrivalsReply>;
  }

  /** The sends of the run this slot holds to draw from `fromUs` on (`SendsRequest`). */
  sends(window: Omit<SendsRequest, 'kind' | 'id' | 'run'>): Promise<SendsReply> {
    return this.ask({ kind: 'sends', run: this.held, ...window }) as Promise<SendsReply>;
  }

  /** Duplicate copies of the run this slot holds: tx `tx`'s from row `fromRow` on, or all (`DuplicatesRequest`). */
  duplicates(tx: number, fromRow: number): Promise<DuplicatesReply> {
    return this.ask({ kind: 'duplicates', run: this.held, tx, fromRow }) as Promise<DuplicatesReply>;
  }

  /** Where tx `tx`'s copies landed first past the sends the chunks carried, from row `fromRow` of its sends on (`FirstCopiesRequest`). */
  firstCopies(tx: number, fromRow: number): Promise<FirstCopiesReply> {
    return this.ask({ kind: 'first-copies', run: this.held, tx, fromRow }) as Promise<FirstCopiesReply>;
  }

  private ask(request: Question): Promise<Answer> {
    if (!this.worker || !this.held) return Promise.reject(new Error('no run held'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      this.scans.set(id, { kind: request.kind, resolve, reject });
      this.worker!.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  /** Stops the run in progress: the worker is busy in WASM, so it is terminated. */
  stop(): void {
    this.inspecting?.reject(new Error('stopped'));
    this.inspecting = null;
    this.rejectScans('stopped');
    this.held = 0;
    this.terminate();
    this.handlers = null;
  }

  /** Ends the worker; a permit to compute it held or waited for goes to the others. */
  private terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    if (!permits) return;
    forget(permits, this.slot);
    // A worker stops a moment after it is told to, and may take a permit meanwhile: forget the
    // slot again once it has surely stopped, unless a run in it holds one by then (that run gives
    // back what it finds held in its slot).
    setTimeout(() => {
      if (!this.busy) forget(permits, this.slot);
    }, FORGET_AGAIN_MS);
  }

  /** Test hook: crash this slot's worker. */
  crashForTest(): void {
    this.worker?.postMessage({ kind: 'crash' } satisfies WorkerRequest);
  }
}
