// The Learn page (/learn/): the lesson list, and a lesson played one engine event at a time:
// the network with its messages in flight, the narration, the lesson's stops, its questions and
// its experiment. Lessons are the files under ./lessons/; the engine runs in a worker.
import type { LessonReply, LessonRecord, LessonRequest } from '../../workers/lesson';
import { allLessons, changed, direction, measure, type Direction, type Lesson } from './lessons';
import { narrate, type Line } from './narrate';
import { drawStage, holdTimes, CLASS_COLOURS } from './stage';
import { labeller, readSteps, type Step } from './steps';
import { stopSteps } from './stops';
import { showPeeling } from '../peel/view';
import { drawnOn } from '../canvas/drawn';
import { describeSend } from '../canvas/message-tip';
import { keyBelongsTo } from '../app/dom';

const lessons = allLessons(import.meta.glob<unknown>('./lessons/*.json', { import: 'default', eager: true }));
const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const root = $('learn');

// ---- the engine, in a worker --------------------------------------------------------------
const worker = new Worker(new URL('../../workers/lesson.worker.ts', import.meta.url), { type: 'module' });
let nextId = 1;
const waiting = new Map<number, (reply: LessonReply) => void>();
worker.onmessage = (event: MessageEvent<LessonReply>) => {
  waiting.get(event.data.id)?.(event.data);
  waiting.delete(event.data.id);
};
function ask(kind: LessonRequest['kind'], scenario: unknown, node?: number): Promise<LessonReply> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({ id, kind, scenario: JSON.stringify(scenario), layoutSeed: 7n, node } satisfies LessonRequest);
  });
}

// ---- the lesson list ------------------------------------------------------------------------
const list = $('lesson-list');
const ol = document.createElement('ol');
for (const l of lessons) {
  const li = document.createElement('li');
  const a = document.createElement('a');
  a.href = `#${l.id}`;
  a.textContent = l.title;
  li.append(a);
  ol.append(li);
}
list.append(ol);

// ---- a lesson being played --------------------------------------------------------------------
interface Playing {
  lesson: Lesson;
  record: LessonRecord;
  steps: Step[];
  lines: Line[];
  holds: Float64Array;
  label: (kind: string) => string;
  /** The step shown; -1 before the first. */
  at: number;
  playing: boolean;
  /** The lesson's stops already paused at while playing (each pauses once). */
  stopped: Set<number>;
  /** The step each stop is at (-1: none): the first that matches it, after the stop before. */
  stopSteps: number[];
}
let current: Playing | null = null;
const canvas = $<HTMLCanvasElement>('stage');
const narration = $('narration');
const status = $('stage-status');
const look = $('look');
const playButton = $('play');

function draw(): void {
  const p = current;
  if (!p) return;
  const step = p.at >= 0 ? p.steps[p.at] : null;
  const stats = drawStage(canvas, { record: p.record, label: p.label, step, holds: p.holds, tx: p.lesson.tx });
  canvas.dataset.arrows = String(stats.arrows);
  const when = step ? ` · ${(step.tUs / 1000).toFixed(1)} ms` : '';
  status.textContent = `event ${p.at + 1} of ${p.steps.length}${when} · ${stats.inFlight} ${stats.inFlight === 1 ? 'message' : 'messages'} in flight`;
  $('lesson').dataset.step = String(p.at);
  $('lesson').dataset.steps = String(p.steps.length);
  root.dataset.state = p.at === p.steps.length - 1 ? 'end' : 'ready';
}

