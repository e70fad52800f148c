// Inspecting a node by its number, for the keyboard (and for a node too small to click):
// which run, which node, and the same inspection a click gives.
import type { Subscribable } from '../app/store';
import type { Panel } from './panel';

export function mountInspectForm(store: Subscribable<{ panels: readonly Panel[]; started: number; inspected: { panel: number; node: number } | null }>, form: HTMLFormElement, inspect: (panel: Panel, node: number) => void): void {
  const run = form.querySelector<HTMLSelectElement>('#inspect-run')!;
  const node = form.querySelector<HTMLInputElement>('#inspect-node')!;
  store.subscribe(
    (s) => s.started,
    () => {
      const panels = store.get().panels;
      const keep = run.value;
      run.replaceChildren(...panels.map((p, k) => new Option(p.label, String(k))));
      if (panels.some((_, k) => String(k) === keep)) run.value = keep;
      node.max = String(Math.max(0, (panels[0]?.trace?.nodes ?? 1) - 1));
    },
  );
  // It names the node being inspected, however it was picked (a click or tap on a panel too).
  store.subscribe(
    (s) => s.inspected,
    (inspected) => {
      if (!inspected) return;
      run.value = String(inspected.panel);
      node.value = String(inspected.node);
    },
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const panel = store.get().panels[Number(run.value)];
    const n = Number(node.value);
    if (!panel?.trace || !Number.isInteger(n) || n < 0 || n >= panel.trace.nodes) {
      node.setCustomValidity(panel?.trace ? `a node from 0 to ${panel.trace.nodes - 1}` : 'run a scenario first');
      node.reportValidity();
      return;
    }
    node.setCustomValidity('');
    inspect(panel, n);
  });
}
