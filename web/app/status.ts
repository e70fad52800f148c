// The page's state as data attributes on #app, for the stylesheet and the e2e tests: the runs'
// phase, a crashed worker, where a seek's scans stand and whether the charts are drawn.
import type { AppStore } from './state';

export function mountStatus(store: AppStore, app: HTMLElement): void {
  const flag = (name: string, value: string | null) => {
    if (value === null) delete app.dataset[name];
    else app.dataset[name] = value;
  };
  store.subscribe(
    (s) => s.phase,
    (phase) => (app.dataset.state = phase),
    { immediate: true },
  );
  store.subscribe(
    (s) => s.crashed,
    (crashed) => flag('crashed', crashed ? 'true' : null),
  );
  store.subscribe(
    (s) => s.seek,
    (seek) => flag('seek', seek || null),
  );
  store.subscribe(
    (s) => s.chartsDone,
    (done) => flag('charts', done ? 'done' : null),
  );
}
