// `npm run compare-real -- [--quick] [--out FILE] [SCENARIO ...]`: txcast's GossipSub next to a
// real one. For each scenario (by default scenarios/gossipsub-real-*.json) it runs the same
// network (topology, one-way latency per link) and load (who publishes what, when) twice:
// through `txsim`, and on @libp2p/gossipsub nodes, one per simulated node, all in this Node.js
// process, linked in memory with each link's delay (compare/delayed-links.mjs). It prints one
// JSON object per case: duplicates, IHAVE and IWANT ids per node per message, delivery and
// latency, real and simulated, with the parameters matched and those that differ.
//
// The real nodes run on a virtual clock (compare/virtual-clock.mjs): their timers, the links'
// delays and the times measured are simulated time, so a busy machine runs them more slowly but
// not differently; the CPU time they take costs no simulated time (as in the simulator).
//
// --quick runs the 100-node cases on 40 nodes with 3 s of load (for `npm run reproduce --
// --quick`, which `npm test` runs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureProjectNode, ROOT } from './lib/bootstrap.mjs';
import { ensureTxsim } from './lib/txsim.mjs';

// Hundreds of libp2p nodes allocate fast and briefly: a young generation of 64 MB instead of
// V8's default promotes less of it (the four full cases: 129 -> 115 s, 150 -> 134 s of CPU).
await ensureProjectNode(['--max-semi-space-size=64']);
const { gossipsub } = await import('@libp2p/gossipsub');
const { identify } = await import('@libp2p/identify');
const { plaintext } = await import('@libp2p/plaintext');
const { yamux } = await import('@libp2p/yamux');
const { createLibp2p } = await import('libp2p');
const { sha256 } = await import('@noble/hashes/sha2.js');
const { delayedLinks, linkAddress } = await import('./compare/delayed-links.mjs');
const { VirtualClock } = await import('./compare/virtual-clock.mjs');

const TOPIC = '/txcast/gossipsub/tx';
/** Plan time the real network's clock starts at: meshes are formed, one heartbeat has gone by. */
const WARM_UP_MS = 2_000;

const { values, positionals } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' }, help: { type: 'boolean', default: false } },
  allowPositionals: true,
});
if (values.help) {
  console.log('usage: npm run compare-real -- [--quick] [--out FILE] [SCENARIO.json ...]');
  process.exit(0);
}
const files = positionals.length
  ? positionals
  : fs
      .readdirSync(path.join(ROOT, 'scenarios'))
      .filter((f) => f.startsWith(values.quick ? 'gossipsub-real-100-' : 'gossipsub-real-'))
      .sort()
      .map((f) => path.join(ROOT, 'scenarios', f));

/** The scenario with --quick's changes: 40 nodes, 3 s of load. */
function adapt(text) {
  const s = JSON.parse(text);
  if (values.quick) {
    s.nodes = 40;
    const step = s.workload.rate_steps?.[0]?.at_ms ?? 0;
    s.workload.duration_ms = step + 3_000;
  }
  return s;
}

/** The router's settings, from the scenario's config: the parameters both sides share. */
function matched(config) {
  return {
    D: config.d,
    Dlo: config.d_lo,
    Dhi: config.d_hi,
    Dlazy: config.d_lazy ?? 6,
    heartbeatInterval: config.heartbeat_ms ?? 1000,
    mcacheLength: config.mcache_len ?? 5,
    mcacheGossip: config.mcache_gossip ?? 3,
    gossipFactor: config.gossip_factor ?? 0.25,
    idontwantMinDataSize: config.idontwant_threshold_bytes ?? 1024,
    seenTTL: config.seen_ttl_ms ?? 120_000,
    fanoutTTL: config.fanout_ttl_ms ?? 60_000,
    floodPublish: config.flood_publish ?? true,
  };
}

/**
 * What @libp2p/gossipsub does that txcast's router does not. (It also grafts a peer that
 * subscribes while the mesh is below D_lo, which fills meshes to D_lo before any heartbeat:
 * the cases turn on txcast's `graft_on_subscribe` to do the same.)
 */
const DIFFERENCES = [
  '@libp2p/gossipsub keeps at least D_out = 2 outbound peers in each mesh; txcast has no D_out',
  '@libp2p/gossipsub leaves out of its forwarding the peers that sent it a copy while it validated the message (mcache originatingPeers); txcast skips only the sender',
  '@libp2p/gossipsub grafts opportunistically every 60 heartbeats (no effect while scores are 0); txcast does not',
  '@libp2p/gossipsub piggybacks gossip and control on the next RPC to a peer; txcast sends them in the heartbeat RPC',
  'the real nodes start one heartbeat apart in turn and join the topic together once their streams are open; simulated nodes join at time zero with a random heartbeat phase',
];

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] : null;
}

