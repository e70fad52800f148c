// The runs of the scenario: starts 1 to MAX_RUNS of its protocols, each in its own worker
// (runner.ts), hears their networks, chunks and ends, and puts what they computed in the store;
// asks the workers about a seeked time, a node or the censors of a tx; applies a live change by
// adding it to the scenario's events and letting every run go on from its time. The views draw
// from the store.
import { type RunChunk, type RunDone, type RunStart } from '../../workers/protocol';
import { count } from '../app/format';
import { currentTx, selectedRuns, type AppState, type AppStore } from '../app/state';
import { shallowEqual } from '../app/store';
import type { InspectorContent } from '../canvas/inspector';
import { Panel } from '../canvas/panel';
import { FLASH_LOOKBACK_US } from '../canvas/render';
import { extend, newClock, rewind, seek, togglePlay } from '../playback/playback';
import { parseReport } from '../report/report';
import { checkScenario } from '../scenario/editor';
import { changeAtMs, withEvent, type LiveChange } from '../scenario/events';
import { seedOverride } from '../scenario/info';
import { RunSlot } from './runner';
import { MAX_SENDS } from '../../workers/send-store';

/** Sends a window the worker sends to draw holds at most (80 bytes each in the page). */
const WINDOW_SENDS = 250_000;
/**
 * The runs' progress (bars, texts, the timeline's computed part) changes at most this often: each
 * change is a rendering of the page (about 7 ms with 4 panels of 250 nodes), and with every
 * worker's chunks it came 30 times a second, taken from the runs.
 */
const PROGRESS_EVERY_MS = 250;

export interface SessionOptions {
  /** Asks for a frame to be drawn (the runs' traces grew, a layout or a scan arrived). */
  redraw: () => void;
  /** Playback does not start by itself (prefers-reduced-motion). */
  reduceMotion: boolean;
}

export class Session {
  private readonly slots: RunSlot[] = [];
  /** The seek whose range scans are wanted; a newer seek supersedes it. */
  private seekAsked: { tUs: number; tx: number } | null = null;
  private scansInFlight = 0;
  /** Per run, the tx (and behaviour change) whose censoring nodes were asked for (the worker knows behaviours). */
  private readonly censoringAsked: string[] = [];
  /** When the runs' progress was last shown, and each run's latest chunk not shown yet. */
  private progressShownAt = 0;
  private readonly unshown = new Map<number, RunChunk>();
  /** A worker is replaying a run for the inspector (one question at a time). */
  private inspecting = false;
  /** The pick and time the inspector's node state answers. */
  private answered: { asked: AppState['inspected']; tUs: number } | null = null;
  /** The pick whose decoder was asked for while another question was out: watched once it is answered. */
  private peelWanted: AppState['inspected'] = null;

  constructor(
    private readonly store: AppStore,
    private readonly options: SessionOptions,
  ) {
    // The inspector shows the picked node at the paused time: a new pick (or none, for new runs)
    // and every move of the paused clock (a seek, a step, a pause) ask for it again.
    store.subscribe((s) => [s.inspected, s.clock.playing ? null : s.clock.tUs] as const, () => this.askInspection(), { equals: shallowEqual });
  }

  private get redraw(): () => void {
    return this.options.redraw;
  }

