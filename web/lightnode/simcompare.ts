// The simulator's numbers next to the live ones: a small GossipSub run with the settings this
// page runs (version, D_announce, StrictSign, content message ids) on a complete graph of as
// many nodes as the live topic has (this page and its topic peers, at least 4), carrying as
// many txs of the same mean size as this page saw on the topic, from publishers drawn at random.
// It counts the IDONTWANT, IANNOUNCE, INEED and full-message entries each node sent and
// received, as the live router counts its own, and gives per-node averages.
// The run uses the WASM Simulation of the visualizer (web/wasm), stepped in slices so that the
// page keeps its main thread; it is small (at most MAX_NODES nodes and MAX_TXS txs).
import type { GossipVersion } from '../p2p/gossip.mjs';
import { TX_TOPIC } from '../p2p/txwire.mjs';
import { SendField } from '../wasm/txcast_wasm.js';

export const KINDS = ['idontwant', 'iannounce', 'ineed', 'publish'] as const;
export type Kind = (typeof KINDS)[number];
export type KindCounts = Record<Kind, number>;

export const MIN_NODES = 4;
export const MAX_NODES = 32;
/** Txs simulated at most: beyond, the counts are scaled up by txs / MAX_TXS (and say so). */
export const MAX_TXS = 500;
/** One-way latency of every simulated link (a LAN, as the live test network is). */
export const LINK_MS = 5;
/** The mesh forms within the first heartbeats: txs start after it, as on a page that has peers. */
export const LOAD_START_MS = 2000;
const LOAD_TPS = 20;
const SEED = 1;

export interface CompareInput {
  /** Nodes on the live topic: this page and its topic peers. */
  nodes: number;
  /** Gossipsub txs this page saw on the topic (its own and received). */
  txs: number;
  /** Their mean size in bytes. */
  txBytes: number;
  version: GossipVersion;
  dAnnounce: number;
}

export interface CompareResult {
  nodes: number;
  /** Txs the run carried (at most MAX_TXS) and the factor its counts were scaled by. */
  simulatedTxs: number;
  scale: number;
  /** Entries per node, on average over the nodes: sent and received. */
  sent: KindCounts;
  received: KindCounts;
  /** Full copies beyond the first, per delivered tx, mean over nodes. */
  duplicatesPerTx: number;
  /** Share of (node, tx) pairs delivered. */
  delivery: number;
  wallMs: number;
}

/** The parts of the WASM Simulation this needs (the class from web/wasm, or a stand-in). */
export interface SimulationLike {
  capture_sends(on: boolean): void;
  advance(untilUs: number, maxEvents: number): boolean;
  take_sends(): Float64Array | number[];
  kinds(): string[];
  readonly nodes: number;
  readonly txs: number;
  finish(): string;
  free(): void;
}
export type SimulationClass = new (scenario: string, run: number, seed?: bigint) => SimulationLike;

const zero = (): KindCounts => ({ idontwant: 0, iannounce: 0, ineed: 0, publish: 0 });

/** The simulated network's size for a live topic of `nodes` nodes. */
export function simNodes(nodes: number): number {
  return Math.min(MAX_NODES, Math.max(MIN_NODES, Math.floor(nodes) || 0));
}

/** The scenario (JSON as txsim reads it) for one comparison. */
export function compareScenario(input: CompareInput): object {
  const nodes = simNodes(input.nodes);
  const txs = Math.max(1, Math.min(MAX_TXS, Math.floor(input.txs)));
  const bytes = Math.max(1, Math.round(input.txBytes));
  // Poisson arrivals at uniformly drawn nodes; a vanishing rate until the mesh has formed,
  // and long enough for all `txs` to be made (max_txs stops it there).
  const duration = LOAD_START_MS + Math.ceil(((txs + 10) / LOAD_TPS) * 3000);
  return {
    name: 'light node comparison',
    description: `GossipSub ${input.version} on a complete graph of ${nodes} nodes, ${txs} txs of ${bytes} bytes`,
    seed: SEED,
    nodes,
    topology: { kind: 'random_regular', degree: nodes - 1 },
    latency: { kind: 'constant', ms: LINK_MS },
    workload: { kind: 'poisson', total_tps: 1e-6, rate_steps: [{ at_ms: LOAD_START_MS, total_tps: LOAD_TPS }], duration_ms: duration, max_txs: txs, tx_bytes: bytes },
    drain_ms: 3000,
    protocols: [
      {
        label: `gossipsub ${input.version}`,
        protocol: 'gossipsub',
        config: {
          version: input.version,
          d_announce: input.version === 'v2.0' ? input.dAnnounce : 0,
          topics: [TX_TOPIC],
          signature_policy: 'strict_sign',
          message_id: 'content',
        },
      },
    ],
  };
}

export interface RunOptions {
  /** Events per slice. */
  sliceEvents?: number;
  /** Awaited between slices (the page: a macrotask, so input and frames get in). */
  pause?: () => Promise<void>;
  /** Checked after each pause: true drops the run (null is returned). */
  cancelled?: () => boolean;
}

/** Runs the comparison in slices of `sliceEvents`, awaiting `pause()` between them. */
export async function simulateCounts(Simulation: SimulationClass, input: CompareInput, options: RunOptions = {}): Promise<CompareResult | null> {
  const { sliceEvents = 20_000, pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0)), cancelled = () => false } = options;
  const started = performance.now();
  const sim = new Simulation(JSON.stringify(compareScenario(input)), 0);
  try {
    sim.capture_sends(true);
    const sent = zero();
    const received = zero();
    let kinds: string[] = [];
    const tally = () => {
      const sends = sim.take_sends();
      if (sends.length === 0) return;
      kinds = sim.kinds();
      for (let o = 0; o + SendField.Stride <= sends.length; o += SendField.Stride) {
        const kind = kinds[sends[o + SendField.Kind]] as Kind;
        if (!(kind in sent)) continue;
        sent[kind] += 1;
        if (!sends[o + SendField.Lost]) received[kind] += 1;
      }
    };
    for (;;) {
      const more = sim.advance(Number.MAX_SAFE_INTEGER, sliceEvents);
      tally();
      if (!more) break;
      await pause();
      if (cancelled()) return null;
    }
    const nodes = sim.nodes;
    const simulatedTxs = sim.txs;
    const report = JSON.parse(sim.finish()) as { summary?: { delivery?: { mean?: number }; duplicates?: { mean?: number } } };
    const scale = simulatedTxs > 0 ? Math.max(1, input.txs / simulatedTxs) : 1;
    const perNode = (c: KindCounts) => Object.fromEntries(KINDS.map((k) => [k, (c[k] * scale) / nodes])) as KindCounts;
    return {
      nodes,
      simulatedTxs,
      scale,
      sent: perNode(sent),
      received: perNode(received),
      duplicatesPerTx: report.summary?.duplicates?.mean ?? Number.NaN,
      delivery: report.summary?.delivery?.mean ?? Number.NaN,
      wallMs: performance.now() - started,
    };
  } finally {
    sim.free();
  }
}

/** What a comparison depends on, as a key: a new run only when it changes. */
export function inputKey(input: CompareInput): string {
  const bytes = Math.round(input.txBytes);
  return [simNodes(input.nodes), Math.floor(input.txs), bytes, input.version, input.version === 'v2.0' ? input.dAnnounce : 0].join(' ');
}
