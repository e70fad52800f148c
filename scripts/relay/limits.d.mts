// Types for limits.mjs, for the TypeScript tests.
import type { Multiaddr } from '@multiformats/multiaddr';

export function ipOf(multiaddr: Multiaddr): string | null;

export class ConnectionLimits {
  constructor(limits: { maxTotal: number; maxPerIp: number });
  maxTotal: number;
  maxPerIp: number;
  perIpPerSecond: number;
  refusedTotal: number;
  refusedPerIp: number;
  refusedRate: number;
  /** The clock (ms) the per-second rate is counted on. */
  now: () => number;
  node: { getConnections(): { remoteAddr: Multiaddr }[] } | null;
  connectionManager(): { maxConnections: number; inboundConnectionThreshold: number; maxIncomingPendingConnections: number };
  gater(): { denyInboundConnection(maConn: { remoteAddr: Multiaddr }): boolean };
  refuse(remoteAddr: Multiaddr): boolean;
  stats(): { connections: number; maxConnections: number; maxPerIp: number; refusedTotal: number; refusedPerIp: number; refusedRate: number };
}
