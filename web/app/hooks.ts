// Test and measurement hooks on `window.txcast`: the e2e suite reads frame times and long tasks,
// node colours and where nodes are drawn, and crashes a worker on purpose.
import type { FrameMeasures } from '../canvas/frames';
import { baseMapping } from '../canvas/render';
import { drawnOn } from '../canvas/drawn';
import { setComputeCap } from '../sim/runner';
import type { Session } from '../sim/session';
import { currentTx, spanUs, type AppStore } from './state';

/** The frame measures, and the main-thread tasks over 50 ms (start, duration) as the browser reports them. */
export function pageMeasures(): FrameMeasures & { longTasks: [number, number][] } {
  const measures = { frameTimes: [] as number[], frameIntervals: [] as number[], longTasks: [] as [number, number][] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) measures.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // not supported: nothing to report
  }
  return measures;
}

export function installHooks(store: AppStore, session: Session, measures: ReturnType<typeof pageMeasures>): void {
  const { frameTimes, frameIntervals, longTasks } = measures;
  Object.assign(window, {
    txcast: {
      frameTimes: () => frameTimes.slice(),
      clearFrameTimes: () => {
        frameTimes.splice(0);
        frameIntervals.splice(0);
      },
      frameIntervals: () => frameIntervals.slice(),
      /** The longest main-thread task since the latest runs started, in ms (0 if none over 50 ms). */
      longTasks: () => longTasks.slice(),
      runStartedAt: () => store.get().runStartedAt,
      longestTaskSinceRun: () => {
        const since = store.get().runStartedAt;
        return Math.max(0, ...longTasks.filter(([start]) => start >= since).map(([, d]) => d));
      },
      firstFrameMs: () => store.get().firstFrameMs,
      /** Node colour buckets of panel `k` now: from the delivery trace and from the last seek's range scan. */
      nodeColours: (k: number) => {
        const s = store.get();
        const tx = currentTx(s);
        return s.panels[k]?.colours(tx, s.clock.tUs, spanUs(s, tx)) ?? null;
      },
      /** Panel `k`'s picked tx: each node's first arrival (us) by the time shown, -1 where it has not arrived. */
      arrivals: (k: number) => {
        const s = store.get();
        const view = s.panels[k]?.tx(currentTx(s));
        return view ? Array.from(view.arrivalUs, (t) => (t >= 0 && t <= s.clock.tUs ? t : -1)) : null;
      },
      /** Panel `k`'s picked tx: per node, who sent it the first copy to land (-1 where none is known). */
      parents: (k: number) => {
        const s = store.get();
        const parent = s.panels[k]?.tx(currentTx(s))?.parent;
        return parent ? Array.from(parent) : null;
      },
      crashWorker: (k: number) => session.crashWorker(k),
      /** Where the head of message `i` drawn in flight on panel `k` is, in page coordinates (null if none). */
      messagePoint: (k: number, i: number) => {
        const panel = store.get().panels[k];
        const m = panel ? drawnOn(panel.canvas).at(i) : null;
        if (!panel || !m) return null;
        const rect = panel.canvas.getBoundingClientRect();
        return { x: rect.left + m.x, y: rect.top + m.y, count: drawnOn(panel.canvas).count };
      },
      /** How many workers compute at once from now on (false where the page is not cross-origin isolated). */
      setComputeCap: (cap: number) => setComputeCap(cap),
      /** Where node `node` of panel `k` is drawn, in page coordinates. */
      nodePoint: (k: number, node: number) => {
        const panel = store.get().panels[k];
        if (!panel?.trace) return null;
        const rect = panel.canvas.getBoundingClientRect();
        const { cx, cy, scale } = baseMapping(rect.width, rect.height);
        const t = panel.transform;
        const p = panel.nodePositions;
        return { x: rect.left + t.k * (cx + p[2 * node] * scale) + t.x, y: rect.top + t.k * (cy + p[2 * node + 1] * scale) + t.y };
      },
    },
  });
}