  /** Runs the ticked protocols of the scenario (stopping what still runs). */
  run(): void {
    const store = this.store;
    const s = store.get();
    const runs = selectedRuns(s);
    const seed = seedOverride(s.seedText, s.info);
    if (typeof seed === 'string') return store.update({ error: seed });
    if (runs.length === 0) return store.update({ error: 'pick at least one protocol to run' });
    const generation = s.generation + 1;
    const layoutSeed = BigInt(s.info.seed);
    for (const slot of this.slots) if (slot.busy) slot.stop();
    const pick = (panel: Panel, node: number, adding: boolean) => {
      if (adding) return this.togglePicked(node);
      this.addPicked([node], true);
      this.inspect(panel, node);
    };
    const area = (nodes: number[]) => this.addPicked(nodes);
    const clicksAdd = () => this.store.get().clicksAdd;
    const panels = runs.map((r) => new Panel(r, s.info.labels[r] ?? `run ${r}`, this.redraw, pick, area, clicksAdd));
    this.seekAsked = null;
    this.censoringAsked.length = 0;
    this.unshown.clear();
    store.update({
      error: '',
      generation,
      runSeed: typeof seed === 'bigint' ? seed : undefined,
      runStartedAt: performance.now(),
      panels,
      reports: runs.map(() => null),
      started: 0,
      inspected: null,
      // The speed picked stays for the new runs.
      clock: { ...newClock(0), speedIndex: s.clock.speedIndex },
      playbackBegun: false,
      chartsDone: false,
      seek: '',
      phase: 'running',
      computing: true,
      computedShare: 0,
      selection: null,
      change: { message: '', error: false },
    });
    panels.forEach((panel, k) => {
      this.slots[k] ??= new RunSlot(k, (message) => this.workerCrashed(k, message));
      const mine = generation;
      const current = () => mine === store.get().generation;
      this.slots[k].start(
        { scenario: s.scenarioText, run: panel.index, seed: typeof seed === 'bigint' ? seed : undefined, layoutSeed, layout: k === 0 },
        {
          start: (st) => current() && this.runStarted(k, st),
          chunk: (c) => current() && this.runChunk(k, c),
          done: (d) => current() && this.runDone(k, d),
          failed: (message) => current() && this.runFailed(k, message),
        },
      );
    });
  }

  private runStarted(k: number, start: RunStart): void {
    const s = this.store.get();
    const panels = s.panels;
    const panel = panels[k];
    panel.start(start);
    // The first run computes the layout of the network every run shares.
    const source = panels[0].trace;
    if (source?.positions.length) for (const p of panels) if (p.trace && !p.trace.positions.length) p.takeLayout(source);
    // Geographic scenarios open on the map; the choice is offered only when there is one.
    let layout = s.layout;
    if (panel.hasMap && k === 0 && !s.layoutChosen) layout = 'map';
    if (!panel.hasMap && layout === 'map') layout = 'force';
    // Runs start in any order: every run started so far shares the view just chosen (the canvas applies it).
    this.store.update({ mapOffered: panel.hasMap, layout, started: s.started + 1 });
    panel.setProgress(0, `simulating ${start.nodes} nodes…`);
    this.computedExtent();
    this.redraw(); // show this run's network at once
  }

  /**
   * What every run has computed: the shared clock may play up to the least of them. Playback
   * begins as soon as every run has something computed.
   */
  private computedExtent(): void {
    const store = this.store;
    const s = store.get();
    const panels = s.panels;
    const endUs = Math.max(0, ...panels.map((p) => p.trace?.endUs ?? 0));
    const reach = Math.min(...panels.map((p) => (!p.trace ? 0 : p.done ? endUs : p.computedUs)));
    let clock = extend(s.clock, reach, endUs);
    store.update({ clock, computedShare: endUs > 0 ? clock.computedUs / endUs : 0 });
    const pauseAtMs = s.pauseAtMs;
    if (pauseAtMs !== null && clock.computedUs >= Math.min(endUs, pauseAtMs * 1000) && panels.every((p) => p.trace)) {
      store.update({ playbackBegun: true });
      this.seekTo(pauseAtMs * 1000);
      store.update({ pauseAtMs: null });
    } else if (!s.playbackBegun && reach > 0 && pauseAtMs === null) {
      if (!this.options.reduceMotion) clock = togglePlay(clock);
      store.update({ playbackBegun: true, clock, txMax: Math.max(0, (panels[0].view?.txs ?? 1) - 1) });
    }
    this.redraw();
  }

