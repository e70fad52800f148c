// The node inspector: what the engine's `inspect(node)` says about a node at the paused time.
import { count } from '../app/format';
import type { Subscribable } from '../app/store';
import type { Inspection } from '../../workers/protocol';
import { GROUP_COLOURS, peerGroups } from './groups';
import type { PeelData } from '../peel/graph';
import { showPeeling } from '../peel/view';

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

/** The protocol's per-peer and per-tx tables (`Inspection`'s flat table fields), each titled. */
function detailTables(data: Inspection): HTMLElement[] {
  const out: HTMLElement[] = [];
  let [col, cell, row] = [0, 0, 0];
  data.table_titles.forEach((title, t) => {
    const columns = data.columns.slice(col, data.column_ends[t]);
    const cells = data.cells.slice(cell, data.cell_ends[t]);
    col = data.column_ends[t];
    cell = data.cell_ends[t];
    const section = document.createElement('section');
    section.className = 'detail';
    section.dataset.table = title;
    const h = document.createElement('h3');
    h.textContent = title;
    section.append(h);
    const rows = columns.length ? cells.length / columns.length : 0;
    if (!rows) {
      const p = document.createElement('p');
      p.textContent = 'none';
      section.append(p);
      out.push(section);
      return;
    }
    const wrap = document.createElement('div');
    wrap.className = 'table-scroll';
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const c of columns) head.append(Object.assign(document.createElement('th'), { textContent: c, scope: 'col' }));
    const body = table.createTBody();
    for (let r = 0; r < rows; r += 1, row += 1) {
      const tr = body.insertRow();
      const node = data.row_nodes[row];
      if (node >= 0) tr.dataset.node = String(node);
      cells.slice(r * columns.length, (r + 1) * columns.length).forEach((text, i) => {
        const td = i === 0 ? Object.assign(document.createElement('th'), { scope: 'row' }) : document.createElement('td');
        td.textContent = text;
        tr.append(td);
      });
    }
    wrap.append(table);
    section.append(wrap);
    out.push(section);
  });
  return out;
}

/** The groups drawn around the node (mesh, fanout), each in its canvas colour. */
function groupList(data: Inspection): HTMLElement | null {
  const groups = peerGroups(data);
  if (!groups.length) return null;
  const section = document.createElement('section');
  section.className = 'groups';
  const h = document.createElement('h3');
  h.textContent = 'drawn around it';
  const ul = document.createElement('ul');
  for (const g of groups) {
    const li = document.createElement('li');
    li.dataset.group = g.name;
    li.dataset.nodes = g.nodes.join(',');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = GROUP_COLOURS[g.name] ?? GROUP_COLOURS.other;
    li.append(swatch, ` ${g.name}: ${g.nodes.length ? g.nodes.map((n) => `node ${n}`).join(', ') : 'none'}`);
    ul.append(li);
  }
  section.append(h, ul);
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
    ...[groupList(data)].filter((g): g is HTMLElement => g !== null),
    ...detailTables(data),
    table('traffic so far', [
      ['delivered', data.delivered],
      ['duplicates', data.duplicates],
      ['bytes_up', data.bytes_up],
      ['bytes_down', data.bytes_down],
    ]),
    // Flooding counts nothing of its own: no empty heading then.
    ...(data.counter_names.length ? [table('counters', zip(data.counter_names, data.counter_values))] : []),
  );
}

export function showInspectionMessage(container: HTMLElement, message: string): void {
  const p = document.createElement('p');
  p.textContent = message;
  container.replaceChildren(p);
}

/**
 * What the inspector shows: a line of text, or the engine's answer about a node (and, when asked
 * for, its decoder's peeling: the view's data, or a line saying why there is none yet).
 */
export type InspectorContent = { kind: 'message'; text: string } | { kind: 'node'; label: string; protocol: string; tUs: number; inspection: Inspection; peeling?: PeelData | string };

/** A Strokkur node's decoder: a button that asks for its peeling, then the peeling view. */
function decoderSection(content: Extract<InspectorContent, { kind: 'node' }>, peel: () => void): HTMLElement {
  const section = document.createElement('section');
  section.className = 'decoder';
  const h = document.createElement('h3');
  h.textContent = 'decoder';
  section.append(h);
  if (content.peeling === undefined) {
    const button = Object.assign(document.createElement('button'), { type: 'button', id: 'peel-button', textContent: 'watch its decoder peel (replays the run to this time)' });
    button.addEventListener('click', peel);
    section.append(button);
  } else if (typeof content.peeling === 'string') {
    section.append(Object.assign(document.createElement('p'), { textContent: content.peeling === 'loading' ? 'replaying the run, watching the decoder…' : content.peeling }));
  } else {
    const box = document.createElement('div');
    box.id = 'inspector-peeling';
    section.append(box);
    showPeeling(box, content.inspection.node, content.peeling);
  }
  return section;
}

/**
 * The inspector shows what the store's `inspection` holds: a message, a node's state, or (null)
 * the placeholder the page opened with.
 */
export function mountInspector(store: Subscribable<{ inspected: unknown; inspection: InspectorContent | null }>, container: HTMLElement, actions: { peel(): void }): void {
  const placeholder = [...container.childNodes];
  store.subscribe(
    (s) => s.inspection,
    (inspection) => {
      if (!inspection) {
        container.replaceChildren(...placeholder);
        delete container.dataset.node;
        return;
      }
      if (inspection.kind === 'message') {
        showInspectionMessage(container, inspection.text);
        delete container.dataset.node;
        return;
      }
      showInspection(container, inspection.label, inspection.tUs, inspection.inspection);
      if (inspection.protocol === 'strokkur') container.insertBefore(decoderSection(inspection, actions.peel), container.children[2] ?? null);
    },
  );
  // A node just picked while the inspector is below the screen (a narrow one stacks it under the
  // panels): it comes into view with the form naming the node, so the tap is seen to do something.
  const column = container.closest<HTMLElement>('.inspector-column') ?? container;
  store.subscribe(
    (s) => s.inspected,
    (inspected) => {
      if (inspected && column.getBoundingClientRect().top >= window.innerHeight) column.scrollIntoView({ block: 'start' });
    },
  );
}
