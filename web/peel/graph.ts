// A watched decoder's peeling (the engine's `DecoderView`) as a graph at a step: codewords on
// one side with their degree, symbols on the other (known ones by tx, missing ones only as
// "short ID x under sender s's key"), and an edge per short ID a codeword names. Each step is
// also said in words. Pure functions of the view.
import { PeelField, PeelKind } from '../wasm/txcast_wasm.js';

/** What the page gets from the engine (`DecoderView`, copied out of WASM memory). */
export interface PeelData {
  steps: Float64Array;
  ids: Float64Array;
  senders: Int32Array;
  txs: Float64Array;
}

export interface PeelStep {
  kind: PeelKind;
  cw: number;
  /** `Arrived`: the sender's node. */
  from: number;
  seq: number;
  id: number;
  degree: number;
  /** `Arrived`: the short IDs it names, each with the symbol it is if known then (-1 if not). */
  names: { id: number; seq: number }[];
}

export function readPeel(data: PeelData): PeelStep[] {
  const out: PeelStep[] = [];
  let at = 0;
  for (let o = 0; o + PeelField.Stride <= data.steps.length; o += PeelField.Stride) {
    const n = data.steps[o + PeelField.Ids];
    const names = [];
    for (let k = 0; k < n; k += 1, at += 2) names.push({ id: data.ids[at], seq: data.ids[at + 1] });
    const sender = data.steps[o + PeelField.Sender];
    out.push({
      kind: data.steps[o + PeelField.Kind] as PeelKind,
      cw: data.steps[o + PeelField.Cw],
      from: sender >= 0 ? (data.senders[sender] ?? -1) : -1,
      seq: data.steps[o + PeelField.Seq],
      id: data.steps[o + PeelField.Id],
      degree: data.steps[o + PeelField.Degree],
      names,
    });
  }
  return out;
}

/** The tx each whole-tx symbol is. */
export function txOf(data: PeelData): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i + 1 < data.txs.length; i += 2) out.set(data.txs[i], data.txs[i + 1]);
  return out;
}

export const hex = (id: number) => (id >>> 0).toString(16).padStart(8, '0');

export type CodewordState = 'waiting' | 'released' | 'redundant' | 'corrupt' | 'lost';

export interface GraphCodeword {
  cw: number;
  from: number;
  degree: number;
  state: CodewordState;
}

/** A symbol: known (by `seq`), or missing and known only as `id` under `from`'s key. */
export interface GraphSymbol {
  key: string;
  seq: number;
  from: number;
  id: number;
}

export interface GraphEdge {
  cw: number;
  symbol: string;
  id: number;
  /** The symbol was known and XORed out of the codeword. */
  peeled: boolean;
}

export interface Graph {
  codewords: GraphCodeword[];
  symbols: GraphSymbol[];
  edges: GraphEdge[];
  /** Every symbol known by then. */
  known: number[];
  /** The codeword and symbol the step is about (-1, '' if none). */
  cw: number;
  symbol: string;
}

const missing = (from: number, id: number) => `m${from}:${id}`;
const knownKey = (seq: number) => `s${seq}`;

/**
 * The graph after steps 0..`at`: the codewords still waiting, the one step `at` settled, and
 * the symbols their edges reach.
 */
