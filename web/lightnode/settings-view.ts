// The GossipSub settings form (router, version, D_announce), chosen before Start: filled from the
// URL (what it asks for that cannot run is refused with a message), kept coherent as it changes,
// and read at Start.
import { D, DEFAULT_SETTINGS, type GossipSettings } from './settings';
import type { LightStore } from './state';

export interface SettingsForm {
  /** The settings in the form; throws an Error saying what is wrong with them. */
  read(): GossipSettings;
}

export function mountSettings(store: LightStore, root: HTMLElement, fromUrl: GossipSettings): SettingsForm {
  const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
  const routerSelect = $<HTMLSelectElement>('ln-router');
  const versionSelect = $<HTMLSelectElement>('ln-version');
  const dAnnounceInput = $<HTMLInputElement>('ln-d-announce');

  /** Keeps the form coherent: @libp2p/gossipsub has no v2.0, D_announce is v2.0's alone. */
  const settingsChanged = () => {
    const js = routerSelect.value === 'js';
    const { light, phase } = store.get();
    const running = light !== null || phase === 'starting';
    routerSelect.disabled = running;
    versionSelect.disabled = running || js;
    if (js) versionSelect.value = 'v1.2';
    dAnnounceInput.disabled = running || js || versionSelect.value !== 'v2.0';
    $<HTMLSpanElement>('ln-settings-hint').textContent = js
      ? '@libp2p/gossipsub speaks up to v1.2; its IDONTWANT counts are not visible to the page'
      : versionSelect.value === 'v2.0'
        ? `D_announce of D = ${D} mesh peers get an IANNOUNCE instead of the message (${D}: all, the publisher too)`
        : 'v1.2: IDONTWANT for txs of 1 KiB and more';
  };

  routerSelect.value = fromUrl.router;
  versionSelect.value = fromUrl.version;
  dAnnounceInput.value = String(fromUrl.dAnnounce);
  settingsChanged();

  // The node starting or stopping locks or frees the form.
  store.subscribe((s) => s.light !== null || s.phase === 'starting', settingsChanged);
  store.subscribe(
    (s) => s.settingsError,
    (message) => {
      $<HTMLParagraphElement>('ln-settings-error').textContent = message;
      if (message) root.dataset.settingsError = message;
      else delete root.dataset.settingsError;
    },
    { immediate: true },
  );
  for (const control of [routerSelect, versionSelect, dAnnounceInput]) {
    control.addEventListener('change', () => {
      settingsChanged();
      store.update({ settingsError: '' });
    });
  }

  return {
    read() {
      const router = routerSelect.value === 'js' ? 'js' : 'txcast';
      const version = versionSelect.value === 'v1.2' ? 'v1.2' : 'v2.0';
      const raw = dAnnounceInput.value.trim();
      const dAnnounce = Number(raw);
      if (router === 'txcast' && version === 'v2.0' && (raw === '' || !Number.isInteger(dAnnounce) || dAnnounce < 0 || dAnnounce > D)) {
        throw new Error(`D_announce must be a whole number from 0 to ${D}, not ${JSON.stringify(raw)}`);
      }
      return { router, version, dAnnounce: Number.isInteger(dAnnounce) ? dAnnounce : DEFAULT_SETTINGS.dAnnounce };
    },
  };
}
