#!/usr/bin/env node
// `npm run relay`: a full txcast peer in Node.js that browsers can bootstrap from. It listens on
// WebSockets (for browsers) and TCP (for other Node peers), runs a circuit-relay v2 server (so
// browsers can reserve a slot, be reached through it and upgrade to direct WebRTC), identify, ping,
// gossipsub on the tx topic (txcast's own router, or @libp2p/gossipsub with --gossipsub js), CAT
// and Strokkur, and can publish a transaction load of its own (--load TPS).
// A peer that keeps sending garbage on CAT or Strokkur is cut off and banned by peer id for ten
// minutes (web/p2p/ban.mjs): its reconnects are refused; the stats line counts both, and the
// connections refused by the limits per IP and in total (limits.mjs).
// A bad option or a port it cannot listen on ends it with one line on stderr and exit code 2;
// SIGINT or SIGTERM closes its connections, prints a last stats line and exits 0.
import { multiaddr } from '@multiformats/multiaddr';
import net from 'node:net';
import { parseArgs } from 'node:util';

const HELP = `usage: npm run relay -- [options]

  --host ADDR        interface to listen on, IPv4 or IPv6 (default 0.0.0.0: every IPv4 interface)
  --port N           WebSockets on port N and TCP on N+1 (default 9090; 0 picks free ports)
  --ws-port N        WebSocket port for browsers (default: --port)
  --tcp-port N       TCP port for other Node peers (default: --port + 1)
  --announce ADDR    also announce this address, repeatable: an IP or DNS name (announced with
                     both ports, e.g. a public address forwarded to this machine), or a whole
                     multiaddr such as /dns4/relay.example.org/tcp/443/wss (a TLS proxy in front
                     of the WebSocket port, for pages served over https)
  --max-connections N
                     connections in all (default 1024); more are refused and counted
  --max-per-ip N     open connections from one IP address (default 64); more are refused and counted
  --gossipsub ROUTER txcast (default: txcast's own router, the simulator's state machine)
                     or js (@libp2p/gossipsub, the reference implementation, up to v1.2)
  --gossipsub-version V
                     v2.0 (default: offers /meshsub/2.0.0 with IANNOUNCE/INEED, then 1.2.0,
                     1.1.0, 1.0.0) or v1.2 (txcast router only)
  --d-announce N     v2.0: mesh peers sent an IANNOUNCE instead of the message, on average
                     (default 4; 0 to the mesh degree 6)
  --load TPS         publish this many transactions per second (default 0: none)
  --tx-bytes N       size of each published transaction in bytes (default 250)
  --stats-ms N       print a counters line every N ms (default 5000, 0 = never; one more at exit)
  --help             this text

Prints one multiaddr per line after "listening on:"; give a browser the /ws one
(the page's light node panel, or ?relay=MULTIADDR in its URL). Exit codes: 0 after --help or
SIGINT/SIGTERM, 2 for a bad option or a port it cannot listen on, 1 for anything else.`;

/** A problem with how the relay was started: one line on stderr, exit code 2. */
class UsageError extends Error {}

function fail(message, code) {
  console.error(`relay: ${message}`);
  process.exit(code);
}

