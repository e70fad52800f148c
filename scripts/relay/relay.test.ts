// `npm run relay` as a user meets it, on 127.0.0.1 only: bad options and a port already taken end
// it with one line and exit code 2; its limits per IP and in total refuse connections and count
// them in the stats line; SIGTERM closes its connections, prints a last stats line and exits 0.
import { createLibp2p, type Libp2p } from 'libp2p';
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { identify } from '@libp2p/identify';
import { webSockets } from '@libp2p/websockets';
import { multiaddr } from '@multiformats/multiaddr';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForLine } from '../lib/netns.mjs';
import { ConnectionLimits, HANDSHAKES_IN_ALL, HANDSHAKES_PER_HOST, hostKey, hostOf } from './limits.mjs';
import { loopbackOptions, waitFor } from './localnet.mjs';

const RELAY = path.join(import.meta.dirname, 'relay.mjs');
const children: ChildProcessWithoutNullStreams[] = [];
const dialers: Libp2p[] = [];

afterAll(async () => {
  await Promise.allSettled(dialers.map((d) => d.stop()));
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function relay(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [RELAY, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

/** Runs the relay to its end: its exit code and what it printed. */
function finish(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts a relay on free loopback ports; resolves with it and its TCP and WebSocket addresses. */
async function started(args: string[]) {
  const child = relay(['--host', '127.0.0.1', '--port', '0', ...args]);
  const lines: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  await waitForLine(child, /^ready$/, 60_000);
  const ws = lines.find((l) => /^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/ws\/p2p\//.test(l))!;
  const tcp = lines.find((l) => /^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\//.test(l))!;
  return { child, lines, ws, tcp, stats: () => lines.filter((l) => l.startsWith('stats ')).map((l) => JSON.parse(l.slice(6))) };
}

async function dialer(): Promise<Libp2p> {
  const node = await createLibp2p({ ...loopbackOptions(), addresses: { listen: [] } });
  dialers.push(node);
  return node;
}

// Each test starts relays: seconds on a loaded machine.
describe('relay command line', { timeout: 60_000 }, () => {
  it('refuses a bad option with one line on stderr and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'abc'], /^relay: --port must be a whole number from 0 to 65534, got "abc"/],
      [['--ws-port', '70000'], /^relay: --ws-port must be a whole number from 0 to 65535, got "70000"/],
      [['--bogus'], /^relay: Unknown option '--bogus'/],
      [['--host', 'localhost'], /^relay: --host must be an IP address of this machine/],
      [['--ws-port', '9500', '--tcp-port', '9500'], /^relay: the WebSocket and TCP ports must differ/],
      [['--announce', '/ip4/300.1.1.1/tcp/1'], /^relay: --announce \/ip4\/300\.1\.1\.1\/tcp\/1 is not a valid multiaddr/],
      [['--announce', 'bad name!'], /^relay: --announce takes an IP address, a DNS name or a multiaddr/],
      [['--max-per-ip', '0'], /^relay: --max-per-ip must be a whole number from 1/],
      [['--port', '0', '--announce', '203.0.113.5'], /^relay: --announce 203\.0\.113\.5 announces the relay's ports, which port 0 leaves to chance/],
      [['--gossipsub', 'go'], /^relay: --gossipsub must be txcast or js/],
    ];
    const runs = await Promise.all(cases.map(([args]) => finish(relay(args))));
    for (const [k, run] of runs.entries()) {
      expect(run.code, cases[k][0].join(' ')).toBe(2);
      expect(run.stderr.trimEnd().split('\n'), cases[k][0].join(' ')).toHaveLength(1);
      expect(run.stderr).toMatch(cases[k][1]);
      expect(run.stderr).toContain('npm run relay -- --help');
      expect(run.stdout).toBe('');
    }
    const help = await finish(relay(['--help']));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--max-per-ip N');
  });

  it('a second relay on a port in use exits 2 and says which port and how to choose another', async () => {
    const first = await started(['--stats-ms', '0']);
    const portOf = (addr: string) => Number(/\/tcp\/(\d+)\//.exec(addr)![1]);
    const [wsPort, tcpPort] = [portOf(first.ws), portOf(first.tcp)];
    const second = await finish(relay(['--host', '127.0.0.1', '--ws-port', String(wsPort), '--tcp-port', '0']));
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `relay: port ${wsPort} is already in use on 127.0.0.1 (another relay?): choose another with --port N or --ws-port N (npm run relay -- --help lists the options)\n`,
    );
    const third = await finish(relay(['--host', '127.0.0.1', '--ws-port', '0', '--tcp-port', String(tcpPort)]));
    expect(third.code).toBe(2);
    expect(third.stderr).toContain(`port ${tcpPort} is already in use on 127.0.0.1 (another relay?): choose another with --port N or --tcp-port N`);
    // The first one never noticed.
    expect(first.child.exitCode).toBe(null);
    first.child.kill('SIGKILL');
  });

  it('refuses connections over its per-IP limit, counts them, and on SIGTERM closes the rest and prints its last stats', async () => {
    const relayed = await started(['--max-per-ip', '2', '--stats-ms', '0']);
    const [a, b, c] = [await dialer(), await dialer(), await dialer()];
    await a.dial(multiaddr(relayed.tcp));
    await b.dial(multiaddr(relayed.tcp));
    // The third from the same address is turned away before its handshake.
    await expect(c.dial(multiaddr(relayed.tcp), { signal: AbortSignal.timeout(10_000) })).rejects.toThrow();
    expect(c.getConnections()).toHaveLength(0);

    const run = finish(relayed.child);
    relayed.child.kill('SIGTERM');
    const { code, stdout, stderr } = await run;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('SIGTERM: closing 2 connections');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('stopped');
    // --stats-ms 0 prints no periodic line: this one is the last, printed at exit.
    expect(relayed.stats()).toHaveLength(1);
    const last = relayed.stats()[0];
    expect(last.limits).toEqual({ connections: 0, maxConnections: 1024, maxPerIp: 2, refusedTotal: 0, refusedPerIp: 1, refusedRate: 0, refusedHandshakes: 0, slowHandshakes: 0, handshaking: 0 });
    // The dialers saw their connections closed.
    await waitFor(() => a.getConnections().length === 0 && b.getConnections().length === 0, { what: 'the relay to close its connections' });
  });

  it('keeps a reservation while its peer is connected, not after: peers that reserve and leave cannot fill it', async () => {
    const relayed = await started(['--stats-ms', '100']);
    const reserved = () => relayed.stats().at(-1)?.reservations;
    for (let round = 0; round < 3; round += 1) {
      // A peer that listens through relays (as a page does) reserves a slot once connected.
      const base = loopbackOptions();
      const client = await createLibp2p({ ...base, addresses: { listen: ['/p2p-circuit'] }, transports: [...base.transports, circuitRelayTransport()], services: { identify: identify() } });
      dialers.push(client);
      await client.dial(multiaddr(relayed.tcp));
      await waitFor(() => reserved() === 1, { what: 'the relay to count the reservation' });
      await client.stop();
      await waitFor(() => reserved() === 0, { what: 'the reservation to go with its peer' });
    }
    relayed.child.kill('SIGKILL');
  });

  it('refuses connections over its total limit and counts them in the periodic stats line', async () => {
    const relayed = await started(['--max-connections', '2', '--stats-ms', '100']);
    const [a, b, c] = [await dialer(), await dialer(), await dialer()];
    await a.dial(multiaddr(relayed.tcp));
    await b.dial(multiaddr(relayed.tcp));
    await expect(c.dial(multiaddr(relayed.tcp), { signal: AbortSignal.timeout(10_000) })).rejects.toThrow();
    const counted = await waitFor(() => relayed.stats().find((s) => s.limits.refusedTotal === 1), { what: 'a stats line counting the refusal' });
    expect(counted.limits).toEqual({ connections: 2, maxConnections: 2, maxPerIp: 64, refusedTotal: 1, refusedPerIp: 0, refusedRate: 0, refusedHandshakes: 0, slowHandshakes: 0, handshaking: 0 });
    relayed.child.kill('SIGKILL');
  });

  it('sockets that never speak, from one host on both ports, hold 16 handshakes at most: a peer of another host still joins', async () => {
    const relayed = await started(['--stats-ms', '100']);
    const port = (address: string) => Number(/\/tcp\/(\d+)/.exec(address)![1]);
    const silent: net.Socket[] = [];
    for (const target of [port(relayed.ws), port(relayed.tcp)]) {
      for (let i = 0; i < 40; i += 1) {
        const socket = net.connect({ host: '127.0.0.1', port: target, localAddress: '127.0.0.2' });
        socket.on('error', () => undefined);
        silent.push(socket);
      }
    }
    const counted = await waitFor(() => relayed.stats().find((s) => s.limits.refusedHandshakes === 64), { what: 'the relay to refuse all but 16 of the 80 silent sockets' });
    expect(counted.limits.handshaking).toBe(16);
    // Before, 64 such sockets took every place libp2p keeps for handshakes, and no peer could join.
    const base = loopbackOptions();
    const honest = await createLibp2p({ ...base, addresses: { listen: [] }, transports: [...base.transports, webSockets()] });
    dialers.push(honest);
    await honest.dial(multiaddr(relayed.ws), { signal: AbortSignal.timeout(10_000) });
    await honest.dial(multiaddr(relayed.tcp), { signal: AbortSignal.timeout(10_000) });
    for (const socket of silent) socket.destroy();
    await waitFor(() => relayed.stats().at(-1)?.limits.handshaking === 0, { what: 'the silent sockets to give their places back' });
    relayed.child.kill('SIGKILL');
  });
});

describe('connection limits', () => {
  const addr = (ip: string, port: number) => multiaddr(`/ip4/${ip}/tcp/${port}`);

  /** A connection arriving, as the gater sees it: its address, and its close (`close()`). */
  const arriving = (remoteAddr: ReturnType<typeof addr>) => {
    const events = new EventTarget();
    return { remoteAddr, addEventListener: events.addEventListener.bind(events), close: () => events.dispatchEvent(new Event('close')) };
  };

  it('refuses past the total, then past the per-IP count, and counts each', () => {
    const limits = new ConnectionLimits({ maxTotal: 3, maxPerIp: 2 });
    const open: { remoteAddr: ReturnType<typeof addr> }[] = [];
    limits.node = { getConnections: () => open };
    const gater = limits.gater();
    const arrive = (ip: string) => {
      const remoteAddr = addr(ip, 4000 + open.length);
      const refused = gater.denyInboundConnection(arriving(remoteAddr));
      if (!refused) open.push({ remoteAddr });
      return refused;
    };
    expect([arrive('10.0.0.1'), arrive('10.0.0.1'), arrive('10.0.0.1')]).toEqual([false, false, true]);
    expect(arrive('10.0.0.2')).toBe(false);
    expect(arrive('10.0.0.3')).toBe(true); // three open: the total
    expect(limits.stats()).toEqual({ connections: 3, maxConnections: 3, maxPerIp: 2, refusedTotal: 1, refusedPerIp: 1, refusedRate: 0, refusedHandshakes: 0, slowHandshakes: 0, handshaking: 3 });
    // A closed connection frees its place.
    open.shift();
    expect(arrive('10.0.0.1')).toBe(false);
    // libp2p's own total and rate stay above ours, so that ours is the one that refuses (and counts).
    expect(limits.connectionManager().maxConnections).toBe(4);
    expect(limits.connectionManager().inboundConnectionThreshold).toBeGreaterThan(5);
  });

  it('refuses more than maxPerIp (at least 5) new connections from one address a second, and counts them', () => {
    const limits = new ConnectionLimits({ maxTotal: 100, maxPerIp: 2 });
    limits.node = { getConnections: () => [] };
    let now = 10_000;
    limits.now = () => now;
    const gater = limits.gater();
    const arrive = (ip: string) => gater.denyInboundConnection(arriving(addr(ip, 4000)));
    expect(Array.from({ length: 6 }, () => arrive('10.0.0.1'))).toEqual([false, false, false, false, false, true]);
    expect(arrive('10.0.0.2')).toBe(false);
    now += 1000;
    expect(arrive('10.0.0.1')).toBe(false);
    expect(limits.stats().refusedRate).toBe(1);
  });

  it('counts an IPv4 address, also mapped into IPv6, or an IPv6 /64 as one host', () => {
    expect(hostKey('10.0.0.1')).toBe('10.0.0.1');
    expect(hostKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(hostKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(hostKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(hostKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(hostKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(hostOf(multiaddr('/ip6/2001:db8:1:2::7/tcp/1'))).toBe('2001:db8:1:2::/64');
  });

  it('lets a host have 16 handshakes under way, all hosts 256; one ends once, when upgraded or closed', () => {
    const limits = new ConnectionLimits({ maxTotal: 1024, maxPerIp: 1024 });
    limits.node = { getConnections: () => [] };
    limits.perIpPerSecond = Infinity;
    const gater = limits.gater();
    const first = Array.from({ length: HANDSHAKES_PER_HOST }, (_, i) => arriving(addr('10.0.0.1', 5000 + i)));
    expect(first.map((c) => gater.denyInboundConnection(c))).toEqual(first.map(() => false));
    expect(gater.denyInboundConnection(arriving(addr('10.0.0.1', 6000)))).toBe(true);
    // Another host is not held back.
    expect(gater.denyInboundConnection(arriving(addr('10.0.0.2', 6000)))).toBe(false);
    expect(limits.stats().refusedHandshakes).toBe(1);
    // Closed, or upgraded and then closed: each gives its place back once.
    first[0].close();
    first[0].close();
    gater.denyInboundUpgradedConnection(null, first[1]);
    first[1].close();
    expect(limits.stats().handshaking).toBe(HANDSHAKES_PER_HOST - 1);
    expect(gater.denyInboundConnection(arriving(addr('10.0.0.1', 6001)))).toBe(false);
    expect(gater.denyInboundConnection(arriving(addr('10.0.0.1', 6002)))).toBe(false);
    expect(gater.denyInboundConnection(arriving(addr('10.0.0.1', 6003)))).toBe(true);
    // All hosts together.
    for (let i = 0; limits.stats().handshaking < HANDSHAKES_IN_ALL; i += 1) gater.denyInboundConnection(arriving(addr(`10.1.${i >> 8}.${i & 255}`, 1)));
    expect(gater.denyInboundConnection(arriving(addr('10.9.9.9', 1)))).toBe(true);
    expect(limits.stats().refusedHandshakes).toBe(3);
    // libp2p's own limit of handshakes stays above ours, so that ours refuses (and counts).
    expect(limits.connectionManager().maxIncomingPendingConnections).toBeGreaterThan(HANDSHAKES_IN_ALL);
  });

  it('closes a socket on the WebSocket port that does not finish its HTTP upgrade in time, and counts it', async () => {
    const limits = new ConnectionLimits({ maxTotal: 8, maxPerIp: 8, handshakeMs: 300 });
    const server = net.createServer();
    const httpServer = http.createServer();
    // As @libp2p/websockets does: every socket is handed to the HTTP server.
    server.on('connection', (socket) => httpServer.emit('connection', socket));
    httpServer.on('upgrade', (_request, socket) => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
    limits.guardWebSockets(server, httpServer);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const closed = (socket: net.Socket) => new Promise<void>((resolve) => socket.on('close', () => resolve()));
      const silent = net.connect({ host: '127.0.0.1', port });
      const upgraded = net.connect({ host: '127.0.0.1', port });
      upgraded.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      await closed(silent);
      expect(limits.stats().slowHandshakes).toBe(1);
      // The upgraded one is libp2p's from here: left open, its place given back.
      await waitFor(() => limits.stats().handshaking === 0, { what: 'the upgraded socket to give its place back' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(upgraded.destroyed).toBe(false);
      expect(limits.stats().slowHandshakes).toBe(1);
      upgraded.destroy();
    } finally {
      server.close();
    }
  });
});
