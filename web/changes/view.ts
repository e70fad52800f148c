// Changing the network while it runs: pick nodes (click, Shift-click or Shift-drag on a panel, or a
// click or drag with "clicks and drags add" ticked, a random share, a continent) and apply a change
// to them, or to the whole network, at the current simulated time in every run. The session adds
// it to the scenario's events and the runs go on from there (web/sim/session.ts).
import { element } from '../app/dom';
import type { AppState, AppStore } from '../app/state';
import { shallowEqual } from '../app/store';
import { nodesOn, picked, randomShare } from '../canvas/selection';
import type { LiveChange } from '../scenario/events';
import type { Session } from '../sim/session';

/** What each button does to the picked nodes (or, with none picked, what it needs). */
const NODE_CHANGES: Record<string, { change: (nodes: number[]) => LiveChange; words: string }> = {
  silent: { change: (nodes) => ({ kind: 'behaviour', nodes, behaviour: { kind: 'silent' } }), words: 'made silent' },
  withhold: { change: (nodes) => ({ kind: 'behaviour', nodes, behaviour: { kind: 'withhold_on_request' } }), words: 'made to withhold' },
  censor: { change: (nodes) => ({ kind: 'behaviour', nodes, behaviour: { kind: 'censor', fraction: 1 } }), words: 'made to censor every tx' },
  honest: { change: (nodes) => ({ kind: 'behaviour', nodes, behaviour: { kind: 'honest' } }), words: 'made honest' },
  leave: { change: (nodes) => ({ kind: 'leave', nodes }), words: 'taken down' },
  partition: { change: (nodes) => ({ kind: 'partition', nodes }), words: 'cut off' },
};

export function mountChanges(store: AppStore, session: Session): void {
  const box = element<HTMLElement>('changes');
  const summary = element<HTMLElement>('pick-summary');
  const share = element<HTMLInputElement>('pick-share');
  const region = element<HTMLSelectElement>('pick-region');
  const regionLabel = element<HTMLElement>('pick-region-label');
  const loss = element<HTMLInputElement>('change-loss');
  const load = element<HTMLInputElement>('change-load');
  const status = element<HTMLElement>('change-status');
  const buttons = Array.from(box.querySelectorAll<HTMLButtonElement>('button[data-change]'));

  const nodesNow = (s: AppState) => picked(s.selection);
  /** Each node's state where the clock is, in the first run (every run shares the events). */
  const statesNow = () => {
    const s = store.get();
    return s.panels[0]?.states?.at(s.clock.tUs) ?? null;
  };

  store.subscribe(
    (s) => [s.selection, s.panels, s.phase] as const,
    ([, panels], _, s) => {
      const ready = panels.length > 0 && panels.every((p) => p.trace) && s.phase !== 'error';
      const n = nodesNow(s).length;
      summary.textContent = n ? `${n} ${n === 1 ? 'node' : 'nodes'} picked` : 'no nodes picked';
      box.dataset.picked = String(n);
      for (const b of buttons) b.disabled = !ready || (b.dataset.change! in NODE_CHANGES && n === 0);
      // The continents of a geographic scenario's nodes, to pick a region by.
      const continents = [...new Set(panels[0]?.trace?.continents ?? [])].sort();
      regionLabel.hidden = continents.length === 0;
      const keep = region.value;
      region.replaceChildren(new Option('a continent…', ''), ...continents.map((c) => new Option(c.replace(/_/g, ' '), c)));
      region.value = continents.includes(keep) ? keep : '';
    },
    { equals: shallowEqual, immediate: true },
  );
  store.subscribe(
    (s) => s.change,
    ({ message, error }) => {
      status.textContent = message;
      status.classList.toggle('error', error);
    },
  );

  const nodes = () => store.get().panels[0]?.trace?.nodes ?? 0;
  element<HTMLButtonElement>('pick-clear').addEventListener('click', () => store.update({ selection: null }));
  const clicksAdd = element<HTMLInputElement>('pick-adds');
  clicksAdd.addEventListener('change', () => store.update({ clicksAdd: clicksAdd.checked }));
  store.subscribe(
    (s) => s.clicksAdd,
    (on) => element<HTMLElement>('panels').classList.toggle('drag-picks', on),
  );
  element<HTMLButtonElement>('pick-random').addEventListener('click', () => {
    const pct = Number(share.value);
    if (!(pct > 0 && pct <= 100)) return store.update({ change: { message: 'give a share between 1 and 100 %', error: true } });
    session.addPicked(randomShare(nodes(), pct / 100, Math.random), true);
  });
  region.addEventListener('change', () => {
    if (region.value) session.addPicked(nodesOn(store.get().panels[0]?.trace?.continents ?? [], region.value), true);
  });

  const apply = (change: LiveChange, words: string) => void session.applyChange(change, words);
  for (const button of buttons) {
    button.addEventListener('click', () => {
      const kind = button.dataset.change!;
      const chosen = nodesNow(store.get());
      const states = statesNow();
      const away = (v: number) => states?.away[v] === 1;
      const fail = (message: string) => store.update({ change: { message, error: true } });
      if (kind in NODE_CHANGES) {
        const { change, words } = NODE_CHANGES[kind];
        // Nodes already gone cannot leave again.
        const nodes = kind === 'leave' ? chosen.filter((v) => !away(v)) : chosen;
        if (!nodes.length) return fail('every picked node is away already');
        return apply(change(nodes), `${nodes.length} ${nodes.length === 1 ? 'node' : 'nodes'} ${words}`);
      }
      if (kind === 'join') {
        // The picked nodes that are away, or, with none picked, every node that left.
        const back = chosen.filter(away);
        if (chosen.length && !back.length) return fail('none of the picked nodes is away');
        if (!chosen.length && !states?.away.some((a) => a)) return fail('no node is away');
        return apply(back.length ? { kind: 'join', nodes: back } : { kind: 'join' }, back.length ? `${back.length} nodes brought back` : 'every node that left brought back');
      }
      if (kind === 'heal') {
        if (!states?.side.some((v) => v !== 0)) return fail('no partition to heal');
        return apply({ kind: 'heal' }, 'partitions healed');
      }
      if (kind === 'loss') {
        const p = Number(loss.value) / 100;
        if (!(p >= 0 && p <= 0.99)) return fail('loss is a share between 0 and 99 %');
        return apply({ kind: 'loss', loss: p }, `loss set to ${loss.value} %`);
      }
      if (kind === 'load') {
        const tps = Number(load.value);
        if (!(tps > 0)) return fail('load is a rate above 0 tx/s');
        return apply({ kind: 'load', total_tps: tps }, `load set to ${tps} tx/s`);
      }
    });
  }
}
