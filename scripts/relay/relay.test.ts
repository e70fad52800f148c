// `npm run relay` as a user meets it, on 127.0.0.1 only: bad options and a port already taken end
// it with one line and exit code 2; its limits per IP and in total refuse connections and count
// them in the stats line; SIGTERM closes its connections, prints a last stats line and exits 0.
import { createLibp2p, type Libp2p } from 'libp2p';
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { identify } from '@libp2p/identify';
import { multiaddr } from '@multiformats/multiaddr';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForLine } from '../lib/netns.mjs';
import { ConnectionLimits } from './limits.mjs';
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
    expect(last.limits).toEqual({ connections: 0, maxConnections: 1024, maxPerIp: 2, refusedTotal: 0, refusedPerIp: 1, refusedRate: 0 });
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
    expect(counted.limits).toEqual({ connections: 2, maxConnections: 2, maxPerIp: 64, refusedTotal: 1, refusedPerIp: 0, refusedRate: 0 });
    relayed.child.kill('SIGKILL');
  });
});

describe('connection limits', () => {
  const addr = (ip: string, port: number) => multiaddr(`/ip4/${ip}/tcp/${port}`);

  it('refuses past the total, then past the per-IP count, and counts each', () => {
    const limits = new ConnectionLimits({ maxTotal: 3, maxPerIp: 2 });
    const open: { remoteAddr: ReturnType<typeof addr> }[] = [];
    limits.node = { getConnections: () => open };
    const arrive = (ip: string) => {
      const remoteAddr = addr(ip, 4000 + open.length);
      const refused = limits.gater().denyInboundConnection({ remoteAddr });
      if (!refused) open.push({ remoteAddr });
      return refused;
    };
    expect([arrive('10.0.0.1'), arrive('10.0.0.1'), arrive('10.0.0.1')]).toEqual([false, false, true]);
    expect(arrive('10.0.0.2')).toBe(false);
    expect(arrive('10.0.0.3')).toBe(true); // three open: the total
    expect(limits.stats()).toEqual({ connections: 3, maxConnections: 3, maxPerIp: 2, refusedTotal: 1, refusedPerIp: 1, refusedRate: 0 });
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
    const arrive = (ip: string) => limits.gater().denyInboundConnection({ remoteAddr: addr(ip, 4000) });
    expect(Array.from({ length: 6 }, () => arrive('10.0.0.1'))).toEqual([false, false, false, false, false, true]);
    expect(arrive('10.0.0.2')).toBe(false);
    now += 1000;
    expect(arrive('10.0.0.1')).toBe(false);
    expect(limits.stats().refusedRate).toBe(1);
  });
});
