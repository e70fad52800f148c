// One run's panel: its canvas (pan and zoom with d3-zoom), progress bar and status line.
import { select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import type { RunTrace } from '../workers/protocol';
import { runColour } from './palette';
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
      const node = nodeAt(this.trace.positions, rect.width, rect.height, this.transform, event.clientX - rect.left, event.clientY - rect.top);
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
  }

  tx(tx: number): TxView | null {
    if (!this.view || tx < 0 || tx >= this.view.txs) return null;
    if (this.txCache?.tx !== tx) this.txCache = this.view.tx(tx);
    return this.txCache;
  }

  draw(tx: number, tUs: number, spanUs: number): void {
    const view = this.trace ? this.tx(tx) : null;
    if (!this.trace || !view) return drawFrame(this.canvas, null);
    drawFrame(this.canvas, { trace: this.trace, positions: this.trace.positions, tx: view, tUs, spanUs, transform: this.transform }, this.selected);
  }
}
