// Draws one run's network on a 2D canvas at one instant of simulated time for one picked tx.
// Display state is a pure function of (panel, tx, time, view transform): pausing, seeking or
// resizing just draws again.
import { EFFECTS, SEND_STRIDE, type RunTrace } from '../../workers/protocol';
import { MessageClass, SendField } from '../wasm/txcast_wasm.js';
import { ARRIVAL_BUCKET_COLOURS, ARRIVAL_BUCKETS, arrivalBucket, BACKGROUND, edgeColour, LAND, MARKS, UNREACHED } from './palette';
import type { NodeState } from '../sim/node-states';
import type { TxView } from '../sim/trace';
import { GROUP_COLOURS, type Highlight } from './groups';
import { drawnOn } from './drawn';
import type { GpuRenderer } from './gpu';
import { BUCKET_RGBA, CONTROL_RGBA, DUPLICATE_RGBA, PAYLOAD_RGBA, Segments } from './segments';

/** Pan and zoom, as d3-zoom gives them: screen = k * base + (x, y). */
export interface ViewTransform {
  k: number;
  x: number;
  y: number;
}

export interface FrameInput {
  trace: FrameTrace;
  /** Node positions in [-1, 1] (the layout, or a map projection). */
  positions: Float32Array;
  tx: TxView;
  tUs: number;
  /** Arrival colours span this many microseconds after the tx was created (shared across panels). */
  spanUs: number;
  transform: ViewTransform;
  /** Drawn under the network in the same unit box (the world's land in the map view). */
  background?: Path2D | null;
  /** Only the picked tx's messages flash, and the path it took is drawn (otherwise all traffic). */
  txOnly?: boolean;
  /**
   * The sends to draw in flight, in send order, if not the trace's own: a window the worker sent
   * (with `txOnly`, of the sends about the picked tx, whose copies are drawn from it).
   */
  sends?: Float64Array;
  /** Nodes whose behaviour censors the picked tx (marked once they hold it). */
  censoring?: Uint32Array | null;
  /** Shared by the canvases drawn in one frame: only one of them works on its layer in it. */
  layerTurn?: LayerTurn;
  /** Each node's state at `tUs` as the run's timed events leave it (none without events). */
  states?: NodeState | null;
  /** Nodes picked for a change (1 each), ringed. */
  selection?: Uint8Array | null;
  /** The inspected node's groups of peers (a GossipSub mesh), joined to it and ringed. */
  highlight?: Highlight | null;
}

/** From this many nodes on, links, flights and nodes are drawn with WebGL where the browser has it. */
export const GPU_MIN_NODES = 3000;
/** What each canvas's marks over its WebGL layer were last drawn for ('' when they move with time). */
const overlays = new WeakMap<HTMLCanvasElement, string>();
/** A panel canvas's WebGL canvas, under it, and where it was last placed. */
interface GpuLayer {
  canvas: HTMLCanvasElement;
  renderer: GpuRenderer;
  placed: string;
}
/** Each panel canvas's WebGL layer, made when it first draws a big network; null where WebGL failed. */
const gpuLayers = new WeakMap<HTMLCanvasElement, GpuLayer | null>();
/**
 * The WebGL renderer's module (regl with it): loaded when a big network is first drawn, so the
 * first screen does not download it. Undefined until it has loaded, null if it could not.
 */
let gpuModule: typeof import('./gpu') | null | undefined;
let gpuLoading: Promise<void> | null = null;
function loadGpu(): void {
  gpuLoading ??= import('./gpu').then(
    (m) => void (gpuModule = m),
    () => void (gpuModule = null),
  );
}
function gpuLayer(canvas: HTMLCanvasElement): GpuLayer | null {
  if (!gpuModule) return null;
  const { GpuRenderer } = gpuModule;
  let layer = gpuLayers.get(canvas);
  if (layer === undefined) {
    const under = document.createElement('canvas');
    under.className = 'gpu-layer';
    under.setAttribute('aria-hidden', 'true');
    const renderer = GpuRenderer.create(under);
    layer = renderer && canvas.parentElement ? { canvas: under, renderer, placed: '' } : null;
    if (layer) canvas.before(under);
    gpuLayers.set(canvas, layer);
  }
  return layer;
}
/** Segments of one frame (reused: a big network's frame would otherwise allocate megabytes). */
const gpuSegments = new Segments();

/** The canvas that works on its layer in this frame, once one has. */
export interface LayerTurn {
  holder?: HTMLCanvasElement;
}

