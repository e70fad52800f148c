import type * as wasm from '../wasm/txcast_wasm.js';

/** A wasm-bindgen class's data fields (its methods, `free` among them, left out), as the plain object this module copies it into. */
type Plain<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };
/** What a frame carries. */
export type FrameInfo = Plain<wasm.FrameInfo>;
export type OutFrame = Omit<Plain<wasm.OutFrame>, 'info'> & { info: FrameInfo };
export type Delivery = Plain<wasm.Delivery>;
export type Validation = Omit<Plain<wasm.Validation>, 'public_key'> & { publicKey?: Uint8Array };
export type Verdict = 'accept' | 'reject' | 'ignore';
export class LiveNode {
  constructor(WasmLiveNode: unknown, protocol: 'cat' | 'strokkur' | 'gossipsub', config: object, seed: bigint, nowMs: number);
  peerUp(peer: number, nowMs: number, protocolId?: string): void;
  peerDown(peer: number, nowMs: number): void;
  onFrame(peer: number, bytes: Uint8Array, nowMs: number): FrameInfo | null;
  submit(bytes: Uint8Array, nowMs: number): string;
  signable(topic: string, data: Uint8Array, from: Uint8Array, seqno: Uint8Array): Uint8Array;
  publish(topic: string, data: Uint8Array, nowMs: number, signed?: { from: Uint8Array; seqno: Uint8Array; signature: Uint8Array } | null): string;
  validated(handle: number, verdict: Verdict, nowMs: number): void;
  topicPeers(topic: string): number;
  meshPeers(topic: string): number;
  poll(nowMs: number): void;
  nextDeadlineMs(): number | undefined;
  takeFrames(): OutFrame[];
  takeDelivered(): Delivery[];
  takeValidations(): Validation[];
  takeDisconnects(): number[];
  counters(): Record<string, number>;
  free(): void;
}
