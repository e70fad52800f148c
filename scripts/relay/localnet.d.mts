// Types for localnet.mjs, for the TypeScript tests.
import type { Libp2p, Libp2pOptions } from 'libp2p';
import type { Delivery, Gossip, GossipVersion, Router } from '../../web/p2p/index.mjs';

export type Wasm = typeof import('../../web/wasm/txcast_wasm.js');
export type LocalDelivery = Delivery & { protocol: 'gossipsub'; from: string };

export interface LocalPeer {
  node: Libp2p;
  gossip: Gossip;
  router: Router;
  /** The node's peer id as a string. */
  id: string;
  stats(): Record<string, unknown>;
  framed: import('../../web/p2p/index.mjs').FramedProtocol[];
  bans: import('../../web/p2p/index.mjs').BanList;
  stop(): Promise<void>;
}

export function loadWasm(): Promise<Wasm>;
/** A WebAssembly instance of the core for one engine alone. */
export function freshEngine(): Promise<Wasm>;
/** libp2p options for a node on 127.0.0.1 (TCP, noise, txcast's muxer). */
export function loopbackOptions(): Libp2pOptions & { transports: NonNullable<Libp2pOptions['transports']> };
export function localPeer(
  options?: { router?: Router; version?: GossipVersion; dAnnounce?: number; onDeliver?: (d: LocalDelivery) => void; log?: (line: string) => void },
): Promise<LocalPeer>;
export function connect(a: LocalPeer, b: LocalPeer): Promise<void>;
export function waitFor<T>(
  condition: () => T | Promise<T>,
  options?: { timeoutMs?: number; intervalMs?: number; what?: string | (() => string) },
): Promise<T>;
export function seededRandom(seed: number): () => number;
export function connectedRandomGraph(n: number, options?: { extra?: number; random?: () => number }): [number, number][];
export function isConnected(n: number, edges: [number, number][]): boolean;
export function outboundProtocol(peer: LocalPeer, remote: string): string | undefined;
export function meshesFormed(peers: LocalPeer[]): boolean;
export function meshReport(peers: LocalPeer[]): string;
export function mixedNetwork(
  options?: {
    txcast?: number;
    js?: number;
    version?: GossipVersion;
    dAnnounce?: number;
    seed?: number;
    extra?: number;
    onDeliver?: (index: number, d: LocalDelivery) => void;
  },
): Promise<{ peers: LocalPeer[]; edges: [number, number][] }>;
export function stopAll(peers: LocalPeer[]): Promise<void>;
