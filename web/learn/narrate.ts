// One line of plain words per step, from the step alone: what the node got (or what fired),
// what it knew of the tx then, and what it did about it. Nothing here is written per lesson.
import { ActionKind, Knew, MessageClass, StepInputKind } from '../wasm/txcast_wasm.js';
import type { Action, Step } from './steps';

export interface Line {
  text: string;
  /** The event's kind: the message's spec label, the timer's kind, or "created", "link up/down". */
  kind: string;
  /** Who sent the message (-1: none, the node acted on its own). */
  from: number;
  /** The node the event happened at. */
  to: number;
}

const nodes = (list: number[]) => (list.length === 1 ? `node ${list[0]}` : `nodes ${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`);
const txs = (list: number[]) => (list.length === 1 ? `tx ${list[0]}` : `txs ${list.join(', ')}`);

/** What the node knew of the tx before, as a clause ("it had not seen tx 2"). */
function knowledge(step: Step): string {
  const tx = `tx ${step.tx}`;
  switch (step.knew) {
    case Knew.Unknown:
      return `it had not seen ${tx}`;
    case Knew.Announced:
      return `it had heard of ${tx} but not asked anyone for it yet`;
    case Knew.Requested:
      return `it had already asked node ${step.knewPeer} for ${tx}`;
    case Knew.Verifying:
      return `it was still checking a copy of ${tx}`;
    case Knew.Have:
      return `it already had ${tx}`;
    default:
      return '';
  }
}

/** The node's actions in a few clauses: sends grouped by kind, then what it accepted and set. */
function deeds(actions: Action[]): string[] {
  const out: string[] = [];
  const sends = new Map<string, { to: number[]; txs: Set<number> }>();
  for (const a of actions) {
    if (a.act !== ActionKind.Send) continue;
    const entry = sends.get(a.label) ?? { to: [], txs: new Set<number>() };
    if (!entry.to.includes(a.peer)) entry.to.push(a.peer);
    if (a.tx >= 0) entry.txs.add(a.tx);
    sends.set(a.label, entry);
  }
  const accepted = actions.filter((a) => a.act === ActionKind.Deliver).map((a) => a.tx);
  if (accepted.length) out.push(`accepted ${txs(accepted)}`);
  for (const [label, { to, txs: about }] of sends) out.push(`sent ${label}${about.size ? ` (${txs([...about])})` : ''} to ${nodes(to)}`);
  for (const a of actions) {
    if (a.act === ActionKind.Timer) out.push(`set ${article(a.name)} ${a.name} timer${a.tx >= 0 ? ` for tx ${a.tx}` : ''} to fire at ${(a.value / 1000).toFixed(1)} ms`);
    if (a.act === ActionKind.Disconnect) out.push(`disconnected node ${a.peer}`);
  }
  // Counters by name, summed (a heartbeat counts a GRAFT per peer grafted).
  const counted = new Map<string, number>();
  for (const a of actions) if (a.act === ActionKind.Count && a.value > 0) counted.set(a.name, (counted.get(a.name) ?? 0) + a.value);
  if (counted.size) out.push(`counted ${[...counted].map(([name, n]) => `${name} +${n}`).join(', ')}`);
  return out;
}

/** "a" or "an" before a timer's name, by its first letter (the names are words or acronyms read as words). */
const article = (name: string) => (/^[aeiou]/i.test(name) ? 'an' : 'a');

function list(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function narrate(step: Step): Line {
  const did = deeds(step.actions);
  const at = `${(step.tUs / 1000).toFixed(1)} ms`;
  const known = step.tx >= 0 ? knowledge(step) : '';
  // What changed inside the node without a message (a mesh joined, a request noted) is not
  // an action: nothing sent is all these words claim.
  const then = did.length ? list(did) : 'sent nothing';
  // A message naming several txs (an IHAVE of a few ids) is recorded with what the node knew of
  // the first: when what it sent is about other txs only, that knowledge is not why.
  const sentAbout = step.actions.filter((a) => a.act === ActionKind.Send && a.tx >= 0).map((a) => a.tx);
  const otherTxs = sentAbout.length > 0 && !sentAbout.includes(step.tx);
  const because = !known ? `It ${then}.` : otherTxs ? `${sentence(known)} (the first tx it names); it ${then}.` : `${sentence(known)}, so it ${then}.`;
  switch (step.input) {
    case StepInputKind.Message: {
      const about = step.tx >= 0 ? ` about tx ${step.tx}` : '';
      const payload = step.cls === MessageClass.Payload;
      const duplicate = payload && step.knew === Knew.Have ? ' This copy was a duplicate.' : '';
      // A coded piece that gave no tx (yet): it waits to be peeled, or named only txs it had.
      const gaveNothing = payload && step.knew !== Knew.Have && !step.actions.some((a) => a.act === ActionKind.Deliver) ? ' No new tx came of it yet.' : '';
      return {
        text: `${at}: node ${step.node} got ${step.label}${about} from node ${step.peer}. ${because}${duplicate}${gaveNothing}`,
        kind: step.label,
        from: step.peer,
        to: step.node,
      };
    }
    case StepInputKind.Timer: {
      const about = step.tx >= 0 ? ` for tx ${step.tx}` : '';
      return { text: `${at}: node ${step.node}'s ${step.label} timer fired${about}. ${because}`, kind: step.label, from: -1, to: step.node };
    }
    case StepInputKind.Submit:
      return { text: `${at}: node ${step.node} created tx ${step.tx}. It ${then}.`, kind: 'created', from: -1, to: step.node };
    case StepInputKind.PeerUp:
    case StepInputKind.PeerDown: {
      const what = step.input === StepInputKind.PeerUp ? 'came up' : 'went down';
      return { text: `${at}: node ${step.node}'s link to node ${step.peer} ${what}. It ${then}.`, kind: `link ${what}`, from: step.peer, to: step.node };
    }
  }
}
