// The first view: run a toy flood in the worker, then play the arrival over simulated time.
import type { RunRequest, RunResult, WorkerReply } from '../workers/protocol';
import { drawLegend } from './legend';
import { summariseArrivals } from './palette';
import { paramsFromSearch, paramsToSearch, parseParams, DEFAULTS, type RunParams } from './params';
import { drawScene, makeScene, type Scene } from './render';

/** Real time that one playback of the whole run takes. */
const PLAYBACK_MS = 4000;

function element<T extends HTMLElement | SVGElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as T;
}

const form = element<HTMLFormElement>('controls');
const seedInput = element<HTMLInputElement>('seed');
const nodesInput = element<HTMLInputElement>('nodes');
const degreeInput = element<HTMLInputElement>('degree');
const runButton = element<HTMLButtonElement>('run-button');
const replayButton = element<HTMLButtonElement>('replay');
const clock = element<HTMLSpanElement>('clock');
const view = element<HTMLElement>('run');
const canvas = element<HTMLCanvasElement>('graph');
const status = element<HTMLParagraphElement>('status');
const legend = element<SVGSVGElement>('legend');
const facts = {
  digest: element<HTMLElement>('digest'),
  events: element<HTMLElement>('events'),
  reached: element<HTMLElement>('reached'),
  percentiles: element<HTMLElement>('percentiles'),
  timing: element<HTMLElement>('timing'),
};

const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
const worker = new Worker(new URL('../workers/sim.worker.ts', import.meta.url), { type: 'module' });

let scene: Scene | null = null;
let nowUs = 0;
let nextId = 1;
let inFlight: number | null = null;
let queued: RunParams | null = null;
let animation = 0;

const ms = (us: number) => (us / 1000).toFixed(1);

function setStatus(text: string): void {
  status.textContent = text;
}

function redraw(): void {
  drawScene(canvas, scene, nowUs);
}

function request(params: RunParams): void {
  if (inFlight !== null) {
    queued = params; // one request in flight; only the latest waiting one matters
    return;
  }
  const id = nextId++;
  inFlight = id;
  view.dataset.state = 'running';
  runButton.disabled = true;
  setStatus(`simulating ${params.nodes} nodes…`);
  const message: RunRequest = { kind: 'run', id, ...params };
  worker.postMessage(message);
}

function showResult(result: RunResult): void {
  const summary = summariseArrivals(result.arrivalUs);
  scene = makeScene(result, summary.maxUs);
  Object.assign(view.dataset, {
    state: 'done',
    digest: result.digest,
    events: String(result.events),
    seed: String(result.seed),
    nodes: String(result.nodes),
    degree: String(result.degree),
    origin: String(result.origin),
    reached: String(summary.reached),
    played: 'false',
  });
  facts.digest.textContent = result.digest;
  facts.events.textContent = result.events.toLocaleString('en-US');
  facts.reached.textContent = `${summary.reached} of ${result.nodes}`;
  facts.percentiles.textContent = `${ms(summary.p50Us)} / ${ms(summary.p95Us)} ms`;
  facts.timing.textContent = `${result.engineMs.toFixed(1)} ms run · ${result.layoutMs.toFixed(0)} ms layout · v${result.engineVersion}`;
  drawLegend(legend, summary.maxUs / 1000);
  setStatus(`seed ${result.seed} · ${result.nodes} nodes · degree ${result.degree} · origin node ${result.origin}`);
  play();
}

function showError(message: string): void {
  cancelAnimationFrame(animation);
  scene = null;
  view.dataset.state = 'error';
  setStatus(message);
  clock.textContent = '';
  replayButton.disabled = true;
  redraw();
}

function play(): void {
  cancelAnimationFrame(animation);
  if (!scene) return;
  const endUs = scene.maxUs;
  replayButton.disabled = true;
  view.dataset.played = 'false';
  const finish = () => {
    nowUs = Number.POSITIVE_INFINITY; // every arrival in the past: no fading halos left
    clock.textContent = `t = ${ms(endUs)} ms`;
    redraw();
    view.dataset.played = 'true';
    replayButton.disabled = false;
  };
  if (reduceMotion || endUs <= 0) return finish();
  const started = performance.now();
  const frame = (now: number) => {
    const progress = (now - started) / PLAYBACK_MS;
    if (progress >= 1) return finish();
    nowUs = progress * endUs;
    clock.textContent = `t = ${ms(nowUs)} ms`;
    redraw();
    animation = requestAnimationFrame(frame);
  };
  animation = requestAnimationFrame(frame);
}

worker.onmessage = (event: MessageEvent<WorkerReply>) => {
  const reply = event.data;
  if (reply.id !== inFlight) return;
  inFlight = null;
  runButton.disabled = false;
  if (queued) {
    const next = queued;
    queued = null;
    request(next);
    return;
  }
  if (reply.kind === 'result') showResult(reply);
  else showError(`the engine rejected this run: ${reply.message}`);
};

worker.onerror = (event) => {
  inFlight = null;
  runButton.disabled = false;
  showError(`the simulation worker failed: ${event.message || 'could not load the WASM core'}`);
};

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const parsed = parseParams({ seed: seedInput.value, nodes: nodesInput.value, degree: degreeInput.value });
  if (!parsed.ok) return showError(parsed.error);
  history.replaceState(null, '', paramsToSearch(parsed.params));
  request(parsed.params);
});

replayButton.addEventListener('click', play);
new ResizeObserver(redraw).observe(canvas);

const initial = paramsFromSearch(location.search);
const start = initial.ok ? initial.params : DEFAULTS;
seedInput.value = String(start.seed);
nodesInput.value = String(start.nodes);
degreeInput.value = String(start.degree);
drawLegend(legend, 0);
if (initial.ok) request(start);
else showError(initial.error);