/** Shows step `i`: the narration grows or shrinks to it, the stop it meets (if any) is told. */
function go(i: number): void {
  const p = current;
  if (!p) return;
  p.at = Math.max(-1, Math.min(p.steps.length - 1, i));
  showTip(-1);
  while (narration.children.length > p.at + 1) narration.lastElementChild!.remove();
  for (let k = narration.children.length; k <= p.at; k += 1) {
    const line = p.lines[k];
    const li = document.createElement('li');
    li.textContent = line.text;
    Object.assign(li.dataset, { index: String(k), kind: line.kind, from: String(line.from), to: String(line.to) });
    narration.append(li);
  }
  narration.querySelector('.now')?.classList.remove('now');
  const last = narration.lastElementChild as HTMLElement | null;
  last?.classList.add('now');
  // Lines come and go at the end: keep the end in view, inside the list only (the page stays put).
  narration.scrollTop = narration.scrollHeight;
  // A stop's words describe the step it stops at, not every later one of its kind.
  const stop = p.at >= 0 ? p.stopSteps.indexOf(p.at) : -1;
  look.hidden = stop < 0;
  look.textContent = stop >= 0 ? `Look: ${p.lesson.steps[stop].look}` : '';
  if (stop >= 0 && p.playing && !p.stopped.has(stop)) {
    p.stopped.add(stop);
    setPlaying(false);
  }
  if (p.at === p.steps.length - 1) setPlaying(false);
  draw();
}

let lastTick = 0;
let owed = 0;
function tick(now: number): void {
  const p = current;
  if (!p?.playing) return;
  const perSecond = Number(($('speed') as HTMLSelectElement).value);
  owed += lastTick ? ((now - lastTick) / 1000) * perSecond : 1;
  lastTick = now;
  while (owed >= 1 && p.playing) {
    owed -= 1;
    go(p.at + 1);
  }
  if (p.playing) requestAnimationFrame(tick);
}

function setPlaying(on: boolean): void {
  const p = current;
  if (!p) return;
  p.playing = on && p.at < p.steps.length - 1;
  playButton.textContent = p.playing ? '‖ pause' : '▶ play';
  playButton.setAttribute('aria-pressed', String(p.playing));
  if (p.playing) {
    lastTick = 0;
    owed = 0;
    requestAnimationFrame(tick);
  }
}

$('restart').addEventListener('click', () => go(-1));
$('back').addEventListener('click', () => go((current?.at ?? 0) - 1));
$('next').addEventListener('click', () => go((current?.at ?? -2) + 1));
playButton.addEventListener('click', () => setPlaying(!current?.playing));
document.addEventListener('keydown', (event) => {
  // A focused control keeps its keys, the peeling view its own; the arrows step from anywhere else.
  if (!current || keyBelongsTo(event.target, event.key) || (event.target as HTMLElement).closest('.peeling')) return;
  const keys: Record<string, () => void> = {
    ArrowRight: () => go(current!.at + 1),
    ArrowLeft: () => go(current!.at - 1),
    ' ': () => setPlaying(!current!.playing),
    Home: () => go(-1),
    End: () => go(current!.steps.length - 1),
  };
  const act = keys[event.key];
  if (!act) return;
  event.preventDefault();
  act();
});
new ResizeObserver(draw).observe(canvas);

// A message in flight, named where the pointer (or `[` and `]` on the focused network) picks it.
const tip = $('stage-tip');
let picked = -1;
function showTip(i: number): void {
  const m = current ? drawnOn(canvas).at(i) : null;
  if (!m || !current) {
    tip.hidden = true;
    return;
  }
  const notes = current.record.messages;
  tip.textContent = describeSend(current.record, (kind) => notes.find((n) => n.kind === kind), m.data, m.offset);
  tip.style.left = `${canvas.offsetLeft + Math.min(Math.max(0, m.x + 10), Math.max(0, canvas.clientWidth - 220))}px`;
  tip.style.top = `${canvas.offsetTop + m.y + 12}px`;
  tip.hidden = false;
}
canvas.addEventListener('pointermove', (event) => {
  const rect = canvas.getBoundingClientRect();
  picked = -1;
  showTip(drawnOn(canvas).nearest(event.clientX - rect.left, event.clientY - rect.top));
});
canvas.addEventListener('pointerleave', () => showTip(-1));
canvas.addEventListener('keydown', (event) => {
  const n = drawnOn(canvas).count;
  if ((event.key !== ']' && event.key !== '[') || !n) return;
  event.preventDefault();
  picked = event.key === ']' ? (picked + 1) % n : (picked - 1 + n) % n;
  showTip(picked);
});

