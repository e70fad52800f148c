// A change applied live in the page, written into the scenario as one of its timed `events`:
// it shows in the editor, travels in the share link, and `txsim run` replays it to the digest.

/** A scenario event without its time (`{"kind": "leave", "nodes": [3, 7]}`). */
export type LiveChange = { kind: string } & Record<string, unknown>;

type Json = Record<string, unknown>;

/** Puts `change` at `atMs` into a list of events, after every event due no later (the list stays in time order). */
function insert(events: unknown, change: LiveChange, atMs: number): Json[] {
  const list = Array.isArray(events) ? (events as Json[]) : [];
  const at = list.findIndex((e) => typeof e?.at_ms === 'number' && e.at_ms > atMs);
  const event = { at_ms: atMs, ...change };
  return at < 0 ? [...list, event] : [...list.slice(0, at), event, ...list.slice(at)];
}

/**
 * The scenario text with `change` at `atMs` in its events, and in the own events of every run
 * that brings some, so that every run sees it. Throws if the text is not a JSON object.
 */
export function withEvent(text: string, change: LiveChange, atMs: number): string {
  const scenario = JSON.parse(text) as Json;
  if (typeof scenario !== 'object' || scenario === null || Array.isArray(scenario)) throw new Error('the scenario is not a JSON object');
  scenario.events = insert(scenario.events, change, atMs);
  if (Array.isArray(scenario.protocols)) {
    for (const run of scenario.protocols as Json[]) if (Array.isArray(run?.events)) run.events = insert(run.events, change, atMs);
  }
  return JSON.stringify(scenario, null, 2);
}

/** When a change made at `tUs` of the shown time takes effect: the next whole ms, so nothing shown so far changes. */
export function changeAtMs(tUs: number): number {
  return Math.floor(tUs / 1000) + 1;
}
