// The real network around this light node, shaped as the simulator's RunTrace so that the
// simulator's own renderer (web/canvas/render.ts), layout helpers and palette draw it: node 0 is this
// page, the others are the peers it has met (relay, browsers, anything else), in order of
// arrival. Frames and gossipsub messages become "sends" (a flash along the link), each tx's
// arrivals and duplicates become the picked tx's view. Time is microseconds since `startMs`.
import { SEND_STRIDE, type RunTrace } from '../../workers/protocol';
import { SendField } from '../wasm/txcast_wasm.js';
import { circularPositions } from '../canvas/layouts';
import type { TxView } from '../sim/trace';
import type { ProtocolName } from './arrivals';
import { wallMs } from '../p2p/txwire.mjs';

/** How long a frame is drawn crossing its link: real ones take a few ms, too fast to see. */
export const FLASH_US = 350_000;
/** Peers drawn at most (more are counted, not drawn). */
export const MAX_PEERS = 254;
/** Sends kept for drawing: flashes only look back two seconds. */
const MAX_SENDS = 4000;
/** Txs whose per-node arrivals are kept for the picked-tx view. */
const MAX_TXS = 2000;

export type PeerRole = 'self' | 'relay' | 'browser' | 'other';

/** The parts of a simulator trace the renderer draws a network from, and where the nodes sit. */
export type LiveTrace = Pick<RunTrace, 'nodes' | 'edges' | 'adversaries' | 'sends' | 'sendCount'> & { positions: Float32Array };

export interface NetPeer {
  id: string;
  role: PeerRole;
  connected: boolean;
  /** Cut off for garbage (drawn as an adversary). */
  hostile: boolean;
}

interface TxTrail {
  createdUs: number;
  origin: number;
  /** When we learnt that each node had it: node -> us. */
  seen: Map<number, number>;
  /** Duplicate copies that reached this page: us. */
  duplicates: number[];
}

export class LiveNet {
  readonly peers: NetPeer[];
  private readonly index = new Map<string, number>();
  /** Flat sends, SEND_STRIDE numbers each, oldest first (a ring trimmed from the front). */
  private sends: number[] = [];
  private readonly txs = new Map<string, TxTrail>();
  /** Bytes in and out per second since the start, per protocol. */
  readonly bins: Record<ProtocolName, number[]> = { gossipsub: [], cat: [], strokkur: [] };
  /** Bytes seen in all: [payload in, control in, payload out, control out]. */
  readonly totals = [0, 0, 0, 0];
  /** Frames and messages drawn: payload-carrying and control. */
  payloadSends = 0;
  controlSends = 0;
  unplaced = 0;

  constructor(
    selfId: string,
    readonly startMs: number,
  ) {
    this.peers = [{ id: selfId, role: 'self', connected: true, hostile: false }];
    this.index.set(selfId, 0);
  }

  nowUs(ms = wallMs()): number {
    return Math.max(0, (ms - this.startMs) * 1000);
  }

  /** The node number of a peer, added on first sight; -1 when there is no room. */
  node(id: string, role: PeerRole = 'other'): number {
    const known = this.index.get(id);
    if (known !== undefined) {
      const peer = this.peers[known];
      if (peer.role === 'other' && role !== 'other') peer.role = role;
      return known;
    }
    if (!id || this.peers.length > MAX_PEERS) {
      this.unplaced += 1;
      return -1;
    }
    this.peers.push({ id, role, connected: false, hostile: false });
    this.index.set(id, this.peers.length - 1);
    return this.peers.length - 1;
  }

  /** The current connections: who is up, and which role each peer plays. */
  setConnected(connected: Map<string, PeerRole>): void {
    for (const peer of this.peers.slice(1)) peer.connected = connected.has(peer.id);
    for (const [id, role] of connected) {
      const n = this.node(id, role);
      if (n > 0) this.peers[n].connected = true;
    }
  }

  markHostile(id: string): void {
    const n = this.node(id);
    if (n > 0) this.peers[n].hostile = true;
  }

  /**
   * A frame or message crossing a link: `in` from a peer to this page, `out` the other way.
   * `payload` is its bytes of tx payload (the rest is control); `tx` the full tx it carries.
   */
  wire(protocol: ProtocolName, direction: 'in' | 'out', peer: string, bytes: number, payload: number, atMs = wallMs()): void {
    const n = this.node(peer);
    const t = this.nowUs(atMs);
    const bins = this.bins[protocol];
    const second = Math.floor(t / 1e6);
    // At most a day of bins: a page left open longer keeps adding to the last one.
    while (bins.length <= second && bins.length < 86_400) bins.push(0);
    bins[Math.min(second, bins.length - 1)] += bytes;
    const p = Math.max(0, Math.min(payload, bytes));
    const base = direction === 'in' ? 0 : 2;
    this.totals[base] += p;
    this.totals[base + 1] += bytes - p;
    if (p > 0) this.payloadSends += 1;
    else this.controlSends += 1;
    if (n < 0) return;
    // An incoming frame is drawn as having left the peer FLASH_US before it landed here.
    const [sent, arrive, from, to] = direction === 'in' ? [t - FLASH_US, t, n, 0] : [t, t + FLASH_US, 0, n];
    this.sends.push(sent, from, to, 0, bytes, p, arrive, 0, -1, -1);
    if (this.sends.length > MAX_SENDS * SEND_STRIDE) this.sends.splice(0, this.sends.length - MAX_SENDS * SEND_STRIDE);
  }

