#!/usr/bin/env node
// Honest load two peers sustain: two txcast peers on 127.0.0.1 TCP, one sending generated txs to
// the other at a rising rate on one protocol at a time, each rate for --seconds. For each rate:
// the share delivered (within --settle-ms after the last), frames read late (backpressure, not a
// penalty) and any penalty either peer gave the other (strikes that led to a disconnect, bans,
// malformed frames). Reports, per protocol, the highest rate delivered at >= 99% with no penalty.
//
// Run: node scripts/relay/load.mjs [--rates 100,200,400,800,1600,3200] [--seconds 5] [--bytes 250]
//      [--protocols cat,strokkur,gossipsub]  (prints one JSON object)
import { multiaddr } from '@multiformats/multiaddr';
import { parseArgs } from 'node:util';
import { generatedTx, TX_TOPIC, wallMs } from '../../web/p2p/index.mjs';
import { loopbackOptions, waitFor } from './localnet.mjs';
import { startPeer } from './node.mjs';

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '100,200,400,800,1600,3200' },
    seconds: { type: 'string', default: '5' },
    bytes: { type: 'string', default: '250' },
    'settle-ms': { type: 'string', default: '10000' },
    protocols: { type: 'string', default: 'cat,strokkur,gossipsub' },
  },
});
const rates = values.rates.split(',').map(Number);
const seconds = Number(values.seconds);
const bytes = Number(values.bytes);

const got = new Set();
const [a, b] = [await startPeer({ libp2pOptions: loopbackOptions() }), await startPeer({ libp2pOptions: loopbackOptions(), onDeliver: (d) => got.add(d.hash) })];
await a.node.dial(multiaddr(b.node.getMultiaddrs()[0].toString()), { signal: AbortSignal.timeout(10_000) });
await waitFor(() => a.framed.every((f) => f.peers.size === 1) && a.gossip.meshPeers(TX_TOPIC) === 1, { timeoutMs: 15_000, what: 'the two peers on every protocol' });

/** What either side counts as a penalty: garbage, oversized frames, peers cut off, bans. */
function penalties() {
  let n = 0;
  for (const peer of [a, b]) {
    const s = peer.stats();
    for (const p of ['cat', 'strokkur', 'gossipsub']) n += (s[p]?.malformed ?? 0) + (s[p]?.oversized ?? 0) + (s[p]?.disconnected ?? 0);
    n += s.bans;
  }
  return n;
}
const throttled = () => [a, b].reduce((n, peer) => n + ['cat', 'strokkur', 'gossipsub'].reduce((m, p) => m + (peer.stats()[p]?.throttled ?? 0), 0), 0);

async function send(protocol, data) {
  if (protocol === 'gossipsub') return a.gossip.publish(TX_TOPIC, data);
  return a.framed.find((f) => f.name === protocol).submit(data);
}

const results = {};
for (const protocol of values.protocols.split(',')) {
  results[protocol] = { levels: [], sustained: 0 };
  for (const rate of rates) {
    const sent = [];
    const before = { penalties: penalties(), throttled: throttled() };
    const started = performance.now();
    // Every 10 ms, as many txs as the rate has made due since the start.
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      while (sent.length < due) sent.push(await send(protocol, generatedTx({ sentAtMs: wallMs(), bytes })));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const achieved = sent.length / ((performance.now() - started) / 1000);
    const delivered = () => sent.filter((h) => got.has(h)).length;
    await waitFor(() => delivered() === sent.length, { timeoutMs: Number(values['settle-ms']), intervalMs: 100, what: 'all' }).catch(() => undefined);
    const level = {
      rate,
      sentPerS: Math.round(achieved),
      delivery: delivered() / sent.length,
      penalties: penalties() - before.penalties,
      throttled: throttled() - before.throttled,
    };
    results[protocol].levels.push(level);
    process.stderr.write(`${protocol} ${JSON.stringify(level)}\n`);
    if (level.delivery >= 0.99 && level.penalties === 0) results[protocol].sustained = level.sentPerS;
    else break;
  }
}
await a.stop();
await b.stop();
console.log(JSON.stringify({ bytes, seconds, results }, null, 1));
process.exit(0);
