// The visualizer page's state, in one store (store.ts): what the views draw and what the user
// and the workers change. Views subscribe to their slice; the session (web/sim/session.ts), the
// frame loop (web/canvas/frames.ts) and the views' event handlers `update` it.
import type { InspectorContent } from '../canvas/inspector';
import type { Panel } from '../canvas/panel';
import type { LayoutKind } from '../canvas/layouts';
import { newClock, type Clock } from '../playback/playback';
import type { RunReport } from '../report/report';
import type { ScenarioInfo } from '../scenario/info';
import { createStore, type Store } from './store';

/** At most this many runs side by side, each in its own worker. */
export const MAX_RUNS = 4;

export type Phase = 'idle' | 'running' | 'done' | 'error';

/** What the last animation frame drew: the transport bar and the legend show it. */
export interface Frame {
  clock: Clock;
  tx: number;
  /** The picked tx's spread across the runs (us): the legend's scale. */
  spanUs: number;
}

export interface AppState {
  // ---- the scenario (web/scenario/) ----
  /** The library entry picked, or 'custom' for an edited or shared scenario. */
  scenarioId: string;
  /** The '(edited scenario)' entry is offered once one was run. */
  customOffered: boolean;
  scenarioText: string;
  description: string;
  /** The seed text and the run labels read from the scenario. */
  info: ScenarioInfo;
  /** The seed field as typed. */
  seedText: string;
  /** The protocols offered to run (the labels of the last scenario that parsed) and which are ticked. */
  runChoices: { labels: string[]; ticked: boolean[] };
  /** A tick was refused: at most MAX_RUNS at once. */
  runsAtLimit: boolean;
  /** The engine rejected the scenario (a new object each time, so that the editor hears of every one). */
  engineFailure: { message: string } | null;

  // ---- the runs (web/sim/session.ts) ----
  /** Counts runs started: answers for older runs are dropped. */
  generation: number;
  phase: Phase;
  error: string;
  /** A worker crashed (until runs complete again). */
  crashed: boolean;
  panels: readonly Panel[];
  reports: readonly (RunReport | null)[];
  /** The seed override of the current runs, for replaying one to inspect a node. */
  runSeed: bigint | undefined;
  /** Runs whose network has arrived (the layout is applied to each as it does). */
  started: number;
  /** Share of the run computed so far, for the timeline and the progress bar. */
  computedShare: number;
  /** The compute progress bar is shown. */
  computing: boolean;
  /** Playback has begun for the latest runs (it begins with their first computed chunk). */
  playbackBegun: boolean;
  /** When set (from the URL), the first completed run pauses at this simulated time (ms). */
  pauseAtMs: number | null;
  /** Where a seek's range scans stand ('' before any). */
  seek: '' | 'scanning' | 'scanned';
  /** The charts of the latest runs are all drawn. */
  chartsDone: boolean;
  /** When the latest runs were started (performance.now()). */
  runStartedAt: number;
  /** performance.now() of the first frame that drew a computed run. */
  firstFrameMs: number | null;

  // ---- the view (web/canvas/) ----
  layout: LayoutKind;
  /** Set once the user picks a view: geographic scenarios then stop switching to the map by themselves. */
  layoutChosen: boolean;
  /** The runs have coordinates: the world map can be picked. */
  mapOffered: boolean;
  /**
   * The node clicked or picked by number (drawn selected in every run), or null: the inspector
   * shows its state in run `panel` at the paused time (the session asks for it again as that moves).
   */
  inspected: { panel: number; node: number } | null;
  /** What the inspector shows of it (null: its placeholder). */
  inspection: InspectorContent | null;
  /** Nodes picked for a live change (1 each; web/changes/), ringed in every run. */
  selection: Uint8Array | null;
  /** Clicks and drags on a panel add nodes as with Shift held ("clicks and drags add"): the way to pick several by touch. */
  clicksAdd: boolean;
  /** What became of the last live change ('' before any). */
  change: { message: string; error: boolean };

  // ---- playback (web/playback/) ----
  clock: Clock;
  /** The tx picked (or, while following, the latest one followed). */
  pickedTx: number;
  follow: boolean;
  /** Flash only the picked tx's messages. */
  txOnly: boolean;
  /** The highest tx number that can be picked. */
  txMax: number;
  frame: Frame;

  // ---- sharing (web/app/share-view.ts) ----
  share: { url: string; error: string };
}

export type AppStore = Store<AppState>;

export function initialState(): AppState {
  const clock = newClock(0);
  return {
    scenarioId: '',
    customOffered: false,
    scenarioText: '',
    description: '',
    info: { seed: '0', labels: [] },
    seedText: '',
    runChoices: { labels: [], ticked: [] },
    runsAtLimit: false,
    engineFailure: null,
    generation: 0,
    phase: 'idle',
    error: '',
    crashed: false,
    panels: [],
    reports: [],
    runSeed: undefined,
    started: 0,
    computedShare: 0,
    computing: false,
    playbackBegun: false,
    pauseAtMs: null,
    seek: '',
    chartsDone: false,
    runStartedAt: 0,
    firstFrameMs: null,
    layout: 'force',
    layoutChosen: false,
    mapOffered: false,
    inspected: null,
    inspection: null,
    selection: null,
    clicksAdd: false,
    change: { message: '', error: false },
    clock,
    pickedTx: 0,
    follow: true,
    txOnly: true,
    txMax: 0,
    frame: { clock, tx: 0, spanUs: -1 },
    share: { url: '', error: '' },
  };
}

export function createAppStore(): AppStore {
  return createStore(initialState());
}

/** The runs ticked, at most MAX_RUNS. */
export function selectedRuns(state: AppState): number[] {
  return state.runChoices.ticked.flatMap((on, i) => (on ? [i] : [])).slice(0, MAX_RUNS);
}

/** The picked tx as following would leave it: the latest one created by now while following. */
export function followedTx(state: AppState): number {
  const view = state.panels[0]?.view;
  return view && state.follow ? view.latestTx(state.clock.tUs) : state.pickedTx;
}

/** The tx shown: the picked one (or the latest, while following), within the runs' txs. */
export function currentTx(state: AppState): number {
  const view = state.panels[0]?.view;
  if (!view) return state.pickedTx;
  return Math.min(followedTx(state), view.txs - 1);
}

/** The picked tx's spread across the runs (us), at least 1. */
export function spanUs(state: AppState, tx: number): number {
  let span = 1;
  for (const p of state.panels) {
    const v = p.tx(tx);
    if (v) span = Math.max(span, v.lastUs - v.createdUs);
  }
  return span;
}
