// The relay's connection limits: at most `maxPerIp` open connections from one IP address and
// `maxTotal` in all, and at most `maxPerIp` (at least 5) new ones from one address a second.
// Each inbound connection is checked as it arrives (libp2p's connection gater, before the
// handshake), against the connections open at that moment; every refusal is counted for the
// stats line. Connections still in their handshake are not yet open: libp2p lets at most 64 of
// them run at once (see connectionManager), which bounds how far a burst can overshoot.
// The per-IP limit is generous on purpose: a classroom behind one NAT shares one address.

/** The IP address a multiaddr starts with (/ip4/... or /ip6/...), or null. */
export function ipOf(multiaddr) {
  const first = multiaddr.getComponents()[0];
  return first && (first.name === 'ip4' || first.name === 'ip6') ? first.value : null;
}

export class ConnectionLimits {
  /** @param {{maxTotal: number, maxPerIp: number}} limits */
  constructor({ maxTotal, maxPerIp }) {
    this.maxTotal = maxTotal;
    this.maxPerIp = maxPerIp;
    /** New connections one address may open a second. */
    this.perIpPerSecond = Math.max(5, maxPerIp);
    this.refusedTotal = 0;
    this.refusedPerIp = 0;
    this.refusedRate = 0;
    /** Per IP address: the second (ms since the clock's origin, floored) and connections then. */
    this.arrivals = new Map();
    this.now = () => performance.now();
    /** @type {{getConnections(): {remoteAddr: import('@multiformats/multiaddr').Multiaddr}[]} | null} */
    this.node = null;
  }

  /**
   * libp2p's connection manager options to go with the gater: its own total limit, and its rate
   * of new connections per host (5 a second), above ours so that ours (which counts) refuses
   * first; up to 64 handshakes at once (from 10), so that a classroom behind one NAT can join at
   * once.
   */
  connectionManager() {
    return { maxConnections: this.maxTotal + 1, inboundConnectionThreshold: 2 * this.perIpPerSecond, maxIncomingPendingConnections: 64 };
  }

  /** The gater's hooks, given the node once it exists (no connection arrives before that). */
  gater() {
    return { denyInboundConnection: (maConn) => this.refuse(maConn.remoteAddr) };
  }

  /** Whether a connection from `remoteAddr` goes over a limit (then it is counted). */
  refuse(remoteAddr) {
    const open = this.node?.getConnections() ?? [];
    if (open.length >= this.maxTotal) {
      this.refusedTotal += 1;
      return true;
    }
    const ip = ipOf(remoteAddr);
    if (ip === null) return false;
    if (open.filter((c) => ipOf(c.remoteAddr) === ip).length >= this.maxPerIp) {
      this.refusedPerIp += 1;
      return true;
    }
    if (this.tooFast(ip)) {
      this.refusedRate += 1;
      return true;
    }
    return false;
  }

  /** Whether `ip` already opened `perIpPerSecond` connections this second; counts this one if not. */
  tooFast(ip) {
    const second = Math.floor(this.now() / 1000);
    const seen = this.arrivals.get(ip);
    if (seen?.second !== second) {
      // One entry per address that connected this second: older ones go.
      if (this.arrivals.size > 4 * this.maxTotal) this.arrivals.clear();
      this.arrivals.set(ip, { second, count: 1 });
      return false;
    }
    if (seen.count >= this.perIpPerSecond) return true;
    seen.count += 1;
    return false;
  }

  stats() {
    return {
      connections: this.node?.getConnections().length ?? 0,
      maxConnections: this.maxTotal,
      maxPerIp: this.maxPerIp,
      refusedTotal: this.refusedTotal,
      refusedPerIp: this.refusedPerIp,
      refusedRate: this.refusedRate,
    };
  }
}
