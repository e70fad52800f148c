// Narration words a step from its record alone: the message, what the node knew, what it did.
import { describe, expect, it } from 'vitest';
import { ActionKind, Knew, MessageClass, StepInputKind } from '../wasm/txcast_wasm.js';
import { narrate } from './narrate';
import type { Action, Step } from './steps';

const send = (peer: number, label: string, tx: number): Action => ({ act: ActionKind.Send, peer, name: label.toLowerCase(), label, cls: MessageClass.Request, tx, value: 60 });
const step = (over: Partial<Step>): Step => ({
  index: 0,
  tUs: 12_300,
  node: 4,
  input: StepInputKind.Message,
  peer: 7,
  name: 'ihave',
  label: 'IHAVE',
  cls: MessageClass.Announcement,
  tx: 2,
  bytes: 80,
  knew: Knew.Unknown,
  knewPeer: -1,
  actions: [],
  ...over,
});

describe('narration', () => {
  it('says why a node asked: it had not seen the tx', () => {
    const line = narrate(step({ actions: [send(7, 'IWANT', 2)] }));
    expect(line.text).toBe('12.3 ms: node 4 got IHAVE about tx 2 from node 7. It had not seen tx 2, so it sent IWANT (tx 2) to node 7.');
    expect(line).toMatchObject({ kind: 'IHAVE', from: 7, to: 4 });
  });
  it('says why a node did not: it had asked another already, or had the tx', () => {
    expect(narrate(step({ knew: Knew.Requested, knewPeer: 3 })).text).toContain('It had already asked node 3 for tx 2, so it sent nothing.');
    const dup = narrate(step({ name: 'tx', label: 'TX', cls: MessageClass.Payload, knew: Knew.Have }));
    expect(dup.text).toContain('It already had tx 2, so it sent nothing. This copy was a duplicate.');
  });
  it('does not give what it knew of the first tx an IHAVE names as why it asked for another', () => {
    const line = narrate(step({ knew: Knew.Have, actions: [send(7, 'IWANT', 3)] }));
    expect(line.text).toBe('12.3 ms: node 4 got IHAVE about tx 2 from node 7. It already had tx 2 (the first tx it names); it sent IWANT (tx 3) to node 7.');
  });
  it('groups a broadcast and sums counters', () => {
    const count = (name: string, value: number): Action => ({ act: ActionKind.Count, peer: -1, name, label: name, cls: -1, tx: -1, value });
    const line = narrate(step({ input: StepInputKind.Timer, peer: -1, name: 'heartbeat', label: 'heartbeat', cls: -1, tx: -1, knew: -1, actions: [send(1, 'GRAFT', -1), send(5, 'GRAFT', -1), count('gossipsub.graft_sent', 1), count('gossipsub.graft_sent', 1)] }));
    expect(line.text).toBe("12.3 ms: node 4's heartbeat timer fired. It sent GRAFT to nodes 1 and 5 and counted gossipsub.graft_sent +2.");
    expect(line).toMatchObject({ kind: 'heartbeat', from: -1, to: 4 });
  });
  it('says when a coded piece gave no new tx, and not when it gave one', () => {
    const codeword = { name: 'codeword', label: 'CODEWORD', cls: MessageClass.Payload, tx: -1, knew: -1 };
    expect(narrate(step(codeword)).text).toBe('12.3 ms: node 4 got CODEWORD from node 7. It sent nothing. No new tx came of it yet.');
    const deliver: Action = { act: ActionKind.Deliver, peer: -1, name: '', label: '', cls: -1, tx: 3, value: 0 };
    expect(narrate(step({ ...codeword, actions: [deliver] })).text).toBe('12.3 ms: node 4 got CODEWORD from node 7. It accepted tx 3.');
  });
  it('puts "an" before a timer named with a vowel, "a" before the others', () => {
    const timer = (name: string): Action => ({ act: ActionKind.Timer, peer: -1, name, label: name, cls: -1, tx: 2, value: 400_000 });
    const line = narrate(step({ actions: [send(7, 'INEED', 2), timer('INEED timeout'), timer('heartbeat')] }));
    expect(line.text).toContain('set an INEED timeout timer for tx 2 to fire at 400.0 ms');
    expect(line.text).toContain('set a heartbeat timer for tx 2');
  });
});
