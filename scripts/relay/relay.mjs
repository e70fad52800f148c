#!/usr/bin/env node
// `npm run relay`: a full txcast peer in Node.js that browsers can bootstrap from. It listens on
// WebSockets (for browsers) and TCP (for other Node peers), runs a circuit-relay v2 server (so
// browsers can reserve a slot, be reached through it and upgrade to direct WebRTC), identify, ping,
// gossipsub on the tx topic (txcast's own router, or @libp2p/gossipsub with --gossipsub js), CAT
// and Strokkur, and can publish a transaction load of its own (--load TPS).
// A peer that keeps sending garbage on CAT or Strokkur is cut off and banned by peer id for ten
// minutes (web/p2p/ban.mjs): its reconnects are refused; the stats line counts both.
import { parseArgs } from 'node:util';
import { startRelay } from './node.mjs';

const HELP = `usage: npm run relay -- [options]

  --host ADDR        interface to listen on (default 0.0.0.0: every interface)
  --ws-port N        WebSocket port for browsers (default 9090)
  --tcp-port N       TCP port for other Node peers (default 9091)
  --announce ADDR    also announce this IP address (e.g. the machine's LAN address), repeatable
  --gossipsub ROUTER txcast (default: txcast's own router, the simulator's state machine)
                     or js (@libp2p/gossipsub, the reference implementation, up to v1.2)
  --gossipsub-version V
                     v2.0 (default: offers /meshsub/2.0.0 with IANNOUNCE/INEED, then 1.2.0,
                     1.1.0, 1.0.0) or v1.2 (txcast router only)
  --d-announce N     v2.0: mesh peers sent an IANNOUNCE instead of the message, on average
                     (default 4; 0 to the mesh degree 6)
  --load TPS         publish this many transactions per second (default 0: none)
  --tx-bytes N       size of each published transaction in bytes (default 250)
  --stats-ms N       print a counters line every N ms (default 5000, 0 = never)
  --help             this text

Prints one multiaddr per line after "listening on:"; give a browser the /ws one
(the page's light node panel, or ?relay=MULTIADDR in its URL).`;

function number(value, name, min, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer in ${min}..${max}, got ${value}`);
    process.exit(2);
  }
  return n;
}

let args;
try {
  args = parseArgs({
    options: {
      host: { type: 'string', default: '0.0.0.0' },
      'ws-port': { type: 'string', default: '9090' },
      'tcp-port': { type: 'string', default: '9091' },
      announce: { type: 'string', multiple: true, default: [] },
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
  console.error(`${error.message}\n\n${HELP}`);
  process.exit(2);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const load = Number(args.load);
if (!(load >= 0 && load <= 10_000)) {
  console.error(`--load must be a number of transactions per second in 0..10000, got ${args.load}`);
  process.exit(2);
}

if (!['txcast', 'js'].includes(args.gossipsub)) {
  console.error(`--gossipsub must be txcast or js, got ${args.gossipsub}`);
  process.exit(2);
}
if (!['v1.2', 'v2.0'].includes(args['gossipsub-version'])) {
  console.error(`--gossipsub-version must be v1.2 or v2.0, got ${args['gossipsub-version']}`);
  process.exit(2);
}

const relay = await startRelay({
  host: args.host,
  wsPort: number(args['ws-port'], 'ws-port', 0, 65535),
  tcpPort: number(args['tcp-port'], 'tcp-port', 0, 65535),
  announce: args.announce,
  loadTps: load,
  txBytes: number(args['tx-bytes'], 'tx-bytes', 20, 65536),
  router: args.gossipsub,
  version: args['gossipsub-version'],
  dAnnounce: number(args['d-announce'], 'd-announce', 0, 6),
  log: (line) => console.log(line),
});

console.log(`txcast relay ${relay.peerId}`);
console.log('listening on:');
for (const addr of relay.multiaddrs()) console.log(addr);
console.log('ready');

const statsMs = number(args['stats-ms'], 'stats-ms', 0, 3_600_000);
if (statsMs > 0) {
  setInterval(() => console.log(`stats ${JSON.stringify(relay.stats())}`), statsMs).unref();
}

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await relay.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
