#!/usr/bin/env node
// The relay under siege (siege.mjs): a txcast peer (CAT, Strokkur, txcast's GossipSub) on
// 127.0.0.1 TCP in a process of its own, so that its memory is its own, driven over stdin with
// one command a line, each answered on stdout with one line:
//   stats              -> "stats {json}"         (startPeer's stats, memory included, and the peers banned)
//   publish N BYTES MS -> "published N"          (N txs of BYTES on CAT, MS apart, pushed to every peer)
//   trap PROTOCOL HEX  -> "armed"                (its engine panics on frames starting so)
//   clock-back MS      -> "clock"                (its clock is set back MS)
//   read PEER,PEER..   -> "read N"               (frames read from those peers, every protocol)
// It prints "ready {id, addr}" once it listens. It lets a peer that reads nothing go after
// --stall-ms (default 3000), queues at most --queue-bytes per peer (default 1 MiB), lets long
// frames hold --reading-bytes in all (default 8 MiB) and ends a stream whose long frame is not
// in full --frame-ms after its bytes were let in (default 3000).
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { generatedTx, wallMs } from '../../web/p2p/index.mjs';
import { loopbackOptions } from './localnet.mjs';
import { startPeer } from './node.mjs';

const { values } = parseArgs({
  options: {
    'stall-ms': { type: 'string', default: '3000' },
    'queue-bytes': { type: 'string', default: String(1 << 20) },
    'reading-bytes': { type: 'string', default: String(8 << 20) },
    'frame-ms': { type: 'string', default: '3000' },
  },
});
/** The clock this relay runs on: performance.now, set back by `clock-back`. */
let setBack = 0;
const now = () => performance.now() - setBack;
const loopback = loopbackOptions();
const peer = await startPeer({
  // As many connections as the relay (`npm run relay`) takes.
  libp2pOptions: { ...loopback, connectionManager: { ...loopback.connectionManager, maxConnections: 1024 } },
  limits: {
    stallMs: Number(values['stall-ms']),
    maxQueuedBytes: Number(values['queue-bytes']),
    maxReadingBytes: Number(values['reading-bytes']),
    frameMs: Number(values['frame-ms']),
  },
  now,
});
const cat = peer.framed.find((f) => f.name === 'cat');

const say = (line) => process.stdout.write(`${line}\n`);
const hex = (text) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));

async function command(line) {
  const [name, a, b, c] = line.trim().split(/\s+/);
  if (name === 'stats') {
    // What the relay holds, not what V8 has yet to collect (run with --expose-gc).
    globalThis.gc?.();
    return say(`stats ${JSON.stringify({ ...peer.stats(), bannedPeers: peer.bans.list().map((b) => b.peer) })}`);
  }
  if (name === 'publish') {
    for (let i = 0; i < Number(a); i++) {
      cat.submit(generatedTx({ sentAtMs: wallMs(), bytes: Number(b) }));
      await new Promise((resolve) => setTimeout(resolve, Number(c ?? 0)));
    }
    return say(`published ${a}`);
  }
  if (name === 'trap') {
    peer.armTrap(a, hex(b));
    return say('armed');
  }
  if (name === 'read') {
    const ids = a.split(',');
    const protocols = [...peer.framed, peer.gossip.framed];
    return say(`read ${ids.reduce((n, id) => n + protocols.reduce((m, f) => m + f.framesFrom(id), 0), 0)}`);
  }
  if (name === 'clock-back') {
    setBack += Number(a);
    return say('clock');
  }
  say(`error: unknown command ${name}`);
}

const addr = peer.node.getMultiaddrs().find((ma) => ma.toString().includes('/tcp/'));
say(`ready ${JSON.stringify({ id: peer.node.peerId.toString(), addr: addr.toString() })}`);
readline.createInterface({ input: process.stdin }).on('line', (line) => void command(line).catch((error) => say(`error: ${error.message}`)));
process.on('SIGTERM', () => void peer.stop().then(() => process.exit(0)));
