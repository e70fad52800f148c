#!/usr/bin/env node
// A misbehaving peer for the browser tests (an Attacker, attacker.mjs): it listens on WebSockets
// (a page dials it as its "relay", or with the panel's Dial), claims every live protocol, and on
// commands read from stdin misbehaves towards the last peer that connected:
//   malformed N   N frames no CAT decoder accepts
//   oversized     one frame above the light node's frame cap (1 MiB), on a stream of its own
//   flood N       N malformed frames as fast as it can
//   attack NAME N [VICTIM]
//                 an attack of attacks.mjs with N hostile frames (VICTIM: an honest peer id it
//                 may speak in the name of); prints "attacked NAME SENT"
//   dial ADDR     dial a peer (a relay, to misbehave there too); prints "dial ok" or "dial failed: WHY"
//   ping          whether the last peer still talks to us: prints "ping ok" or "ping failed: WHY"
// It prints "connected PEER" when it has a stream to a peer, "sent ..." after each command and
// "disconnected PEER" when the peer hangs up on it (and forgets it, so a reconnect prints
// "connected" again).
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { PROTOCOL_IDS } from '../../web/p2p/index.mjs';
import { Attacker } from './attacker.mjs';
import { attackNamed, MALFORMED } from './attacks.mjs';

const { values } = parseArgs({ options: { host: { type: 'string', default: '127.0.0.1' }, 'ws-port': { type: 'string', default: '9190' } } });
const CAT = PROTOCOL_IDS.cat;
const attacker = await Attacker.start({ host: values.host, port: Number(values['ws-port']), websockets: true });
const { node } = attacker;

let target = null;
let out = null;
/** The peer we last had, for `ping`. */
let last = null;
node.addEventListener('peer:identify', async (event) => {
  const { peerId, protocols } = event.detail;
  if (!protocols.includes(CAT) || target) return;
  target = { peerId };
  try {
    out = (await attacker.stream(peerId, [CAT])).lp;
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

async function command(line) {
  const [name, arg, count, victim] = line.trim().split(/\s+/);
  if (name === 'dial') {
    try {
      await attacker.dial(arg);
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
  if (name === 'attack') {
    const known = { honestId: victim ? () => victim : undefined };
    const sent = await attackNamed(arg).run({ attacker, target: { addr: target.peerId, id: target.peerId.toString() }, n: Number(count ?? 1000), known, fresh: () => Attacker.start() });
    return console.log(`attacked ${arg} ${sent}`);
  }
  const n = Number(arg ?? 1);
  try {
    if (name === 'malformed' || name === 'flood') {
      for (let i = 0; i < n; i++) await out.write(MALFORMED[i % MALFORMED.length]);
    } else if (name === 'oversized') {
      const { lp } = await attacker.stream(target.peerId, [CAT]);
      // The target ends the stream once it has read the length: the write may not finish.
      await lp.write(new Uint8Array((1 << 20) + 1)).catch(() => undefined);
    } else {
      return console.log(`error: unknown command ${name}`);
    }
    console.log(`sent ${line.trim()}`);
  } catch (error) {
    console.log(`sent ${line.trim()} (failed: ${error.message})`);
  }
}

console.log('listening on:');
for (const addr of attacker.addrs()) console.log(addr);
console.log('ready');
readline.createInterface({ input: process.stdin }).on('line', (line) => void command(line).catch((error) => console.log(`error: ${error.message}`)));
process.on('SIGTERM', () => attacker.stop().then(() => process.exit(0)));
