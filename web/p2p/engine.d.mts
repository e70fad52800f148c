/** What a frame carries. */
export interface FrameInfo {
  /** Message kinds in order (one per GossipSub RPC entry). */
  kinds: string[];
  /** GossipSub: each entry's topic as far as this node knows ('' if not); absent or empty otherwise. */
  topics?: string[];
  /** Bytes of transaction payload. */
  payload: number;
  /** SHA-256 (hex) of each full tx carried. */
  txs: string[];
}
export interface OutFrame {
  peer: number;
  bytes: Uint8Array;
  urgent: boolean;
  info: FrameInfo;
}
export interface Delivery {
  hash: string;
  /** The GossipSub topic ('' for CAT and Strokkur). */
  topic: string;
  data: Uint8Array;
}
export interface Validation {
  handle: number;
  topic: string;
  data: Uint8Array;
  signable: Uint8Array;
  signature?: Uint8Array;
  from?: Uint8Array;
  publicKey?: Uint8Array;
}
export type Verdict = 'accept' | 'reject' | 'ignore';
export class Engine {
  constructor(LightNode: unknown, protocol: 'cat' | 'strokkur' | 'gossipsub', config: object, seed: bigint, nowMs: number);
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
