// From results.json and the files bundled with the page to what the papers page shows: which figure
// URL, which scenario links, and what to say next to a link that cannot do all the user expects.
import type { Results, Study } from './results';

/** The visualizer computes at most this many runs side by side (MAX_RUNS in web/app/state.ts). */
export const LIVE_RUNS = 4;
/** From this many nodes on, say that the browser needs a while to compute the scenario. */
export const LARGE_NODES = 1000;

/** What the page knows about one scenario file of the library, read at build time. */
export interface ScenarioFacts {
  name: string;
  nodes: number | null;
  /** Run labels, in file order. */
  runs: string[];
}

/** Files bundled with the page, each keyed by its path under docs/ or its name in scenarios/. */
export interface Assets {
  /** "figures/<id>.svg" -> URL of the bundled SVG. */
  figures: Record<string, string>;
  /** "reports/<id>.json" -> URL of the raw run reports. */
  reports: Record<string, string>;
  /** "<file>.json" -> facts, for every file the visualizer's library can open. */
  scenarios: Record<string, ScenarioFacts>;
}

export interface LiveLink {
  file: string;
  name: string;
  /** Where the visualizer opens this file, or null when it cannot. */
  href: string | null;
  /** Plain sentences shown beside the link: limits the user should know about before clicking. */
  notes: string[];
}

export interface StudyView {
  id: string;
  /** The element id of the study's section (also the table of contents' anchor). */
  anchor: string;
  title: string;
  source: string;
  head: string[];
  rows: string[][];
  /** URL of the figure, or null; `figureMissing` when results.json names a figure this build lacks. */
  figure: string | null;
  figureMissing: boolean;
  checks: { claim: string; holds: boolean }[];
  held: number;
  differences: string;
  changes: string[];
  report: string | null;
  live: LiveLink[];
}

export interface PageView {
  mode: string;
  took: string;
  quick: boolean;
  held: number;
  checked: number;
  studies: StudyView[];
}

/** Glob keys ("../../docs/figures/x.svg", "../../scenarios/x.json") to the path after `marker`. */
export function keyedAfter<T>(glob: Record<string, T>, marker: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [path, value] of Object.entries(glob)) {
    const at = path.lastIndexOf(marker);
    if (at >= 0) out[path.slice(at + marker.length)] = value;
  }
  return out;
}

/** Element ids from study ids: letters, digits, '-' and '_' kept, anything else replaced. */
export function anchorFor(id: string): string {
  return `study-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

const grouped = (n: number) => n.toLocaleString('en-US');

/** The link that opens a scenario file in the visualizer, with what to know before clicking. */
export function liveLink(file: string, study: Study, scenarios: Assets['scenarios']): LiveLink {
  const facts = Object.hasOwn(scenarios, file) ? scenarios[file] : undefined;
  if (!facts || !file.endsWith('.json')) {
    return {
      file,
      name: file,
      href: null,
      notes: [`${file} is not in this build's scenario library (scenarios/), so it cannot be opened live here.`],
    };
  }
  const notes: string[] = [];
  const id = file.slice(0, -'.json'.length);
  if (study.changes.some((c) => c.startsWith(`${file}:`))) {
    notes.push('Opens the file as it is in scenarios/; this report measured a changed copy (see "changes for this run"), so live numbers differ.');
  }
  if (facts.runs.length > LIVE_RUNS) {
    notes.push(`${facts.runs.length} runs: the visualizer computes ${LIVE_RUNS} side by side, the first ${LIVE_RUNS} ticked; tick others under "protocols to compare".`);
  }
  if (facts.nodes !== null && facts.nodes >= LARGE_NODES) {
    notes.push(`${grouped(facts.nodes)} nodes: the browser needs a while to compute this (a progress bar shows how far).`);
  }
  // Relative, so the page works wherever the site is served from.
  return { file, name: facts.name, href: `../?scenario=${encodeURIComponent(id)}`, notes };
}

export function studyView(study: Study, assets: Assets): StudyView {
  const figure = study.figure === null ? null : (assets.figures[study.figure] ?? null);
  return {
    id: study.id,
    anchor: anchorFor(study.id),
    title: study.title,
    source: study.source,
    head: study.head,
    rows: study.rows,
    figure,
    figureMissing: study.figure !== null && figure === null,
    checks: study.checks,
    held: study.checks.filter((c) => c.holds).length,
    differences: study.differences,
    changes: study.changes,
    report: assets.reports[`reports/${study.id}.json`] ?? null,
    live: study.scenarios.map((file) => liveLink(file, study, assets.scenarios)),
  };
}

export function pageView(results: Results, assets: Assets): PageView {
  const studies = results.studies.map((s) => studyView(s, assets));
  return {
    mode: results.mode,
    took: results.took,
    quick: results.mode === 'quick',
    held: studies.reduce((sum, s) => sum + s.held, 0),
    checked: studies.reduce((sum, s) => sum + s.checks.length, 0),
    studies,
  };
}