const round = (x, digits = 3) => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/** The simulated side: txsim's report of the run. */
function simulate(binary, scenarioFile) {
  const out = path.join(os.tmpdir(), `compare-real-${process.pid}.json`);
  execFileSync(binary, ['run', scenarioFile, '--out', out, '--quiet'], { stdio: 'ignore' });
  const run = JSON.parse(fs.readFileSync(out, 'utf8')).runs[0];
  fs.rmSync(out, { force: true });
  const total = (name) => run.counters[name]?.total ?? 0;
  const perNodeMessage = run.nodes * run.txs;
  return {
    delivery: round(run.summary.delivery.mean, 4),
    duplicatesPerNodePerMessage: round(run.summary.duplicates.mean),
    ihaveIdsPerNodePerMessage: round(total('gossipsub.ihave_ids_sent') / perNodeMessage),
    iwantIdsPerNodePerMessage: round(total('gossipsub.iwant_ids_sent') / perNodeMessage),
    latencyMs: { mean: round(run.summary.latency_ms.mean, 1), p50: round(run.summary.latency_ms.p50, 1), p99: round(run.summary.latency_ms.p99, 1) },
  };
}

/** The real side: @libp2p/gossipsub nodes on the same links, publishing the same plan. */
async function realRun(network, params) {
  const n = network.nodes;
  const delay = new Map();
  for (const [a, b, us] of network.links) {
    delay.set(`${a} ${b}`, us / 1000);
    delay.set(`${b} ${a}`, us / 1000);
  }
  const transportFor = delayedLinks((from, to) => delay.get(`${from} ${to}`) ?? 0);
  const copies = Array.from({ length: n }, () => new Map());
  const first = Array.from({ length: n }, () => new Map());
  const ids = { ihave: 0, iwant: 0 };
  const nodes = [];
  const clock = new VirtualClock().install();
  /** Runs the clock until `promise` settles (its work needs simulated time to pass). */
  const settle = async (promise, what) => {
    let done = false;
    const watched = promise.finally(() => {
      done = true;
    });
    await clock.runWhile(() => !done, { limitMs: 600_000, what });
    return watched;
  };
  try {
    for (let i = 0; i < n; i++) {
      // Nodes start over one heartbeat, so their heartbeats do not beat in lockstep (the
      // simulator gives each node a random phase of up to one heartbeat).
      await clock.runUntil((i * params.heartbeatInterval) / n);
      const node = await settle(
        createLibp2p({
          addresses: { listen: [linkAddress(i).toString()] },
          transports: [transportFor(i)],
          connectionEncrypters: [plaintext()],
          streamMuxers: [yamux()],
          connectionManager: { inboundConnectionThreshold: 100_000, maxIncomingPendingConnections: 100_000, maxConnections: 100_000, maxDialQueueLength: 100_000 },
          services: {
            identify: identify(),
            pubsub: gossipsub({
              ...params,
              emitSelf: false,
              allowPublishToZeroTopicPeers: true,
              globalSignaturePolicy: 'StrictNoSign',
              // Called once per publish and once per copy received: copies beyond the first are duplicates.
              msgIdFn: (msg) => {
                const key = msg.data.length >= 4 ? new DataView(msg.data.buffer, msg.data.byteOffset).getUint32(0) : -1;
                copies[i].set(key, (copies[i].get(key) ?? 0) + 1);
                return sha256(msg.data);
              },
            }),
          },
        }),
        `node ${i} starting`,
      );
      const pubsub = node.services.pubsub;
      const handle = pubsub.handleReceivedRpc.bind(pubsub);
      pubsub.handleReceivedRpc = (from, rpc) => {
        for (const h of rpc.control?.ihave ?? []) ids.ihave += h.messageIDs?.length ?? 0;
        for (const w of rpc.control?.iwant ?? []) ids.iwant += w.messageIDs?.length ?? 0;
        return handle(from, rpc);
      };
      pubsub.addEventListener('gossipsub:message', ({ detail }) => {
        const key = new DataView(detail.msg.data.buffer, detail.msg.data.byteOffset).getUint32(0);
        if (!first[i].has(key)) first[i].set(key, performance.now());
      });
      nodes.push(node);
    }
    await settle(Promise.all(network.links.map(([a, b]) => nodes[a].dial(linkAddress(b)))), 'the dials');
    // Every node joins the topic once all its links are up and its GossipSub streams open, as a
    // simulated node does at time zero: its first heartbeats then graft from all of its peers,
    // not from the first to connect.
    const streamsOpen = () => nodes.every((node) => node.services.pubsub.streamsOutbound.size >= node.getPeers().length);
    await clock.runWhile(() => !streamsOpen(), { stepMs: 10, what: 'every GossipSub stream opening' });
    for (const node of nodes) node.services.pubsub.subscribe(TOPIC);
    const meshed = () => nodes.every((node) => node.services.pubsub.getMeshPeers(TOPIC).length >= Math.min(params.Dlo, node.getPeers().length));
    await clock.runWhile(() => !meshed(), { stepMs: 50, what: 'every mesh forming' });
    ids.ihave = 0;
    ids.iwant = 0;
    for (const c of copies) c.clear();
    // The plan's clock: its first quiet seconds are over once the meshes are up.
    const t0 = performance.now() - WARM_UP_MS;
    const created = network.txs.map(([, us]) => t0 + us / 1000);
    const failures = [];
    network.txs.forEach(([origin, , bytes], k) => {
      setTimeout(() => {
        const data = new Uint8Array(Math.max(4, bytes));
        new DataView(data.buffer).setUint32(0, k);
        nodes[origin].services.pubsub.publish(TOPIC, data).catch((err) => failures.push(err));
      }, Math.max(0, created[k] - performance.now()));
    });
    // To the scenario's end, as the simulator runs (the heartbeats of the drain gossip too).
    await clock.runUntil(t0 + network.end_us / 1000);
    if (failures.length) throw new Error(`${failures.length} publishes failed: ${failures[0].message}`);
    const m = network.txs.length;
    let pairs = 0;
    const all = [];
    const dupRates = [];
    const meanLatencies = [];
    for (let i = 0; i < n; i++) {
      let delivered = 0;
      let own = 0;
      let dups = 0;
      let latencySum = 0;
      network.txs.forEach(([origin], k) => {
        const c = copies[i].get(k) ?? 0;
        if (origin === i) {
          own += 1;
          dups += Math.max(0, c - 1);
          return;
        }
        pairs += 1;
        const at = first[i].get(k);
        if (at === undefined) return;
        delivered += 1;
        dups += Math.max(0, c - 1);
        latencySum += at - created[k];
        all.push(at - created[k]);
      });
      if (delivered > 0) {
        dupRates.push(dups / delivered);
        meanLatencies.push(latencySum / delivered);
      }
    }
    all.sort((a, b) => a - b);
    const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    return {
      delivery: round(all.length / Math.max(1, pairs), 4),
      duplicatesPerNodePerMessage: round(mean(dupRates)),
      ihaveIdsPerNodePerMessage: round(ids.ihave / (n * m)),
      iwantIdsPerNodePerMessage: round(ids.iwant / (n * m)),
      latencyMs: { mean: round(mean(meanLatencies), 1), p50: round(percentile(all, 0.5), 1), p99: round(percentile(all, 0.99), 1) },
      meshPeersMean: round(mean(nodes.map((node) => node.services.pubsub.getMeshPeers(TOPIC).length)), 2),
      timersFired: clock.fired,
    };
  } finally {
    await settle(Promise.allSettled(nodes.map((node) => node.stop())), 'the nodes stopping').catch(() => undefined);
    clock.uninstall();
  }
}

