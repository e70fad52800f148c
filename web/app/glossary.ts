// Short explanations shown in the page: one per protocol (from the core's registry) and per
// metric of the report.
import { COLUMNS } from '../report/report';
import { compiledEngine } from '../sim/runner';

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

/** The protocols as the core's registry describes them, from the engine the workers run. */
async function protocolNotes(): Promise<[string, string][]> {
  const module = await compiledEngine();
  const wasm = await import('../wasm/txcast_wasm.js');
  wasm.initSync({ module });
  return wasm.protocols().map((p) => {
    const note: [string, string] = [p.name, p.about];
    p.free();
    return note;
  });
}

export function fillGlossary(protocols: HTMLElement, metrics: HTMLElement): void {
  fill(
    metrics,
    COLUMNS.map((c) => [c.title, c.help]),
  );
  protocolNotes().then(
    (notes) => fill(protocols, notes),
    () => fill(protocols, [['', 'The protocol list needs the WASM core, which did not load here.']]),
  );
}
