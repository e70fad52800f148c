// What the page's URL asks for: ?scenario=ID&seed=N&tx=N&t=MS, or a shared scenario in the
// fragment (#s=...). Read once as the page opens; a new fragment opens its scenario.
import type { ScenarioBar } from '../scenario/bar';
import { DEFAULT_SCENARIO, findScenario, LIBRARY } from '../scenario/scenarios';
import { readFragment } from './share';
import type { AppStore } from './state';

export function openFromUrl(store: AppStore, bar: ScenarioBar): void {
  const query = new URLSearchParams(location.search);
  const pauseParam = query.get('t');
  if (pauseParam !== null && Number.isFinite(Number(pauseParam))) store.update({ pauseAtMs: Number(pauseParam) });
  const txParam = query.get('tx');
  // A tx picked in the URL is watched: only its messages.
  if (txParam !== null && /^\d+$/.test(txParam)) store.update({ follow: false, txOnly: true, pickedTx: Number(txParam) });

  /** Opens a shared scenario from the fragment; false when there is none to open. */
  const openShared = async (): Promise<boolean> => {
    const shared = await readFragment(location.hash);
    if (!shared) return false;
    if (!shared.ok) {
      store.update({ error: `could not open the shared scenario: ${shared.error}` });
      return false;
    }
    bar.openCustom(shared.scenario, 'a shared scenario', shared.seed);
    return true;
  };

  window.addEventListener('hashchange', () => void openShared());

  void openShared().then((opened) => {
    // Reading the fragment is asynchronous: a scenario the user opened meanwhile stays open.
    if (opened || store.get().scenarioId) return;
    const initial = findScenario(query.get('scenario') ?? DEFAULT_SCENARIO) ?? findScenario(DEFAULT_SCENARIO) ?? LIBRARY[0];
    const damaged = store.get().error;
    store.update({ scenarioId: initial.id });
    void bar.openLibrary(initial, query.get('seed')).then(() => {
      if (damaged) store.update({ error: damaged }); // a damaged share link: say so over the default scenario
    });
  });
}