  private runChunk(k: number, chunk: RunChunk): void {
    this.store.get().panels[k].addChunk(chunk);
    this.unshown.set(k, chunk);
    const now = performance.now();
    if (now - this.progressShownAt < PROGRESS_EVERY_MS) return;
    this.progressShownAt = now;
    this.showProgress();
  }

  /** Every run's progress as of its latest chunk (a run's end shows its own at once). */
  private showProgress(): void {
    const panels = this.store.get().panels;
    for (const [k, chunk] of this.unshown) {
      const panel = panels[k];
      if (!panel) continue;
      panel.setProgress(chunk.nowUs / Math.max(1, panel.trace?.endUs ?? 1), `simulating: ${(chunk.nowUs / 1000).toFixed(0)} of ${((panel.trace?.endUs ?? 0) / 1000).toFixed(0)} ms, ${count(chunk.events)} events`);
    }
    this.unshown.clear();
    this.computedExtent();
  }

  private runDone(k: number, done: RunDone): void {
    const panel = this.store.get().panels[k];
    this.unshown.delete(k);
    panel.finish(done);
    const trace = panel.trace!;
    this.computedExtent();
    const report = parseReport(trace.report);
    panel.element.dataset.digest = report.digest;
    panel.element.dataset.sends = String(trace.sendCount);
    panel.element.dataset.sendBytes = String(trace.sendBytes ?? 0);
    // Where the worker's time went: the engine's own (`wall_ms`), the layout, and all of it.
    Object.assign(panel.element.dataset, { engineMs: String(report.wall_ms), layoutMs: String(trace.layoutMs), workerMs: String(trace.engineMs) });
    const kept = (trace.sendsKeptUs ?? Infinity) < Infinity ? ` (drawn up to ${((trace.sendsKeptUs ?? 0) / 1000).toFixed(0)} ms: the worker keeps ${count(MAX_SENDS)} at most)` : '';
    panel.setState('done', `${trace.nodes} nodes · ${count(report.events)} events · ${count(trace.sendCount)} sends${kept} · ${trace.engineMs.toFixed(0)} ms engine`);
    const reports = this.store.get().reports.map((r, i) => (i === k ? report : r));
    if (!reports.every((r) => r !== null)) return this.store.update({ reports });
    // All done: the report table and the charts draw from the reports.
    this.computedExtent();
    const panels = this.store.get().panels;
    this.store.update({ reports, txMax: Math.max(0, (panels[0].view?.txs ?? 1) - 1), computing: false, crashed: false, phase: 'done' });
    this.redraw();
  }

  private runFailed(k: number, message: string): void {
    this.unshown.delete(k);
    this.store.get().panels[k].setState('error', message);
    for (const slot of this.slots) if (slot.busy) slot.stop();
    this.store.update({ error: `the engine rejected this scenario: ${message}`, engineFailure: { message }, phase: 'error' });
  }

  private workerCrashed(k: number, message: string): void {
    this.unshown.delete(k);
    const panel = this.store.get().panels[k];
    if (panel) panel.setState('error', `${message}: press Run to restart it`);
    this.store.update({ error: `${message}. Press Run to start a fresh worker.`, crashed: true, phase: 'error' });
  }

  // ---- seeking: who has the tx at the new time comes from the runs' arrival logs -----------

  /** Moves the paused clock to `tUs` and asks each run's worker for the picked tx's state there. */
  seekTo(tUs: number): void {
    const store = this.store;
    store.update((s) => ({ clock: seek({ ...s.clock, playing: false }, tUs) }));
    this.redraw();
    const s = store.get();
    this.seekAsked = { tUs: s.clock.tUs, tx: currentTx(s) };
    store.update({ seek: 'scanning' });
    if (this.scansInFlight === 0) this.scanForSeek();
  }

