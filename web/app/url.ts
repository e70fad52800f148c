// What the page's URL asks for: ?scenario=ID&seed=N&tx=N&t=MS, or a shared scenario in the
// fragment (#s=...). Read as the page opens; a new fragment, or Back and Forward to another
// scenario, opens that one.
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

  /** The fragment whose scenario was opened last: popstate and hashchange both report a new one. */
  let sharedShown = '';
  /** Opens a shared scenario from the fragment; false when there is none to open. */
  const openShared = async (): Promise<boolean> => {
    sharedShown = location.hash;
    const shared = await readFragment(location.hash);
    if (!shared) return false;
    if (!shared.ok) {
      store.update({ error: `could not open the shared scenario: ${shared.error}` });
      return false;
    }
    bar.openCustom(shared.scenario, 'a shared scenario', shared.seed);
    return true;
  };

  // A new fragment, or Back and Forward (each scenario picked from the menu is an entry):
  // open what the URL names now, unless it is what is open.
  const follow = () => {
    const { scenarioId } = store.get();
    if (location.hash) {
      if (location.hash !== sharedShown || scenarioId !== 'custom') void openShared();
      return;
    }
    const query = new URLSearchParams(location.search);
    const entry = findScenario(query.get('scenario') ?? DEFAULT_SCENARIO);
    if (!entry || entry.id === scenarioId) return;
    store.update({ scenarioId: entry.id });
    void bar.openLibrary(entry, query.get('seed'));
  };
  window.addEventListener('hashchange', follow);
  window.addEventListener('popstate', follow);

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
