// Types for frames.mjs.
export function utf8(s: string): Uint8Array;
export function concat(...parts: (Uint8Array | number[])[]): Uint8Array;
export function varint(n: number): number[];
export function lenField(field: number, body: Uint8Array): Uint8Array;
export function intField(field: number, value: number): Uint8Array;
export function randomBytes(n: number): Uint8Array;
export const cat: { seenTx(key: Uint8Array): Uint8Array; wantTx(key: Uint8Array): Uint8Array; txs(tx: Uint8Array): Uint8Array };
export const strokkur: { key(key16: Uint8Array): Uint8Array; codeword(ids: number[], payload: Uint8Array, losses?: number): Uint8Array };
export function rpc(parts: { subs?: Uint8Array[]; messages?: Uint8Array[]; control?: Uint8Array | null; extra?: Uint8Array }): Uint8Array;
export function subscription(topic: string, subscribe?: boolean): Uint8Array;
export function ihave(topic: string, ids: Uint8Array[]): Uint8Array;
export function graft(topic: string): Uint8Array;
export function iannounce(topic: string, id: Uint8Array): Uint8Array;
export function ineed(id: Uint8Array): Uint8Array;
export function signedMessage(options: {
  key: { sign(data: Uint8Array): Uint8Array | Promise<Uint8Array> };
  from: Uint8Array;
  publicKey: Uint8Array;
  topic: string;
  data: Uint8Array;
  seqno: number | bigint;
  badSignature?: boolean;
  extra?: Uint8Array;
}): Promise<Uint8Array>;
