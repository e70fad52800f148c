// A lesson's stops (`Stop` in lessons.ts): the first step at or after an index that handles or
// sends the stop's kind, where the node knew what the stop says of the tx.
import { ActionKind, Knew } from '../wasm/txcast_wasm.js';
import type { Stop } from './lessons';
import type { Step } from './steps';

const KNEW: Record<string, Knew> = { unknown: Knew.Unknown, announced: Knew.Announced, requested: Knew.Requested, verifying: Knew.Verifying, have: Knew.Have };

export function matches(step: Step, stop: Stop): boolean {
  if (stop.knew !== undefined && step.knew !== KNEW[stop.knew]) return false;
  if (step.label === stop.kind) return true;
  return stop.knew === undefined && step.actions.some((a) => a.act === ActionKind.Send && a.label === stop.kind);
}

/** The index of the first step from `from` on where `stop` applies, or -1. */
export function stopAt(steps: Step[], stop: Stop, from: number): number {
  for (let i = Math.max(0, from); i < steps.length; i += 1) if (matches(steps[i], stop)) return i;
  return -1;
}

/**
 * The step each stop is at, -1 where it never comes: the first matching one after the previous
 * stop's (a lesson's stops are told in order, and two may name the same kind).
 */
export function stopSteps(steps: Step[], stops: Stop[]): number[] {
  let from = 0;
  return stops.map((stop) => {
    const at = stopAt(steps, stop, from);
    if (at >= 0) from = at + 1;
    return at;
  });
}
