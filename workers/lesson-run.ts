// A lesson's scenario run in the engine with every step and send kept (`record`), or run for
// its report (`report`). The lesson worker calls these; so do the tests, in Node.
import { messages, Simulation } from '../web/wasm/txcast_wasm.js';
import { layoutPositions } from './layout';
import { concat } from './record';
import type { LessonRecord } from './lesson';
import type { PeelData } from '../web/peel/graph';

/** Events per slice: a lesson is small, this only bounds one call. */
const SLICE = 100_000;


export function record(scenario: string, layoutSeed: bigint): LessonRecord {
  const sim = new Simulation(scenario, 0, undefined);
  try {
    sim.capture_sends(true);
    sim.capture_steps();
    const steps: Float64Array[] = [];
    const actions: Float64Array[] = [];
    const sends: Float64Array[] = [];
    for (let more = true; more; ) {
      more = sim.advance(sim.end_us, SLICE);
      steps.push(sim.take_steps());
      actions.push(sim.take_step_actions());
      sends.push(sim.take_sends());
      sim.take_deliveries();
      sim.take_duplicates();
      sim.take_counts();
    }
    const edges = sim.edges();
    const protocol = sim.protocol;
    const out: LessonRecord = {
      protocol,
      nodes: sim.nodes,
      edges,
      positions: layoutPositions(sim.nodes, edges, layoutSeed),
      txPlan: sim.tx_plan(),
      steps: concat(steps),
      actions: concat(actions),
      sends: concat(sends),
      kinds: sim.kinds(),
      kindClasses: sim.kind_classes(),
      timerKinds: sim.timer_kinds(),
      counterNames: sim.counter_names(),
      messages: messages(protocol).map((m) => {
        const note = { kind: m.kind, label: m.label, about: m.about };
        m.free();
        return note;
      }),
      report: sim.finish(),
    };
    return out;
  } finally {
    sim.free();
  }
}

export function report(scenario: string): string {
  const sim = new Simulation(scenario, 0, undefined);
  try {
    while (sim.advance(sim.end_us, SLICE));
    return sim.finish();
  } finally {
    sim.free();
  }
}


/** The scenario run to its end watching `node`'s decoder: its peeling, step by step. */
export function peel(scenario: string, node: number): PeelData {
  const sim = new Simulation(scenario, 0, undefined);
  try {
    if (!sim.watch_decoder(node)) throw new Error(`node ${node} has no decoder to watch (a Strokkur node of this run, before it learns a symbol)`);
    while (sim.advance(sim.end_us, SLICE));
    const view = sim.peeling(node);
    if (!view) throw new Error(`node ${node}'s decoder was not watched`);
    const out: PeelData = { steps: view.steps, ids: view.ids, senders: view.senders, txs: view.txs };
    view.free();
    return out;
  } finally {
    sim.free();
  }
}
