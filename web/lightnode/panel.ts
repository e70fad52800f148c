// The light node panel: mounted by one marked line in web/index.html, and alone by
// web/lightnode/index.html. A "Light node" button opens it; its own page (unless its URL ends in
// #closed: then nothing touches the stored arrivals), ?relay=MULTIADDR or #lightnode open it at once. libp2p loads only when the node starts. Every count is
// also a data attribute on #lightnode, for the e2e tests. URL options:
// ?relay=MULTIADDR&autostart=1&ice=stun:HOST:PORT&gossipsub=txcast|js&version=v1.2|v2.0&d_announce=N.
// This is its composition root: one store (state.ts) holds the panel's state and the node; each
// view subscribes to what it draws (a render gives them a snapshot of the node once a frame).
import './panel.css';
import { mountCharts } from './charts-view';
import { mountControl } from './control-view';
import { mountFacts } from './facts-view';
import { mountNetwork } from './network-view';
import { SavedArrivals } from './saved-view';
import { loadCaps, mountSend } from './send-view';
import { settingsFromUrl } from './settings';
import { mountSettings } from './settings-view';
import { mountStart } from './start-view';
import { createLightStore, Renders } from './state';
import { mountTables } from './tables-view';
import { iceFromUrl } from './ice';
import { PANEL_HTML } from './template';
import { mountTxList } from './txlist-view';

const params = new URLSearchParams(location.search);
const root = document.createElement('section');
root.id = 'lightnode';
root.className = 'lightnode';
root.innerHTML = PANEL_HTML;

const opener = document.createElement('button');
opener.type = 'button';
opener.id = 'lightnode-open';
opener.className = 'lightnode-open';
opener.textContent = 'Light node';
// On the visualizer page the button sits in its header, after the links to the other pages: in
// the flow, it covers nothing as the page scrolls (fixed in a corner, it hid the speed menu on a
// phone and the inspector's run menu on a desktop). Elsewhere it comes first in the body.
const pages = document.querySelector('nav.pages');
if (pages) pages.append(opener);
else document.body.prepend(opener);
document.body.append(root);

const store = createLightStore();
const renders = new Renders(store);
const fromUrl = settingsFromUrl(params);
const iceUrl = iceFromUrl(params);
const urlErrors = iceUrl.error ? [...fromUrl.errors, iceUrl.error] : fromUrl.errors;
store.update({ urlErrors });

const settings = mountSettings(store, root, fromUrl.settings);
if (urlErrors.length) store.update({ settingsError: `The URL's settings are refused: ${urlErrors.join('; ')}. The form shows the defaults instead; change them or press Start to use what it shows.` });
const saved = new SavedArrivals(store, root, renders);
const starter = mountStart(store, root, renders, settings, saved, { relay: params.get('relay') ?? '', ice: iceUrl.text });
// Drawn at each render, in this order: the tables, the tx list, the network, the charts, the
// counts and the GossipSub comparison.
mountTables(store, root);
const network = mountNetwork(store, root);
mountTxList(store, root, renders, network);
mountCharts(store, root, renders, saved, network);
mountFacts(store, root);
mountControl(store, root, renders);
mountSend(store, root, renders);

store.subscribe(
  (s) => s.open,
  (open) => root.classList.toggle('open', open),
);

function open(): void {
  store.update((s) => ({ phase: s.phase === 'closed' ? 'idle' : s.phase, open: true }));
  void saved.show();
  void loadCaps(store);
  // Ready for a relay address, by keyboard too.
  const relay = root.querySelector<HTMLInputElement>('#ln-relay')!;
  if (!relay.value && !store.get().light) relay.focus({ preventScroll: true });
}

opener.addEventListener('click', () => {
  open();
  renders.soon();
});
root.querySelector('.ln-close')!.addEventListener('click', () => store.update({ open: false }));
const ownPage = document.body.classList.contains('lightnode-page');
if ((ownPage && location.hash !== '#closed') || params.has('relay') || location.hash === '#lightnode') open();
if (params.get('autostart') === '1') {
  if (urlErrors.length) store.update({ status: 'not started: the URL asks for settings that cannot run (see above)' });
  else void starter.start();
}
