// The scenario bar: the library, the seed, the protocols to compare (at most MAX_RUNS ticked),
// the editor (form and raw JSON) and the scenario's error line. Loading a scenario puts its text
// and what the page reads from it in the store; Run and the shortcuts start the session.
import { element } from '../app/dom';
import { MAX_RUNS, type AppStore } from '../app/state';
import { ScenarioEditor } from './editor';
import { scenarioInfo } from './info';
import { findScenario, LIBRARY, type LibraryEntry } from './scenarios';

export class ScenarioBar {
  private readonly editor: ScenarioEditor;

  constructor(
    private readonly store: AppStore,
    private readonly run: () => void,
  ) {
    const select = element<HTMLSelectElement>('scenario');
    const seed = element<HTMLInputElement>('seed');
    const description = element<HTMLElement>('scenario-description');
    const runs = element<HTMLFieldSetElement>('runs');
    const editorBox = element<HTMLElement>('editor');
    const form = element<HTMLFormElement>('scenario-form');
    const editToggle = element<HTMLButtonElement>('edit-toggle');
    const error = element<HTMLElement>('scenario-error');
    // The engine's rejection of the last Run is about a text the user has since changed: the
    // editor's own check speaks for the new one.
    const edited = () => {
      if (store.get().engineFailure) store.update({ error: '', engineFailure: null });
    };
    this.editor = new ScenarioEditor(form, element<HTMLTextAreaElement>('scenario-json'), element<HTMLElement>('editor-status'), edited);
    form.addEventListener('submit', (event) => event.preventDefault());

    for (const entry of LIBRARY) {
      const option = document.createElement('option');
      option.value = entry.id;
      option.textContent = entry.name;
      option.title = entry.description;
      select.append(option);
    }
    const customOption = document.createElement('option');
    customOption.value = 'custom';
    customOption.textContent = '(edited scenario)';
    customOption.hidden = true;
    select.append(customOption);

    // ---- what the store holds ---------------------------------------------------------------

    store.subscribe(
      (s) => s.scenarioId,
      (id) => (select.value = id),
    );
    store.subscribe(
      (s) => s.customOffered,
      (offered) => (customOption.hidden = !offered),
    );
    store.subscribe(
      (s) => s.description,
      (text) => (description.textContent = text),
    );
    store.subscribe(
      (s) => s.seedText,
      (text) => {
        if (seed.value !== text) seed.value = text;
      },
    );
    const boxes = () => Array.from(runs.querySelectorAll<HTMLInputElement>('input'));
    store.subscribe(
      (s) => s.runChoices.labels,
      (labels) => {
        const ticked = store.get().runChoices.ticked;
        const wraps = labels.map((label, i) => {
          const wrap = document.createElement('label');
          const box = document.createElement('input');
          box.type = 'checkbox';
          box.value = String(i);
          box.checked = ticked[i] ?? false;
          wrap.append(box, ` ${label}`);
          return wrap;
        });
        runs.replaceChildren(runs.querySelector('legend')!, ...wraps);
      },
    );
    store.subscribe(
      (s) => s.runChoices.ticked,
      (ticked) => boxes().forEach((box, i) => (box.checked = ticked[i] ?? false)),
    );
    // Say why a tick did not take: the legend names the limit.
    store.subscribe(
      (s) => s.runsAtLimit,
      (atLimit) => runs.classList.toggle('at-limit', atLimit),
    );
    store.subscribe(
      (s) => s.error,
      (message) => {
        error.textContent = message;
        error.hidden = message === '';
      },
      { immediate: true },
    );
    store.subscribe(
      (s) => s.engineFailure,
      (failure) => failure && this.editor.markError(failure.message),
    );
    // A live change rewrote the scenario (web/sim/session.ts): the editor shows it.
    store.subscribe(
      (s) => s.scenarioText,
      (text) => {
        if (this.editor.text() !== text) this.editor.load(text);
      },
    );

    // ---- what the user does -----------------------------------------------------------------

    select.addEventListener('change', () => {
      store.update({ scenarioId: select.value });
      const entry = findScenario(select.value);
      if (!entry) return;
      // Each pick is a history entry: Back returns to the scenario before it (web/app/url.ts).
      history.pushState(null, '', `?scenario=${encodeURIComponent(entry.id)}`);
      void this.openLibrary(entry);
    });
    seed.addEventListener('input', () => store.update({ seedText: seed.value }));
    runs.addEventListener('change', (event) => {
      const checked = boxes().filter((b) => b.checked);
      const refused = checked.length > MAX_RUNS;
      if (refused) (event.target as HTMLInputElement).checked = false;
      const { labels } = store.get().runChoices;
      store.update({ runChoices: { labels, ticked: boxes().map((b) => b.checked) }, runsAtLimit: refused });
    });
    element<HTMLButtonElement>('run-button').addEventListener('click', () => this.run());
    editToggle.addEventListener('click', () => {
      editorBox.hidden = !editorBox.hidden;
      editToggle.setAttribute('aria-expanded', String(!editorBox.hidden));
      if (!editorBox.hidden) this.editor.opened();
    });
    element<HTMLButtonElement>('apply-json').addEventListener('click', () => this.openCustom(this.editor.text(), 'an edited scenario'));
  }

  /** Shows a scenario's text in the editor and reads its seed and runs; false (and an error) if it is not JSON. */
  loadScenario(text: string, description: string): boolean {
    this.store.update({ scenarioText: text, description });
    this.editor.load(text);
    let info;
    try {
      info = scenarioInfo(text);
    } catch (error) {
      this.store.update({
        info: { seed: '0', labels: [] },
        error: `the scenario is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        phase: 'error',
      });
      return false;
    }
    const ticked = info.labels.map((_, i) => i < MAX_RUNS);
    this.store.update({ info, seedText: info.seed, runChoices: { labels: info.labels, ticked } });
    return true;
  }

  /** Loads a library scenario's file and runs it (unless another was picked meanwhile). */
  async openLibrary(entry: LibraryEntry, seed?: string | null): Promise<void> {
    const text = await entry.load();
    if (this.store.get().scenarioId !== entry.id) return;
    if (this.loadScenario(text, entry.description)) {
      if (seed) this.store.update({ seedText: seed });
      this.run();
    }
  }

  /** Runs a scenario that is not the library's (edited, or from a share link). */
  openCustom(text: string, description: string, seed?: string): void {
    this.store.update({ scenarioId: 'custom', customOffered: true });
    if (this.loadScenario(text, description)) {
      if (seed) this.store.update({ seedText: seed });
      this.run();
    }
  }
}
