// A message drawn in flight, in words: its type as the protocol's spec writes it, its size, who
// sent it to whom, and the tx it is about. Shown where the pointer (or the keyboard) picks it.
import { messageNote } from '../app/core';
import { count } from '../app/format';
import { MessageClass, SendField } from '../wasm/txcast_wasm.js';
import type { RunTrace } from '../../workers/protocol';

const CLASS_NAMES: Record<MessageClass, string> = {
  [MessageClass.Payload]: 'payload',
  [MessageClass.Announcement]: 'announcement',
  [MessageClass.Request]: 'request',
  [MessageClass.Control]: 'control',
};

export function describeSend(trace: Pick<RunTrace, 'protocol' | 'kinds' | 'kindClasses'>, data: Float64Array, o: number): string {
  const kind = trace.kinds[data[o + SendField.Kind]] ?? '?';
  const note = messageNote(trace.protocol, kind);
  const cls = CLASS_NAMES[trace.kindClasses[data[o + SendField.Kind]]] ?? '';
  const tx = data[o + SendField.Tx] >= 0 ? data[o + SendField.Tx] : data[o + SendField.Subject];
  const about = tx >= 0 ? ` · tx ${tx}` : '';
  return `${note?.label ?? kind} (${cls}) · ${count(data[o + SendField.Bytes])} bytes · node ${data[o + SendField.From]} → node ${data[o + SendField.To]}${about}${note ? ` — ${note.about}` : ''}`;
}