  /** One range scan per run at a time: while dragging the timeline only the latest position is scanned. */
  private scanForSeek(): void {
    const asked = this.seekAsked;
    if (!asked) return;
    const store = this.store;
    const { generation: mine, panels } = store.get();
    const jobs = panels.map((panel, k) =>
      this.slots[k]
        ?.arrivals(asked.tx, asked.tx + 1, asked.tUs)
        .then((reply) => {
          if (mine === store.get().generation) panel.setSeek(asked.tx, asked.tUs, reply.arrivals, reply.censoring);
        })
        .catch(() => undefined),
    );
    this.scansInFlight = jobs.length;
    void Promise.all(jobs).then(() => {
      this.scansInFlight = 0;
      // A newer seek (or a new run's) came while these were out: scan for it now.
      if (this.seekAsked && this.seekAsked !== asked) return this.scanForSeek();
      if (mine !== store.get().generation) return;
      store.update({ seek: 'scanned' });
      this.redraw();
    });
  }

  /**
   * Asks run `k`'s worker which nodes censor `tx` at the time shown, once per tx and behaviour
   * change (drawn as they are known).
   */
  askCensoring(k: number, tx: number): void {
    const store = this.store;
    const { panels, clock } = store.get();
    const panel = panels[k];
    const epoch = panel.states?.behaviourEpoch(clock.tUs) ?? 0;
    const key = `${tx}:${epoch}`;
    if (this.censoringAsked[k] === key || !panel.trace?.adversaries.some((a) => a) || !this.slots[k]) return;
    this.censoringAsked[k] = key;
    const mine = store.get().generation;
    this.slots[k]
      .arrivals(tx, tx, clock.tUs)
      .then((reply) => {
        if (mine !== store.get().generation || this.censoringAsked[k] !== key) return;
        panel.setCensoring(tx, reply.censoring);
        this.redraw();
      })
      .catch(() => undefined);
  }

  /**
   * Asks run `k`'s worker for the sends to draw at the time shown when its panel has none for it
   * (past the sends its chunks carried): all, or those about `tx` when only its messages are
   * drawn; one request at a time.
   */
  askFlights(k: number, tx: number): void {
    const store = this.store;
    const { panels, clock, generation, txOnly } = store.get();
    const panel = panels[k];
    const about = txOnly ? tx : -1;
    const fromUs = panel?.flightsWanted(clock.tUs, about) ?? null;
    if (fromUs === null || !this.slots[k]) return;
    panel.flightsAsked = true;
    this.slots[k]
      .sends({ fromUs, untilUs: Infinity, lookbackUs: FLASH_LOOKBACK_US, tx: about, max: WINDOW_SENDS })
      .then((reply) => {
        if (generation !== store.get().generation) return;
        panel.setFlights(reply);
        this.redraw();
      })
      .catch(() => undefined)
      .finally(() => (panel.flightsAsked = false));
  }

  /**
   * Asks run `k`'s worker for the records of `tx` its panel lacks: duplicate copies, and where
   * copies landed first past the sends the chunks carried. The worker keeps them all, the page
   * the picked tx's only; one question of each kind at a time.
   */
  askHeld(k: number, tx: number): void {
    const panel = this.store.get().panels[k];
    const slot = this.slots[k];
    if (!panel || !slot) return;
    for (const kind of ['duplicates', 'lateCopies'] as const) {
      const fromRow = panel.heldWanted(kind, tx);
      if (fromRow === null) continue;
      // A run started again (a change applied) has a new view: an answer about the old run is dropped.
      const view = panel.view;
      panel.asking[kind] = true;
      const answered =
        kind === 'duplicates'
          ? slot.duplicates(tx, fromRow).then((reply) => {
              if (panel.view === view) panel.setDuplicates(reply);
            })
          : slot.firstCopies(tx, fromRow).then((reply) => {
              if (panel.view === view) panel.setLateCopies(reply);
            });
      answered
        .then(() => this.redraw())
        .catch(() => undefined)
        .finally(() => (panel.asking[kind] = false));
    }
  }

