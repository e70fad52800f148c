// The share button: a link whose fragment carries the scenario (and a seed typed over it),
// shown, put in the address bar and copied.
import { seedOverride } from '../scenario/info';
import { element } from './dom';
import { shareFragment } from './share';
import type { AppStore } from './state';

export function mountShare(store: AppStore): void {
  const url = element<HTMLInputElement>('share-url');
  const error = element<HTMLElement>('share-error');
  store.subscribe(
    (s) => s.share,
    (share) => {
      error.textContent = share.error;
      if (share.url) url.value = share.url;
    },
  );
  element<HTMLButtonElement>('share').addEventListener('click', async () => {
    const s = store.get();
    const seed = typeof seedOverride(s.seedText, s.info) === 'bigint' ? s.seedText.trim() : undefined;
    const made = await shareFragment(s.scenarioText, seed);
    if (!made.ok) return store.update((now) => ({ share: { url: now.share.url, error: made.error } }));
    const link = `${location.origin}${location.pathname}#${made.fragment}`;
    store.update({ share: { url: link, error: '' } });
    history.replaceState(null, '', link);
    navigator.clipboard?.writeText(link).catch(() => undefined);
  });
}
