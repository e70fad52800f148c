// The report table: one row per run, the same numbers and digests as `txsim run`, drawn once
// every run has reported (and emptied when new runs start).
import type { AppStore } from '../app/state';
import { runColour } from '../canvas/palette';
import { COLUMNS, type RunReport } from './report';

export function mountReportTable(store: AppStore, table: HTMLTableElement): void {
  store.subscribe(
    (s) => s.reports,
    (reports) => {
      if (reports.every((r) => r === null)) table.replaceChildren();
      else if (reports.every((r) => r !== null)) renderReport(table, reports as RunReport[], store.get().panels.map((p) => p.index));
    },
  );
}

/** The table of `reports`, run `k` being the scenario's run `runs[k]`. */
function renderReport(table: HTMLTableElement, reports: RunReport[], runs: number[]): void {
  const head = document.createElement('tr');
  for (const c of COLUMNS) {
    const th = document.createElement('th');
    th.textContent = c.title;
    th.title = c.help;
    head.append(th);
  }
  const rows = reports.map((r, k) => {
    const tr = document.createElement('tr');
    tr.dataset.run = String(runs[k]);
    tr.dataset.label = r.label;
    tr.dataset.digest = r.digest;
    for (const c of COLUMNS) {
      const td = document.createElement('td');
      const value = c.value(r);
      td.textContent = c.format(value);
      td.dataset.key = c.key;
      if (c.key === 'digest') td.title = String(value);
      if (c.key === 'label') td.style.borderLeft = `4px solid ${runColour(runs[k])}`;
      tr.append(td);
    }
    return tr;
  });
  table.replaceChildren(head, ...rows);
}