const binary = await ensureTxsim();
const results = [];
for (const file of files) {
  const started = performance.now();
  const scenario = adapt(fs.readFileSync(file, 'utf8'));
  const tmp = path.join(os.tmpdir(), `compare-real-case-${process.pid}.json`);
  fs.writeFileSync(tmp, JSON.stringify(scenario));
  try {
    const network = JSON.parse(execFileSync(binary, ['network', tmp], { encoding: 'utf8', maxBuffer: 256 << 20 }));
    const config = scenario.protocols[0].config ?? {};
    const params = matched(config);
    const sim = simulate(binary, tmp);
    const real = await realRun(network, params);
    const result = {
      case: path.basename(file, '.json'),
      mode: values.quick ? 'quick' : 'full',
      nodes: network.nodes,
      degree: scenario.topology.degree,
      messages: network.txs.length,
      txcastVersion: config.version ?? 'v2.0',
      jsVersion: JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@libp2p/gossipsub/package.json'), 'utf8')).version,
      matched: params,
      differences: DIFFERENCES,
      real,
      sim,
      duplicatesRealOverSim: round(real.duplicatesPerNodePerMessage / sim.duplicatesPerNodePerMessage),
      wallS: round((performance.now() - started) / 1000, 1),
    };
    results.push(result);
    console.log(JSON.stringify(result));
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
process.exit(0);
