// One run's panel: its canvas (pan and zoom with d3-zoom), progress bar and status line.
import { select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import { EFFECTS, SEND_STRIDE, type RunChunk, type RunDone, type RunStart, type DuplicatesReply, type FirstCopiesReply, type SendsReply, type StreamedTrace } from '../../workers/protocol';
import { runColour } from './palette';
import { circularPositions, ringsBy, type LayoutKind } from './layouts';
import { ringPositions } from './rings';
import { LiveTrace } from '../sim/live';
import { MAX_DUPLICATES } from '../../workers/duplicate-store';
import { drawFrame, measured, nodeAt, nodeBuckets, type LayerTurn, type ViewTransform } from './render';
import { nodesIn } from './selection';
import { adversaryBehaviours, NodeStates } from '../sim/node-states';
import { arrivalsFromScan, TraceView, type TxView } from '../sim/trace';
import { count } from '../app/format';
import type { Highlight } from './groups';
import { drawnOn } from './drawn';
import { describeSend } from './message-tip';
import { messageNote } from '../app/core';
import { SendField } from '../wasm/txcast_wasm.js';

/** A tx's state at a seeked time, read from the run's arrival logs (range scan). */
export interface SeekState {
  tx: number;
  tUs: number;
  arrivalUs: Float64Array;
  censoring: Uint32Array;
}

export type PanelState = 'running' | 'done' | 'error';

const NO_SENDS = new Float64Array(0);
/** Least wall time between windows of sends asked for while one is held (ms). */
const REASK_MS = 200;

/** The picked tx's records its run's worker keeps and the page asks for. */
export type HeldKind = 'duplicates' | 'lateCopies';

export class Panel {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly progress: HTMLProgressElement;
  private readonly status: HTMLElement;
  trace: StreamedTrace | null = null;
  view: TraceView | null = null;
  live: LiveTrace | null = null;
  /** Set by a seek: drawn instead of the delivery trace while the clock stays at its time. */
  seekState: SeekState | null = null;
  /** Nodes censoring a tx, as the last scan for it said. */
  private censors: { tx: number; nodes: Uint32Array } | null = null;
  private readonly effects: HTMLElement;
  private readonly txInfo: HTMLElement;
  transform: ViewTransform = { k: 1, x: 0, y: 0 };
  selected = -1;
  /** Nodes picked for a change (1 each), shared by every panel. */
  selection: Uint8Array | null = null;
  /** The inspected node's groups of peers in this run (drawn around it). */
  highlight: Highlight | null = null;
  /** Each node's state over time under the run's timed events (none without events). */
  states: NodeStates | null = null;
  private readonly box: HTMLElement;
  /** Adversary effects summed so far (`read`: numbers of `trace.effects` counted) and who the adversaries are. */
  private effectTally: { sums: number[]; read: number; who: string } | null = null;
  /** Sends past those the chunks carried, for a stretch of time (asked of the worker as played). */
  private flights: SendsReply | null = null;
  /** When the last window of sends arrived (performance.now()). */
  private flightsAt = 0;
  /** A window of sends is being asked for. */
  flightsAsked = false;
  /** Which of the picked tx's records the worker keeps are being asked for, and when each last came. */
  readonly asking: Record<HeldKind, boolean> = { duplicates: false, lateCopies: false };
  private answeredAt: Record<HeldKind, number> = { duplicates: 0, lateCopies: 0 };
  private layout: LayoutKind = 'force';
  private positions: Float32Array = new Float32Array(0);
  private land: Path2D | null = null;

  constructor(
    readonly index: number,
    readonly label: string,
    onChange: () => void,
    onPick: (panel: Panel, node: number, adding: boolean) => void,
    /** Nodes inside a rectangle dragged with Shift held (added to the selection). */
    onSelectArea: (nodes: number[]) => void = () => undefined,
    /** Whether clicks and drags add, as with Shift held (a touch screen has no Shift); a drag then no longer moves the view. */
    adding: () => boolean = () => false,
  ) {
    this.element = document.createElement('figure');
    this.element.className = 'panel';
    this.element.dataset.run = String(index);
    this.element.dataset.label = label;
    const caption = document.createElement('figcaption');
    const swatch = document.createElement('span');
    swatch.className = 'run-swatch';
    swatch.style.background = runColour(index);
    caption.append(swatch, label);
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('aria-label', `network of run ${label}`);
    this.progress = document.createElement('progress');
    this.progress.max = 1;
    this.progress.value = 0;
    this.status = document.createElement('p');
    this.status.className = 'status';
    this.effects = document.createElement('p');
    this.effects.className = 'effects';
    this.effects.hidden = true;
    this.txInfo = document.createElement('p');
    this.txInfo.className = 'txinfo';
    // What adversaries did, the picked tx's spread and the status, stacked so each may wrap.
    const footer = document.createElement('div');
    footer.className = 'panel-footer';
    footer.append(this.effects, this.txInfo, this.status);
    // The rectangle a Shift-drag selects with.
    this.box = document.createElement('div');
    this.box.className = 'select-box';
    this.box.hidden = true;
    // A message in flight, named where the pointer or the keyboard picks it.
    this.tip = document.createElement('div');
    this.tip.className = 'msg-tip';
    this.tip.id = `msg-tip-${index}`;
    this.tip.setAttribute('role', 'status');
    this.tip.hidden = true;
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('aria-describedby', this.tip.id);
    this.canvas.title = 'Hover over a message to read it; with the canvas focused, [ and ] go through the messages in flight';
    this.element.append(caption, this.canvas, this.box, this.tip, this.progress, footer);
    this.readMessages();

    const behaviour = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.5, 40])
      // Shift-drag selects instead of panning, as any drag does while `adding` (the wheel still zooms).
      .filter((event: MouseEvent) => !event.shiftKey && !event.ctrlKey && !event.button && (event.type === 'wheel' || !adding()))
      .on('zoom', (event: { transform: ZoomTransform }) => {
        this.transform = { k: event.transform.k, x: event.transform.x, y: event.transform.y };
        onChange();
      });
    select(this.canvas).call(behaviour).call(behaviour.transform, zoomIdentity).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (event) => {
      if (!this.trace || this.dragged) return;
      const rect = this.canvas.getBoundingClientRect();
      const node = nodeAt(this.positions, rect.width, rect.height, this.transform, event.clientX - rect.left, event.clientY - rect.top);
      if (node >= 0) onPick(this, node, event.shiftKey || adding());
    });
    this.selectByDragging(onSelectArea, adding);
    this.setState('running', 'starting…');
  }

  private readonly tip: HTMLElement;
  /** The message the keyboard picked among those drawn (-1: none). */
  private picked = -1;

  /** Hovering a message in flight (or `[` and `]` on the focused canvas) names it. */
  private readMessages(): void {
    const show = (i: number) => {
      const m = this.trace ? drawnOn(this.canvas).at(i) : null;
      if (!m || !this.trace) {
        this.tip.hidden = true;
        delete this.element.dataset.tip;
        return;
      }
      const protocol = this.trace.protocol;
      const text = describeSend(this.trace, (kind) => messageNote(protocol, kind), m.data, m.offset);
      this.tip.textContent = text;
      this.element.dataset.tip = text;
      const width = this.canvas.clientWidth;
      this.tip.style.left = `${this.canvas.offsetLeft + Math.min(Math.max(0, m.x + 10), Math.max(0, width - 220))}px`;
      this.tip.style.top = `${this.canvas.offsetTop + m.y + 12}px`;
      this.tip.hidden = false;
    };
    this.canvas.addEventListener('pointermove', (event) => {
      if (event.buttons || event.shiftKey) return;
      const rect = this.canvas.getBoundingClientRect();
      this.picked = -1;
      show(drawnOn(this.canvas).nearest(event.clientX - rect.left, event.clientY - rect.top));
    });
    this.canvas.addEventListener('pointerleave', () => show(-1));
    this.canvas.addEventListener('blur', () => show(-1));
    this.canvas.addEventListener('keydown', (event) => {
      const n = drawnOn(this.canvas).count;
      if (event.key === 'Escape') return show((this.picked = -1));
      if ((event.key !== ']' && event.key !== '[') || !n) return;
      event.preventDefault();
      this.picked = event.key === ']' ? (this.picked + 1) % n : (this.picked - 1 + n) % n;
      show(this.picked);
    });
  }

  /** A drag just ended: the click it makes selects nothing. */
  private dragged = false;

  /** Shift-drag (any drag while `adding`) draws a rectangle; the nodes in it are selected when the pointer is released. */
  private selectByDragging(onSelectArea: (nodes: number[]) => void, adding: () => boolean): void {
    let from: { x: number; y: number } | null = null;
    const local = (event: PointerEvent) => {
      const rect = this.canvas.getBoundingClientRect();
      return { x: event.clientX - rect.left, y: event.clientY - rect.top };
    };
    const area = (a: { x: number; y: number }, b: { x: number; y: number }) => ({ x0: Math.min(a.x, b.x), y0: Math.min(a.y, b.y), x1: Math.max(a.x, b.x), y1: Math.max(a.y, b.y) });
    this.canvas.addEventListener('pointerdown', (event) => {
      this.dragged = false;
      if (!(event.shiftKey || adding()) || !this.trace) return;
      from = local(event);
      this.canvas.setPointerCapture(event.pointerId);
    });
    this.canvas.addEventListener('pointermove', (event) => {
      if (!from) return;
      const r = area(from, local(event));
      Object.assign(this.box.style, { left: `${this.canvas.offsetLeft + r.x0}px`, top: `${this.canvas.offsetTop + r.y0}px`, width: `${r.x1 - r.x0}px`, height: `${r.y1 - r.y0}px` });
      this.box.hidden = r.x1 - r.x0 < 3 && r.y1 - r.y0 < 3;
    });
    // A finger's drag that draws the rectangle is the page's, as d3-zoom's pans are: left to the
    // browser, it took the drag for a gesture of its own and dropped the click of the next tap.
    this.canvas.addEventListener(
      'touchmove',
      (event) => {
        if (from) event.preventDefault();
      },
      { passive: false },
    );
    this.canvas.addEventListener('pointerup', (event) => {
      if (!from) return;
      const r = area(from, local(event));
      from = null;
      this.box.hidden = true;
      if (r.x1 - r.x0 < 3 && r.y1 - r.y0 < 3) return; // a Shift-click, handled as a click
      this.dragged = true;
      const { width, height } = this.canvas.getBoundingClientRect();
      onSelectArea(nodesIn(this.positions, width, height, this.transform, r));
    });
  }

  setState(state: PanelState, text: string): void {
    this.element.dataset.state = state;
    this.status.textContent = text;
    this.progress.hidden = state !== 'running';
  }

  setProgress(fraction: number, text: string): void {
    this.progress.value = Math.min(1, Math.max(0, fraction));
    setText(this.status, text);
  }

  /** The run's network arrived: it can be drawn, and played as chunks come. */
  start(start: RunStart): void {
    this.live = new LiveTrace(start);
    this.trace = this.live.trace;
    this.view = new TraceView(this.trace);
    this.effectTally = null;
    this.states = this.trace.changes.length ? new NodeStates(this.trace) : null;
    this.setLayout(this.layout);
    this.showEffects();
  }

  /**
   * A change was applied at `start.resumeUs`: the run goes on from there under the new scenario.
   * What was shown before stays; the rest streams in again.
   */
  resume(start: RunStart): void {
    if (!this.live || !this.trace) return this.start(start);
    this.live.rewind(start);
    this.view = new TraceView(this.trace);
    this.effectTally = null;
    this.seekState = null;
    this.censors = null;
    this.flights = null;
    this.states = this.trace.changes.length ? new NodeStates(this.trace) : null;
    this.showEffects();
  }

  /**
   * Takes the layout another run of the scenario computed (`start` brought none): the same network
   * as this run's, or, should it not be, a circle.
   */
  takeLayout(from: StreamedTrace): void {
    const trace = this.trace;
    if (!trace) return;
    const same = from.edges.length === trace.edges.length && from.edges.every((v, i) => v === trace.edges[i]);
    trace.positions = same ? from.positions : circularPositions(trace.nodes);
    if (this.layout === 'force') this.positions = trace.positions;
  }

  addChunk(chunk: RunChunk): void {
    if (!this.live) return;
    this.live.add(chunk);
    this.view!.extend();
    this.showEffects();
  }

  finish(done: RunDone): void {
    this.live?.finish(done);
    this.element.dataset.duplicates = String(done.duplicateCount ?? 0);
    this.element.dataset.duplicateBytes = String(done.duplicateBytes ?? 0);
  }

  /** Simulated time this run has computed so far. */
  get computedUs(): number {
    return this.trace?.computedUs ?? 0;
  }

  get done(): boolean {
    return this.live?.done ?? false;
  }

  /** Tallies of adversary effects so far, under the canvas (only for runs with adversaries). */
  private showEffects(): void {
    const t = this.trace;
    // Behaviours the protocol ignores are said under the canvas, as the core words them.
    const notes = t?.notes.length ? ` · ${t.notes.join(' · ')}` : '';
    // Written only when they change: each chunk comes here, and every write is a rendering.
    setData(this.element, 'notes', String(t?.notes.length ?? 0));
    if (!t || !t.adversaries.some((a) => a)) {
      this.effects.hidden = !notes;
      setText(this.effects, notes.slice(3));
      return;
    }
    // Each chunk adds its effects to the tallies: a chunk costs what it holds.
    const tally = (this.effectTally ??= { sums: EFFECTS.map(() => 0), read: 0, who: adversaryKinds(adversaryBehaviours(t), t.adversaries) });
    const { sums, who } = tally;
    for (; tally.read + 3 < t.effects.length; tally.read += 4) sums[t.effects[tally.read + 2]] += t.effects[tally.read + 3];
    this.effects.hidden = false;
    setText(this.effects, `adversaries: ${who} · requests withheld or timed out: ${count(sums[0])} · corrupt data rejected: ${count(sums[1])}${notes}`);
    setData(this.element, 'withheld', String(sums[0]));
    setData(this.element, 'corrupt', String(sums[1]));
  }

  /** The picked tx's spread at tUs, in words: how far it got, in how many hops, with how many duplicates. */
  private showTx(view: TxView, tUs: number): void {
    let reached = 0;
    let deepest = 0;
    for (let i = 0; i < view.arrivalUs.length; i += 1) {
      const t = view.arrivalUs[i];
      if (t < 0 || t > tUs) continue;
      reached += 1;
      deepest = Math.max(deepest, view.hops?.[i] ?? 0);
    }
    let copies = 0;
    for (let d = 0; d < view.duplicates.length; d += 2) if (view.duplicates[d] <= tUs) copies += 1;
    // Past the copies its worker keeps, a run's later ones are not there to count.
    const keptUs = this.view?.duplicatesKeptUs(view.tx) ?? Infinity;
    const copiesText = tUs < keptUs ? `${count(copies)} duplicate copies` : `${count(copies)}+ duplicate copies (counted up to ${(keptUs / 1000).toFixed(0)} ms: the worker keeps ${count(MAX_DUPLICATES)} a run)`;
    const text = tUs < view.createdUs
      ? `tx ${view.tx} is created at ${(view.createdUs / 1000).toFixed(0)} ms`
      : `tx ${view.tx}: at ${count(reached)} of ${count(view.arrivalUs.length)} nodes${view.hops && view.sendRows?.length ? `, ${deepest} ${deepest === 1 ? 'hop' : 'hops'} out` : ''}, ${copiesText}`;
    setText(this.txInfo, text);
  }

  /** Takes a range scan's answer as the state to draw at (tx, tUs). */
  setSeek(tx: number, tUs: number, scan: Float64Array, censoring: Uint32Array): void {
    if (!this.trace) return;
    this.seekState = { tx, tUs, arrivalUs: arrivalsFromScan(scan, tx, this.trace.nodes), censoring };
    this.censors = { tx, nodes: censoring };
    this.element.dataset.seekTx = String(tx);
    this.element.dataset.seekUs = String(tUs);
  }

  /** The nodes whose behaviour censors `tx` (asked of the worker, which knows behaviours). */
  setCensoring(tx: number, nodes: Uint32Array): void {
    this.censors = { tx, nodes };
  }

  /** Node colour buckets at (tx, tUs): from the delivery trace (`played`) and from the seek's scan if it matches. */
  colours(tx: number, tUs: number, spanUs: number): { played: number[]; seeked: number[] | null } {
    const view = this.tx(tx);
    if (!view) return { played: [], seeked: null };
    const seek = this.seekState;
    const seeked = seek && seek.tx === tx && seek.tUs === tUs ? Array.from(nodeBuckets(seek.arrivalUs, view.createdUs, tUs, spanUs)) : null;
    return { played: Array.from(nodeBuckets(view.arrivalUs, view.createdUs, tUs, spanUs)), seeked };
  }

  /** Whether this run has coordinates to put on a map (a geographic scenario). */
  get hasMap(): boolean {
    return (this.trace?.coordinates.length ?? 0) > 0;
  }

  /** Switches the view; `onReady` is called when an asynchronously loaded map arrives. */
  setLayout(kind: LayoutKind, onReady?: () => void): void {
    const trace = this.trace;
    this.layout = kind === 'map' && !this.hasMap ? 'force' : kind;
    this.land = null;
    if (!trace) return;
    this.rings = null;
    if (ringsBy(this.layout)) this.positions = new Float32Array(0); // drawn per tx (`ringsFor`)
    else if (this.layout === 'circular') this.positions = circularPositions(trace.nodes);
    else if (this.layout === 'map') {
      // Nothing is drawn until the map's code has loaded.
      this.positions = new Float32Array(0);
      const shown = () => this.layout === 'map' && this.trace === trace;
      void import('./map').then(async ({ landPath, mapPositions }) => {
        if (!shown()) return;
        this.positions = mapPositions(trace.coordinates);
        onReady?.();
        const land = await landPath();
        if (!shown()) return;
        this.land = land;
        onReady?.();
      });
    } else this.positions = trace.positions;
    this.element.dataset.layout = this.layout;
  }

  /** The ring layout last computed: for which tx, layout and number of nodes reached. */
  private rings: { key: string; positions: Float32Array } | null = null;

  /** Rings around `view`'s origin; recomputed when the tx, the layout or its reach changes. */
  private ringsFor(view: TxView): Float32Array {
    const by = ringsBy(this.layout)!;
    let reached = 0;
    for (let i = 0; i < view.arrivalUs.length; i += 1) if (view.arrivalUs[i] >= 0) reached += 1;
    const key = `${view.tx}|${by}|${reached}`;
    if (this.rings?.key !== key) this.rings = { key, positions: ringPositions(view, by) };
    return this.rings.positions;
  }

  /** Where nodes are drawn in the current view (unit box). */
  get nodePositions(): Float32Array {
    return this.positions;
  }

  tx(tx: number): TxView | null {
    if (!this.view || tx < 0 || tx >= this.view.txs) return null;
    return this.view.tx(tx);
  }

  /**
   * The sends to draw in flight at `tUs`: the trace's own (a run's first `SEND_CAP`) while they
   * hold every send up to then, else the worker's last window from before `tUs`, which holds all
   * in flight at `tUs` if it is complete there (`throughUs`) and a part of them otherwise (a
   * newer one is asked for); null when there is none yet.
   */
  private sendsAt(tUs: number, about: number): SendsReply | Float64Array | null {
    const t = this.trace!;
    const kept = t.sends.length / SEND_STRIDE;
    if (kept >= t.sendCount || (kept > 0 && t.sends[(kept - 1) * SEND_STRIDE + SendField.Time] > tUs)) return t.sends;
    const w = this.flights;
    return w && w.tx === about && w.fromUs <= tUs ? w : null;
  }

  /**
   * Where a window of sends (about tx `about`, or all if negative) should start to draw `tUs`
   * (null: none needed now): at `tUs` when no window starts by then; when the one held is not
   * complete at `tUs`, or playback is past its middle and more is computed, at most every
   * `REASK_MS` (a window may be too dense to hold all in flight: it is drawn in part rather than
   * asked for in every frame).
   */
  flightsWanted(tUs: number, about: number): number | null {
    if (this.flightsAsked || !this.trace) return null;
    const held = this.sendsAt(tUs, about);
    if (held === null) return tUs;
    if (held instanceof Float64Array || performance.now() - this.flightsAt < REASK_MS) return null;
    const incomplete = tUs >= held.throughUs;
    const ahead = held.throughUs < this.computedUs && tUs - held.fromUs > (held.throughUs - held.fromUs) / 2;
    return incomplete || ahead ? tUs : null;
  }

  /**
   * The worker's row to ask the picked tx's records of a kind from (null: none needed now): its
   * duplicate copies, or where its copies landed first past the sends the chunks carried (the
   * hop rings' parents). At once for a tx newly picked and for the last ones once the run is done
   * (no chunk will bring another frame), else at most every `REASK_MS` while the run computes
   * past those held.
   */
  heldWanted(kind: HeldKind, tx: number): number | null {
    if (this.asking[kind] || !this.view || tx < 0 || tx >= this.view.txs) return null;
    const computedUs = this.done ? Infinity : this.computedUs;
    const from = kind === 'duplicates' ? this.view.duplicatesFrom(tx, computedUs) : this.view.lateCopiesFrom(tx, computedUs, this.trace?.sendCount ?? 0);
    return from === null || (from > 0 && !this.done && performance.now() - this.answeredAt[kind] < REASK_MS) ? null : from;
  }

  /** The picked tx's duplicate copies the worker sent. */
  setDuplicates(reply: DuplicatesReply): void {
    this.view?.addDuplicates(reply);
    this.answeredAt.duplicates = performance.now();
  }

  /** Where the picked tx's copies landed first past the chunks' sends, as the worker found. */
  setLateCopies(reply: FirstCopiesReply): void {
    this.view?.addLateCopies(reply);
    this.answeredAt.lateCopies = performance.now();
  }

  /** A window of sends the worker sent. */
  setFlights(reply: SendsReply): void {
    this.flights = reply;
    this.flightsAt = performance.now();
  }

  /** Draws the panel at (tx, tUs); true when it needs another frame (its size is not known yet, or links are left to draw). */
  draw(tx: number, tUs: number, spanUs: number, txOnly = false, layerTurn?: LayerTurn): boolean {
    if (!measured(this.canvas)) {
      this.element.dataset.layer = 'drawing';
      return true;
    }
    let view = this.trace ? this.tx(tx) : null;
    // Rings are laid out around the picked tx as computed (ahead of playback), not as shown.
    if (view && ringsBy(this.layout)) this.positions = this.ringsFor(view);
    // Without positions (waiting for the layout another run computes) there is nothing to draw yet.
    if (!this.trace || !view || !this.positions.length) {
      drawFrame(this.canvas, null);
      return false;
    }
    // After a seek, who has the tx comes from the arrival logs' range scan.
    const seek = this.seekState;
    if (seek && seek.tx === tx && seek.tUs === tUs) view = { ...view, arrivalUs: seek.arrivalUs };
    const censoring = this.censors?.tx === tx ? this.censors.nodes : null;
    const states = this.states?.at(tUs) ?? null;
    const held = this.sendsAt(tUs, txOnly ? tx : -1);
    // The trace's own sends need no window: the picked tx's are drawn from its view.
    const sends = held === null ? NO_SENDS : held instanceof Float64Array ? undefined : held.sends;
    const frame = { trace: this.trace, positions: this.positions, tx: view, tUs, spanUs, transform: this.transform, background: this.land, txOnly, censoring, layerTurn, states, selection: this.selection, highlight: this.highlight, sends };
    const stats = drawFrame(this.canvas, frame, this.selected);
    this.element.dataset.away = String(states ? states.away.reduce((n, a) => n + a, 0) : 0);
    this.element.dataset.adversariesNow = String(states && this.trace.behaviourNames ? states.behaviour.reduce((n, b) => n + (this.trace!.behaviourNames[b] !== 'honest' ? 1 : 0), 0) : this.trace.adversaries.reduce((n, a) => n + a, 0));
    this.showTx(view, tUs);
    this.element.dataset.flashes = String(stats.flashes);
    // Where the sends drawn from start among the run's (0: its own from the first; a window's first).
    this.element.dataset.sendsFrom = held === null ? '' : held instanceof Float64Array ? '0' : String(held.first);
    // Whether every send in flight now was there to draw.
    this.element.dataset.sendsComplete = String(held !== null && (held instanceof Float64Array || tUs < held.throughUs));
    this.element.dataset.duplicateFlashes = String(stats.duplicates);
    this.element.dataset.withheldFlashes = String(stats.withheld);
    this.element.dataset.highlighted = String(stats.highlighted);
    this.element.dataset.origin = String(view.origin);
    this.element.dataset.layer = stats.layerPending ? 'drawing' : 'done';
    this.element.dataset.renderer = stats.gpu ? 'webgl' : '2d';
    return stats.layerPending;
  }
}

/** The adversaries by behaviour, in words ("3 withhold on request, 2 silent"). */
function adversaryKinds(behaviours: string[], adversaries: Uint8Array): string {
  const kinds = new Map<string, number>();
  behaviours.forEach((b, i) => {
    if (adversaries[i]) kinds.set(b, (kinds.get(b) ?? 0) + 1);
  });
  return [...kinds].map(([b, n]) => `${n} ${b.replace(/_/g, ' ')}`).join(', ');
}

/** Sets an element's text unless it has it already (a write is a rendering, even of the same text). */
function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

function setData(element: HTMLElement, key: string, value: string): void {
  if (element.dataset[key] !== value) element.dataset[key] = value;
}
