// Lessons are data: each file under web/learn/lessons/ holds a scenario (8 to 30 nodes), the
// stops to look at, questions and an experiment. Adding a lesson is adding a file; this module
// reads and checks them (the engine checks the scenario itself when it runs it).

/** Where the player pauses while playing: the first step handling or sending `kind`. */
export interface Stop {
  /** A message's spec label ("IHAVE") or a timer's kind ("WantTx timeout"). */
  kind: string;
  /** Only where the node knew this of the tx: "unknown", "announced", "requested", "verifying", "have". */
  knew?: string;
  look: string;
}

export interface Question {
  ask: string;
  choices: string[];
  answer: number;
  why: string;
}

/** A number the experiment compares, read from a run report. */
export interface Measure {
  label: string;
  path: (string | number)[];
  /** Added to the value at `path` (bytes down = payload + control). */
  plus?: (string | number)[];
}

export interface Experiment {
  change: {
    /** Where the setting is in the scenario. */
    path: (string | number)[];
    label: string;
    /** The value the experiment suggests (the user may pick another). */
    to: number | string | boolean;
    /** For a text setting: the values offered. */
    options?: string[];
    /** Settings changed along with it, beside it in the same object (a mesh degree's bounds). */
    also?: Record<string, number | string | boolean>;
  };
  predict: string;
  /** The answers' words for up and down where "more" and "fewer" do not fit the question ("higher", "lower"). */
  words?: [string, string];
  /** Which way the suggested change moves the first measure: what the lesson teaches (the tests run both). */
  shows: Direction;
  compare: Measure[];
}

export interface Lesson {
  id: string;
  title: string;
  order: number;
  idea: string;
  scenario: Record<string, unknown>;
  /** The tx whose spread colours the nodes. */
  tx: number;
  steps: Stop[];
  questions: Question[];
  experiment: Experiment;
}

export class LessonError extends Error {}

function need(ok: unknown, file: string, what: string): void {
  if (!ok) throw new LessonError(`${file}: ${what}`);
}

const KNEW = ['unknown', 'announced', 'requested', 'verifying', 'have'];

/** Checks one lesson file's fields; the id is the file's name without `.json`. */
export function parseLesson(file: string, raw: unknown): Lesson {
  const l = raw as Partial<Lesson>;
  need(l && typeof l === 'object', file, 'not an object');
  need(typeof l.title === 'string' && l.title, file, '`title` must be text');
  need(typeof l.idea === 'string' && l.idea, file, '`idea` must be text');
  need(typeof l.order === 'number', file, '`order` must be a number');
  need(l.scenario && typeof l.scenario === 'object', file, '`scenario` must be a scenario object');
  const nodes = (l.scenario as { nodes?: unknown }).nodes;
  need(typeof nodes === 'number' && nodes >= 8 && nodes <= 30, file, '`scenario.nodes` must be 8 to 30: a lesson is a small network');
  need(Array.isArray(l.steps), file, '`steps` must be a list of stops');
  for (const s of l.steps ?? []) need(typeof s.kind === 'string' && typeof s.look === 'string' && (s.knew === undefined || KNEW.includes(s.knew)), file, `a stop needs \`kind\` and \`look\` (and \`knew\` one of ${KNEW.join(', ')})`);
  need(Array.isArray(l.questions), file, '`questions` must be a list');
  for (const q of l.questions ?? []) need(typeof q.ask === 'string' && Array.isArray(q.choices) && Number.isInteger(q.answer) && q.answer >= 0 && q.answer < q.choices.length && typeof q.why === 'string', file, 'a question needs `ask`, `choices`, an `answer` among them and `why`');
  const e = l.experiment;
  need(e && Array.isArray(e.change?.path) && typeof e.change?.label === 'string' && e.change?.to !== undefined, file, '`experiment.change` needs `path`, `label` and `to`');
  need(typeof e?.predict === 'string' && Array.isArray(e?.compare) && e.compare.length > 0, file, '`experiment` needs `predict` and `compare`');
  need(e?.shows === 'more' || e?.shows === 'fewer' || e?.shows === 'same', file, '`experiment.shows` must be "more", "fewer" or "same": which way the suggested change moves the first measure');
  need(e?.words === undefined || (Array.isArray(e.words) && e.words.length === 2 && e.words.every((w) => typeof w === 'string' && w)), file, '`experiment.words` must be two words, for up and for down');
  return { id: file.replace(/^.*\//, '').replace(/\.json$/, ''), tx: 0, ...l } as Lesson;
}

/** Every lesson, in order, from the files bundled at build time. */
export function allLessons(files: Record<string, unknown>): Lesson[] {
  return Object.entries(files)
    .map(([file, raw]) => parseLesson(file, raw))
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

/** The scenario with the experiment's setting (and the settings that go with it) changed. */
export function changed(scenario: Record<string, unknown>, change: Experiment['change'], value: unknown): Record<string, unknown> {
  const copy = structuredClone(scenario);
  const path = change.path;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]] = value;
  for (const [k, v] of Object.entries(change.also ?? {})) at[k] = v;
  return copy;
}

/**
 * A number of a report at `path` (plus `plus`), NaN if the report has none there. A counter
 * that never moved is not in a report: it reads as 0.
 */
export function measure(report: unknown, m: Measure): number {
  const read = (path: (string | number)[]) => {
    const value = path.reduce<unknown>((at, k) => (at && typeof at === 'object' ? (at as Record<string | number, unknown>)[k] : undefined), report);
    return value === undefined && path[0] === 'counters' ? 0 : value;
  };
  const value = read(m.path);
  const extra = m.plus ? read(m.plus) : 0;
  return typeof value === 'number' && typeof extra === 'number' ? value + extra : typeof value === 'number' ? value : Number.NaN;
}

/** Which way a number moved. */
export type Direction = 'more' | 'fewer' | 'same';

/** Whether `after` is more, fewer or about the same as `before` (within 5%). */
export function direction(before: number, after: number): Direction {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return 'same';
  const scale = Math.max(Math.abs(before), Math.abs(after), 1e-9);
  if (Math.abs(after - before) / scale <= 0.05) return 'same';
  return after > before ? 'more' : 'fewer';
}
