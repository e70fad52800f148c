// The export buttons: the report as JSON and CSV, the trace as CSV, the scenario, and each
// chart as SVG or PNG. Files are named after the scenario picked.
import { element } from '../app/dom';
import type { AppStore } from '../app/state';
import { download, svgDocument, svgToPng, traceCsv } from './export';
import { reportCsv, type RunReport } from './report';

/** `duplicatesOf(k)`: every duplicate copy run `k` landed (its worker keeps them). */
export function mountExports(store: AppStore, duplicatesOf: (k: number) => Promise<Float64Array>): void {
  const baseName = () => {
    const id = store.get().scenarioId;
    return id === 'custom' ? 'scenario' : id;
  };
  const doneReports = () => store.get().reports.filter((r): r is RunReport => r !== null);
  element<HTMLButtonElement>('export-json').addEventListener('click', () => {
    const text = store.get().scenarioText;
    let scenario: unknown = text;
    try {
      scenario = JSON.parse(text);
    } catch {
      // keep the text
    }
    download(`${baseName()}.report.json`, new Blob([JSON.stringify({ scenario, runs: doneReports() }, null, 2)], { type: 'application/json' }));
  });
  element<HTMLButtonElement>('export-csv').addEventListener('click', () => download(`${baseName()}.report.csv`, new Blob([reportCsv(doneReports())], { type: 'text/csv' })));
  element<HTMLButtonElement>('export-trace').addEventListener('click', () => {
    const file = `${baseName()}.trace.csv`;
    const shown = store.get().panels.filter((p) => p.trace);
    Promise.all(shown.map(async (p) => ({ label: p.label, deliveries: p.trace!.deliveries, duplicates: await duplicatesOf(p.index) })))
      .then((runs) => download(file, new Blob([traceCsv(runs)], { type: 'text/csv' })))
      .catch((error: unknown) => store.update({ error: `could not export the trace: ${error instanceof Error ? error.message : String(error)}` }));
  });
  element<HTMLButtonElement>('export-scenario').addEventListener('click', () => download(`${baseName()}.json`, new Blob([store.get().scenarioText], { type: 'application/json' })));
  for (const figure of document.querySelectorAll<HTMLElement>('figure[data-chart]')) {
    const svg = figure.querySelector('svg')!;
    // Named after the scenario shown when the button is pressed.
    const name = () => `${baseName()}.${figure.dataset.chart}`;
    figure.querySelector('[data-format="svg"]')!.addEventListener('click', () => download(`${name()}.svg`, new Blob([svgDocument(svg)], { type: 'image/svg+xml' })));
    figure.querySelector('[data-format="png"]')!.addEventListener('click', () => {
      const file = `${name()}.png`;
      svgToPng(svg)
        .then((png) => download(file, png))
        .catch((error: unknown) => store.update({ error: `could not make the PNG: ${error instanceof Error ? error.message : String(error)}` }));
    });
  }
}
