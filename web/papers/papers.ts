// The papers page (/papers/): docs/results.json, its SVG figures and raw reports, bundled at build
// time, shown study by study with links that open each scenario file in the visualizer.
import { readResults, ResultsError } from './results';
import { renderError, renderPage } from './render';
import { anchorFor, keyedAfter, pageView, type ScenarioFacts } from './view';

// Globs rather than plain imports: a checkout without docs/results.json still builds, and says so.
const resultsGlob = import.meta.glob<unknown>('../../docs/results.json', { import: 'default', eager: true });
const figures = import.meta.glob<string>('../../docs/figures/*.svg', { query: '?url', import: 'default', eager: true });
const reports = import.meta.glob<string>('../../docs/reports/*.json', { query: '?url', import: 'default', eager: true });
// The same files as the visualizer's library (web/scenario/scenarios.ts); only these fields are bundled here.
// (Vite reads glob patterns as literals, so each call spells them out.)
const names = import.meta.glob<unknown>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { import: 'name', eager: true });
const nodes = import.meta.glob<unknown>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { import: 'nodes', eager: true });
const protocols = import.meta.glob<unknown>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { import: 'protocols', eager: true });

function facts(path: string): ScenarioFacts {
  const runs = Array.isArray(protocols[path]) ? (protocols[path] as { label?: unknown; protocol?: unknown }[]) : [];
  const name = names[path];
  const n = nodes[path];
  return {
    name: typeof name === 'string' ? name : path.replace(/^.*\//, ''),
    nodes: typeof n === 'number' ? n : null,
    runs: runs.map((r, i) => String(r?.label ?? r?.protocol ?? `run ${i}`)),
  };
}

const root = document.getElementById('papers');
if (root) {
  const raw = Object.values(resultsGlob)[0];
  if (raw === undefined) {
    root.replaceChildren(...renderError(document, 'No results yet: docs/results.json is missing. Run npm run reproduce, then build the page again.'));
  } else {
    try {
      const scenarios = keyedAfter(Object.fromEntries(Object.keys(names).map((p) => [p, facts(p)])), 'scenarios/');
      const page = pageView(readResults(raw), { figures: keyedAfter(figures, 'docs/'), reports: keyedAfter(reports, 'docs/'), scenarios });
      root.replaceChildren(...renderPage(document, page));
      // The sections exist only now: follow the link the page was opened with, #study-<id> or the
      // bare study id that docs/results.md's own contents use (ids need no decoding).
      const wanted = location.hash.slice(1);
      if (wanted) (document.getElementById(wanted) ?? document.getElementById(anchorFor(wanted)))?.scrollIntoView();
    } catch (error) {
      const message = error instanceof ResultsError ? `docs/results.json is not in the shape this page reads: ${error.message}` : String(error);
      root.replaceChildren(...renderError(document, message));
    }
  }
  root.dataset.state = 'ready';
}