export function graphAt(steps: PeelStep[], at: number): Graph {
  const cws = new Map<number, GraphCodeword>();
  const edges = new Map<number, GraphEdge[]>();
  const known: number[] = [];
  for (let i = 0; i <= at && i < steps.length; i += 1) {
    const s = steps[i];
    switch (s.kind) {
      case PeelKind.Arrived:
        cws.set(s.cw, { cw: s.cw, from: s.from, degree: s.degree, state: 'waiting' });
        edges.set(
          s.cw,
          s.names.map((n) => ({ cw: s.cw, symbol: n.seq >= 0 ? knownKey(n.seq) : missing(s.from, n.id), id: n.id, peeled: n.seq >= 0 })),
        );
        break;
      case PeelKind.Known:
        known.push(s.seq);
        break;
      case PeelKind.Reduced: {
        const c = cws.get(s.cw);
        if (c) c.degree = s.degree;
        for (const e of edges.get(s.cw) ?? []) if (e.id === s.id && !e.peeled) Object.assign(e, { symbol: knownKey(s.seq), peeled: true });
        break;
      }
      case PeelKind.Released: {
        known.push(s.seq);
        const c = cws.get(s.cw);
        if (c) Object.assign(c, { degree: 0, state: 'released' });
        for (const e of edges.get(s.cw) ?? []) if (e.id === s.id) e.symbol = knownKey(s.seq);
        // Every waiting codeword that named it by the same key now names the known symbol.
        for (const list of edges.values()) for (const e of list) if (e.symbol === missing(c?.from ?? -1, s.id)) e.symbol = knownKey(s.seq);
        break;
      }
      default: {
        const c = cws.get(s.cw);
        if (c) c.state = s.kind === PeelKind.Redundant ? 'redundant' : s.kind === PeelKind.Corrupt ? 'corrupt' : 'lost';
      }
    }
  }
  const step = steps[at];
  const current = step && step.kind !== PeelKind.Known ? step.cw : -1;
  const shown = [...cws.values()].filter((c) => c.state === 'waiting' || c.cw === current).sort((a, b) => a.cw - b.cw);
  const shownEdges = shown.flatMap((c) => edges.get(c.cw) ?? []);
  const symbols = new Map<string, GraphSymbol>();
  const add = (key: string) => {
    if (symbols.has(key)) return;
    if (key.startsWith('s')) symbols.set(key, { key, seq: Number(key.slice(1)), from: -1, id: -1 });
    else {
      const [from, id] = key.slice(1).split(':').map(Number);
      symbols.set(key, { key, seq: -1, from, id });
    }
  };
  shownEdges.forEach((e) => add(e.symbol));
  const symbol = step && step.seq >= 0 ? knownKey(step.seq) : '';
  if (symbol) add(symbol);
  const ordered = [...symbols.values()].sort((a, b) => (a.seq < 0) !== (b.seq < 0) ? (a.seq < 0 ? 1 : -1) : a.seq - b.seq || a.from - b.from || a.id - b.id);
  return { codewords: shown, symbols: ordered, edges: shownEdges, known, cw: current, symbol };
}

/** A symbol in words: its tx if it is a whole tx, else its number. */
export function symbolName(seq: number, txs: Map<number, number>): string {
  const tx = txs.get(seq);
  return tx === undefined ? `symbol ${seq}` : `tx ${tx}`;
}

export function sayPeel(s: PeelStep, txs: Map<number, number>): string {
  const sym = symbolName(s.seq, txs);
  switch (s.kind) {
    case PeelKind.Arrived: {
      const knownNow = s.names.filter((n) => n.seq >= 0).map((n) => symbolName(n.seq, txs));
      const xored = knownNow.length ? ` ${knownNow.join(', ')} ${knownNow.length === 1 ? 'is' : 'are'} known already, so XORed out at once;` : '';
      return `Codeword ${s.cw} arrives from node ${s.from}, naming ${s.names.length} ${s.names.length === 1 ? 'symbol' : 'symbols'} by short IDs under the key this node gave node ${s.from}.${xored} ${s.degree} unknown ${s.degree === 1 ? 'remains' : 'remain'} (degree ${s.degree}).`;
    }
    case PeelKind.Known:
      return `The node has ${sym} itself: it is hashed under every peer's key and XORed out of every codeword that names it.`;
    case PeelKind.Released:
      return `Codeword ${s.cw} has one unknown left: with the known ones XORed out, what remains is ${sym} (its sender's short ID ${hex(s.id)}). It checks out, and is peeled from the codewords that wait on it.`;
    case PeelKind.Reduced:
      return `${sym[0].toUpperCase()}${sym.slice(1)} (short ID ${hex(s.id)} to this codeword's sender) is XORed out of codeword ${s.cw}: degree ${s.degree} now${s.degree <= 1 ? ', so it can be peeled next' : ''}.`;
    case PeelKind.Redundant:
      return `Codeword ${s.cw} named only symbols known by now: nothing new in it.`;
    case PeelKind.Corrupt:
      return `Codeword ${s.cw} failed its check (its payload does not hash to the short ID left): dropped, nothing decoded from it.`;
    case PeelKind.Lost:
      return `Codeword ${s.cw} waited too long with two or more unknowns: a loss, reported back to its sender (which codes faster for it).`;
  }
}
