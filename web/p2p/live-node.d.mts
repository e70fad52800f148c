import type * as wasm from '../wasm/txcast_wasm.js';

/** A wasm-bindgen class's data fields (its methods, `free` among them, left out), as the plain object this module copies it into. */
type Plain<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: T[K] };
/** What a frame carries. */
export type FrameInfo = Plain<wasm.FrameInfo>;
export type OutFrame = Omit<Plain<wasm.OutFrame>, 'info'> & { info: FrameInfo };
export type Delivery = Plain<wasm.Delivery>;
export type Validation = Omit<Plain<wasm.Validation>, 'public_key'> & { publicKey?: Uint8Array };
export type Verdict = 'accept' | 'reject' | 'ignore';
/** The core's glue module, initialised: one WebAssembly instance. */
export type Engine = typeof wasm;
/** A fresh copy of the core's glue module (an instance of its own), initialised with `module`. */
export function loadEngine(glueUrl: string, module: WebAssembly.Module): Promise<Engine>;
/** What the host is told when the engine trapped and was rebuilt. */
export interface Trap {
  /** The engine call that trapped (on_frame, poll, ...). */
  during: string;
  /** The peer number whose frame (or arrival) it was handling, if any. */
  peer?: number;
  error: string;
}
export class LiveNode {
  constructor(glue: unknown, protocol: 'cat' | 'strokkur' | 'gossipsub', config: object, seed: bigint, nowMs: number);
  /** Times the engine trapped and was rebuilt. */
  readonly rebuilt: number;
  onTrap: (trap: Trap) => void;
  peerUp(peer: number, nowMs: number, protocolId?: string): void;
  peerDown(peer: number, nowMs: number): void;
  onFrame(peer: number, bytes: Uint8Array, nowMs: number): FrameInfo | null;
  /** The tx's SHA-256 (hex), or null if the engine trapped on it. */
  submit(bytes: Uint8Array, nowMs: number): string | null;
  maxTxBytes(): number;
  signable(topic: string, data: Uint8Array, from: Uint8Array, seqno: Uint8Array): Uint8Array | null;
  publish(topic: string, data: Uint8Array, nowMs: number, signed?: { from: Uint8Array; seqno: Uint8Array; signature: Uint8Array } | null): string | null;
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
  memoryBytes(): number;
  trapForTest(prefix: Uint8Array): void;
  free(): void;
}
