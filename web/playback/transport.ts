// The transport bar: play, step, speed, the timeline (lit as far as the engine has computed),
// the clock, the picked tx and its filters, and the keyboard shortcuts. It shows what the last
// frame drew and turns what the user does into store updates (and seeks, through the session).
import { element, keyBelongsTo } from '../app/dom';
import { currentTx, followedTx, type AppStore } from '../app/state';
import { shallowEqual } from '../app/store';
import { setSpeed, SPEEDS, step, togglePlay, waiting, type Clock } from './playback';

export interface TransportActions {
  /** Moves the paused clock to `tUs` (the runs' workers are asked who has the tx then). */
  seekTo(tUs: number): void;
  /** Runs the scenario again. */
  run(): void;
}

export function mountTransport(store: AppStore, actions: TransportActions): void {
  const app = element<HTMLElement>('app');
  const play = element<HTMLButtonElement>('play');
  const stepButton = element<HTMLButtonElement>('step');
  const speed = element<HTMLSelectElement>('speed');
  const timeline = element<HTMLInputElement>('timeline');
  const clockText = element<HTMLElement>('clock');
  const follow = element<HTMLInputElement>('follow');
  const txOnly = element<HTMLInputElement>('tx-only');
  const progress = element<HTMLProgressElement>('compute-progress');
  const txInput = element<HTMLInputElement>('tx');

  for (const [i, s] of SPEEDS.entries()) {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = `${s}×`;
    speed.append(option);
  }

  // ---- what the store holds -----------------------------------------------------------------

  /** What the last frame drew: the clock, the timeline's thumb, the picked tx. */
  store.subscribe(
    (s) => s.frame,
    ({ clock, tx }) => {
      const computing = clock.computedUs < clock.endUs ? ` (computed to ${(clock.computedUs / 1000).toFixed(0)})` : '';
      clockText.textContent = `t = ${(clock.tUs / 1000).toFixed(1)} of ${(clock.endUs / 1000).toFixed(0)} ms${computing}${waiting(clock) ? ', waiting for the engine' : ''}`;
      timeline.value = String(clock.endUs > 0 ? Math.round((1000 * clock.tUs) / clock.endUs) : 0);
      if (document.activeElement !== txInput) txInput.value = String(tx);
      play.textContent = clock.playing ? 'Pause' : 'Play';
      Object.assign(app.dataset, { tUs: String(Math.round(clock.tUs)), endUs: String(Math.round(clock.endUs)), computedUs: String(Math.round(clock.computedUs)), tx: String(tx), playing: String(clock.playing) });
    },
  );
  store.subscribe(
    (s) => s.clock.speedIndex,
    (index) => (speed.value = String(index)),
    { immediate: true },
  );
  store.subscribe(
    (s) => s.clock.computedUs,
    (computedUs) => (app.dataset.computedUs = String(Math.round(computedUs))),
  );
  store.subscribe(
    (s) => [s.computedShare, s.computing] as const,
    ([share, computing]) => {
      timeline.style.setProperty('--computed', `${(100 * share).toFixed(2)}%`);
      progress.value = share;
      progress.hidden = !computing;
    },
    { equals: shallowEqual },
  );
  store.subscribe(
    (s) => [s.follow, s.txOnly] as const,
    ([f, only]) => {
      follow.checked = f;
      txOnly.checked = only;
    },
    { equals: shallowEqual, immediate: true },
  );
  store.subscribe(
    (s) => s.txMax,
    (max) => (txInput.max = String(max)),
  );

  // ---- what the user does -------------------------------------------------------------------

  const setClock = (change: (clock: Clock) => Clock) => store.update((s) => ({ clock: change(s.clock) }));

  play.addEventListener('click', () => setClock(togglePlay));
  // Stepping watches the picked tx: only its messages, hop by hop.
  stepButton.addEventListener('click', () => {
    const s = store.get();
    const view = s.panels[0]?.tx(currentTx(s));
    store.update({ pickedTx: followedTx(s), follow: false, txOnly: true, clock: step(s.clock, view?.times ?? new Float64Array(0)) });
  });
  speed.addEventListener('change', () => setClock((clock) => setSpeed(clock, Number(speed.value))));
  timeline.addEventListener('input', () => actions.seekTo((Number(timeline.value) / 1000) * store.get().clock.endUs));
  follow.addEventListener('change', () => {
    const s = store.get();
    // Following picks the latest tx to watch: only its messages.
    store.update(follow.checked ? { follow: true, txOnly: true } : { follow: false, pickedTx: followedTx(s) });
  });
  txOnly.addEventListener('change', () => store.update({ txOnly: txOnly.checked }));
  txInput.addEventListener('change', () => {
    const pickedTx = Math.max(0, Math.floor(Number(txInput.value) || 0));
    store.update({ follow: false, txOnly: true, pickedTx });
    const panel = store.get().panels[0];
    const view = panel?.tx(Math.min(pickedTx, (panel?.view?.txs ?? 1) - 1));
    // Jump to the tx's creation so its spread can be watched from the start.
    if (view) actions.seekTo(view.createdUs);
  });

  // A focused control keeps its keys (Space on the play button plays, as a click does).
  document.addEventListener('keydown', (event) => {
    if (keyBelongsTo(event.target, event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === ' ') setClock(togglePlay);
    else if (event.key === 'ArrowRight' || event.key === '.') stepButton.click();
    else if (event.key === '+' || event.key === '=') setClock((clock) => setSpeed(clock, clock.speedIndex + 1));
    else if (event.key === '-') setClock((clock) => setSpeed(clock, clock.speedIndex - 1));
    else if (event.key === 'Home') actions.seekTo(0);
    else if (event.key === 'r') actions.run();
    else return;
    event.preventDefault();
  });
}
