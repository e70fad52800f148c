// Run: node scripts/relay/mixed.mjs [--seed N] [--messages 50] [--sizes 250,2048,16384] [--gap-ms 100] [--version v2.0] [--d-announce 4] [--txcast 5] [--js 5]  (prints one JSON object)
//
// Measures a mixed GossipSub network on 127.0.0.1 TCP: txcast's router (v2.0 by default) and
// @libp2p/gossipsub, half each, on a connected random graph (each node dials one earlier node
// and two more at random; localnet.mjs). Every node in turn publishes a message, the sizes in
// turn, one every --gap-ms. Reported, over (message, node) pairs other than the publisher:
// delivery, latency from the publish call to the node's first copy (ms, one process clock,
// performance.now), and full copies beyond the first per message per node (as FramedProtocol and
// JsGossip count them); then the same by the receiving node's implementation, and latency by size.
import { parseArgs } from 'node:util';
import { ensureProjectNode } from '../lib/bootstrap.mjs';

// libp2p 3 needs the project's Node 22: re-run on it before anything imports libp2p.
await ensureProjectNode();
const { meshesFormed, meshReport, mixedNetwork, stopAll, waitFor } = await import('./localnet.mjs');
const { TX_TOPIC } = await import('../../web/p2p/index.mjs');

function integer(value, name, min, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer in ${min}..${max}, got ${value}`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    messages: { type: 'string', default: '50' },
    sizes: { type: 'string', default: '250,2048,16384' },
    'gap-ms': { type: 'string', default: '100' },
    version: { type: 'string', default: 'v2.0' },
    'd-announce': { type: 'string', default: '4' },
    txcast: { type: 'string', default: '5' },
    js: { type: 'string', default: '5' },
    'timeout-ms': { type: 'string', default: '20000' },
  },
  strict: true,
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : integer(values.seed, 'seed', 0, 2 ** 32 - 1);
const messages = integer(values.messages, 'messages', 1, 100_000);
const sizes = values.sizes.split(',').map((s) => integer(s, 'sizes', 1, (1 << 20) - 1024));
const gapMs = integer(values['gap-ms'], 'gap-ms', 0, 60_000);
const dAnnounce = integer(values['d-announce'], 'd-announce', 0, 6);
const counts = { txcast: integer(values.txcast, 'txcast', 0, 50), js: integer(values.js, 'js', 0, 50) };
const timeoutMs = integer(values['timeout-ms'], 'timeout-ms', 0, 600_000);
if (!['v1.2', 'v2.0'].includes(values.version)) {
  console.error(`--version must be v1.2 or v2.0, got ${values.version}`);
  process.exit(2);
}
if (counts.txcast + counts.js < 2) {
  console.error('a network needs at least two nodes');
  process.exit(2);
}

const started = performance.now();
/** hash -> node index -> first arrival (performance.now()) */
const firsts = new Map();
const { peers, edges } = await mixedNetwork({
  ...counts,
  version: values.version,
  dAnnounce,
  seed,
  onDeliver: (index, d) => {
    if (d.topic !== TX_TOPIC) return;
    const at = performance.now();
    if (!firsts.has(d.hash)) firsts.set(d.hash, new Map());
    const byNode = firsts.get(d.hash);
    if (!byNode.has(index)) byNode.set(index, at);
  },
});
await waitFor(() => meshesFormed(peers), { timeoutMs: 20_000, what: () => meshReport(peers) });

const duplicates = () => peers.map((p) => p.gossip.stats.duplicates);
const before = duplicates();
/** [{hash, from, size, at}] */
const published = [];
for (let k = 0; k < messages; k++) {
  const from = k % peers.length;
  const size = sizes[k % sizes.length];
  const data = new Uint8Array(size);
  globalThis.crypto.getRandomValues(data.subarray(0, Math.min(size, 65_536)));
  // The rest stays zero; the first bytes (at least 65,536 or all) make every message distinct.
  const at = performance.now();
  const hash = await peers[from].gossip.publish(TX_TOPIC, data);
  published.push({ hash, from, size, at });
  // The load's pace, not a wait for something to happen.
  if (gapMs > 0 && k + 1 < messages) await new Promise((resolve) => setTimeout(resolve, gapMs));
}
const missing = () => published.reduce((n, m) => n + peers.filter((_, i) => i !== m.from && !firsts.get(m.hash)?.has(i)).length, 0);
// What is still missing after the timeout is a result (delivery below 1), not an error.
await waitFor(() => missing() === 0, { timeoutMs, intervalMs: 50 }).catch(() => undefined);
const after = duplicates();

/** Nearest-rank percentiles of `values` (ms), rounded to 0.1 ms. */
function latency(values) {
  if (values.length === 0) return { n: 0, p50: null, p95: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  const round = (x) => Math.round(x * 10) / 10;
  return { n: sorted.length, p50: round(rank(0.5)), p95: round(rank(0.95)), max: round(sorted[sorted.length - 1]) };
}

/** Delivery, latency and duplicates over the nodes `which(index)` selects. */
function summary(which) {
  const nodes = peers.map((_, i) => i).filter(which);
  let pairs = 0;
  const ms = [];
  for (const m of published) {
    for (const i of nodes) {
      if (i === m.from) continue;
      pairs += 1;
      const at = firsts.get(m.hash)?.get(i);
      if (at !== undefined) ms.push(at - m.at);
    }
  }
  const copies = nodes.reduce((n, i) => n + after[i] - before[i], 0);
  return {
    nodes: nodes.length,
    delivery: pairs ? Math.round((ms.length / pairs) * 10_000) / 10_000 : null,
    delivered: ms.length,
    pairs,
    latencyMs: latency(ms),
    duplicatesPerMessagePerNode: nodes.length ? Math.round((copies / (published.length * nodes.length)) * 1000) / 1000 : null,
    duplicates: copies,
  };
}

function latencyBySize() {
  const out = {};
  for (const size of sizes) {
    const ms = [];
    for (const m of published.filter((x) => x.size === size)) {
      for (const [i, at] of firsts.get(m.hash) ?? []) if (i !== m.from) ms.push(at - m.at);
    }
    out[size] = latency(ms);
  }
  return out;
}

/** Control entries txcast's nodes sent, by kind (js's router does not report them). */
function txcastSent() {
  const out = {};
  for (const p of peers.filter((x) => x.router === 'txcast')) {
    for (const [kind, n] of Object.entries(p.gossip.counters().sent)) out[kind] = (out[kind] ?? 0) + n;
  }
  return out;
}

const report = {
  nodes: peers.length,
  txcast: counts.txcast,
  js: counts.js,
  version: values.version,
  dAnnounce,
  seed,
  edges: edges.length,
  messages: published.length,
  sizes,
  gapMs,
  ...summary(() => true),
  byImplementation: {
    txcast: summary((i) => peers[i].router === 'txcast'),
    js: summary((i) => peers[i].router === 'js'),
  },
  latencyMsBySize: latencyBySize(),
  txcastEntriesSent: txcastSent(),
  wallS: Math.round((performance.now() - started) / 100) / 10,
};
await stopAll(peers);
console.log(JSON.stringify(report));
process.exit(0);
