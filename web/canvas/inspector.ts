// The node inspector: what the engine's `inspect(node)` says about a node at the paused time.
import { count } from '../app/format';
import type { Subscribable } from '../app/store';

export interface Inspection {
  node: number;
  behaviour: string;
  peers: number;
  state: [string, string][];
  stats: Record<string, number>;
  counters: Record<string, number>;
}

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

export function showInspection(container: HTMLElement, runLabel: string, tUs: number, json: string): void {
  const data = JSON.parse(json) as Inspection;
  const title = document.createElement('h2');
  title.textContent = `node ${data.node} in ${runLabel} at ${(tUs / 1000).toFixed(1)} ms`;
  container.dataset.node = String(data.node);
  container.replaceChildren(
    title,
    table('node', [
      ['behaviour', data.behaviour],
      ['peers', data.peers],
    ]),
    table('protocol state', data.state),
    table('traffic so far', Object.entries(data.stats)),
    table('counters', Object.entries(data.counters)),
  );
}

export function showInspectionMessage(container: HTMLElement, message: string): void {
  const p = document.createElement('p');
  p.textContent = message;
  container.replaceChildren(p);
}

/** What the inspector shows: a line of text, or the engine's answer about a node (`Inspection` JSON). */
export type InspectorContent = { kind: 'message'; text: string } | { kind: 'node'; label: string; tUs: number; json: string };

/** The inspector shows what the store's `inspection` holds: a message, or a node's state. */
export function mountInspector(store: Subscribable<{ inspection: InspectorContent | null }>, container: HTMLElement): void {
  store.subscribe(
    (s) => s.inspection,
    (inspection) => {
      if (!inspection) return;
      if (inspection.kind === 'message') {
        showInspectionMessage(container, inspection.text);
        delete container.dataset.node;
      } else showInspection(container, inspection.label, inspection.tUs, inspection.json);
    },
  );
}
