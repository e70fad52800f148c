// The page: pick or edit a scenario, run 1 to 4 of its protocols in parallel workers, replay what
// happened on one shared clock, and show the report and the charts.
import { SEND_STRIDE, type RunChunk, type RunDone, type RunStart } from '../../workers/protocol';
import { barChart, lineChart } from '../charts/charts';
import { fillGlossary } from './glossary';
import { drawLegend } from '../canvas/legend';
import { runColour } from '../canvas/palette';
import type { LayoutKind } from '../canvas/layouts';
import { Panel } from '../canvas/panel';
import { baseMapping, type LayerTurn } from '../canvas/render';
import { extend, newClock, seek, setSpeed, SPEEDS, step, tick, togglePlay, waiting, type Clock } from '../playback/playback';
import { ScenarioEditor } from '../scenario/editor';
import { download, svgDocument, svgToPng, traceCsv } from '../report/export';
import { showInspection, showInspectionMessage } from '../canvas/inspector';
import { count } from './format';
import { COLUMNS, parseReport, reportCsv, type RunReport } from '../report/report';
import { RunSlot } from '../sim/runner';
import { DEFAULT_SCENARIO, findScenario, LIBRARY, type LibraryEntry } from '../scenario/scenarios';
import { readFragment, shareFragment } from './share';
import { deliveryOverTime, latenciesMs } from '../sim/trace';

/** At most this many runs side by side, each in its own worker. */
const MAX_RUNS = 4;

function element<T extends Element>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as unknown as T;
}

const ui = {
  app: element<HTMLElement>('app'),
  scenario: element<HTMLSelectElement>('scenario'),
  seed: element<HTMLInputElement>('seed'),
  runButton: element<HTMLButtonElement>('run-button'),
  editToggle: element<HTMLButtonElement>('edit-toggle'),
  description: element<HTMLElement>('scenario-description'),
  runs: element<HTMLFieldSetElement>('runs'),
  editor: element<HTMLElement>('editor'),
  json: element<HTMLTextAreaElement>('scenario-json'),
  form: element<HTMLFormElement>('scenario-form'),
  editorStatus: element<HTMLElement>('editor-status'),
  applyJson: element<HTMLButtonElement>('apply-json'),
  error: element<HTMLElement>('scenario-error'),
  play: element<HTMLButtonElement>('play'),
  step: element<HTMLButtonElement>('step'),
  speed: element<HTMLSelectElement>('speed'),
  timeline: element<HTMLInputElement>('timeline'),
  clock: element<HTMLElement>('clock'),
  follow: element<HTMLInputElement>('follow'),
  txOnly: element<HTMLInputElement>('tx-only'),
  computeProgress: element<HTMLProgressElement>('compute-progress'),
  tx: element<HTMLInputElement>('tx'),
  panels: element<HTMLElement>('panels'),
  layout: element<HTMLSelectElement>('layout'),
  inspector: element<HTMLElement>('inspector'),
  share: element<HTMLButtonElement>('share'),
  shareUrl: element<HTMLInputElement>('share-url'),
  shareError: element<HTMLElement>('share-error'),
  legend: element<SVGSVGElement>('legend'),
  table: element<HTMLTableElement>('metrics-table'),
  runLegend: element<HTMLElement>('run-legend'),
  chartLatency: element<SVGSVGElement>('chart-latency'),
  chartDelivery: element<SVGSVGElement>('chart-delivery'),
  chartBars: element<SVGSVGElement>('chart-bars'),
  chartBandwidth: element<SVGSVGElement>('chart-bandwidth'),
  chartCounters: element<SVGSVGElement>('chart-counters'),
  counterPick: element<HTMLSelectElement>('counter-pick'),
};

interface ScenarioInfo {
  seed: string;
  labels: string[];
}

/** What the page reads from a scenario before the engine sees it: the seed text and the run labels. */
function scenarioInfo(text: string): ScenarioInfo {
  const parsed = JSON.parse(text) as { seed?: unknown; protocols?: { label?: unknown; protocol?: unknown }[] };
  const seedMatch = /"seed"\s*:\s*(\d+)/.exec(text); // the exact digits: JSON.parse rounds past 2^53
  const labels = Array.isArray(parsed.protocols) ? parsed.protocols.map((p, i) => String(p?.label ?? p?.protocol ?? `run ${i}`)) : [];
  return { seed: seedMatch?.[1] ?? String(parsed.seed ?? 0), labels };
}

