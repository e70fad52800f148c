// The relay's connection limits: at most `maxPerIp` open connections from one host and
// `maxTotal` in all, at most `maxPerIp` (at least 5) new ones from one host a second, and
// at most HANDSHAKES_PER_HOST handshakes under way from one host (HANDSHAKES_IN_ALL in all), each
// done within HANDSHAKE_MS. Each inbound connection is checked as it arrives (libp2p's
// connection gater, before the handshake), against the connections open at that moment; every
// refusal is counted for the stats line. A host is an IPv4 address or an IPv6 /64 (one machine
// is commonly given a whole /64). The per-host limits are generous on purpose: a classroom behind
// one NAT shares one address.
//
// Handshakes are limited per host because sockets that never speak would otherwise hold every
// place libp2p keeps for connections in their handshake (64 silent sockets shut every new peer
// out), and sockets on the WebSocket port that never finish their HTTP upgrade were held with no
// limit at all (about 20,000 exhausted the relay's file descriptors): guardWebSockets.

/** Handshakes one host may have under way at once: a WebSocket's HTTP upgrade, then libp2p's. */
export const HANDSHAKES_PER_HOST = 16;
/** Handshakes under way from all hosts at once. */
export const HANDSHAKES_IN_ALL = 256;
/** Time a socket has for its WebSocket upgrade, and then a connection for libp2p's handshake. */
export const HANDSHAKE_MS = 10_000;

/** The host an IP address belongs to: an IPv4 address (also when mapped into IPv6), or an IPv6 /64. */
export function hostKey(ip) {
  const address = ip.split('%')[0];
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const [head, tail] = address.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups = [...before, ...Array(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  const prefix = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16));
  return `${prefix.join(':')}::/64`;
}

/** The host a multiaddr's IP address (/ip4/... or /ip6/...) belongs to, or null. */
export function hostOf(multiaddr) {
  const first = multiaddr.getComponents()[0];
  return first && (first.name === 'ip4' || first.name === 'ip6') ? hostKey(first.value) : null;
}

export class ConnectionLimits {
  /** @param {{maxTotal: number, maxPerIp: number, handshakeMs?: number}} limits */
  constructor({ maxTotal, maxPerIp, handshakeMs = HANDSHAKE_MS }) {
    this.maxTotal = maxTotal;
    this.maxPerIp = maxPerIp;
    this.handshakeMs = handshakeMs;
    /** New connections one host may open a second. */
    this.perIpPerSecond = Math.max(5, maxPerIp);
    this.refusedTotal = 0;
    this.refusedPerIp = 0;
    this.refusedRate = 0;
    /** Sockets refused for their host's (or all hosts') handshakes under way. */
    this.refusedHandshakes = 0;
    /** WebSocket sockets closed for not finishing their HTTP upgrade within `handshakeMs`. */
    this.slowHandshakes = 0;
    /** Per host: handshakes under way. */
    this.handshakes = new Map();
    this.handshaking = 0;
    /** Per host: the second (ms since the clock's origin, floored) and connections then. */
    this.arrivals = new Map();
    this.now = () => performance.now();
    /** @type {{getConnections(): {remoteAddr: import('@multiformats/multiaddr').Multiaddr}[]} | null} */
    this.node = null;
  }

  /**
   * libp2p's connection manager options to go with the gater: its own limits of connections and
   * of handshakes under way above ours, so that ours (which counts) refuses first (a refused
   * handshake gives libp2p's place back at once); its rate of new connections per host out of
   * the way: it refuses before the gater is asked, so an attacker's thousands a second went
   * uncounted.
   */
  connectionManager() {
    return {
      maxConnections: this.maxTotal + 1,
      inboundConnectionThreshold: 1e9,
      maxIncomingPendingConnections: 2 * HANDSHAKES_IN_ALL,
      inboundUpgradeTimeout: this.handshakeMs,
    };
  }

  /**
   * The gater's hooks, given the node once it exists (no connection arrives before that). A
   * connection's handshake is under way from its arrival until it is upgraded, or closes.
   */
  gater() {
    const ends = new WeakMap();
    return {
      denyInboundConnection: (maConn) => {
        if (this.refuse(maConn.remoteAddr)) return true;
        const host = hostOf(maConn.remoteAddr);
        if (host === null) return false;
        const end = this.beginHandshake(host);
        if (!end) return true;
        ends.set(maConn, end);
        maConn.addEventListener('close', end, { once: true });
        return false;
      },
      denyInboundUpgradedConnection: (_peer, maConn) => {
        ends.get(maConn)?.();
        return false;
      },
    };
  }

  /**
   * Starts a handshake of `host`'s, unless it or all hosts have as many under way as they may (then
   * counted, and null); returns what ends it (once).
   */
  beginHandshake(host) {
    const mine = this.handshakes.get(host) ?? 0;
    if (mine >= HANDSHAKES_PER_HOST || this.handshaking >= HANDSHAKES_IN_ALL) {
      this.refusedHandshakes += 1;
      return null;
    }
    this.handshakes.set(host, mine + 1);
    this.handshaking += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.handshaking -= 1;
      const left = this.handshakes.get(host) - 1;
      if (left === 0) this.handshakes.delete(host);
      else this.handshakes.set(host, left);
    };
  }

  /**
   * Holds a WebSocket listener's sockets to the handshake limits from the moment they connect:
   * @libp2p/websockets waits for a socket's first byte, then its HTTP upgrade, with no limit of
   * time or number. `server` is its TCP server, `http` the HTTP server it hands sockets to.
   */
  guardWebSockets(server, http) {
    const ends = new WeakMap();
    server.on('connection', (socket) => {
      const end = this.beginHandshake(hostKey(socket.remoteAddress ?? ''));
      if (!end) {
        socket.destroy();
        return;
      }
      const timer = setTimeout(() => {
        this.slowHandshakes += 1;
        socket.destroy();
      }, this.handshakeMs);
      const done = () => {
        clearTimeout(timer);
        end();
      };
      ends.set(socket, done);
      socket.once('close', done);
    });
    // Upgraded: from here its handshake is libp2p's (the gater's).
    http.on('upgrade', (_request, socket) => ends.get(socket)?.());
  }

  /** Whether a connection from `remoteAddr` goes over a limit (then it is counted). */
  refuse(remoteAddr) {
    const open = this.node?.getConnections() ?? [];
    if (open.length >= this.maxTotal) {
      this.refusedTotal += 1;
      return true;
    }
    const host = hostOf(remoteAddr);
    if (host === null) return false;
    if (open.filter((c) => hostOf(c.remoteAddr) === host).length >= this.maxPerIp) {
      this.refusedPerIp += 1;
      return true;
    }
    if (this.tooFast(host)) {
      this.refusedRate += 1;
      return true;
    }
    return false;
  }

  /** Whether `host` already opened `perIpPerSecond` connections this second; counts this one if not. */
  tooFast(host) {
    const second = Math.floor(this.now() / 1000);
    const seen = this.arrivals.get(host);
    if (seen?.second !== second) {
      // One entry per host that connected this second: older ones go.
      if (this.arrivals.size > 4 * this.maxTotal) this.arrivals.clear();
      this.arrivals.set(host, { second, count: 1 });
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
      refusedHandshakes: this.refusedHandshakes,
      slowHandshakes: this.slowHandshakes,
      handshaking: this.handshaking,
    };
  }
}