function integer(value, name, min, max) {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** An --announce value as the multiaddrs to announce. */
function announced(value, wsPort, tcpPort) {
  if (value.startsWith('/')) {
    try {
      return [multiaddr(value).toString()];
    } catch (error) {
      throw new UsageError(`--announce ${value} is not a valid multiaddr (${error.message})`);
    }
  }
  const kind = net.isIPv4(value) ? 'ip4' : net.isIPv6(value) ? 'ip6' : /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(value) ? 'dns' : null;
  if (!kind) throw new UsageError(`--announce takes an IP address, a DNS name or a multiaddr starting with /, got ${JSON.stringify(value)}`);
  if (wsPort === 0 || tcpPort === 0) throw new UsageError(`--announce ${value} announces the relay's ports, which port 0 leaves to chance: choose them with --port N`);
  return [`/${kind}/${value}/tcp/${wsPort}/ws`, `/${kind}/${value}/tcp/${tcpPort}`];
}

/** The options from the command line; throws UsageError. Returns null for --help. */
function options(argv) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        host: { type: 'string', default: '0.0.0.0' },
        port: { type: 'string', default: '9090' },
        'ws-port': { type: 'string' },
        'tcp-port': { type: 'string' },
        announce: { type: 'string', multiple: true, default: [] },
        'max-connections': { type: 'string', default: '1024' },
        'max-per-ip': { type: 'string', default: '64' },
        gossipsub: { type: 'string', default: 'txcast' },
        'gossipsub-version': { type: 'string', default: 'v2.0' },
        'd-announce': { type: 'string', default: '4' },
        load: { type: 'string', default: '0' },
        'tx-bytes': { type: 'string', default: '250' },
        'stats-ms': { type: 'string', default: '5000' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    // Node's message in one line (an option value that starts with '-' is told how to give it).
    throw new UsageError(error.message.replace(/\s*\n\s*/g, ' '));
  }
  if (args.help) return null;
  if (!net.isIP(args.host)) throw new UsageError(`--host must be an IP address of this machine (0.0.0.0 for all), got ${JSON.stringify(args.host)}`);
  const port = integer(args.port, 'port', 0, 65534);
  const wsPort = args['ws-port'] === undefined ? port : integer(args['ws-port'], 'ws-port', 0, 65535);
  const tcpPort = args['tcp-port'] === undefined ? (port === 0 ? 0 : port + 1) : integer(args['tcp-port'], 'tcp-port', 0, 65535);
  if (wsPort !== 0 && wsPort === tcpPort) throw new UsageError(`the WebSocket and TCP ports must differ (both ${wsPort}): use --port N, or --ws-port and --tcp-port`);
  const load = Number(args.load);
  if (args.load.trim() === '' || !(load >= 0 && load <= 10_000)) throw new UsageError(`--load must be a number of transactions per second from 0 to 10000, got ${JSON.stringify(args.load)}`);
  if (!['txcast', 'js'].includes(args.gossipsub)) throw new UsageError(`--gossipsub must be txcast or js, got ${JSON.stringify(args.gossipsub)}`);
  if (!['v1.2', 'v2.0'].includes(args['gossipsub-version'])) throw new UsageError(`--gossipsub-version must be v1.2 or v2.0, got ${JSON.stringify(args['gossipsub-version'])}`);
  return {
    host: args.host,
    wsPort,
    tcpPort,
    announce: args.announce.flatMap((value) => announced(value, wsPort, tcpPort)),
    maxConnections: integer(args['max-connections'], 'max-connections', 1, 100_000),
    maxPerIp: integer(args['max-per-ip'], 'max-per-ip', 1, 100_000),
    loadTps: load,
    txBytes: integer(args['tx-bytes'], 'tx-bytes', 20, 65536),
    router: args.gossipsub,
    version: args['gossipsub-version'],
    dAnnounce: integer(args['d-announce'], 'd-announce', 0, 6),
    statsMs: integer(args['stats-ms'], 'stats-ms', 0, 3_600_000),
  };
}

/**
 * Checks that `port` can be listened on at `host` before libp2p tries (its error is a stack of
 * every address); throws UsageError naming the port and the option that chose it.
 */
async function probePort(host, port, option) {
  if (port === 0) return;
  const server = net.createServer();
  const code = await new Promise((resolve) => {
    server.once('error', (error) => resolve(error.code ?? error.message));
    server.listen({ host, port }, () => server.close(() => resolve(null)));
  });
  if (code === null) return;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is already in use on ${host} (another relay?): choose another with --port N or ${option} N`);
  if (code === 'EACCES') throw new UsageError(`not allowed to listen on ${where}: ports below 1024 need privileges; choose another with --port N or ${option} N`);
  if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host ${host} is not an address of this machine`);
  throw new UsageError(`cannot listen on ${where} (${option}): ${code}`);
}

let opts;
try {
  opts = options(process.argv.slice(2));
  if (opts === null) {
    console.log(HELP);
    process.exit(0);
  }
  await probePort(opts.host, opts.wsPort, '--ws-port');
  await probePort(opts.host, opts.tcpPort, '--tcp-port');
} catch (error) {
  if (error instanceof UsageError) fail(`${error.message} (npm run relay -- --help lists the options)`, 2);
  throw error;
}

let relay;
try {
  // libp2p and the WASM core load only now, so that a bad option is refused at once.
  const { startRelay } = await import('./node.mjs');
  relay = await startRelay({ ...opts, log: (line) => console.log(line) });
} catch (error) {
  fail(`could not start: ${String(error?.message ?? error).split('\n')[0]}`, 1);
}

console.log(`txcast relay ${relay.peerId}`);
console.log('listening on:');
for (const addr of relay.multiaddrs()) console.log(addr);
console.log('ready');

const printStats = () => {
  // A stats line that cannot be made (every file descriptor taken, say) must not end the relay.
  try {
    console.log(`stats ${JSON.stringify(relay.stats())}`);
  } catch (error) {
    console.error(`relay: no stats line: ${error?.message ?? error}`);
  }
};
if (opts.statsMs > 0) setInterval(printStats, opts.statsMs).unref();

/** Exits once stdout and stderr have taken everything written so far. */
function exitFlushed(code) {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

// The first signal closes every connection, prints the last stats line and exits 0; a second
// one, or a stop that takes over 10 s, exits at once with 1.
const STOP_MS = 10_000;
let stopping = false;
async function stop(signal) {
  if (stopping) {
    console.error(`relay: ${signal} again: exiting without waiting`);
    process.exit(1);
  }
  stopping = true;
  console.log(`${signal}: closing ${relay.node.getConnections().length} connections`);
  setTimeout(() => {
    console.error(`relay: did not stop within ${STOP_MS / 1000} s; exiting`);
    process.exit(1);
  }, STOP_MS).unref();
  try {
    await relay.stop();
  } catch (error) {
    console.error(`relay: stopping failed: ${String(error?.message ?? error).split('\n')[0]}`);
    exitFlushed(1);
    return;
  }
  printStats();
  console.log('stopped');
  exitFlushed(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