const editor = new ScenarioEditor(ui.form, ui.json, ui.editorStatus);
ui.form.addEventListener('submit', (event) => event.preventDefault());
let scenarioText = '';
/** Set once the user picks a view: geographic scenarios then stop switching to the map by themselves. */
let layoutChosen = false;
/** The seed override of the current runs, for replaying one to inspect a node. */
let runSeed: bigint | undefined;
let info: ScenarioInfo = { seed: '0', labels: [] };
let clock: Clock = newClock(0);
let pickedTx = 0;
let panels: Panel[] = [];
const slots: RunSlot[] = [];
let reports: (RunReport | null)[] = [];
let generation = 0;
/** Set once playback has begun for the latest runs (it begins with their first computed chunk). */
let playbackBegun = false;
let lastFrame = 0;
/** Some panel's links are still being drawn, a batch per frame. */
let layersPending = false;
let animation = 0;
const frameTimes: number[] = [];
/** Wall time between animation frames while playing (ms). */
const frameIntervals: number[] = [];
/** Main-thread tasks over 50 ms (start, duration), as the browser reports them. */
const longTasks: [number, number][] = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // not supported: nothing to report
}
/** When the latest runs were started (performance.now()). */
let runStartedAt = 0;
/** performance.now() of the first frame that drew a finished run (ms since navigation start). */
let firstFrameMs: number | null = null;
/** When set (from the URL), the first completed run pauses at this simulated time (ms). */
let pauseAtMs: number | null = null;

const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function setAppState(state: 'idle' | 'running' | 'done' | 'error'): void {
  ui.app.dataset.state = state;
}

function showError(message: string): void {
  ui.error.textContent = message;
  ui.error.hidden = message === '';
}

// ---- scenario selection ------------------------------------------------------------------

for (const entry of LIBRARY) {
  const option = document.createElement('option');
  option.value = entry.id;
  option.textContent = entry.name;
  option.title = entry.description;
  ui.scenario.append(option);
}
const customOption = document.createElement('option');
customOption.value = 'custom';
customOption.textContent = '(edited scenario)';
customOption.hidden = true;
ui.scenario.append(customOption);

