// A lesson run's steps as objects: the engine's flat `StepField` and `ActionField` rows read
// once, with every name (message kind, timer, counter) looked up in the record's tables.
import { ActionField, ActionKind, Knew, MessageClass, StepField, StepInputKind } from '../wasm/txcast_wasm.js';
import type { LessonRecord } from '../../workers/lesson';

export interface Action {
  act: ActionKind;
  /** Receiver of a send, peer disconnected; -1 otherwise. */
  peer: number;
  /** A send's message kind, a timer's kind, a counter's name; '' otherwise. */
  name: string;
  /** A send's spec label ("IWANT"). */
  label: string;
  cls: MessageClass | -1;
  tx: number;
  value: number;
}

export interface Step {
  index: number;
  tUs: number;
  node: number;
  input: StepInputKind;
  /** A message's sender, the peer that came or went; -1 otherwise. */
  peer: number;
  /** A message's kind or a timer's; '' otherwise. */
  name: string;
  /** A message's spec label ("IHAVE"); the timer's kind for a timer. */
  label: string;
  cls: MessageClass | -1;
  tx: number;
  bytes: number;
  knew: Knew | -1;
  knewPeer: number;
  actions: Action[];
}

/** The spec label of each message kind the registry describes (the kind itself if it does not). */
export function labeller(record: Pick<LessonRecord, 'messages'>): (kind: string) => string {
  const labels = new Map(record.messages.map((m) => [m.kind, m.label]));
  return (kind) => labels.get(kind) ?? kind;
}

export function readSteps(record: Pick<LessonRecord, 'steps' | 'actions' | 'kinds' | 'kindClasses' | 'timerKinds' | 'counterNames' | 'messages'>): Step[] {
  const label = labeller(record);
  const out: Step[] = [];
  const { steps, actions } = record;
  let a = 0;
  for (let o = 0, index = 0; o + StepField.Stride <= steps.length; o += StepField.Stride, index += 1) {
    const input = steps[o + StepField.Input] as StepInputKind;
    const k = steps[o + StepField.Kind];
    const message = input === StepInputKind.Message;
    const name = k < 0 ? '' : message ? record.kinds[k] : (record.timerKinds[k] ?? '');
    const step: Step = {
      index,
      tUs: steps[o + StepField.Time],
      node: steps[o + StepField.Node],
      input,
      peer: steps[o + StepField.Peer],
      name,
      label: message ? label(name) : name,
      cls: message ? record.kindClasses[k] : -1,
      tx: steps[o + StepField.Tx],
      bytes: steps[o + StepField.Bytes],
      knew: steps[o + StepField.Knew] as Knew | -1,
      knewPeer: steps[o + StepField.KnewPeer],
      actions: [],
    };
    for (let n = 0; n < steps[o + StepField.Actions]; n += 1, a += ActionField.Stride) {
      const act = actions[a + ActionField.Act] as ActionKind;
      const ak = actions[a + ActionField.Kind];
      const aname = ak < 0 ? '' : act === ActionKind.Send ? record.kinds[ak] : act === ActionKind.Count ? record.counterNames[ak] : (record.timerKinds[ak] ?? '');
      step.actions.push({
        act,
        peer: actions[a + ActionField.Peer],
        name: aname,
        label: act === ActionKind.Send ? label(aname) : aname,
        cls: act === ActionKind.Send ? record.kindClasses[ak] : -1,
        tx: actions[a + ActionField.Tx],
        value: actions[a + ActionField.Value],
      });
    }
    out.push(step);
  }
  return out;
}