function showLegend(record: LessonRecord): void {
  const ul = $('legend');
  const used = new Set(record.kinds);
  ul.replaceChildren(
    ...record.messages
      .filter((m) => used.has(m.kind))
      .map((m) => {
        const li = document.createElement('li');
        const swatch = document.createElement('span');
        swatch.className = 'kind-swatch';
        swatch.style.background = CLASS_COLOURS[record.kindClasses[record.kinds.indexOf(m.kind)]];
        const b = document.createElement('strong');
        b.textContent = m.label;
        li.append(swatch, b, ` ${m.about}`);
        return li;
      }),
  );
}

function showQuestions(lesson: Lesson): void {
  const box = $('questions');
  box.replaceChildren(
    ...lesson.questions.map((q, n) => {
      const fieldset = document.createElement('fieldset');
      const legend = document.createElement('legend');
      legend.textContent = q.ask;
      fieldset.append(legend);
      const answer = document.createElement('p');
      answer.setAttribute('role', 'status');
      q.choices.forEach((choice, c) => {
        const label = document.createElement('label');
        const input = document.createElement('input');
        input.type = 'radio';
        input.name = `q${n}`;
        input.value = String(c);
        input.addEventListener('change', () => {
          answer.textContent = `${c === q.answer ? 'Right.' : `Not quite: ${q.choices[q.answer]}.`} ${q.why}`;
          answer.className = c === q.answer ? 'right' : 'wrong';
        });
        label.append(input, ` ${choice}`);
        fieldset.append(label);
      });
      fieldset.append(answer);
      return fieldset;
    }),
  );
}

// ---- the experiment ---------------------------------------------------------------------------
/** How the lesson's answers say up and down. */
const upDown = (lesson: Lesson): [string, string] => lesson.experiment.words ?? ['more', 'fewer'];

function showExperiment(lesson: Lesson): void {
  const { change, predict } = lesson.experiment;
  $('predict-question').textContent = predict;
  const [up, down] = upDown(lesson);
  $('word-more').textContent = up;
  $('word-fewer').textContent = down;
  const label = $('change-label');
  label.querySelector('span')!.textContent = change.label;
  let input: HTMLInputElement | HTMLSelectElement;
  if (typeof change.to === 'boolean' || change.options) {
    input = document.createElement('select');
    for (const o of change.options ?? ['true', 'false']) input.append(new Option(o, o));
  } else {
    input = document.createElement('input');
    input.type = typeof change.to === 'number' ? 'number' : 'text';
    if (typeof change.to === 'number') input.step = 'any';
  }
  input.id = 'change-value';
  input.value = String(change.to);
  label.querySelector('#change-value')!.replaceWith(input);
  $('comparison').hidden = true;
  $('experiment-status').textContent = '';
  // A prediction is the student's own, for this lesson.
  document.querySelectorAll<HTMLInputElement>('input[name="prediction"]').forEach((radio) => (radio.checked = false));
}

$('experiment').addEventListener('submit', (event) => {
  event.preventDefault();
  const p = current;
  if (!p) return;
  void runExperiment(p);
});