  /** Every duplicate copy run `k` landed (t_us, node, tx triples), from its worker: for the trace export. */
  async allDuplicates(k: number): Promise<Float64Array> {
    const slot = this.slots[k];
    if (!slot) throw new Error(`run ${k} has no worker`);
    return (await slot.duplicates(-1, 0)).duplicates;
  }

  /** A node was clicked (or picked by number): pause, select it in every run and inspect it. */
  inspect(panel: Panel, node: number): void {
    this.store.update((s) => ({ inspected: { panel: s.panels.indexOf(panel), node }, clock: { ...s.clock, playing: false } }));
    this.redraw();
  }

  /**
   * Asks the inspected node's run for its state at the paused time, unless that is what the
   * inspector shows already (`inspection` follows `inspected`).
   */
  private askInspection(): void {
    const store = this.store;
    const s = store.get();
    const asked = s.inspected;
    if (!asked) {
      this.answered = null;
      return store.update({ inspection: null });
    }
    const tUs = s.clock.tUs;
    if (this.answered?.asked === asked && (s.clock.playing || this.answered.tUs === tUs)) return;
    const panel = s.panels[asked.panel];
    const slot = this.slots[asked.panel];
    // One question at a time: when it is answered, what is wanted by then is asked.
    if (!panel || !slot || this.inspecting) return;
    // A new pick says it is being replayed; the same node at another time stays shown until its
    // new state comes (its title says its time).
    if (this.answered?.asked !== asked) store.update({ inspection: { kind: 'message', text: `replaying ${panel.label} to ${(tUs / 1000).toFixed(1)} ms…` } });
    const protocol = panel.trace?.protocol ?? '';
    this.inspecting = true;
    slot
      .inspect({ scenario: s.scenarioText, run: panel.index, seed: s.runSeed, layoutSeed: 0n, layout: false }, tUs, asked.node)
      .then(
        (reply): InspectorContent => ({ kind: 'node', label: panel.label, protocol, tUs, inspection: reply.inspection }),
        (error: unknown): InspectorContent => ({ kind: 'message', text: `could not inspect node ${asked.node}: ${error instanceof Error ? error.message : String(error)}` }),
      )
      .then((content) => {
        this.inspecting = false;
        // An answer about an older pick (or older runs) is dropped.
        if (store.get().inspected === asked) {
          this.answered = { asked, tUs };
          store.update({ inspection: content });
        }
        this.askNext();
      });
  }

  /** The inspected node's decoder, watched from the start of its run to the inspected time. */
  peelInspected(): void {
    const store = this.store;
    const s = store.get();
    const shown = s.inspection;
    const panel = s.inspected && s.panels[s.inspected.panel];
    const slot = s.inspected && this.slots[s.inspected.panel];
    // A press while the decoder is being fetched is a repeat.
    if (shown?.kind !== 'node' || shown.peeling === 'loading' || !panel || !slot) return;
    const loading = { ...shown, peeling: 'loading' };
    store.update({ inspection: loading });
    // The worker answers one question at a time: the node's new state first, then this.
    if (this.inspecting) {
      this.peelWanted = s.inspected;
      return;
    }
    this.inspecting = true;
    slot
      .inspect({ scenario: s.scenarioText, run: panel.index, seed: s.runSeed, layoutSeed: 0n, layout: false }, shown.tUs, shown.inspection.node, true)
      .then(
        (reply) => reply.peeling ?? 'this node has no decoder to watch',
        (error: unknown) => `could not watch the decoder: ${error instanceof Error ? error.message : String(error)}`,
      )
      .then((peeling) => {
        this.inspecting = false;
        // Only if the same node at the same time is still shown; what is wanted by now is asked next.
        if (store.get().inspection === loading) store.update({ inspection: { ...shown, peeling } });
        this.askNext();
      });
  }

  /** After an answer: the decoder asked for meanwhile (if its node is still picked), else what the inspector wants by now. */
  private askNext(): void {
    const peel = this.peelWanted !== null && this.peelWanted === this.store.get().inspected;
    this.peelWanted = null;
    if (peel) this.peelInspected();
    else this.askInspection();
  }

