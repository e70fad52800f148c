import type { BanList } from './ban.mjs';
import type { Delivery, LiveNode, FrameInfo, Validation } from './live-node.mjs';
export type ProtocolName = 'cat' | 'strokkur' | 'gossipsub';
export const PROTOCOL_IDS: Record<'cat' | 'strokkur', string>;
export interface Limits {
  maxFrameBytes: number;
  framesPerSecond: number;
  frameBurst: number;
  bytesPerSecond: number;
  byteBurst: number;
  maxStrikes: number;
  maxQueuedBytes: number;
  maxQueuedTotal: number;
  stallMs: number;
  maxReadingBytes: number;
  frameMs: number;
}
export const DEFAULT_LIMITS: Limits;
export const LIVE_CONFIGS: Record<'cat' | 'strokkur', object>;
/** Largest transaction each protocol carries on the live network. */
export const MAX_TX_BYTES: Record<ProtocolName, number>;
export interface FramedStats {
  delivered: number;
  own: number;
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  malformed: number;
  oversized: number;
  /** Streams that ended inside a frame (a peer that went mid-frame; no strike). */
  cutShort: number;
  /** Streams ended because a long frame let in did not come in full within frameMs (a strike). */
  slowFrames: number;
  /** Frames read later than they came: their peer was over its rate (backpressure, no penalty). */
  throttled: number;
  /** Frames not queued for a peer: its queue, or all queues together, were full. */
  dropped: number;
  /** Peers let go (not banned) for taking none of what was queued for them for stallMs. */
  stalled: number;
  /** Our streams to a peer that could not be opened, failed or were reset (the peer is let go). */
  streamFailures: number;
  /** Peers that came up (each connection of a peer counts). */
  peersUp: number;
  disconnected: number;
  /** Full copies of txs we already had. */
  duplicates: number;
  /** Peers turned away because they are banned. */
  refused: number;
  /** Of bytesIn / bytesOut, tx payload. */
  payloadIn: number;
  payloadOut: number;
  /** Times the engine trapped and was rebuilt. */
  traps: number;
}
export interface Arrival {
  firstMs: number;
  own: boolean;
  from: string;
  /** A later full copy of a tx we had (firstMs is then when this copy came). */
  duplicate?: boolean;
}
export type LiveNodeApi = Pick<LiveNode, 'peerUp' | 'peerDown' | 'onFrame' | 'submit' | 'poll' | 'nextDeadlineMs' | 'takeFrames' | 'takeDelivered' | 'takeValidations' | 'takeDisconnects' | 'counters' | 'onTrap' | 'memoryBytes'>;
export class FramedProtocol {
  constructor(options: {
    libp2p: unknown;
    name: ProtocolName;
    live: LiveNodeApi;
    protocols?: string[];
    limits?: Partial<Limits>;
    now?: () => number;
    onChange?: () => void;
    onArrival?: (arrival: Arrival & { protocol: ProtocolName; id: string }) => void;
    onDeliver?: (delivery: Delivery & { from: string }) => void;
    onValidate?: ((asked: Validation[], from: string) => void) | null;
    isTx?: (delivery: Delivery) => boolean;
    onWire?: ((direction: 'in' | 'out', peer: string, bytes: number, info: FrameInfo) => void) | null;
    bans?: BanList | null;
    log?: (line: string) => void;
  });
  readonly name: ProtocolName;
  readonly protocols: string[];
  readonly live: LiveNodeApi;
  readonly limits: Limits;
  /** Bytes queued for all peers. */
  readonly queued: number;
  readonly stats: FramedStats;
  readonly arrivals: Map<string, Arrival>;
  readonly peers: Map<string, unknown>;
  readonly kindsIn: Record<string, number>;
  readonly kindsOut: Record<string, number>;
  /** The same, by GossipSub topic ('' for entries whose topic this node does not know). */
  readonly topicKindsIn: Record<string, Record<string, number>>;
  readonly topicKindsOut: Record<string, Record<string, number>>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Frames read from a peer (by id) over all its connections, while it is among the latest 4,096. */
  framesFrom(key: string): number;
  submit(bytes: Uint8Array): string;
  recordOwn(hash: string): void;
  counters(): Record<string, number>;
}
