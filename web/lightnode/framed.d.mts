import type { BanList } from './ban.mjs';
export type ProtocolName = 'cat' | 'strokkur';
export const PROTOCOL_IDS: Record<ProtocolName, string>;
export interface Limits {
  maxFrameBytes: number;
  framesPerSecond: number;
  frameBurst: number;
  bytesPerSecond: number;
  byteBurst: number;
  maxStrikes: number;
  maxQueuedBytes: number;
}
export const DEFAULT_LIMITS: Limits;
export const LIVE_CONFIGS: Record<ProtocolName, object>;
/** The WASM LightNode's face (web/wasm/txcast_wasm.d.ts). */
export interface Engine {
  peer_up(peer: number, now_ms: number): void;
  peer_down(peer: number, now_ms: number): void;
  on_frame(peer: number, bytes: Uint8Array, now_ms: number): boolean;
  submit(len: number, now_ms: number): string;
  poll(now_ms: number): void;
  next_deadline_ms(): number | undefined;
  take_frames(): Uint8Array;
  take_delivered(): string[];
  take_disconnects(): Uint32Array;
  /** "kind payload_bytes tx" (tx = hex id of a full tx, or -); '' when the frame does not decode. */
  frame_info(bytes: Uint8Array): string;
  counters(): string;
}
export interface FramedStats {
  delivered: number;
  own: number;
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  malformed: number;
  oversized: number;
  rateLimited: number;
  dropped: number;
  disconnected: number;
  /** Full copies of txs we already had. */
  duplicates: number;
  /** Peers turned away because they are banned. */
  refused: number;
  /** Of bytesIn / bytesOut, tx payload (counted only with onWire). */
  payloadIn: number;
  payloadOut: number;
}
export interface FrameInfo {
  kind: string;
  payload: number;
  /** Hex id of the full tx the frame carries, or ''. */
  tx: string;
}
export interface Arrival {
  firstMs: number;
  own: boolean;
  from: string;
  /** A later full copy of a tx we had (firstMs is then when this copy came). */
  duplicate?: boolean;
}
export function splitFrames(flat: Uint8Array): Array<[number, Uint8Array]>;
export class FramedProtocol {
  constructor(options: {
    libp2p: unknown;
    name: ProtocolName;
    engine: Engine;
    limits?: Partial<Limits>;
    now?: () => number;
    onChange?: () => void;
    onArrival?: (arrival: Arrival & { protocol: ProtocolName; id: string }) => void;
    onWire?: ((direction: 'in' | 'out', peer: string, bytes: number, info: FrameInfo) => void) | null;
    bans?: BanList | null;
    log?: (line: string) => void;
  });
  readonly name: ProtocolName;
  readonly protocol: string;
  readonly stats: FramedStats;
  readonly arrivals: Map<string, Arrival>;
  readonly peers: Map<string, unknown>;
  start(): Promise<void>;
  stop(): Promise<void>;
  submit(bytes: number): string;
  counters(): Record<string, number>;
}