/** Whether `canvas` may work on its layer in this frame (always, for a canvas drawn on its own). */
function takeTurn(turn: LayerTurn | undefined, canvas: HTMLCanvasElement): boolean {
  if (!turn) return true;
  turn.holder ??= canvas;
  return turn.holder === canvas;
}

/** The parts of a trace a frame reads (the light node's view builds them by hand). */
type FrameTrace = Pick<RunTrace, 'nodes' | 'edges' | 'adversaries' | 'sends'> & Partial<Pick<RunTrace, 'effects' | 'kindClasses' | 'behaviours' | 'behaviourNames'>>;

/** Messages drawn in flight at most per frame (canvas 2D), and how far back to look for them (us). */
const MAX_FLASHES = 4000;
export const FLASH_LOOKBACK_US = 2_000_000;
/** With WebGL and more messages in flight than `MAX_FLASHES`, each is a streak this long (CSS px). */
const STREAK_PX = 10;
/** A duplicate stays marked this long after it lands (us). */
const DUPLICATE_MARK_US = 250_000;
/** An adversary's effect (withheld request, rejected corrupt data) stays marked this long (us). */
export const EFFECT_MARK_US = 300_000;
/** Behaviours that never answer a request. */
const WITHHOLDING = new Set(['withhold_on_request', 'silent']);

/**
 * Each node's colour bucket at `tUs` for one tx: its arrival bucket once the tx has reached it,
 * -1 before. The one rule for colouring nodes, whatever the arrivals came from (the delivery
 * trace while playing, the arrival logs' range scan after a seek).
 */
export function nodeBuckets(arrivalUs: Float64Array, createdUs: number, tUs: number, spanUs: number): Int8Array {
  const out = new Int8Array(arrivalUs.length);
  const span = Math.max(1, spanUs);
  for (let i = 0; i < arrivalUs.length; i += 1) {
    const t = arrivalUs[i];
    out[i] = t >= 0 && t <= tUs ? arrivalBucket((t - createdUs) / span) : -1;
  }
  return out;
}

/**
 * Per trace, which kinds are requests (sent to a withholding node, they go unanswered) and which
 * nodes withhold; recomputed when kinds grow.
 */
const requestCache = new WeakMap<object, { kinds: number; request: Uint8Array; withholds: Uint8Array }>();
function requestLookup(trace: FrameTrace, states?: NodeState | null): { request: Uint8Array; withholds: Uint8Array } | null {
  const { kindClasses, behaviours, behaviourNames } = trace;
  // With timed events, who withholds is who does at the frame's time.
  if (kindClasses && states && behaviourNames) {
    const withholds = Uint8Array.from(states.behaviour, (b) => (WITHHOLDING.has(behaviourNames[b]) ? 1 : 0));
    if (!withholds.some((w) => w)) return null;
    return { request: Uint8Array.from(kindClasses, (c) => (c === MessageClass.Request ? 1 : 0)), withholds };
  }
  if (!kindClasses || !behaviours || !behaviours.some((b) => WITHHOLDING.has(b))) return null;
  let found = requestCache.get(trace);
  if (!found || found.kinds !== kindClasses.length) {
    found = {
      kinds: kindClasses.length,
      request: Uint8Array.from(kindClasses, (c) => (c === MessageClass.Request ? 1 : 0)),
      withholds: Uint8Array.from(behaviours, (b) => (WITHHOLDING.has(b) ? 1 : 0)),
    };
    requestCache.set(trace, found);
  }
  return found;
}