function loadScenario(text: string, description: string): boolean {
  scenarioText = text;
  editor.load(text);
  ui.description.textContent = description;
  try {
    info = scenarioInfo(text);
  } catch (error) {
    info = { seed: '0', labels: [] };
    showError(`the scenario is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    setAppState('error');
    return false;
  }
  ui.seed.value = info.seed;
  const boxes = info.labels.map((label, i) => {
    const wrap = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = String(i);
    box.checked = i < MAX_RUNS;
    wrap.append(box, ` ${label}`);
    return wrap;
  });
  ui.runs.replaceChildren(ui.runs.querySelector('legend')!, ...boxes);
  return true;
}

function selectedRuns(): number[] {
  return Array.from(ui.runs.querySelectorAll<HTMLInputElement>('input:checked'), (b) => Number(b.value)).slice(0, MAX_RUNS);
}

ui.runs.addEventListener('change', (event) => {
  const boxes = Array.from(ui.runs.querySelectorAll<HTMLInputElement>('input'));
  const checked = boxes.filter((b) => b.checked);
  const refused = checked.length > MAX_RUNS;
  if (refused) (event.target as HTMLInputElement).checked = false;
  // Say why the tick did not take: the legend names the limit.
  ui.runs.classList.toggle('at-limit', refused);
});

// ---- running -----------------------------------------------------------------------------

function seedOverride(): bigint | undefined | string {
  const text = ui.seed.value.trim();
  if (text === info.seed) return undefined;
  if (!/^\d{1,20}$/.test(text) || BigInt(text) >= 1n << 64n) return 'seed must be a whole number from 0 to 2^64 - 1';
  return BigInt(text);
}

function run(): void {
  const runs = selectedRuns();
  const seed = seedOverride();
  if (typeof seed === 'string') return showError(seed);
  if (runs.length === 0) return showError('pick at least one protocol to run');
  showError('');
  generation += 1;
  const mine = generation;
  const layoutSeed = BigInt(info.seed);
  runSeed = typeof seed === 'bigint' ? seed : undefined;
  runStartedAt = performance.now();
  for (const slot of slots) if (slot.busy) slot.stop();
  panels = runs.map((r) => new Panel(r, info.labels[r] ?? `run ${r}`, requestDraw, inspectNode));
  reports = runs.map(() => null);
  ui.panels.replaceChildren(...panels.map((p) => p.element));
  ui.panels.dataset.count = String(panels.length);
  clock = newClock(0);
  playbackBegun = false;
  delete ui.app.dataset.charts;
  delete ui.app.dataset.seek;
  seekAsked = null;
  censoringAsked.length = 0;
  setAppState('running');
  ui.table.replaceChildren();
  ui.computeProgress.hidden = false;
  ui.computeProgress.value = 0;
  panels.forEach((panel, k) => {
    slots[k] ??= new RunSlot(k, (message) => workerCrashed(k, message));
    slots[k].start(
      { scenario: scenarioText, run: panel.index, seed: typeof seed === 'bigint' ? seed : undefined, layoutSeed, layout: k === 0 },
      {
        start: (s) => mine === generation && runStarted(k, s),
        chunk: (c) => mine === generation && runChunk(k, c),
        done: (d) => mine === generation && runDone(k, d),
        failed: (message) => mine === generation && runFailed(k, message),
      },
    );
  });
}

function runStarted(k: number, start: RunStart): void {
  const panel = panels[k];
  panel.start(start);
  // The first run computes the layout of the network every run shares.
  const source = panels[0].trace;
  if (source?.positions.length) for (const p of panels) if (p.trace && !p.trace.positions.length) p.takeLayout(source);
  // Geographic scenarios open on the map; the choice is offered only when there is one.
  ui.layout.querySelector<HTMLOptionElement>('option[value="map"]')!.disabled = !panel.hasMap;
  if (panel.hasMap && k === 0 && !layoutChosen) ui.layout.value = 'map';
  if (!panel.hasMap && ui.layout.value === 'map') ui.layout.value = 'force';
  // Runs start in any order: every run started so far shares the view just chosen.
  for (const p of panels) if (p.trace) p.setLayout(ui.layout.value as LayoutKind, requestDraw);
  panel.setProgress(0, `simulating ${start.nodes} nodes…`);
  computedExtent();
  requestDraw(); // show this run's network at once
}

/**
 * What every run has computed: the shared clock may play up to the least of them. Playback
 * begins as soon as every run has something computed.
 */
function computedExtent(): void {
  const endUs = Math.max(0, ...panels.map((p) => p.trace?.endUs ?? 0));
  const reach = Math.min(...panels.map((p) => (!p.trace ? 0 : p.done ? endUs : p.computedUs)));
  clock = extend(clock, reach, endUs);
  const share = endUs > 0 ? clock.computedUs / endUs : 0;
  ui.timeline.style.setProperty('--computed', `${(100 * share).toFixed(2)}%`);
  ui.computeProgress.value = share;
  ui.app.dataset.computedUs = String(Math.round(clock.computedUs));
  if (pauseAtMs !== null && clock.computedUs >= Math.min(endUs, pauseAtMs * 1000) && panels.every((p) => p.trace)) {
    playbackBegun = true;
    seekTo(pauseAtMs * 1000);
    pauseAtMs = null;
  } else if (!playbackBegun && reach > 0 && pauseAtMs === null) {
    playbackBegun = true;
    clock = setSpeed(clock, Number(ui.speed.value));
    if (!reduceMotion) clock = togglePlay(clock);
    ui.tx.max = String(Math.max(0, (panels[0].view?.txs ?? 1) - 1));
  }
  requestDraw();
}

function runChunk(k: number, chunk: RunChunk): void {
  const panel = panels[k];
  panel.addChunk(chunk);
  panel.setProgress(chunk.nowUs / Math.max(1, panel.trace?.endUs ?? 1), `simulating: ${(chunk.nowUs / 1000).toFixed(0)} of ${((panel.trace?.endUs ?? 0) / 1000).toFixed(0)} ms, ${count(chunk.events)} events`);
  computedExtent();
}

function runDone(k: number, done: RunDone): void {
  const panel = panels[k];
  panel.finish(done);
  const trace = panel.trace!;
  computedExtent();
  const report = parseReport(trace.report);
  reports[k] = report;
  panel.element.dataset.digest = report.digest;
  const kept = trace.sendCount > trace.sends.length / SEND_STRIDE ? ` (first ${count(trace.sends.length / SEND_STRIDE)} sends drawn)` : '';
  panel.setState('done', `${trace.nodes} nodes · ${count(report.events)} events · ${trace.engineMs.toFixed(0)} ms engine${kept}`);
  if (reports.every((r) => r !== null)) allDone();
}

function runFailed(k: number, message: string): void {
  panels[k].setState('error', message);
  for (const slot of slots) if (slot.busy) slot.stop();
  showError(`the engine rejected this scenario: ${message}`);
  editor.markError(message);
  setAppState('error');
}

function workerCrashed(k: number, message: string): void {
  const panel = panels[k];
  if (panel) panel.setState('error', `${message}: press Run to restart it`);
  showError(`${message}. Press Run to start a fresh worker.`);
  ui.app.dataset.crashed = 'true';
  setAppState('error');
}

function allDone(): void {
  computedExtent();
  ui.tx.max = String(Math.max(0, (panels[0].view?.txs ?? 1) - 1));
  ui.computeProgress.hidden = true;
  delete ui.app.dataset.crashed;
  setAppState('done');
  renderReport();
  renderCharts();
  requestDraw();
}

// ---- playback ----------------------------------------------------------------------------

function currentTx(): number {
  const view = panels[0]?.view;
  if (!view) return pickedTx;
  if (ui.follow.checked) pickedTx = view.latestTx(clock.tUs);
  return Math.min(pickedTx, view.txs - 1);
}

function spanUs(tx: number): number {
  let span = 1;
  for (const p of panels) {
    const v = p.tx(tx);
    if (v) span = Math.max(span, v.lastUs - v.createdUs);
  }
  return span;
}

let legendSpan = -1;

function draw(): void {
  const started = performance.now();
  const tx = currentTx();
  const span = spanUs(tx);
  const txOnly = ui.txOnly.checked;
  layersPending = false;
  const layerTurn: LayerTurn = {};
  for (const [k, panel] of panels.entries()) {
    layersPending = panel.draw(tx, clock.tUs, span, txOnly, layerTurn) || layersPending;
    askCensoring(k, tx);
  }
  if (span !== legendSpan) {
    legendSpan = span;
    drawLegend(ui.legend, span / 1000);
  }
  const computing = clock.computedUs < clock.endUs ? ` (computed to ${(clock.computedUs / 1000).toFixed(0)})` : '';
  ui.clock.textContent = `t = ${(clock.tUs / 1000).toFixed(1)} of ${(clock.endUs / 1000).toFixed(0)} ms${computing}${waiting(clock) ? ', waiting for the engine' : ''}`;
  ui.timeline.value = String(clock.endUs > 0 ? Math.round((1000 * clock.tUs) / clock.endUs) : 0);
  if (document.activeElement !== ui.tx) ui.tx.value = String(tx);
  ui.play.textContent = clock.playing ? 'Pause' : 'Play';
  Object.assign(ui.app.dataset, { tUs: String(Math.round(clock.tUs)), tx: String(tx), playing: String(clock.playing) });
  const finished = performance.now();
  frameTimes.push(finished - started);
  if (firstFrameMs === null && panels.some((p) => p.trace && p.computedUs > 0)) firstFrameMs = finished;
  if (frameTimes.length > 600) frameTimes.splice(0, frameTimes.length - 600);
}

function frame(now: number): void {
  animation = 0;
  const dt = lastFrame ? Math.min(100, now - lastFrame) : 0;
  if (lastFrame && clock.playing) {
    frameIntervals.push(now - lastFrame);
    if (frameIntervals.length > 600) frameIntervals.splice(0, frameIntervals.length - 600);
  }
  lastFrame = now;
  clock = tick(clock, dt);
  draw();
  if (clock.playing || layersPending) animation = requestAnimationFrame(frame);
  if (!clock.playing) lastFrame = 0;
}

/** Coalesces redraws into one animation frame. */
function requestDraw(): void {
  if (!animation) animation = requestAnimationFrame(frame);
}

function update(next: Clock): void {
  clock = next;
  requestDraw();
}

// ---- seeking: who has the tx at the new time comes from the runs' arrival logs -----------

/** The seek whose range scans are wanted; a newer seek supersedes it. */
let seekAsked: { tUs: number; tx: number } | null = null;
let scansInFlight = 0;

/** Moves the paused clock to `tUs` and asks each run's worker for the picked tx's state there. */
function seekTo(tUs: number): void {
  update(seek({ ...clock, playing: false }, tUs));
  seekAsked = { tUs: clock.tUs, tx: currentTx() };
  ui.app.dataset.seek = 'scanning';
  if (scansInFlight === 0) scanForSeek();
}

/** One range scan per run at a time: while dragging the timeline only the latest position is scanned. */
function scanForSeek(): void {
  const asked = seekAsked;
  if (!asked) return;
  const mine = generation;
  const jobs = panels.map((panel, k) =>
    slots[k]
      ?.arrivals(asked.tx, asked.tx + 1, asked.tUs)
      .then((reply) => {
        if (mine === generation) panel.setSeek(asked.tx, asked.tUs, reply.arrivals, reply.censoring);
      })
      .catch(() => undefined),
  );
  scansInFlight = jobs.length;
  void Promise.all(jobs).then(() => {
    scansInFlight = 0;
    // A newer seek (or a new run's) came while these were out: scan for it now.
    if (seekAsked && seekAsked !== asked) return scanForSeek();
    if (mine !== generation) return;
    ui.app.dataset.seek = 'scanned';
    requestDraw();
  });
}

/** Per run, the tx whose censoring nodes were asked for (the worker knows behaviours). */
const censoringAsked: number[] = [];
function askCensoring(k: number, tx: number): void {
  const panel = panels[k];
  if (censoringAsked[k] === tx || !panel.trace?.adversaries.some((a) => a) || !slots[k]) return;
  censoringAsked[k] = tx;
  const mine = generation;
  slots[k]
    .arrivals(tx, tx, 0)
    .then((reply) => {
      if (mine !== generation || censoringAsked[k] !== tx) return;
      panel.setCensoring(tx, reply.censoring);
      requestDraw();
    })
    .catch(() => undefined);
}

/** The user picked a tx to watch: show only its messages and the path it takes. */
function watchPickedTx(): void {
  ui.txOnly.checked = true;
}

for (const [i, s] of SPEEDS.entries()) {
  const option = document.createElement('option');
  option.value = String(i);
  option.textContent = s < 1 ? `${s}×` : `${s}×`;
  ui.speed.append(option);
}
ui.speed.value = String(clock.speedIndex);

function inspectNode(panel: Panel, node: number): void {
  for (const p of panels) p.selected = node;
  clock = { ...clock, playing: false };
  requestDraw();
  const k = panels.indexOf(panel);
  const tUs = clock.tUs;
  showInspectionMessage(ui.inspector, `replaying ${panel.label} to ${(tUs / 1000).toFixed(1)} ms…`);
  delete ui.inspector.dataset.node;
  slots[k]
    ?.inspect({ scenario: scenarioText, run: panel.index, seed: runSeed, layoutSeed: 0n, layout: false }, tUs, node)
    .then((reply) => showInspection(ui.inspector, panel.label, tUs, reply.json))
    .catch((error: unknown) => showInspectionMessage(ui.inspector, `could not inspect node ${node}: ${error instanceof Error ? error.message : String(error)}`));
}

// ---- report and charts -------------------------------------------------------------------

function renderReport(): void {
  const head = document.createElement('tr');
  for (const c of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = c.title;
    th.title = c.help;
    head.append(th);
  }
  const rows = reports.map((r, k) => {
    const tr = document.createElement('tr');
    if (!r) return tr;
    tr.dataset.run = String(panels[k].index);
    tr.dataset.label = r.label;
    tr.dataset.digest = r.digest;
    for (const c of COLUMNS) {
      const td = document.createElement('td');
      const value = c.value(r);
      td.textContent = c.format(value);
      td.dataset.key = c.key;
      if (c.key === 'digest') td.title = String(value);
      if (c.key === 'label') td.style.borderLeft = `4px solid ${runColour(panels[k].index)}`;
      tr.append(td);
    }
    return tr;
  });
  ui.table.replaceChildren(head, ...rows);
}

function renderCharts(): void {
  const done = panels.filter((p) => p.trace);
  ui.runLegend.replaceChildren(
    ...done.map((p) => {
      const li = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'run-swatch';
      swatch.style.background = runColour(p.index);
      li.append(swatch, p.label);
      return li;
    }),
  );
  const size = { width: 460, height: 240 };
  // One chart per task: together they would hold the main thread for longer than a frame should.
  const mine = generation;
  const steps: (() => void)[] = [];
  const later = (f: () => void) => steps.push(f);
  later(() => lineChart(
    ui.chartLatency,
    { ...size, xLabel: 'latency (ms)', yLabel: 'share of arrivals' },
    done.map((p) => {
      const x = latenciesMs(p.trace!);
      return { label: p.label, colour: runColour(p.index), x, y: Float64Array.from(x, (_, i) => (i + 1) / x.length) };
    }),
    { yMax: 1 },
  ));
  later(() => lineChart(
    ui.chartDelivery,
    { ...size, xLabel: 'simulated time (ms)', yLabel: 'delivered share' },
    done.map((p) => {
      const { tMs, share } = deliveryOverTime(p.trace!, 200);
      return { label: p.label, colour: runColour(p.index), x: tMs, y: share };
    }),
    { yMax: 1 },
  ));
  later(() => barChart(
    ui.chartBars,
    { ...size, xLabel: '', yLabel: 'per delivered tx / ratio' },
    ['duplicates per tx', 'overhead'],
    done.map((p, k) => {
      const r = reports[panels.indexOf(p)] ?? reports[k]!;
      return { label: p.label, colour: runColour(p.index), values: [r.summary.duplicates.mean ?? NaN, r.summary.overhead.mean ?? NaN] };
    }),
  ));
  later(() => lineChart(
    ui.chartBandwidth,
    { ...size, xLabel: 'simulated time (ms)', yLabel: 'kB/s per node' },
    done.map((p) => {
      const t = p.trace!;
      const bins = t.bandwidth.length / 2;
      const x = Float64Array.from({ length: bins }, (_, b) => ((b + 0.5) * t.binUs) / 1000);
      const y = Float64Array.from({ length: bins }, (_, b) => (t.bandwidth[2 * b] + t.bandwidth[2 * b + 1]) / t.nodes / (t.binUs / 1e6) / 1000);
      return { label: p.label, colour: runColour(p.index), x, y };
    }),
  ));
  later(() => {
    const names = [...new Set(done.flatMap((p) => p.trace!.counterNames))].sort();
    const keep = ui.counterPick.value;
    ui.counterPick.replaceChildren(...names.map((n) => new Option(n, n)));
    ui.counterPick.value = names.includes(keep) ? keep : (names.find((n) => /codeword/.test(n)) ?? names[0] ?? '');
    renderCounterChart();
  });
  const next = () => {
    if (mine !== generation) return;
    steps.shift()?.();
    if (steps.length) setTimeout(next, 0);
    else ui.app.dataset.charts = 'done';
  };
  delete ui.app.dataset.charts;
  setTimeout(next, 0);
}

/** The picked protocol counter's rate over time, one line per run that has it. */
function renderCounterChart(): void {
  const name = ui.counterPick.value;
  lineChart(
    ui.chartCounters,
    { width: 460, height: 240, xLabel: 'simulated time (ms)', yLabel: `${name || 'no counters'} /s per node` },
    panels.flatMap((p) => {
      const t = p.trace;
      const c = t ? t.counterNames.indexOf(name) : -1;
      if (!t || c < 0) return [];
      const bins = t.counterBins.length / Math.max(1, t.counterNames.length);
      const x = Float64Array.from({ length: bins }, (_, b) => ((b + 0.5) * t.binUs) / 1000);
      const y = Float64Array.from({ length: bins }, (_, b) => t.counterBins[c * bins + b] / t.nodes / (t.binUs / 1e6));
      return [{ label: p.label, colour: runColour(p.index), x, y }];
    }),
  );
}

// ---- wiring ------------------------------------------------------------------------------

/** Loads a library scenario's file and runs it (unless another was picked meanwhile). */
async function openLibrary(entry: LibraryEntry, seed?: string | null): Promise<void> {
  const text = await entry.load();
  if (ui.scenario.value !== entry.id) return;
  if (loadScenario(text, entry.description)) {
    if (seed) ui.seed.value = seed;
    run();
  }
}

ui.scenario.addEventListener('change', () => {
  const entry = findScenario(ui.scenario.value);
  if (!entry) return;
  history.replaceState(null, '', `?scenario=${encodeURIComponent(entry.id)}`);
  void openLibrary(entry);
});
ui.runButton.addEventListener('click', run);
ui.editToggle.addEventListener('click', () => {
  ui.editor.hidden = !ui.editor.hidden;
  ui.editToggle.setAttribute('aria-expanded', String(!ui.editor.hidden));
  if (!ui.editor.hidden) editor.opened();
});
ui.applyJson.addEventListener('click', () => {
  ui.scenario.value = 'custom';
  customOption.hidden = false;
  if (loadScenario(editor.text(), 'an edited scenario')) run();
});
ui.counterPick.addEventListener('change', renderCounterChart);
ui.layout.addEventListener('change', () => {
  layoutChosen = true;
  for (const p of panels) p.setLayout(ui.layout.value as LayoutKind, requestDraw);
  requestDraw();
});
ui.play.addEventListener('click', () => update(togglePlay(clock)));
ui.step.addEventListener('click', () => {
  const view = panels[0]?.tx(currentTx());
  ui.follow.checked = false;
  watchPickedTx();
  update(step(clock, view?.times ?? new Float64Array(0)));
});
ui.speed.addEventListener('change', () => update(setSpeed(clock, Number(ui.speed.value))));
ui.timeline.addEventListener('input', () => seekTo((Number(ui.timeline.value) / 1000) * clock.endUs));
ui.follow.addEventListener('change', () => {
  if (ui.follow.checked) watchPickedTx();
  requestDraw();
});
ui.txOnly.addEventListener('change', requestDraw);
ui.tx.addEventListener('change', () => {
  ui.follow.checked = false;
  watchPickedTx();
  pickedTx = Math.max(0, Math.floor(Number(ui.tx.value) || 0));
  const view = panels[0]?.tx(Math.min(pickedTx, (panels[0]?.view?.txs ?? 1) - 1));
  // Jump to the tx's creation so its spread can be watched from the start.
  if (view) seekTo(view.createdUs);
  else requestDraw();
});

ui.share.addEventListener('click', async () => {
  const seed = typeof seedOverride() === 'bigint' ? ui.seed.value.trim() : undefined;
  const made = await shareFragment(scenarioText, seed);
  ui.shareError.textContent = made.ok ? '' : made.error;
  if (!made.ok) return;
  const url = `${location.origin}${location.pathname}#${made.fragment}`;
  ui.shareUrl.value = url;
  history.replaceState(null, '', url);
  navigator.clipboard?.writeText(url).catch(() => undefined);
});

const baseName = () => (ui.scenario.value === 'custom' ? 'scenario' : ui.scenario.value);
const doneReports = () => reports.filter((r): r is RunReport => r !== null);
element<HTMLButtonElement>('export-json').addEventListener('click', () => {
  let scenario: unknown = scenarioText;
  try {
    scenario = JSON.parse(scenarioText);
  } catch {
    // keep the text
  }
  download(`${baseName()}.report.json`, new Blob([JSON.stringify({ scenario, runs: doneReports() }, null, 2)], { type: 'application/json' }));
});
element<HTMLButtonElement>('export-csv').addEventListener('click', () => download(`${baseName()}.report.csv`, new Blob([reportCsv(doneReports())], { type: 'text/csv' })));
element<HTMLButtonElement>('export-trace').addEventListener('click', () => {
  const runs = panels.flatMap((p) => (p.trace ? [{ label: p.label, deliveries: p.trace.deliveries, duplicates: p.trace.duplicates }] : []));
  download(`${baseName()}.trace.csv`, new Blob([traceCsv(runs)], { type: 'text/csv' }));
});
element<HTMLButtonElement>('export-scenario').addEventListener('click', () => download(`${baseName()}.json`, new Blob([scenarioText], { type: 'application/json' })));
for (const figure of document.querySelectorAll<HTMLElement>('figure[data-chart]')) {
  const svg = figure.querySelector('svg')!;
  const name = `${baseName()}.${figure.dataset.chart}`;
  figure.querySelector('[data-format="svg"]')!.addEventListener('click', () => download(`${name}.svg`, new Blob([svgDocument(svg)], { type: 'image/svg+xml' })));
  figure.querySelector('[data-format="png"]')!.addEventListener('click', () => {
    svgToPng(svg)
      .then((png) => download(`${name}.png`, png))
      .catch((error: unknown) => showError(`could not make the PNG: ${error instanceof Error ? error.message : String(error)}`));
  });
}

document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === ' ') update(togglePlay(clock));
  else if (event.key === 'ArrowRight' || event.key === '.') ui.step.click();
  else if (event.key === '+' || event.key === '=') update(setSpeed(clock, clock.speedIndex + 1));
  else if (event.key === '-') update(setSpeed(clock, clock.speedIndex - 1));
  else if (event.key === 'Home') seekTo(0);
  else if (event.key === 'r') run();
  else return;
  ui.speed.value = String(clock.speedIndex);
  event.preventDefault();
});

