// The light node panel's state, in one store (web/app/store.ts): what the views draw and what the
// user and the node change. The node itself (node.ts) is a live object: the store holds it, and a
// render (at most once a frame, after the node says it changed) gives the views a snapshot of its
// connections and txs to draw from. The arrival log's IndexedDB store is store.ts.
import { createStore, type Store } from '../app/store';
import type { ProtocolName } from './arrivals';
import type { LightNode, TxRecord } from './node';
import type { GossipSettings } from './settings';
import type { CompareResult, Kind } from './simcompare';

export const PROTOCOLS: ProtocolName[] = ['gossipsub', 'cat', 'strokkur'];
export const NAMES: Record<ProtocolName, string> = { gossipsub: 'gossipsub', cat: 'CAT', strokkur: 'Strokkur' };
/** The GossipSub entries counted live and in the simulator, as the table names them. */
export const CONTROL: [Kind, string][] = [
  ['idontwant', 'IDONTWANT'],
  ['iannounce', 'IANNOUNCE'],
  ['ineed', 'INEED'],
  ['publish', 'full messages'],
];

/** #lightnode's data-state. */
export type Phase = 'closed' | 'idle' | 'starting' | 'running' | 'error';

/** Everything the panel draws with, loaded when the node starts (views.ts). */
export type Views = typeof import('./views');
export type LiveNet = import('./netview').LiveNet;

export interface Tally {
  txs: number;
  own: number;
  copies: number;
  /** Bytes of the txs received from others, and of all. */
  receivedBytes: number;
  bytes: number;
  sized: number;
}

/** What a render draws: the node's connections and its txs tallied, at one moment. */
export interface Snapshot {
  light: LightNode;
  conns: ReturnType<LightNode['connections']>;
  seen: Record<ProtocolName, Tally>;
}

/** The simulator comparison: the last run, what it was for, and whether one is running. */
export interface SimState {
  key: string;
  result: CompareResult | null;
  error: string;
  running: boolean;
  startedMs: number;
}

export interface LightState {
  phase: Phase;
  /** The panel is shown. */
  open: boolean;
  light: LightNode | null;
  views: Views | null;
  simcompare: typeof import('./simcompare') | null;
  net: LiveNet | null;
  /** The settings the node runs with (set at Start). */
  started: GossipSettings | null;
  startedMs: number;
  /** Each protocol's largest tx (framed.mjs), once loaded. */
  caps: Record<ProtocolName, number> | null;
  capsError: string;
  /** What the URL asked for that cannot run (until Start). */
  urlErrors: string[];
  settingsError: string;
  /** The status line. */
  status: string;
  /** The log's latest lines. */
  log: string[];
  sim: SimState;
  snapshot: Snapshot | null;
}

export type LightStore = Store<LightState>;

export function createLightStore(): LightStore {
  return createStore<LightState>({
    phase: 'closed',
    open: false,
    light: null,
    views: null,
    simcompare: null,
    net: null,
    started: null,
    startedMs: 0,
    caps: null,
    capsError: '',
    urlErrors: [],
    settingsError: '',
    status: 'not started',
    log: [],
    sim: { key: '', result: null, error: '', running: false, startedMs: -Infinity },
    snapshot: null,
  });
}

/** Adds a line to the log (the latest 200 are kept). */
export function log(store: LightStore, line: string): void {
  store.update((s) => ({ log: [...s.log, `${new Date().toISOString().slice(11, 23)} ${line}`].slice(-200) }));
}

export const short = (peer: string) => (peer.length > 10 ? `…${peer.slice(-8)}` : peer);
export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "cat ab12cd34…9f0e1a" for a key "cat:<hash>". */
export function keyLabel(key: string): string {
  const [protocol, hash] = key.split(':');
  return `${protocol} ${hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash}`;
}

/** Per protocol: txs seen (own and received), copies, and bytes, in one pass. */
export function tally(txs: Iterable<TxRecord>): Record<ProtocolName, Tally> {
  const out = Object.fromEntries(PROTOCOLS.map((p) => [p, { txs: 0, own: 0, copies: 0, receivedBytes: 0, bytes: 0, sized: 0 }])) as Record<ProtocolName, Tally>;
  for (const tx of txs) {
    const t = out[tx.protocol];
    t.txs += 1;
    t.copies += tx.copies;
    if (tx.own) t.own += 1;
    else t.receivedBytes += tx.bytes;
    if (tx.bytes > 0) {
      t.bytes += tx.bytes;
      t.sized += 1;
    }
  }
  return out;
}

/** Draws the panel again at the next frame, or half a second from now (throttled views). */
export class Renders {
  private frame = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly store: LightStore) {}

  /** A render at the next frame: the views get a new snapshot of the node. */
  soon(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  /** A render half a second from now (the charts and the simulator throttle themselves). */
  later(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.soon();
    }, 500);
  }

  private render(): void {
    this.frame = 0;
    const light = this.store.get().light;
    if (!light || !light.gossip) return;
    this.store.update({ snapshot: { light, conns: light.connections(), seen: tally(light.txs.values()) } });
  }
}
