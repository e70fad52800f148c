// Runs a lesson's scenario (8 to 30 nodes) in the same engine as the visualizer, keeping every
// step a node took and every message, so the Learn page can replay and narrate it event by event;
// and runs an experiment's changed scenario for its report.
import init from '../web/wasm/txcast_wasm.js';
import type { LessonReply, LessonRequest } from './lesson';
import { peel, record, report } from './lesson-run';

// Start loading at once but await inside the handler: a top-level await would drop early messages.
const ready = init();

self.onmessage = async (event: MessageEvent<LessonRequest>) => {
  const { id, kind, scenario, layoutSeed, node } = event.data;
  let reply: LessonReply;
  try {
    await ready;
    if (kind === 'record') reply = { id, kind, record: record(scenario, layoutSeed) };
    else if (kind === 'peel') reply = { id, kind, peeling: peel(scenario, node ?? 0) };
    else reply = { id, kind, report: report(scenario) };
  } catch (error) {
    reply = { id, kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  const transfer = reply.kind === 'record' ? [reply.record.edges.buffer, reply.record.positions.buffer, reply.record.steps.buffer, reply.record.actions.buffer, reply.record.sends.buffer] : [];
  self.postMessage(reply, { transfer: transfer as ArrayBuffer[] });
};
