// Hosts the WASM simulation engine: one run per request, results transferred back to the page.
import init, { demo_flood, version } from '../web/wasm/txcast_wasm.js';
import { layoutPositions } from './layout';
import type { RunRequest, WorkerReply } from './protocol';

// Start loading at once but await inside the handler: a top-level await would drop early messages.
const ready = init();

self.onmessage = async (event: MessageEvent<RunRequest>) => {
  const request = event.data;
  let reply: WorkerReply;
  try {
    await ready;
    const started = performance.now();
    const run = demo_flood(request.seed, request.nodes, request.degree);
    try {
      const engineMs = performance.now() - started;
      const edges = run.edges();
      const arrivalUs = run.arrival_us();
      const layoutStarted = performance.now();
      const positions = layoutPositions(run.nodes, edges, request.seed);
      reply = {
        kind: 'result',
        id: request.id,
        seed: request.seed,
        digest: run.digest,
        events: run.events,
        nodes: run.nodes,
        degree: request.degree,
        origin: run.origin,
        edges,
        arrivalUs,
        positions,
        engineMs,
        layoutMs: performance.now() - layoutStarted,
        engineVersion: version(),
      };
    } finally {
      run.free();
    }
  } catch (error) {
    reply = { kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  const transfer = reply.kind === 'result' ? [reply.edges.buffer, reply.arrivalUs.buffer, reply.positions.buffer] : [];
  self.postMessage(reply, { transfer });
};
