// The animation frames: each advances a playing clock, draws every run's panel at the shown tx
// and time, and publishes what it drew (`frame` in the store) for the transport bar and the legend.
// Redraws are coalesced into one frame; changes to what is drawn ask for one by themselves.
import { currentTx, followedTx, spanUs, type AppState, type AppStore } from '../app/state';
import { shallowEqual } from '../app/store';
import { tick } from '../playback/playback';
import type { LayerTurn } from './render';

/** What the page measures of its frames (web/app/hooks.ts reads them). */
export interface FrameMeasures {
  /** Time to draw a frame (ms). */
  frameTimes: number[];
  /** Wall time between animation frames while playing (ms). */
  frameIntervals: number[];
}

/** Kept of each measure: the latest this many. */
const KEEP = 600;
/**
 * While runs compute, frames (the drawing and the browser's rendering of it) take at most this
 * share of the page's thread: every core is computing, and a big network's frames (tens of ms
 * each, and more again where WebGL runs in software) would take that time from the runs. Frames
 * that cost little still come every refresh.
 */
const DRAW_SHARE_WHILE_COMPUTING = 0.25;

/**
 * The most a frame moves a playing clock: frames spaced out while runs compute can come 200 ms
 * apart and the clock keeps real time; a longer gap (a hidden tab) does not make it jump.
 */
const MAX_FRAME_STEP_MS = 250;

/**
 * Calls back once the browser has rendered the frame being drawn: its style, layout, paint and
 * commit follow the frame callbacks in the same task, so a task posted from them runs after it.
 * What the frame cost the thread is then known, not only the drawing's part of it (4 Strokkur
 * panels of 250 nodes: 8 ms of drawing in 19 ms frames).
 */
export type AfterRender = (callback: () => void) => void;

function afterRenderByTask(): AfterRender {
  // A task of the highest priority where the browser has a scheduler (Chromium): it runs before
  // the runs' chunks waiting in the queue, whose handling is not the frame's cost.
  const scheduler = (globalThis as { scheduler?: { postTask(callback: () => void, options: { priority: string }): Promise<void> } }).scheduler;
  if (scheduler) return (callback) => void scheduler.postTask(callback, { priority: 'user-blocking' });
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (callback) => {
    waiting.push(callback);
    channel.port2.postMessage(0);
  };
}

export class FrameLoop {
  private animation = 0;
  /** A frame asked for before its turn while runs compute waits on this timer. */
  private held = 0;
  /** performance.now() before which no frame is drawn (set while runs compute). */
  private notBefore = 0;
  private lastFrame = 0;
  /** Some panel's links are still being drawn, a batch per frame. */
  private layersPending = false;
  /** A frame is drawn and the browser is rendering it: the next is asked for after that. */
  private rendering = false;
  /** A frame was asked for while the last one rendered. */
  private askedWhileRendering = false;
  /** The last frame was drawn while runs computed (only such frames hold the next one back). */
  private drawnWhileComputing = false;

  constructor(
    private readonly store: AppStore,
    private readonly measures: FrameMeasures,
    /** Called after run `k`'s panel is drawn at `tx` (the session asks for its censors). */
    private readonly panelDrawn: (k: number, tx: number) => void,
    private readonly afterRender: AfterRender = afterRenderByTask(),
  ) {
    // What a frame draws: a change asks for a frame.
    const drawn = (s: AppState) => [s.clock, s.pickedTx, s.follow, s.txOnly, s.panels, s.inspected, s.selection, s.inspection];
    store.subscribe(drawn, () => this.request(), { equals: shallowEqual });
    // Once the runs are computed, a frame held back for them comes at once: it draws the end.
    store.subscribe(
      (s) => s.computing,
      (computing) => {
        if (computing) return;
        this.notBefore = 0;
        if (this.held) {
          window.clearTimeout(this.held);
          this.held = 0;
          this.request();
        }
      },
    );
  }

  /** Coalesces redraws into one animation frame. */
  request(): void {
    if (this.rendering) {
      this.askedWhileRendering = true;
      return;
    }
    if (this.animation || this.held) return;
    const wait = this.notBefore - performance.now();
    if (wait > 0) {
      this.held = window.setTimeout(() => {
        this.held = 0;
        this.request();
      }, wait);
      return;
    }
    this.animation = requestAnimationFrame((now) => this.frame(now));
  }

  private frame(now: number): void {
    const started = performance.now();
    // Requests made while this frame runs are drawn by it.
    const dt = this.lastFrame ? Math.min(MAX_FRAME_STEP_MS, now - this.lastFrame) : 0;
    const { clock } = this.store.get();
    if (this.lastFrame && clock.playing) {
      const intervals = this.measures.frameIntervals;
      intervals.push(now - this.lastFrame);
      if (intervals.length > KEEP) intervals.splice(0, intervals.length - KEEP);
    }
    this.lastFrame = now;
    this.store.update((s) => ({ clock: tick(s.clock, dt) }));
    this.draw();
    this.animation = 0;
    this.rendering = true;
    this.askedWhileRendering = false;
    this.afterRender(() => this.rendered(started));
  }

  /** The frame that began at `started` is on screen: pace the next one by what this one cost. */
  private rendered(started: number): void {
    this.rendering = false;
    const finished = performance.now();
    const cost = finished - started;
    // A frame drawn before runs started computing does not hold back the first one of theirs.
    const pace = this.drawnWhileComputing && this.store.get().computing;
    this.notBefore = pace ? finished + cost * (1 / DRAW_SHARE_WHILE_COMPUTING - 1) : 0;
    const playing = this.store.get().clock.playing;
    if (playing || this.layersPending || this.askedWhileRendering) this.request();
    if (!playing) this.lastFrame = 0;
  }

  private draw(): void {
    const started = performance.now();
    const store = this.store;
    // While following, the latest tx created by now is the one picked.
    const followed = followedTx(store.get());
    if (followed !== store.get().pickedTx) store.update({ pickedTx: followed });
    const s = store.get();
    this.drawnWhileComputing = s.computing;
    const tx = currentTx(s);
    const span = spanUs(s, tx);
    this.layersPending = false;
    const layerTurn: LayerTurn = {};
    for (const [k, panel] of s.panels.entries()) {
      this.layersPending = panel.draw(tx, s.clock.tUs, span, s.txOnly, layerTurn) || this.layersPending;
      this.panelDrawn(k, tx);
    }
    store.update({ frame: { clock: s.clock, tx, spanUs: span } });
    const finished = performance.now();
    const took = finished - started;
    const times = this.measures.frameTimes;
    times.push(took);
    if (s.firstFrameMs === null && s.panels.some((p) => p.trace && p.computedUs > 0)) store.update({ firstFrameMs: finished });
    if (times.length > KEEP) times.splice(0, times.length - KEEP);
  }
}
