// The runs' panels side by side, and the view picker (force-directed, circular, world map):
// each panel is drawn by the frame loop (frames.ts); this view places them and applies the
// layout and the selected node to every one.
import type { AppStore } from '../app/state';
import { shallowEqual } from '../app/store';
import type { LayoutKind } from './layouts';
import { peerGroups } from './groups';

export function mountPanels(store: AppStore, container: HTMLElement, redraw: () => void): void {
  store.subscribe(
    (s) => s.panels,
    (panels) => {
      container.replaceChildren(...panels.map((p) => p.element));
      container.dataset.count = String(panels.length);
    },
  );
  store.subscribe(
    (s) => s.inspected?.node ?? -1,
    (node) => {
      for (const p of store.get().panels) p.selected = node;
    },
  );
  // The inspected node's mesh (and other groups) are drawn in its run's panel.
  store.subscribe(
    (s) => [s.inspection, s.panels] as const,
    ([inspection, panels]) => {
      for (const p of panels) p.highlight = inspection?.kind === 'node' && inspection.label === p.label ? { node: inspection.inspection.node, groups: peerGroups(inspection.inspection) } : null;
      redraw();
    },
    { equals: shallowEqual },
  );
  store.subscribe(
    (s) => [s.selection, s.panels] as const,
    ([selection, panels]) => {
      for (const p of panels) p.selection = selection;
    },
    { equals: shallowEqual },
  );
  // A view picked, or a run's network arrived: every run shares the view.
  store.subscribe(
    (s) => [s.layout, s.started] as const,
    ([layout]) => {
      for (const p of store.get().panels) p.setLayout(layout, redraw);
      redraw();
    },
    { equals: shallowEqual },
  );
  new ResizeObserver(redraw).observe(container);
}

export function mountLayoutPicker(store: AppStore, select: HTMLSelectElement): void {
  const mapOption = select.querySelector<HTMLOptionElement>('option[value="map"]')!;
  store.subscribe(
    (s) => [s.layout, s.mapOffered] as const,
    ([layout, mapOffered]) => {
      mapOption.disabled = !mapOffered;
      select.value = layout;
    },
    { equals: shallowEqual },
  );
  select.addEventListener('change', () => store.update({ layout: select.value as LayoutKind, layoutChosen: true }));
}