new ResizeObserver(requestDraw).observe(ui.panels);
fillGlossary(element('protocol-list'), element('metric-list'));

// Test and measurement hooks: the e2e suite reads frame times and crashes a worker on purpose.
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
    runStartedAt: () => runStartedAt,
    longestTaskSinceRun: () => Math.max(0, ...longTasks.filter(([start]) => start >= runStartedAt).map(([, d]) => d)),
    firstFrameMs: () => firstFrameMs,
    /** Node colour buckets of panel `k` now: from the delivery trace and from the last seek's range scan. */
    nodeColours: (k: number) => panels[k]?.colours(currentTx(), clock.tUs, spanUs(currentTx())) ?? null,
    crashWorker: (k: number) => slots[k]?.crashForTest(),
    /** Where node `node` of panel `k` is drawn, in page coordinates. */
    nodePoint: (k: number, node: number) => {
      const panel = panels[k];
      if (!panel?.trace) return null;
      const rect = panel.canvas.getBoundingClientRect();
      const { cx, cy, scale } = baseMapping(rect.width, rect.height);
      const t = panel.transform;
      const p = panel.nodePositions;
      return { x: rect.left + t.k * (cx + p[2 * node] * scale) + t.x, y: rect.top + t.k * (cy + p[2 * node + 1] * scale) + t.y };
    },
  },
});