  /** A tx created here (own) or first heard of; `createdMs` when the tx carries its creation time. */
  private trail(id: string, atUs: number): TxTrail {
    let trail = this.txs.get(id);
    if (!trail) {
      trail = { createdUs: atUs, origin: 0, seen: new Map(), duplicates: [] };
      this.txs.set(id, trail);
      if (this.txs.size > MAX_TXS) this.txs.delete(this.txs.keys().next().value!);
    }
    return trail;
  }

  /** This page got (or made) a copy of tx `id` from `from` ('' for our own). */
  arrival(id: string, from: string, first: boolean, atMs = wallMs(), createdMs?: number): void {
    const t = this.nowUs(atMs);
    const trail = this.trail(id, t);
    const sender = from ? this.node(from) : -1;
    if (first || !trail.seen.has(0)) {
      trail.seen.set(0, t);
      if (createdMs !== undefined) trail.createdUs = Math.min(t, this.nowUs(createdMs));
      if (!from) trail.origin = 0;
      else if (sender > 0) trail.origin = sender;
    } else {
      trail.duplicates.push(t);
    }
    // The sender had it before it sent it.
    if (sender > 0 && !trail.seen.has(sender)) trail.seen.set(sender, Math.max(trail.createdUs, t - FLASH_US));
  }

  /** A peer showed it has tx `id` (it sent us a copy or announced it). */
  peerHas(id: string, peer: string, atMs = wallMs()): void {
    const trail = this.txs.get(id);
    const n = this.node(peer);
    if (trail && n > 0 && !trail.seen.has(n)) trail.seen.set(n, this.nowUs(atMs));
  }

  /** Ids of txs with a view, newest last. */
  txIds(): string[] {
    return [...this.txs.keys()];
  }

  /** The simulator's per-tx view of tx `id`, or null when it is unknown. */
  txView(id: string): TxView | null {
    const trail = this.txs.get(id);
    if (!trail) return null;
    const arrivalUs = new Float64Array(this.peers.length).fill(-1);
    for (const [n, t] of trail.seen) if (n < arrivalUs.length) arrivalUs[n] = t;
    const times = Float64Array.from([...trail.seen.values()].sort((a, b) => a - b));
    const duplicates = Float64Array.from(trail.duplicates.flatMap((t) => [t, 0]));
    return { tx: 0, createdUs: trail.createdUs, origin: trail.origin, arrivalUs, times, duplicates, lastUs: times.at(-1) ?? trail.createdUs };
  }

  /** The network as the renderer reads it: self at the centre, peers round it. */
  trace(): LiveTrace {
    const nodes = this.peers.length;
    const edges: number[] = [];
    const relays = this.peers.flatMap((p, i) => (p.role === 'relay' && p.connected ? [i] : []));
    this.peers.forEach((p, i) => {
      if (i === 0 || !p.connected) return;
      edges.push(0, i);
      // Other browsers hold a reservation on the relay too: that link exists, though we do not see it.
      if (p.role === 'browser') for (const r of relays) edges.push(r, i);
    });
    const sends = sortSends(this.sends);
    return {
      nodes,
      edges: Uint32Array.from(edges),
      adversaries: Uint8Array.from(this.peers, (p) => (p.hostile ? 1 : 0)),
      sends,
      sendCount: sends.length / SEND_STRIDE,
      positions: livePositions(nodes),
    };
  }

  /** Whether anything is still crossing a link at `tUs` (keeps the animation running). */
  busy(tUs: number): boolean {
    for (let o = this.sends.length - SEND_STRIDE; o >= 0; o -= SEND_STRIDE) {
      if (this.sends[o + SendField.Arrive] > tUs) return true;
      if (this.sends[o + SendField.Time] < tUs - 2 * FLASH_US) break;
    }
    return false;
  }
}

/** Sends in the order of their start times, as the renderer's binary search expects. */
export function sortSends(flat: number[]): Float64Array {
  const n = flat.length / SEND_STRIDE;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => flat[a * SEND_STRIDE] - flat[b * SEND_STRIDE]);
  const out = new Float64Array(flat.length);
  order.forEach((from, to) => out.set(flat.slice(from * SEND_STRIDE, (from + 1) * SEND_STRIDE), to * SEND_STRIDE));
  return out;
}

/** This page at the centre, its peers evenly on the circle (the circular layout, shrunk). */
export function livePositions(nodes: number): Float32Array {
  const out = new Float32Array(2 * nodes);
  const ring = circularPositions(Math.max(0, nodes - 1));
  for (let i = 0; i < ring.length; i += 1) out[2 + i] = 0.85 * ring[i];
  return out;
}
