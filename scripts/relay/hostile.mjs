#!/usr/bin/env node
// A misbehaving peer for the tests: it listens on WebSockets (a page dials it as its "relay"),
// claims to speak CAT, and on commands read from stdin sends a peer garbage on /txcast/cat/1.0.0:
//   malformed N   N frames no CAT decoder accepts
//   oversized     one frame above the light node's frame cap (1 MiB), on a stream of its own
//   flood N       N malformed frames as fast as it can
//   dial ADDR     dial a peer (a relay, to misbehave there too); prints "dial ok" or "dial failed: WHY"
//   ping          whether the last peer still talks to us: prints "ping ok" or "ping failed: WHY"
// It prints "connected PEER" when it has a stream to a peer, "sent ..." after each command and
// "disconnected PEER" when the peer hangs up on it (and forgets it, so a reconnect prints
// "connected" again).
import { identify } from '@libp2p/identify';
import { noise } from '@libp2p/noise';
import { ping } from '@libp2p/ping';
import { lpStream } from '@libp2p/utils';
import { webSockets } from '@libp2p/websockets';
import { yamux } from '@libp2p/yamux';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { PROTOCOL_IDS } from '../../web/p2p/index.mjs';

const { values } = parseArgs({ options: { host: { type: 'string', default: '127.0.0.1' }, 'ws-port': { type: 'string', default: '9190' } } });
const CAT = PROTOCOL_IDS.cat;
const node = await createLibp2p({
  addresses: { listen: [`/ip4/${values.host}/tcp/${values['ws-port']}/ws`] },
  transports: [webSockets()],
  // Dials private ws:// addresses in the test's namespace (Node's default gater allows them anyway).
  connectionGater: { denyDialMultiaddr: () => false },
  connectionEncrypters: [noise()],
  streamMuxers: [yamux()],
  services: { identify: identify(), ping: ping() },
});
// Claims CAT (identify advertises it) and swallows whatever the peer sends.
await node.handle(CAT, async (stream) => {
  const lp = lpStream(stream, { maxDataLength: 4 << 20 });
  try {
    for (;;) await lp.read();
  } catch {
    // the stream ended
  }
});

let target = null;
let out = null;
/** The peer we last had, for `ping`. */
let last = null;
node.addEventListener('peer:identify', async (event) => {
  const { peerId, protocols, connection } = event.detail;
  if (!protocols.includes(CAT) || target) return;
  target = { peerId, connection };
  try {
    out = lpStream(await connection.newStream(CAT), { maxDataLength: 4 << 20 });
    console.log(`connected ${peerId}`);
  } catch (error) {
    console.log(`stream refused: ${error.message}`);
    target = null;
  }
});
node.addEventListener('peer:disconnect', (event) => {
  if (target && event.detail.equals(target.peerId)) {
    console.log(`disconnected ${event.detail}`);
    last = target.peerId;
    target = null;
    out = null;
  }
});

/** Frames that no CAT decoder accepts: a length above any cap, a wrong length, an unknown tag. */
function malformed(i) {
  const kinds = [
    Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f),
    Uint8Array.of(0x09, 0x01),
    Uint8Array.of(0x03, 0xee, 0x01, 0x00),
    new Uint8Array(0),
  ];
  return kinds[i % kinds.length];
}

async function command(line) {
  const [name, arg] = line.trim().split(/\s+/);
  if (name === 'dial') {
    try {
      await node.dial(multiaddr(arg), { signal: AbortSignal.timeout(10_000) });
      return console.log('dial ok');
    } catch (error) {
      return console.log(`dial failed: ${error.message}`);
    }
  }
  if (name === 'ping') {
    try {
      await node.services.ping.ping(target?.peerId ?? last, { signal: AbortSignal.timeout(5_000) });
      return console.log('ping ok');
    } catch (error) {
      return console.log(`ping failed: ${error.message}`);
    }
  }
  if (!out) return console.log('error: not connected');
  const n = Number(arg ?? 1);
  try {
    if (name === 'malformed' || name === 'flood') {
      for (let i = 0; i < n; i++) await out.write(malformed(i));
    } else if (name === 'oversized') {
      const big = lpStream(await target.connection.newStream(CAT), { maxDataLength: 4 << 20 });
      await big.write(new Uint8Array((1 << 20) + 1));
    } else {
      return console.log(`error: unknown command ${name}`);
    }
    console.log(`sent ${line.trim()}`);
  } catch (error) {
    console.log(`sent ${line.trim()} (failed: ${error.message})`);
  }
}

console.log('listening on:');
for (const ma of node.getMultiaddrs()) console.log(ma.toString());
console.log('ready');
readline.createInterface({ input: process.stdin }).on('line', (line) => void command(line));
process.on('SIGTERM', () => node.stop().then(() => process.exit(0)));
