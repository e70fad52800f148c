import type { BanList } from './ban.mjs';
import type { Delivery, FrameInfo } from './live-node.mjs';
import type { Arrival, FramedStats } from './framed.mjs';

export type Router = 'txcast' | 'js';
export type GossipVersion = 'v1.2' | 'v2.0';
export const ROUTERS: Router[];
export const VERSIONS: GossipVersion[];
export const MAX_ANNOUNCE_BYTES: number;
export const MAX_ANNOUNCED_ADDRS: number;
export function liveConfig(options?: { version?: GossipVersion; dAnnounce?: number }): object;
export function ownRelayedAddr(addr: unknown, peer: string): boolean;
export function announcementOf(data: Uint8Array, author: string | null): { peer: string; addrs: string[] } | null;
export function judge(topic: string, data: Uint8Array, author?: string | null): 'accept' | 'reject' | 'ignore';
export function toHex(bytes: Uint8Array): string;
export function gossipServices(router: Router, options?: { onCopy?: (topic: string, hash: string) => void; maxInboundDataLength?: number }): Record<string, unknown>;

export interface GossipCounters {
  /** Entries sent and received by kind (txcast's router: publish, ihave, idontwant, iannounce, ineed, ...). */
  sent: Record<string, number>;
  received: Record<string, number>;
  /** The same for the tx topic alone (entries whose topic is known to be it). */
  txTopic: { sent: Record<string, number>; received: Record<string, number> };
  /** The router's own counters (gossipsub.*). */
  live: Record<string, number>;
  badSignatures: number;
  rejected: number;
}

export interface GossipOptions {
  libp2p: unknown;
  /** txcast's router: its own WebAssembly instance of the core (live-node.mjs loadEngine). */
  engine?: unknown;
  privateKey?: unknown;
  version?: GossipVersion;
  dAnnounce?: number;
  seed?: bigint;
  now?: () => number;
  limits?: Partial<import('./framed.mjs').Limits>;
  onDeliver?: (delivery: Delivery & { from: string }) => void;
  onArrival?: (arrival: Arrival & { protocol: 'gossipsub'; id: string }) => void;
  onWire?: ((direction: 'in' | 'out', peer: string, bytes: number, info: FrameInfo) => void) | null;
  onChange?: () => void;
  bans?: BanList | null;
  log?: (line: string) => void;
}

export interface Gossip {
  readonly router: Router;
  readonly version: GossipVersion;
  readonly stats: Pick<FramedStats, 'delivered' | 'own' | 'duplicates' | 'malformed'> & Partial<FramedStats>;
  readonly arrivals: Map<string, Arrival>;
  readonly peers: { readonly size: number };
  start(): Promise<void>;
  stop(): Promise<void>;
  publish(topic: string, data: Uint8Array): Promise<string>;
  topicPeers(topic: string): number;
  meshPeers(topic: string): number;
  counters(): GossipCounters;
}

/** txcast's router: its stats and peers are FramedProtocol's. */
export interface TxcastGossip extends Gossip {
  readonly stats: FramedStats;
  readonly peers: Map<string, unknown>;
  readonly live: import('./live-node.mjs').LiveNode;
  readonly framed: import('./framed.mjs').FramedProtocol;
}
export const TxcastGossip: new (options: GossipOptions) => TxcastGossip;

/** @libp2p/gossipsub: `copy` is where gossipServices' onCopy lands. */
export interface JsGossip extends Gossip {
  copy(topic: string, hash: string): void;
}
export const JsGossip: new (options: GossipOptions) => JsGossip;

export function makeGossip(router: Router, options: GossipOptions): Gossip;
