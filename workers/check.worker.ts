// Checks scenarios for the editor off the page's thread: the engine's check builds the whole
// network (a large scenario takes long enough to freeze the page if done there).
import init, { check_scenario } from '../web/wasm/txcast_wasm.js';
import type { CheckReply, CheckRequest } from './check';

// Start loading at once but await inside the handler: a top-level await would drop early messages.
const ready = init();

self.onmessage = async (event: MessageEvent<CheckRequest>) => {
  const { id, scenario } = event.data;
  let reply: CheckReply;
  try {
    await ready;
    reply = { id, ok: true, summary: check_scenario(scenario) };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