const query = new URLSearchParams(location.search);
const pauseParam = query.get('t');
if (pauseParam !== null && Number.isFinite(Number(pauseParam))) pauseAtMs = Number(pauseParam);
const txParam = query.get('tx');
if (txParam !== null && /^\d+$/.test(txParam)) {
  ui.follow.checked = false;
  watchPickedTx();
  pickedTx = Number(txParam);
}
/** Opens a shared scenario from the fragment; false when there is none to open. */
async function openShared(): Promise<boolean> {
  const shared = await readFragment(location.hash);
  if (!shared) return false;
  if (!shared.ok) {
    showError(`could not open the shared scenario: ${shared.error}`);
    return false;
  }
  ui.scenario.value = 'custom';
  customOption.hidden = false;
  if (loadScenario(shared.scenario, 'a shared scenario')) {
    if (shared.seed) ui.seed.value = shared.seed;
    run();
  }
  return true;
}

window.addEventListener('hashchange', () => void openShared());

void openShared().then((opened) => {
  if (opened) return;
  const initial = findScenario(query.get('scenario') ?? DEFAULT_SCENARIO) ?? findScenario(DEFAULT_SCENARIO) ?? LIBRARY[0];
  const damaged = ui.error.textContent;
  ui.scenario.value = initial.id;
  void openLibrary(initial, query.get('seed')).then(() => {
    if (damaged) showError(damaged); // a damaged share link: say so over the default scenario
  });
});