async function runExperiment(p: Playing): Promise<void> {
  const { change, compare } = p.lesson.experiment;
  const field = $<HTMLInputElement>('change-value');
  const raw = field.value;
  const value = typeof change.to === 'number' ? Number(raw) : typeof change.to === 'boolean' ? raw === 'true' : raw;
  const out = $('experiment-status');
  if (typeof value === 'number' && !Number.isFinite(value)) {
    out.textContent = `${change.label}: enter a number`;
    return;
  }
  const picked = (document.querySelector('input[name="prediction"]:checked') as HTMLInputElement | null)?.value;
  out.textContent = 'running the changed network in the engine…';
  const reply = await ask('report', changed(p.lesson.scenario, change, value));
  if (current !== p) return;
  if (reply.kind !== 'report') {
    out.textContent = `the engine refused the change: ${reply.kind === 'error' ? reply.message : 'no report'}`;
    return;
  }
  const before = JSON.parse(p.record.report);
  const after = JSON.parse(reply.report);
  const table = $<HTMLTableElement>('comparison');
  const head = document.createElement('thead');
  table.replaceChildren(head);
  const hr = head.insertRow();
  for (const h of ['', 'the lesson', `${change.label} = ${raw}`, 'change']) hr.append(Object.assign(document.createElement('th'), { textContent: h }));
  const body = table.createTBody();
  // Counts read as counts; shares and means with two decimals.
  const fmt = (x: number) => (Number.isFinite(x) ? (Number.isInteger(x) || Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2)) : '-');
  const [up, down] = upDown(p.lesson);
  const say = (d: Direction) => (d === 'same' ? 'about the same' : d === 'more' ? up : down);
  let first: Direction = 'same';
  compare.forEach((m, i) => {
    const [a, b] = [measure(before, m), measure(after, m)];
    const d = direction(a, b);
    if (i === 0) first = d;
    const row = body.insertRow();
    row.dataset.measure = m.label;
    for (const c of [m.label, fmt(a), fmt(b), say(d)]) row.insertCell().textContent = c;
  });
  table.hidden = false;
  const said = picked ? `You predicted ${say(picked as Direction)}; ` : '';
  out.textContent = `${said}${compare[0].label}: ${say(first)} with the change.${picked ? (picked === first ? ' Your prediction held.' : ' Not what you predicted: step through the lesson again to see why.') : ''}`;
}

// ---- a Strokkur lesson's decoder, peeling ------------------------------------------------------
function showPeelPicker(record: LessonRecord): void {
  const section = $('peel-section');
  section.hidden = record.protocol !== 'strokkur';
  $('peeling').replaceChildren();
  const select = $<HTMLSelectElement>('peel-node');
  select.replaceChildren(...Array.from({ length: record.nodes }, (_, i) => new Option(`node ${i}`, String(i))));
  select.value = String(Math.min(2, record.nodes - 1));
}

$('peel-pick').addEventListener('submit', (event) => {
  event.preventDefault();
  const p = current;
  if (!p) return;
  const node = Number($<HTMLSelectElement>('peel-node').value);
  const box = $('peeling');
  box.textContent = `running the lesson again, watching node ${node}'s decoder…`;
  void ask('peel', p.lesson.scenario, node).then((reply) => {
    if (current !== p) return;
    if (reply.kind === 'peel') showPeeling(box, node, reply.peeling);
    else box.textContent = `could not watch node ${node}: ${reply.kind === 'error' ? reply.message : ''}`;
  });
});

// ---- opening a lesson -------------------------------------------------------------------------
async function open(id: string): Promise<void> {
  const lesson = lessons.find((l) => l.id === id);
  $('lesson').hidden = !lesson;
  list.hidden = !!lesson;
  if (!lesson) {
    current = null;
    root.dataset.state = 'list';
    return;
  }
  current = null;
  root.dataset.state = 'loading';
  const next = lessons[lessons.indexOf(lesson) + 1];
  const nextLink = $<HTMLAnchorElement>('next-lesson');
  nextLink.hidden = !next;
  if (next) Object.assign(nextLink, { href: `#${next.id}`, textContent: `next: ${next.title} →` });
  $('lesson-title').textContent = lesson.title;
  $('lesson-idea').textContent = lesson.idea;
  narration.replaceChildren();
  status.textContent = "running the lesson's network in the engine…";
  showQuestions(lesson);
  showExperiment(lesson);
  const reply = await ask('record', lesson.scenario);
  if (location.hash.slice(1) !== id) return;
  if (reply.kind !== 'record') {
    status.textContent = `the engine could not run this lesson: ${reply.kind === 'error' ? reply.message : ''}`;
    root.dataset.state = 'error';
    return;
  }
  const record = reply.record;
  const steps = readSteps(record);
  current = { lesson, record, steps, lines: steps.map(narrate), holds: holdTimes(steps, record.nodes, lesson.tx), label: labeller(record), at: -1, playing: false, stopped: new Set(), stopSteps: stopSteps(steps, lesson.steps) };
  root.dataset.lesson = id;
  showLegend(record);
  showPeelPicker(record);
  go(-1);
  canvas.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => void open(location.hash.slice(1)));
void open(location.hash.slice(1));