  // ---- live changes: picked nodes, and a change applied at the current time ----------------

  private get nodes(): number {
    return this.store.get().panels[0]?.trace?.nodes ?? 0;
  }

  /** Shift-click: a node joins the picked ones, or leaves them. */
  togglePicked(node: number): void {
    const current = this.store.get().selection ?? new Uint8Array(this.nodes);
    const selection = Uint8Array.from(current);
    if (node < selection.length) selection[node] = selection[node] ? 0 : 1;
    this.store.update({ selection });
  }

  /** Nodes join the picked ones (a rectangle, a region, a random share). */
  addPicked(nodes: number[], replace = false): void {
    const current = this.store.get().selection;
    const selection = replace || !current ? new Uint8Array(this.nodes) : Uint8Array.from(current);
    for (const v of nodes) if (v >= 0 && v < selection.length) selection[v] = 1;
    this.store.update({ selection });
  }

  /**
   * Applies a change at the current simulated time in every run: it is added to the scenario's
   * events (so the editor, the share link and `txsim run` have it), checked by the engine, and
   * every run goes on from that time under the new scenario. What was shown before stays.
   */
  async applyChange(change: LiveChange, describe: string): Promise<void> {
    const store = this.store;
    const s = store.get();
    const say = (message: string, error = false) => store.update({ change: { message, error } });
    if (!s.panels.length || !s.panels.every((p) => p.trace)) return say('run a scenario first: changes apply to the runs shown', true);
    const atMs = changeAtMs(s.clock.tUs);
    const endUs = Math.max(...s.panels.map((p) => p.trace!.endUs));
    if (atMs * 1000 > endUs) return say(`the runs end at ${endUs / 1000} ms: there is no time left to change`, true);
    let text: string;
    try {
      text = withEvent(s.scenarioText, change, atMs);
      await checkScenario(text);
    } catch (error) {
      return say(`not applied: ${error instanceof Error ? error.message : String(error)}`, true);
    }
    if (store.get().generation !== s.generation) return say('not applied: the runs changed meanwhile', true);
    this.resume(text, atMs * 1000);
    say(`${describe} at ${atMs} ms: added to the scenario's events`);
  }

  /** Every run goes on from `resumeUs` under `scenario` (which differs only after it). */
  private resume(scenario: string, resumeUs: number): void {
    const store = this.store;
    const s = store.get();
    const generation = s.generation + 1;
    for (const slot of this.slots) if (slot.busy) slot.stop();
    this.seekAsked = null;
    this.censoringAsked.length = 0;
    this.unshown.clear();
    store.update({
      scenarioText: scenario,
      scenarioId: 'custom',
      customOffered: true,
      generation,
      reports: s.panels.map(() => null),
      clock: rewind(s.clock, resumeUs),
      chartsDone: false,
      seek: '',
      phase: 'running',
      computing: true,
    });
    const seed = s.runSeed;
    s.panels.forEach((panel, k) => {
      this.slots[k] ??= new RunSlot(k, (message) => this.workerCrashed(k, message));
      const current = () => generation === store.get().generation;
      this.slots[k].start(
        { scenario, run: panel.index, seed, layoutSeed: BigInt(s.info.seed), layout: false, resumeUs },
        {
          start: (st) => {
            if (!current()) return;
            panel.resume(st);
            panel.setProgress(resumeUs / Math.max(1, st.endUs), `going on from ${resumeUs / 1000} ms…`);
            this.computedExtent();
          },
          chunk: (c) => current() && this.runChunk(k, c),
          done: (d) => current() && this.runDone(k, d),
          failed: (message) => current() && this.runFailed(k, message),
        },
      );
    });
    this.redraw();
  }

  /** Test hook: crash run `k`'s worker. */
  crashWorker(k: number): void {
    this.slots[k]?.crashForTest();
  }
}
