// Short explanations shown in the page: one per protocol (from the core's registry) and per
// metric of the report.
import { COLUMNS } from '../report/report';
import { coreNotes } from './core';

function fill(list: HTMLElement, items: [string, string][]): void {
  list.replaceChildren(
    ...items.flatMap(([term, text]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = text;
      return [dt, dd];
    }),
  );
}

export function fillGlossary(protocols: HTMLElement, metrics: HTMLElement): void {
  fill(
    metrics,
    COLUMNS.map((c) => [c.title, c.help]),
  );
  coreNotes().then(
    (notes) => fill(protocols, notes.protocols.map((p) => [p.name, p.about])),
    () => fill(protocols, [['', 'The protocol list needs the WASM core, which did not load here.']]),
  );
}
