// How a connection reached us, read from its remote multiaddr (shown per connection in the panel).
export type TransportName = 'webrtc' | 'relayed' | 'websockets' | 'tcp' | 'other';

export function transportOf(addr: string): TransportName {
  if (addr.includes('/webrtc')) return 'webrtc'; // direct browser-to-browser (signalled through a relay)
  if (addr.includes('/p2p-circuit')) return 'relayed';
  if (addr.includes('/ws') || addr.includes('/wss') || addr.includes('/tls/ws')) return 'websockets';
  if (addr.includes('/tcp/')) return 'tcp';
  return 'other';
}

/** Dial only in one direction so that two browsers do not race two WebRTC dials at each other. */
export function shouldDial(self: string, other: string): boolean {
  return self < other;
}

/**
 * Of a peer's announced relayed WebRTC addresses (`.../p2p/RELAY/p2p-circuit/webrtc/p2p/PEER`),
 * the first through a relay we are connected to (`connected(RELAY)`), or null: a dial then goes
 * over a connection we already have, never to an address the announcement chose.
 */
export function dialTarget(addrs: string[], connected: (relay: string) => boolean): string | null {
  for (const addr of addrs) {
    const relay = addr.match(/\/p2p\/([^/]+)\/p2p-circuit\/webrtc\/p2p\/[^/]+$/)?.[1];
    if (relay && connected(relay)) return addr;
  }
  return null;
}
