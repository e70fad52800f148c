// The node inspector: what the engine's `inspect(node)` says about a node at the paused time.
import { count } from '../app/format';
import type { Subscribable } from '../app/store';
import type { Inspection } from '../../workers/protocol';

function table(title: string, rows: [string, string | number][]): HTMLElement {
  const section = document.createElement('section');
  const h = document.createElement('h3');
  h.textContent = title;
  const dl = document.createElement('dl');
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = typeof v === 'number' ? count(v) : v;
    dl.append(dt, dd);
  }
  section.append(h, dl);
  return section;
}

/** Pairs `names[i]` with `values[i]`. */
function zip<T>(names: string[], values: ArrayLike<T>): [string, T][] {
  return names.map((name, i) => [name, values[i]]);
}

export function showInspection(container: HTMLElement, runLabel: string, tUs: number, data: Inspection): void {
  const title = document.createElement('h2');
  title.textContent = `node ${data.node} in ${runLabel} at ${(tUs / 1000).toFixed(1)} ms`;
  container.dataset.node = String(data.node);
  container.replaceChildren(
    title,
    table('node', [
      ['behaviour', data.behaviour],
      ['peers', data.peers],
    ]),
    table('protocol state', zip(data.state_names, data.state_values)),
    table('traffic so far', [
      ['delivered', data.delivered],
      ['duplicates', data.duplicates],
      ['bytes_up', data.bytes_up],
      ['bytes_down', data.bytes_down],
    ]),
    table('counters', zip(data.counter_names, data.counter_values)),
  );
}

export function showInspectionMessage(container: HTMLElement, message: string): void {
  const p = document.createElement('p');
  p.textContent = message;
  container.replaceChildren(p);
}

/** What the inspector shows: a line of text, or the engine's answer about a node. */
export type InspectorContent = { kind: 'message'; text: string } | { kind: 'node'; label: string; tUs: number; inspection: Inspection };

/** The inspector shows what the store's `inspection` holds: a message, or a node's state. */
export function mountInspector(store: Subscribable<{ inspection: InspectorContent | null }>, container: HTMLElement): void {
  store.subscribe(
    (s) => s.inspection,
    (inspection) => {
      if (!inspection) return;
      if (inspection.kind === 'message') {
        showInspectionMessage(container, inspection.text);
        delete container.dataset.node;
      } else showInspection(container, inspection.label, inspection.tUs, inspection.inspection);
    },
  );
}
