// A message drawn in flight, in words: its type as the protocol's spec writes it, its size, who
// sent it to whom, and the tx it is about. Shown where the pointer (or the keyboard) picks it.
import { count } from '../app/format';
import { MessageClass, SendField } from '../wasm/txcast_wasm.js';
import type { RunTrace } from '../../workers/protocol';

const CLASS_NAMES: Record<MessageClass, string> = {
  [MessageClass.Payload]: 'payload',
  [MessageClass.Announcement]: 'announcement',
  [MessageClass.Request]: 'request',
  [MessageClass.Control]: 'control',
};

/** What the registry says of a kind of message (the core's `messages()`), if known here. */
export type MessageLookup = (kind: string) => { label: string; about: string } | undefined;

export function describeSend(trace: Pick<RunTrace, 'kinds' | 'kindClasses'>, note: MessageLookup, data: Float64Array, o: number): string {
  const kind = trace.kinds[data[o + SendField.Kind]] ?? '?';
  const about = note(kind);
  const cls = CLASS_NAMES[trace.kindClasses[data[o + SendField.Kind]]] ?? '';
  const tx = data[o + SendField.Tx] >= 0 ? data[o + SendField.Tx] : data[o + SendField.Subject];
  const which = tx >= 0 ? ` · tx ${tx}` : '';
  return `${about?.label ?? kind} (${cls}) · ${count(data[o + SendField.Bytes])} bytes · node ${data[o + SendField.From]} → node ${data[o + SendField.To]}${which}${about ? ` — ${about.about}` : ''}`;
}
