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
}
export interface Arrival {
  firstMs: number;
  own: boolean;
  from: string;
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