/** First index of a record (of `stride` numbers, time first) at or after `tUs`: records are in time order. */
function firstAtOrAfter(data: Float64Array, stride: number, tUs: number): number {
  let lo = 0;
  let hi = Math.floor(data.length / stride);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (data[mid * stride] < tUs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Matches the canvas backing store to its CSS size; returns the CSS size. */
/**
 * Canvas sizes in CSS pixels, kept by a ResizeObserver: reading clientWidth in every frame
 * would force a layout after each panel's text update (one per panel per frame).
 */
const canvasSizes = new WeakMap<HTMLCanvasElement, { width: number; height: number }>();
const resizes = typeof ResizeObserver === 'undefined'
  ? null
  : new ResizeObserver((entries) => {
      for (const e of entries) {
        const box = e.contentBoxSize?.[0];
        const size = box ? { width: box.inlineSize, height: box.blockSize } : { width: e.contentRect.width, height: e.contentRect.height };
        canvasSizes.set(e.target as HTMLCanvasElement, size);
      }
    });

/**
 * Whether the observer has measured `canvas` yet; starts measuring it if not. A caller that can
 * wait draws once it is measured: measuring a new canvas on the spot forces a layout of the
 * whole page inside the frame, on top of the layout the browser does after it anyway.
 */
export function measured(canvas: HTMLCanvasElement): boolean {
  if (canvasSizes.has(canvas) || !resizes) return true;
  resizes.observe(canvas);
  return false;
}

function cssSize(canvas: HTMLCanvasElement): { width: number; height: number } {
  let size = canvasSizes.get(canvas);
  if (!size) {
    // The first frame of a canvas measures it once; the observer keeps it current after that.
    size = { width: canvas.clientWidth, height: canvas.clientHeight };
    canvasSizes.set(canvas, size);
    resizes?.observe(canvas);
  }
  return size;
}

export function fitCanvas(canvas: HTMLCanvasElement, context: CanvasRenderingContext2D): { width: number; height: number } {
  const size = cssSize(canvas);
  const width = Math.max(1, size.width);
  const height = Math.max(1, size.height);
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { width, height };
}

/** Where node positions land on a canvas of this size before pan and zoom. */
export function baseMapping(width: number, height: number): { cx: number; cy: number; scale: number } {
  const margin = 14;
  return { cx: width / 2, cy: height / 2, scale: Math.max(10, Math.min(width, height) / 2 - margin) };
}

/** The node nearest to a point in CSS pixels, within `reach` pixels, or -1. */
export function nodeAt(positions: Float32Array, width: number, height: number, t: ViewTransform, px: number, py: number, reach = 8): number {
  const { cx, cy, scale } = baseMapping(width, height);
  let best = -1;
  let bestD = reach * reach;
  for (let i = 0; i < positions.length / 2; i += 1) {
    const dx = t.k * (cx + positions[2 * i] * scale) + t.x - px;
    const dy = t.k * (cy + positions[2 * i + 1] * scale) + t.y - py;
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Each canvas's layer of land and links, and what it was drawn for. */
/** A canvas's static background: land and links for one view, `drawn` links of it so far. */
interface Layer {
  key: string;
  surface: HTMLCanvasElement;
  drawn: number;
}
const layers = new WeakMap<HTMLCanvasElement, Layer>();
/**
 * Links a frame draws into one canvas's layer (one stroke; the rest follow in the next frames):
 * small networks get one batch, so their pixels never change, and a batch of long links takes a
 * few ms to rasterize in software, so networks of many thousand links never hold the page long.
 */
const LAYER_BATCH = 1500;
/** A number per object, to tell when a layer's inputs were replaced. */
const ids = new WeakMap<object, number>();
let nextId = 1;
function identity(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

/** First index (in sends) of a send at or after tUs: sends are recorded in time order. */
function firstSendAfter(sends: Float64Array, tUs: number): number {
  let lo = 0;
  let hi = sends.length / SEND_STRIDE;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sends[mid * SEND_STRIDE] <= tUs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What a frame drew, for tests and the status line. */
export interface FrameStats {
  /** Messages drawn in flight. */
  flashes: number;
  /** Of them, copies heading to a node that already has the picked tx. */
  duplicates: number;
  /** Requests in flight to a node that will withhold the answer. */
  withheld: number;
  /** The links are not all drawn yet: draw another frame to finish them. */
  layerPending: boolean;
  /** Nodes ringed as the inspected node's group members (its mesh, its fanout). */
  highlighted: number;
  /** Links, flights and nodes were drawn with WebGL. */
  gpu: boolean;
}

export function drawFrame(canvas: HTMLCanvasElement, frame: FrameInput | null, selected = -1): FrameStats {
  const stats: FrameStats = { flashes: 0, duplicates: 0, withheld: 0, layerPending: false, highlighted: 0, gpu: false };
  const context = canvas.getContext('2d');
  if (!context) return stats;
  const { width, height } = fitCanvas(canvas, context);
  // A big network is drawn with WebGL under this canvas, which then only draws the marks.
  const big = frame !== null && frame.trace.nodes >= GPU_MIN_NODES;
  // Until the renderer has loaded, only the background is drawn (canvas 2D took a few hundred
  // ms a frame for 50,000 nodes), and another frame is asked for.
  if (big) loadGpu();
  const loading = big && gpuModule === undefined;
  const gpu = big ? gpuLayer(canvas) : null;
  const spare = gpuLayers.get(canvas);
  if (spare) spare.canvas.style.display = gpu ? '' : 'none';
  stats.gpu = gpu !== null;
  if (!gpu) {
    context.fillStyle = BACKGROUND;
    context.fillRect(0, 0, width, height);
  }
  stats.layerPending = loading;
  if (!frame || loading) return stats;

  const { trace, positions, tx, tUs, spanUs, transform } = frame;
  const { cx, cy, scale } = baseMapping(width, height);
  const k = transform.k;
  const x = (i: number) => k * (cx + positions[2 * i] * scale) + transform.x;
  const y = (i: number) => k * (cy + positions[2 * i + 1] * scale) + transform.y;
  const radius = Math.min(6, Math.max(1.2, (0.16 * 2 * scale) / Math.sqrt(trace.nodes))) * Math.sqrt(k);
  const segments = gpuSegments;
  segments.reset();

  // The land and the faint links change only with the view: drawn once into a layer, then
  // copied each frame (stroking thousands of links every frame is most of a frame's cost).
  const ratio = canvas.width / width;
  const layerKey = `${canvas.width}x${canvas.height}|${k},${transform.x},${transform.y}|${identity(positions)}|${identity(trace.edges)}|${frame.background ? identity(frame.background) : 0}`;
  // Starting a layer (a canvas of its own) and drawing a batch of links into it take the frame's
  // one turn: when several panels start at once, their first frames would otherwise share one task.
  let layer = layers.get(canvas);
  if (!gpu && (!layer || layer.key !== layerKey) && takeTurn(frame.layerTurn, canvas)) {
    const surface = layer?.surface ?? document.createElement('canvas');
    surface.width = canvas.width;
    surface.height = canvas.height;
    const g = surface.getContext('2d')!;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.fillStyle = BACKGROUND;
    g.fillRect(0, 0, width, height);
    if (frame.background) {
      g.save();
      g.setTransform(ratio * k * scale, 0, 0, ratio * k * scale, ratio * (k * cx + transform.x), ratio * (k * cy + transform.y));
      g.fillStyle = LAND;
      g.fill(frame.background);
      g.restore();
    }
    layer = { key: layerKey, surface, drawn: 0 };
    layers.set(canvas, layer);
  }
  const { edges } = trace;
  const links = edges.length >> 1;
  // None when another canvas had the turn to (re)start its layer: this frame shows the nodes on a plain background.
  const ready = !gpu && layer?.key === layerKey ? layer : null;
  if (ready && ready.drawn < links && takeTurn(frame.layerTurn, canvas)) {
    const g = ready.surface.getContext('2d')!;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.strokeStyle = edgeColour(links);
    g.lineWidth = 1;
    const end = Math.min(links, ready.drawn + LAYER_BATCH);
    g.beginPath();
    for (let e = ready.drawn; e < end; e += 1) {
      g.moveTo(x(edges[2 * e]), y(edges[2 * e]));
      g.lineTo(x(edges[2 * e + 1]), y(edges[2 * e + 1]));
    }
    g.stroke();
    ready.drawn = end;
  }
  if (ready) {
    // The batch is rasterized here, as the layer is copied (a canvas draws what it recorded when it is read).
    context.save();
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.drawImage(ready.surface, 0, 0);
    context.restore();
  }
  stats.layerPending = !gpu && (!ready || ready.drawn < links);

  const span = Math.max(1, spanUs);
  const bucketOf = (t: number) => arrivalBucket((t - tx.createdUs) / span);

  // The picked tx's path: each reached node joined to the peer whose copy reached it first,
  // coloured by when it arrived, so the spread reads hop by hop.
  if (frame.txOnly && tx.parent && gpu) {
    for (let i = 0; i < trace.nodes; i += 1) {
      const p = tx.parent[i];
      const t = tx.arrivalUs[i];
      if (p < 0 || t < 0 || t > tUs) continue;
      segments.push(positions[2 * p], positions[2 * p + 1], positions[2 * i], positions[2 * i + 1], BUCKET_RGBA[bucketOf(t)], 204);
    }
  } else if (frame.txOnly && tx.parent) {
    const tree: Path2D[] = Array.from({ length: ARRIVAL_BUCKETS }, () => new Path2D());
    for (let i = 0; i < trace.nodes; i += 1) {
      const p = tx.parent![i];
      const t = tx.arrivalUs[i];
      if (p < 0 || t < 0 || t > tUs) continue;
      const path = tree[bucketOf(t)];
      path.moveTo(x(p), y(p));
      path.lineTo(x(i), y(i));
    }
    context.lineWidth = 1.6;
    context.globalAlpha = 0.8;
    tree.forEach((path, b) => {
      context.strokeStyle = ARRIVAL_BUCKET_COLOURS[b];
      context.stroke(path);
    });
    context.globalAlpha = 1;
  }

  // Messages in flight: a stroke from the sender along the link, as far as it has got. All
  // traffic, or only the picked tx's copies (a copy heading to a node that already has the tx
  // is a duplicate). Requests sent to a withholding node are drawn in the adversary colour.
  const payload = new Path2D();
  const control = new Path2D();
  const duplicateFlash = new Path2D();
  const withheldFlash = new Path2D();
  const withheldAt = new Set<number>();
  // What is drawn in flight is kept, so that hovering or focusing a message can name it.
  const drawnMessages = drawnOn(canvas);
  drawnMessages.clear();
  // With WebGL every message in flight is a segment (no cap): dense traffic reads as density.
  const gpuFlash = (colour: readonly number[], o: number, data: Float64Array) => {
    const sent = data[o + SendField.Time];
    const arrive = data[o + SendField.Arrive];
    const from = data[o + SendField.From];
    const to = data[o + SendField.To];
    const progress = arrive > sent ? (tUs - sent) / (arrive - sent) : 1;
    const [fx, fy, tx2, ty2] = [positions[2 * from], positions[2 * from + 1], positions[2 * to], positions[2 * to + 1]];
    segments.push(fx, fy, fx + (tx2 - fx) * progress, fy + (ty2 - fy) * progress, colour, frame.txOnly ? 242 : 120);
    // As many as canvas 2D would draw stay pickable by pointer and keyboard.
    if (drawnMessages.count < MAX_FLASHES) drawnMessages.add(x(from), y(from), x(from) + (x(to) - x(from)) * progress, y(from) + (y(to) - y(from)) * progress, data, o);
  };
  const flash = (path: Path2D, o: number, data: Float64Array) => {
    if (gpu && path !== withheldFlash) return gpuFlash(path === payload ? PAYLOAD_RGBA : path === control ? CONTROL_RGBA : DUPLICATE_RGBA, o, data);
    const sent = data[o + SendField.Time];
    const arrive = data[o + SendField.Arrive];
    const from = data[o + SendField.From];
    const to = data[o + SendField.To];
    const progress = arrive > sent ? (tUs - sent) / (arrive - sent) : 1;
    const [hx, hy] = [x(from) + (x(to) - x(from)) * progress, y(from) + (y(to) - y(from)) * progress];
    path.moveTo(x(from), y(from));
    path.lineTo(hx, hy);
    drawnMessages.add(x(from), y(from), hx, hy, data, o);
  };
  const lookup = requestLookup(trace, frame.states);
  const sends = frame.sends ?? trace.sends;
  const end = firstSendAfter(sends, tUs);
  let drawn = 0;
  const maxFlashes = gpu ? Infinity : MAX_FLASHES;
  const flightsFrom = segments.count;
  for (let s = end - 1; s >= 0 && drawn < maxFlashes; s -= 1) {
    const o = s * SEND_STRIDE;
    if (sends[o + SendField.Time] < tUs - FLASH_LOOKBACK_US) break;
    const arrive = sends[o + SendField.Arrive];
    const withheld = lookup !== null && lookup.request[sends[o + SendField.Kind]] === 1 && lookup.withholds[sends[o + SendField.To]] === 1 && sends[o + SendField.Lost] === 0;
    if (withheld && arrive <= tUs && arrive > tUs - EFFECT_MARK_US) withheldAt.add(sends[o + SendField.To]);
    if (arrive <= tUs || sends[o + SendField.Lost] !== 0) continue;
    if (withheld) {
      flash(withheldFlash, o, sends);
      stats.withheld += 1;
    } else if (!frame.txOnly) flash(sends[o + SendField.Payload] > 0 ? payload : control, o, sends);
    else continue;
    drawn += 1;
  }
  if (frame.txOnly) {
    // A window the worker sent about the tx, or the tx's rows of the trace's own sends.
    const own = frame.sends ?? trace.sends;
    const rows = frame.sends ? null : (tx.sendRows ?? []);
    const n = rows ? rows.length : Math.floor(own.length / SEND_STRIDE);
    for (let r = 0; r < n; r += 1) {
      const o = (rows ? rows[r] : r) * SEND_STRIDE;
      const arrive = own[o + SendField.Arrive];
      if (own[o + SendField.Time] > tUs || arrive <= tUs || own[o + SendField.Lost] !== 0 || own[o + SendField.Tx] !== tx.tx) continue;
      const has = tx.arrivalUs[own[o + SendField.To]];
      const duplicate = has >= 0 && has < arrive;
      flash(duplicate ? duplicateFlash : payload, o, own);
      drawn += 1;
      if (duplicate) stats.duplicates += 1;
    }
  }
  stats.flashes = drawn;
  // Level of detail: past what canvas 2D would draw, all traffic reads as density, each message a
  // short streak behind where it has got (whole lines from every sender would cover the network).
  if (gpu && !frame.txOnly && drawn > MAX_FLASHES) segments.shorten(flightsFrom, STREAK_PX / (k * scale));
  if (gpu) {
    // A renderer that fails (its context lost, say) gives way to canvas 2D from the next frame on.
    const linksLeft = drawBulkOnGpu(gpu, canvas, frame, { width, height, radius, scale, cx, cy, segments }, bucketOf);
    stats.layerPending ||= linksLeft !== 0;
    if (linksLeft === null) return stats;
    // The marks over a big network usually stay from frame to frame: a 2D canvas drawn again is
    // composited again, which took as long as the WebGL frames of all panels.
    const moving = lookup !== null || !!frame.states || (trace.effects?.length ?? 0) > 0 || (frame.censoring?.length ?? 0) > 0;
    const marks = moving ? '' : `${canvas.width}x${canvas.height}|${k},${transform.x},${transform.y}|${identity(trace)}|${identity(positions)}|${tUs >= tx.createdUs ? tx.origin : -1}|${selected}|${frame.selection ? `${identity(frame.selection)}:${frame.selection.reduce((n, v) => n + v, 0)}` : ''}|${frame.highlight ? identity(frame.highlight) : ''}`;
    if (marks && overlays.get(canvas) === marks) return stats;
    overlays.set(canvas, marks);
    context.clearRect(0, 0, width, height);
  }
  context.lineWidth = frame.txOnly ? 2 : 1.2;
  context.globalAlpha = frame.txOnly ? 0.95 : 0.55;
  context.strokeStyle = MARKS.control;
  context.stroke(control);
  context.strokeStyle = MARKS.payload;
  context.stroke(payload);
  context.strokeStyle = MARKS.duplicate;
  context.stroke(duplicateFlash);
  context.globalAlpha = 0.9;
  context.lineWidth = 1.4;
  context.setLineDash([4, 3]);
  context.strokeStyle = MARKS.adversary;
  context.stroke(withheldFlash);
  context.setLineDash([]);
  context.globalAlpha = 1;

  const states = frame.states;
  // Links a partition cuts now: dashed, between two present nodes on different sides.
  if (states && states.side.some((v) => v !== 0)) {
    const cut = new Path2D();
    for (let e = 0; e < links; e += 1) {
      const [p, q] = [edges[2 * e], edges[2 * e + 1]];
      if (states.side[p] === states.side[q] || states.away[p] || states.away[q]) continue;
      cut.moveTo(x(p), y(p));
      cut.lineTo(x(q), y(q));
    }
    context.save();
    context.setLineDash([3, 4]);
    context.globalAlpha = 0.6;
    context.strokeStyle = MARKS.cut;
    context.lineWidth = 1;
    context.stroke(cut);
    context.restore();
  }

  // Nodes: one path per colour bucket; a node is coloured once the picked tx has reached it.
  // A node that left is an empty ring until it comes back.
  const buckets: Path2D[] = Array.from({ length: ARRIVAL_BUCKETS }, () => new Path2D());
  const unreached = new Path2D();
  const away = new Path2D();
  for (let i = 0; i < (gpu ? 0 : trace.nodes); i += 1) {
    const t = tx.arrivalUs[i];
    const path = states?.away[i] ? away : t >= 0 && t <= tUs ? buckets[bucketOf(t)] : unreached;
    path.moveTo(x(i) + radius, y(i));
    path.arc(x(i), y(i), radius, 0, 2 * Math.PI);
  }
  context.fillStyle = UNREACHED;
  context.fill(unreached);
  buckets.forEach((path, b) => {
    context.fillStyle = ARRIVAL_BUCKET_COLOURS[b];
    context.fill(path);
  });
  context.strokeStyle = UNREACHED;
  context.lineWidth = 1.2;
  context.stroke(away);

  // Adversaries (at this time, with timed events): a diamond outline, so they read by shape as well as colour.
  const adversaries = new Path2D();
  const a = radius + 2.5;
  const names = trace.behaviourNames;
  const adversarial = (i: number) => (states && names ? names[states.behaviour[i]] !== 'honest' : trace.adversaries[i] === 1);
  for (let i = 0; i < trace.nodes; i += 1) {
    if (!adversarial(i)) continue;
    adversaries.moveTo(x(i), y(i) - a);
    adversaries.lineTo(x(i) + a, y(i));
    adversaries.lineTo(x(i), y(i) + a);
    adversaries.lineTo(x(i) - a, y(i));
    adversaries.closePath();
  }
  context.strokeStyle = MARKS.adversary;
  context.lineWidth = 1.4;
  context.stroke(adversaries);

  // Duplicates of the picked tx that landed recently: a ring where they land.
  const duplicates = new Path2D();
  for (let d = 0; d + 1 < (gpu ? 0 : tx.duplicates.length); d += 2) {
    const t = tx.duplicates[d];
    if (t > tUs || t < tUs - DUPLICATE_MARK_US) continue;
    const n = tx.duplicates[d + 1];
    duplicates.moveTo(x(n) + radius + 3, y(n));
    duplicates.arc(x(n), y(n), radius + 3, 0, 2 * Math.PI);
  }
  context.strokeStyle = MARKS.duplicate;
  context.lineWidth = 1.2;
  context.stroke(duplicates);

  // Adversaries' effects, in one colour and told apart by shape: a square where a request was
  // withheld (at the withholder, or where a node gave up waiting and asked again), a cross where
  // corrupt data was rejected, a barred circle on a node that holds the picked tx and censors it.
  const withheldMarks = new Path2D();
  const corruptMarks = new Path2D();
  const m = radius + 3.5;
  const square = (n: number) => withheldMarks.rect(x(n) - m, y(n) - m, 2 * m, 2 * m);
  withheldAt.forEach(square);
  const effects = trace.effects;
  if (effects && effects.length) {
    const WITHHELD = EFFECTS.indexOf('withheld');
    for (let e = firstAtOrAfter(effects, 4, tUs - EFFECT_MARK_US) * 4; e + 3 < effects.length && effects[e] <= tUs; e += 4) {
      const n = effects[e + 1];
      if (effects[e + 2] === WITHHELD) square(n);
      else {
        corruptMarks.moveTo(x(n) - m, y(n) - m);
        corruptMarks.lineTo(x(n) + m, y(n) + m);
        corruptMarks.moveTo(x(n) + m, y(n) - m);
        corruptMarks.lineTo(x(n) - m, y(n) + m);
      }
    }
  }
  const censorMarks = new Path2D();
  for (const n of frame.censoring ?? []) {
    const t = tx.arrivalUs[n];
    if (t < 0 || t > tUs) continue;
    censorMarks.moveTo(x(n) + m, y(n));
    censorMarks.arc(x(n), y(n), m, 0, 2 * Math.PI);
    censorMarks.moveTo(x(n) - 0.7 * m, y(n) - 0.7 * m);
    censorMarks.lineTo(x(n) + 0.7 * m, y(n) + 0.7 * m);
  }
  context.strokeStyle = MARKS.effect;
  context.lineWidth = 1.6;
  context.stroke(withheldMarks);
  context.stroke(corruptMarks);
  context.stroke(censorMarks);

  // The tx's origin, once created, and the inspected node.
  context.strokeStyle = MARKS.origin;
  context.lineWidth = 1.5;
  if (tUs >= tx.createdUs) {
    context.beginPath();
    context.arc(x(tx.origin), y(tx.origin), radius + 4.5, 0, 2 * Math.PI);
    context.stroke();
  }
  // Nodes picked for a change: a ring of their own.
  if (frame.selection?.some((v) => v)) {
    const picked = new Path2D();
    const r = radius + 5.5;
    frame.selection.forEach((on, i) => {
      if (!on || i >= trace.nodes) return;
      picked.moveTo(x(i) + r, y(i));
      picked.arc(x(i), y(i), r, 0, 2 * Math.PI);
    });
    context.strokeStyle = MARKS.selected;
    context.lineWidth = 1.6;
    context.stroke(picked);
  }
  // The inspected node's mesh and fanout: a line to each member and a ring around it.
  const h = frame.highlight;
  if (h && h.node < trace.nodes) {
    for (const group of h.groups) {
      const members = group.nodes.filter((n) => n < trace.nodes);
      if (!members.length) continue;
      const path = new Path2D();
      for (const n of members) {
        path.moveTo(x(h.node), y(h.node));
        path.lineTo(x(n), y(n));
        path.moveTo(x(n) + radius + 4, y(n));
        path.arc(x(n), y(n), radius + 4, 0, 2 * Math.PI);
      }
      context.strokeStyle = GROUP_COLOURS[group.name] ?? GROUP_COLOURS.other;
      context.lineWidth = 2;
      context.stroke(path);
      stats.highlighted += members.length;
    }
  }
  if (selected >= 0 && selected < trace.nodes) {
    context.setLineDash([3, 3]);
    context.beginPath();
    context.arc(x(selected), y(selected), radius + 7, 0, 2 * Math.PI);
    context.stroke();
    context.setLineDash([]);
  }
  return stats;
}

/**
 * Draws the land, links, the segments gathered for this frame and the nodes into the WebGL layer
 * under `canvas`; returns the links still to draw into its backdrop, or null, with the layer
 * dropped, if WebGL failed.
 */
function drawBulkOnGpu(
  gpu: GpuLayer,
  canvas: HTMLCanvasElement,
  frame: FrameInput,
  at: { width: number; height: number; radius: number; scale: number; cx: number; cy: number; segments: Segments },
  bucketOf: (t: number) => number,
): number | null {
  // The layer covers the canvas exactly (placed again only when the canvas's size changes).
  const placed = `${canvas.width}x${canvas.height}`;
  if (gpu.placed !== placed) {
    Object.assign(gpu.canvas.style, { left: `${canvas.offsetLeft}px`, top: `${canvas.offsetTop}px`, width: `${at.width}px`, height: `${at.height}px` });
    gpu.placed = placed;
  }
  const { trace, tx, tUs, transform, positions } = frame;
  const states = frame.states;
  const colourOf = new Int8Array(trace.nodes);
  for (let i = 0; i < trace.nodes; i += 1) {
    const t = tx.arrivalUs[i];
    colourOf[i] = states?.away[i] ? -2 : t >= 0 && t <= tUs ? bucketOf(t) : -1;
  }
  // Duplicates of the picked tx that landed recently: a ring where they land, for the latest
  // `MAX_FLASHES` of them (a flood of 50,000 nodes lands tens of thousands in that time).
  const rings: number[] = [];
  const { duplicates } = tx;
  for (let d = firstAtOrAfter(duplicates, 2, tUs - DUPLICATE_MARK_US) * 2; d + 1 < duplicates.length && duplicates[d] <= tUs; d += 2) {
    const n = duplicates[d + 1];
    rings.push(positions[2 * n], positions[2 * n + 1]);
  }
  if (rings.length > 2 * MAX_FLASHES) rings.splice(0, rings.length - 2 * MAX_FLASHES);
  // Level of detail: links fade as more of them share the screen (roughly links / zoom²).
  const links = trace.edges.length >> 1;
  const visible = links / Math.max(1, transform.k * transform.k);
  const linkAlpha = Math.min(0.12, Math.max(0.01, 160 / Math.max(1, visible)));
  try {
    return gpu.renderer.draw({
      pixelWidth: canvas.width,
      pixelHeight: canvas.height,
      ratio: canvas.width / at.width,
      mul: transform.k * at.scale,
      offset: [transform.k * at.cx + transform.x, transform.k * at.cy + transform.y],
      positions,
      edges: trace.edges,
      background: frame.background ?? null,
      linkAlpha,
      linkTurn: () => takeTurn(frame.layerTurn, canvas),
      radius: at.radius,
      nodeBuckets: colourOf,
      segments: at.segments.coords,
      segmentColours: at.segments.colours,
      segmentCount: at.segments.count,
      segmentWidth: frame.txOnly ? 2 : 1,
      rings: Float32Array.from(rings),
      ringRadius: at.radius + 3,
    });
  } catch (error) {
    console.warn('WebGL failed; this panel is drawn with canvas 2D from now on:', error);
    gpu.canvas.remove();
    gpuLayers.set(canvas, null);
    return null;
  }
}
