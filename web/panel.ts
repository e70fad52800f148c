// One run's panel: its canvas (pan and zoom with d3-zoom), progress bar and status line.
import { select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import type { RunTrace } from '../workers/protocol';
import { runColour } from './palette';
import { circularPositions, landPath, mapPositions, type LayoutKind } from './layouts';
import { drawFrame, nodeAt, type ViewTransform } from './render';
import { TraceView, type TxView } from './trace';

export type PanelState = 'running' | 'done' | 'error';

export class Panel {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly progress: HTMLProgressElement;
  private readonly status: HTMLElement;
  trace: RunTrace | null = null;
  view: TraceView | null = null;
  transform: ViewTransform = { k: 1, x: 0, y: 0 };
  selected = -1;
  private txCache: TxView | null = null;
  private layout: LayoutKind = 'force';
  private positions: Float32Array = new Float32Array(0);
  private land: Path2D | null = null;

  constructor(
    readonly index: number,
    readonly label: string,
    onChange: () => void,
    onPick: (panel: Panel, node: number) => void,
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
    this.element.append(caption, this.canvas, this.progress, this.status);

    const behaviour = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.5, 40])
      .on('zoom', (event: { transform: ZoomTransform }) => {
        this.transform = { k: event.transform.k, x: event.transform.x, y: event.transform.y };
        onChange();
      });
    select(this.canvas).call(behaviour).call(behaviour.transform, zoomIdentity).on('dblclick.zoom', null);
    this.canvas.addEventListener('click', (event) => {
      if (!this.trace) return;
      const rect = this.canvas.getBoundingClientRect();
      const node = nodeAt(this.positions, rect.width, rect.height, this.transform, event.clientX - rect.left, event.clientY - rect.top);
      if (node >= 0) onPick(this, node);
    });
    this.setState('running', 'starting…');
  }

  setState(state: PanelState, text: string): void {
    this.element.dataset.state = state;
    this.status.textContent = text;
    this.progress.hidden = state !== 'running';
  }

  setProgress(fraction: number, text: string): void {
    this.progress.value = Math.min(1, Math.max(0, fraction));
    this.status.textContent = text;
  }

  setTrace(trace: RunTrace): void {
    this.trace = trace;
    this.view = new TraceView(trace);
    this.txCache = null;
    this.setLayout(this.layout);
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
    if (this.layout === 'circular') this.positions = circularPositions(trace.nodes);
    else if (this.layout === 'map') {
      this.positions = mapPositions(trace.coordinates);
      void landPath().then((path) => {
        if (this.layout !== 'map') return;
        this.land = path;
        onReady?.();
      });
    } else this.positions = trace.positions;
    this.element.dataset.layout = this.layout;
  }

  /** Where nodes are drawn in the current view (unit box). */
  get nodePositions(): Float32Array {
    return this.positions;
  }

  tx(tx: number): TxView | null {
    if (!this.view || tx < 0 || tx >= this.view.txs) return null;
    if (this.txCache?.tx !== tx) this.txCache = this.view.tx(tx);
    return this.txCache;
  }

  draw(tx: number, tUs: number, spanUs: number): void {
    const view = this.trace ? this.tx(tx) : null;
    if (!this.trace || !view) return drawFrame(this.canvas, null);
    drawFrame(this.canvas, { trace: this.trace, positions: this.positions, tx: view, tUs, spanUs, transform: this.transform, background: this.land }, this.selected);
  }
}
