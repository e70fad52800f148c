// Types for limits.mjs, for the TypeScript tests.
import type { Multiaddr } from '@multiformats/multiaddr';
import type { Server as HttpServer } from 'node:http';
import type { Server } from 'node:net';

export const HANDSHAKES_PER_HOST: number;
export const HANDSHAKES_IN_ALL: number;
export const HANDSHAKE_MS: number;
export function hostKey(ip: string): string;
export function hostOf(multiaddr: Multiaddr): string | null;

/** What the gater is given of a connection arriving. */
interface Arriving {
  remoteAddr: Multiaddr;
  addEventListener(type: 'close', listener: () => void, options?: { once: boolean }): void;
}

export interface LimitStats {
  connections: number;
  maxConnections: number;
  maxPerIp: number;
  refusedTotal: number;
  refusedPerIp: number;
  refusedRate: number;
  refusedHandshakes: number;
  slowHandshakes: number;
  handshaking: number;
}

export class ConnectionLimits {
  constructor(limits: { maxTotal: number; maxPerIp: number; handshakeMs?: number });
  maxTotal: number;
  maxPerIp: number;
  handshakeMs: number;
  perIpPerSecond: number;
  /** The clock (ms) the per-second rate is counted on. */
  now: () => number;
  node: { getConnections(): { remoteAddr: Multiaddr }[] } | null;
  connectionManager(): { maxConnections: number; inboundConnectionThreshold: number; maxIncomingPendingConnections: number; inboundUpgradeTimeout: number };
  gater(): { denyInboundConnection(maConn: Arriving): boolean; denyInboundUpgradedConnection(peer: unknown, maConn: Arriving): boolean };
  beginHandshake(host: string): (() => void) | null;
  guardWebSockets(server: Server, http: HttpServer): void;
  refuse(remoteAddr: Multiaddr): boolean;
  stats(): LimitStats;
}
