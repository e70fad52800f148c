// The runs' phases, for scenarios with timed events: one row per phase (cut at each event), one
// column per run with the delivery and latency of the txs created in it and, after a heal or a
// join, how long the network took to spread txs as it did before (as `txsim run` prints them).
import type { AppStore } from '../app/state';
import { runColour } from '../canvas/palette';
import type { Phase, RunReport } from './report';

export function mountPhasesTable(store: AppStore, table: HTMLTableElement): void {
  store.subscribe(
    (s) => s.reports,
    (reports) => {
      const done = reports.every((r) => r !== null) ? (reports as RunReport[]) : [];
      const runs = store.get().panels.map((p) => p.index);
      renderPhases(table, done.filter((r) => r.phases?.length), runs);
    },
  );
}

const fixed = (v: number | null | undefined, digits = 0) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–');

/** One run's figures for a phase, in words. */
export function phaseCell(p: Phase): string {
  const delivery = typeof p.delivery === 'number' ? `${(100 * p.delivery).toFixed(1)}%` : '–';
  const recovery = p.recovery_ms === undefined ? '' : p.recovery_ms === null ? ' · not recovered' : ` · recovered in ${fixed(p.recovery_ms)} ms`;
  return `${delivery} · p50 ${fixed(p.latency_ms.p50)} ms${recovery}`;
}

function renderPhases(table: HTMLTableElement, reports: RunReport[], runs: number[]): void {
  table.hidden = reports.length === 0;
  if (!reports.length) return table.replaceChildren();
  const caption = document.createElement('caption');
  caption.textContent = 'Phases: the txs created between two timed events (delivery by the end of the run, median latency; after a heal or a join, the time until txs spread as before).';
  const head = document.createElement('tr');
  for (const title of ['after', 'from – to ms', 'txs', ...reports.map((r) => r.label)]) {
    const th = document.createElement('th');
    th.textContent = title;
    head.append(th);
  }
  const rows = reports[0].phases!.map((phase, i) => {
    const tr = document.createElement('tr');
    tr.dataset.after = phase.after;
    const cells = [phase.after.replace(/_/g, ' '), `${fixed(phase.from_ms)} – ${fixed(phase.to_ms)}`, String(phase.txs)];
    for (const text of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    reports.forEach((r, k) => {
      const td = document.createElement('td');
      const p = r.phases?.[i];
      td.textContent = p ? phaseCell(p) : '–';
      td.dataset.run = String(runs[k]);
      if (p && typeof p.delivery === 'number') td.dataset.delivery = String(p.delivery);
      if (p?.recovery_ms !== undefined) td.dataset.recoveryMs = String(p.recovery_ms);
      td.style.borderLeft = `4px solid ${runColour(runs[k])}`;
      tr.append(td);
    });
    return tr;
  });
  table.replaceChildren(caption, head, ...rows);
}
