// The light node panel: mounted by one marked line in web/index.html. A "Light node" button opens
// it; ?relay=MULTIADDR (or #lightnode) in the URL opens it at once. libp2p loads only when the
// panel opens. Every count is also a data attribute on #lightnode, for the e2e tests.
// URL options: ?relay=MULTIADDR&autostart=1&gossipsub=txcast|js&version=v1.2|v2.0&d_announce=N.
import './panel.css';
import type { Copy, ProtocolName } from './arrivals';
import type { LightNode, TxRecord } from './node';
import { D, DEFAULT_SETTINGS, effectiveVersion, ROUTER_NAMES, settingsFromUrl, type GossipSettings } from './settings';
import type { CompareResult, Kind } from './simcompare';
import type { ArrivalStore } from './store';
import { TxTable, txKey } from './txtable';
import { DEFAULT_TX_BYTES, GENERATED_HEADER_BYTES, parseTx, wallMs } from '../p2p/txwire.mjs';

const PROTOCOLS: ProtocolName[] = ['gossipsub', 'cat', 'strokkur'];
const NAMES: Record<ProtocolName, string> = { gossipsub: 'gossipsub', cat: 'CAT', strokkur: 'Strokkur' };
/** The GossipSub entries counted live and in the simulator, as the table names them. */
const CONTROL: [Kind, string][] = [
  ['idontwant', 'IDONTWANT'],
  ['iannounce', 'IANNOUNCE'],
  ['ineed', 'INEED'],
  ['publish', 'full messages'],
];

const params = new URLSearchParams(location.search);
const root = document.createElement('section');
root.id = 'lightnode';
root.className = 'lightnode';
root.dataset.state = 'closed';
root.innerHTML = `
  <header><h2>Light node</h2><button type="button" class="ln-close" aria-label="close">×</button></header>
  <form id="ln-start-form" novalidate>
    <div class="ln-row">
      <label>relay <input id="ln-relay" name="relay" size="60" placeholder="/ip4/…/tcp/9090/ws/p2p/12D3Koo…" /></label>
      <button id="ln-start" type="submit">Start</button>
    </div>
    <fieldset class="ln-row ln-settings" id="ln-settings">
      <legend>GossipSub (chosen before Start)</legend>
      <label>router <select id="ln-router">
        <option value="txcast">txcast's router (the simulator's)</option>
        <option value="js">@libp2p/gossipsub (reference, up to v1.2)</option>
      </select></label>
      <label>version <select id="ln-version">
        <option value="v1.2">v1.2 (IDONTWANT)</option>
        <option value="v2.0">v2.0 (IANNOUNCE/INEED)</option>
      </select></label>
      <label>D_announce <input id="ln-d-announce" type="number" min="0" max="${D}" step="1" inputmode="numeric" /></label>
      <span class="ln-hint" id="ln-settings-hint"></span>
    </fieldset>
  </form>
  <p class="ln-error" id="ln-settings-error" role="alert"></p>
  <p class="ln-status" id="ln-status" role="status">not started</p>
  <fieldset class="ln-row ln-protocols">
    <legend>send on</legend>
    <label><input id="ln-gossipsub" type="checkbox" checked /> gossipsub</label>
    <label><input id="ln-cat" type="checkbox" checked /> CAT</label>
    <label><input id="ln-strokkur" type="checkbox" checked /> Strokkur</label>
    <span class="ln-hint" id="ln-caps">caps: …</span>
  </fieldset>
  <form class="ln-row" id="ln-submit-form" aria-label="generated load" novalidate>
    <label>tx bytes <input id="ln-bytes" type="number" min="${GENERATED_HEADER_BYTES}" max="1048576" value="${DEFAULT_TX_BYTES}" inputmode="numeric" /></label>
    <label>count <input id="ln-count" type="number" min="1" max="1000" value="1" inputmode="numeric" /></label>
    <button id="ln-submit" type="submit" disabled>Submit tx</button>
    <span class="ln-hint">generated txs, stamped with their submit time</span>
  </form>
  <p class="ln-error" id="ln-submit-error" role="alert"></p>
  <form class="ln-own" id="ln-own-form" aria-labelledby="ln-own-title">
    <h3 id="ln-own-title">Send your own tx</h3>
    <div class="ln-row" role="radiogroup" aria-label="the tx is given as">
      <label><input type="radio" name="ln-format" value="text" checked /> text (UTF-8)</label>
      <label><input type="radio" name="ln-format" value="hex" /> hex</label>
      <label><input type="radio" name="ln-format" value="file" /> a file</label>
    </div>
    <textarea id="ln-own-text" rows="3" spellcheck="false" aria-label="the tx: text or hex" placeholder="any text; or hex such as 0x48656c6c6f"></textarea>
    <input id="ln-own-file" type="file" aria-label="the tx: a file" hidden />
    <div class="ln-row">
      <button id="ln-own-send" type="submit" disabled>Send tx</button>
      <span id="ln-own-size" class="ln-hint" aria-live="polite"></span>
    </div>
    <p class="ln-ok" id="ln-own-result" role="status"></p>
    <p class="ln-error" id="ln-own-error" role="alert"></p>
  </form>
  <p class="ln-summary" id="ln-summary" aria-live="polite"></p>
  <details class="ln-all"><summary>all counters</summary><dl class="ln-facts" id="ln-facts"></dl></details>
  <h3>GossipSub control, live and simulated</h3>
  <p class="ln-note" id="ln-gs-note"></p>
  <div class="ln-scroll"><table class="ln-table ln-gs" id="ln-gs-table">
    <thead>
      <tr><th rowspan="2">entries</th><th colspan="2">this page, live</th><th colspan="2">simulator, per node</th></tr>
      <tr><th>sent</th><th>received</th><th>sent</th><th>received</th></tr>
    </thead>
    <tbody id="ln-gs"></tbody>
  </table></div>
  <p class="ln-hint" id="ln-sim-status" role="status"></p>
  <h3>The network, live</h3>
  <p class="ln-note">Drawn as the simulator draws a run: this page in the middle, every peer it has met round it
    (the relay, other browsers over WebRTC, anything else). A flash runs along a link for each frame or gossipsub
    message as it crosses; nodes take the arrival colour of the picked tx once we know they have it (this page when a
    copy lands, a peer when it sends one). The relay's links to other browsers are inferred from their reservations.</p>
  <div class="ln-row">
    <label>picked tx <select id="ln-pick"><option value="">newest</option></select></label>
    <span id="ln-pick-info"></span>
  </div>
  <canvas id="ln-net" class="ln-net" aria-label="the live network around this light node"></canvas>
  <footer class="ln-legends">
    <figure class="ln-legend">
      <svg id="ln-legend" height="44" aria-label="colour legend: arrival time after the tx was created"></svg>
      <figcaption>when the picked tx reached each node (ms after it was created, or first seen) · <span class="swatch unreached"></span> not known to have it</figcaption>
    </figure>
    <ul class="ln-marks">
      <li><span class="swatch origin"></span> where the tx came from (this page, or the peer that sent it first)</li>
      <li><span class="swatch adversary"></span> a peer cut off and banned for garbage</li>
      <li><span class="swatch duplicate"></span> a duplicate copy just landed here</li>
      <li><span class="swatch payload"></span> payload (a full tx, codeword) crossing · <span class="swatch control"></span> control (announcements, requests, gossip)</li>
    </ul>
  </footer>
  <h3>Charts</h3>
  <ul class="ln-run-legend" id="ln-run-legend"></ul>
  <div class="ln-charts">
    <figure><svg id="ln-chart" class="ln-chart" aria-label="txs received over time, per protocol"></svg>
      <figcaption>Txs received from others over time (this session).</figcaption></figure>
    <figure><svg id="ln-latency" class="ln-chart" aria-label="latency CDF"></svg>
      <figcaption>Latency CDF: share of arrivals within a time after the tx was submitted, per protocol. Generated txs
        carry their submit time on all three protocols (the submitter's clock: skew between machines shifts it); a
        user's own tx does not, and is left out.</figcaption></figure>
    <figure><svg id="ln-dups" class="ln-chart" aria-label="duplicates per tx and overhead"></svg>
      <figcaption>Duplicates per delivered tx (full copies after the first; Strokkur sends codewords, never full copies)
        and download overhead (bytes received per byte of new tx, this session).</figcaption></figure>
    <figure><svg id="ln-bandwidth" class="ln-chart" aria-label="bytes over time"></svg>
      <figcaption id="ln-bandwidth-caption">Bytes over time: bytes sent and received per second, per protocol.</figcaption></figure>
  </div>
  <h3>Protocols</h3>
  <div class="ln-scroll"><table class="ln-table"><thead><tr><th>protocol</th><th>peers</th><th>own</th><th>delivered</th><th>frames in/out</th><th>malformed</th><th>oversized</th><th>rate-limited</th><th>disconnected</th></tr></thead><tbody id="ln-framed"></tbody></table></div>
  <h3>Peers</h3>
  <div class="ln-scroll"><table class="ln-table"><thead><tr><th>peer</th><th>transports</th><th>connections</th></tr></thead><tbody id="ln-peers"></tbody></table></div>
  <h3>Transactions</h3>
  <p class="ln-note">Every tx seen here, on each protocol (the same bytes on two protocols are two rows with one hash):
    its SHA-256, size, latency when it carries its submit time, copies, and the peer it came from first. Received
    bytes stay downloadable while they are among the newest 16 MiB.</p>
  <div class="ln-scroll"><table class="ln-table ln-txs"><thead><tr><th>hash (SHA-256)</th><th>protocol</th><th>origin</th><th>bytes</th><th>latency ms</th><th>copies</th><th>from</th><th>bytes</th></tr></thead><tbody id="ln-txs"></tbody></table></div>
  <h3>Banned peers</h3>
  <p class="ln-note">A peer cut off for garbage frames (or by the protocol) is banned by peer id for a while: its
    reconnects are refused by the connection gater and on the protocol streams.</p>
  <div class="ln-scroll"><table class="ln-table"><thead><tr><th>peer</th><th>why</th><th>ban ends in</th></tr></thead><tbody id="ln-bans"></tbody></table></div>
  <h3>Saved arrivals</h3>
  <p class="ln-note">Every tx this node sees on a protocol gets the next number of its own sequence; its first arrival
    is stored in the arrival log's tickets encoding (row key, column, value bytes of the <code>arrivals</code> crate) in
    IndexedDB, one record per (protocol, tx), and later copies are counted as duplicates. Kept across reloads.</p>
  <p class="ln-row">
    <span id="ln-saved">–</span> arrivals stored in this browser, <span id="ln-saved-bytes">–</span>
    <button id="ln-export" type="button">Export JSON</button>
    <button id="ln-export-csv" type="button">Export CSV</button>
    <button id="ln-export-log" type="button">Export log (tickets)</button>
    <button id="ln-clear" type="button">Clear</button>
  </p>
  <p class="ln-error" id="ln-store-error" role="alert"></p>
  <pre class="ln-log" id="ln-log"></pre>`;

const opener = document.createElement('button');
opener.type = 'button';
opener.id = 'lightnode-open';
opener.className = 'lightnode-open';
opener.textContent = 'Light node';
document.body.append(opener, root);

const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
const svg = (id: string) => $<HTMLElement>(id) as unknown as SVGSVGElement;
const relayInput = $<HTMLInputElement>('ln-relay');
const startButton = $<HTMLButtonElement>('ln-start');
const submitButton = $<HTMLButtonElement>('ln-submit');
const ownButton = $<HTMLButtonElement>('ln-own-send');
const ownText = $<HTMLTextAreaElement>('ln-own-text');
const ownFile = $<HTMLInputElement>('ln-own-file');
const statusLine = $<HTMLParagraphElement>('ln-status');
const logBox = $<HTMLPreElement>('ln-log');
const pick = $<HTMLSelectElement>('ln-pick');
const netCanvas = $<HTMLCanvasElement>('ln-net');
const routerSelect = $<HTMLSelectElement>('ln-router');
const versionSelect = $<HTMLSelectElement>('ln-version');
const dAnnounceInput = $<HTMLInputElement>('ln-d-announce');
relayInput.value = params.get('relay') ?? '';

type Views = typeof import('./views');
let light: LightNode | null = null;
let views: Views | null = null;
let net: import('./netview').LiveNet | null = null;
let txTable: TxTable | null = null;
/** The settings the node runs with (set at Start). */
let started: GossipSettings | null = null;
/** The simulator comparison (loaded at Start). */
let simcompare: typeof import('./simcompare') | null = null;
/** Each protocol's largest tx (framed.mjs), once loaded. */
let caps: Record<ProtocolName, number> | null = null;
let startedMs = 0;
let chartDrawnMs = 0;
let legendSpan = -1;
const logLines: string[] = [];
const short = (peer: string) => (peer.length > 10 ? `…${peer.slice(-8)}` : peer);
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function log(line: string): void {
  logLines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  if (logLines.length > 200) logLines.shift();
  logBox.textContent = logLines.join('\n');
}

// ---- GossipSub settings --------------------------------------------------------------------

const fromUrl = settingsFromUrl(params);
let urlErrors = fromUrl.errors;

function showSettings(s: GossipSettings): void {
  routerSelect.value = s.router;
  versionSelect.value = s.version;
  dAnnounceInput.value = String(s.dAnnounce);
  settingsChanged();
}

/** Keeps the form coherent: @libp2p/gossipsub has no v2.0, D_announce is v2.0's alone. */
function settingsChanged(): void {
  const js = routerSelect.value === 'js';
  const running = light !== null || root.dataset.state === 'starting';
  routerSelect.disabled = running;
  versionSelect.disabled = running || js;
  if (js) versionSelect.value = 'v1.2';
  dAnnounceInput.disabled = running || js || versionSelect.value !== 'v2.0';
  $<HTMLSpanElement>('ln-settings-hint').textContent = js
    ? '@libp2p/gossipsub speaks up to v1.2; its IDONTWANT counts are not visible to the page'
    : versionSelect.value === 'v2.0'
      ? `D_announce of D = ${D} mesh peers get an IANNOUNCE instead of the message (${D}: all, the publisher too)`
      : 'v1.2: IDONTWANT for txs of 1 KiB and more';
}

/** The settings in the form, or an Error saying what is wrong with them. */
function formSettings(): GossipSettings {
  const router = routerSelect.value === 'js' ? 'js' : 'txcast';
  const version = versionSelect.value === 'v1.2' ? 'v1.2' : 'v2.0';
  const raw = dAnnounceInput.value.trim();
  const dAnnounce = Number(raw);
  if (router === 'txcast' && version === 'v2.0' && (raw === '' || !Number.isInteger(dAnnounce) || dAnnounce < 0 || dAnnounce > D)) {
    throw new Error(`D_announce must be a whole number from 0 to ${D}, not ${JSON.stringify(raw)}`);
  }
  return { router, version, dAnnounce: Number.isInteger(dAnnounce) ? dAnnounce : DEFAULT_SETTINGS.dAnnounce };
}

function showSettingsError(message: string): void {
  $<HTMLParagraphElement>('ln-settings-error').textContent = message;
  if (message) root.dataset.settingsError = message;
  else delete root.dataset.settingsError;
}

showSettings(fromUrl.settings);
if (urlErrors.length) showSettingsError(`The URL's settings are refused: ${urlErrors.join('; ')}. The form shows the defaults instead; change them or press Start to use what it shows.`);

// ---- the arrival store (IndexedDB through the arrivals crate) --------------------------------

// Opened with the panel, not with the page: the visualizer page need not load it at all.
let storeOpening: Promise<ArrivalStore | null> | null = null;
function storeReady(): Promise<ArrivalStore | null> {
  storeOpening ??= import('./store')
    .then(({ ArrivalStore }) => ArrivalStore.open())
    .catch((error) => {
      showStoreError(`arrival store unavailable: ${(error as Error).message}`);
      return null;
    });
  return storeOpening;
}
let savedTimer: ReturnType<typeof setTimeout> | null = null;

function showStoreError(message: string): void {
  const line = $<HTMLParagraphElement>('ln-store-error');
  line.textContent = message;
  root.dataset.storeError = message;
  if (message) log(message);
}

/** Shows how many arrivals are stored and what they take, after the store's own batching. */
async function showSaved(): Promise<void> {
  const store = await storeReady();
  if (!store) return;
  await store.flush();
  const book = store.book;
  const saved = book.size;
  root.dataset.saved = String(saved);
  root.dataset.storedCells = String(await store.storedCells());
  root.dataset.storedBytes = String(book.storedBytes());
  root.dataset.savedDuplicates = String(book.duplicates);
  $<HTMLSpanElement>('ln-saved').textContent = String(saved);
  const perRecord = saved ? (book.storedBytes() / saved).toFixed(1) : '–';
  $<HTMLSpanElement>('ln-saved-bytes').textContent = `${book.storedBytes()} bytes of cells (${perRecord} per arrival), ${book.duplicates} duplicates counted`;
  const problems: string[] = [];
  if (book.loadErrors) problems.push(`${book.loadErrors} stored records unreadable and skipped (first: ${book.loadError})`);
  if (store.writeErrors) problems.push(`${store.writeErrors} writes failed (last: ${store.writeError})`);
  if (book.overflow) problems.push(`${book.overflow} copies not recorded: the log is full`);
  showStoreError(problems.join('; '));
  root.dataset.storeLoadErrors = String(book.loadErrors);
}

function record(copy: Copy & { duplicate?: boolean; sentAtMs?: number }): void {
  void storeReady().then((store) => {
    const outcome = store?.record(copy);
    const first = outcome ? outcome.first : !copy.duplicate;
    net?.arrival(txKey(copy), copy.from, first, copy.atMs, copy.sentAtMs);
    savedTimer ??= setTimeout(() => {
      savedTimer = null;
      void showSaved();
    }, 300);
    scheduleRender();
  });
}

function save(name: string, type: string, body: BlobPart): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([body], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');

async function exportArrivals(format: 'json' | 'csv' | 'txal'): Promise<void> {
  const store = await storeReady();
  if (!store) return;
  await store.flush();
  const { exportJson } = await import('./arrivals');
  const name = (ext: string) => `txcast-arrivals-${stamp()}.${ext}`;
  if (format === 'json') save(name('json'), 'application/json', exportJson(store.book, light?.peerId ?? ''));
  else if (format === 'txal') save(name('txal'), 'application/octet-stream', store.book.exportBlob() as Uint8Array<ArrayBuffer>);
  else {
    const rows = store.book.rows();
    const lines = ['seq,id,protocol,own,first_ms,latency_ms,copies,duplicates,from'];
    for (const r of rows) lines.push([r.seq, r.id, r.protocol, r.own, r.firstMs.toFixed(3), r.latencyMs ?? '', r.copies, r.duplicates, r.from].join(','));
    save(name('csv'), 'text/csv', `${lines.join('\n')}\n`);
  }
}

// ---- drawing -------------------------------------------------------------------------------

let frame = 0;
function scheduleRender(): void {
  if (!frame) frame = requestAnimationFrame(render);
}

/** The protocols' caps, shown next to the checkboxes (framed.mjs loads with the panel). */
async function loadCaps(): Promise<void> {
  if (caps) return;
  try {
    caps = (await import('../p2p/framed.mjs')).MAX_TX_BYTES;
  } catch (error) {
    $<HTMLSpanElement>('ln-caps').textContent = `caps unknown: ${(error as Error).message}`;
    return;
  }
  const parts = PROTOCOLS.map((p) => `${NAMES[p]} ${caps![p].toLocaleString('en')} B`);
  $<HTMLSpanElement>('ln-caps').textContent = `largest tx: ${parts.join(' · ')}`;
  for (const p of PROTOCOLS) root.dataset[`${p}Cap`] = String(caps[p]);
  showOwnSize();
}

function open(): void {
  root.dataset.state = light ? root.dataset.state : root.dataset.state === 'closed' ? 'idle' : root.dataset.state;
  root.classList.add('open');
  void showSaved();
  void loadCaps();
}

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/** Who each connected peer is: the relay we dialled, a browser (it announced /webrtc), or other. */
function roles(conns: ReturnType<LightNode['connections']>): Map<string, import('./netview').PeerRole> {
  const out = new Map<string, import('./netview').PeerRole>();
  const relay = light?.relayPeer() ?? '';
  for (const [peer, list] of conns) {
    const browser = light?.browsers.has(peer) || list.some((c) => c.transport === 'webrtc' || c.transport === 'relayed');
    out.set(peer, peer === relay ? 'relay' : browser ? 'browser' : 'other');
  }
  return out;
}

interface Tally {
  txs: number;
  own: number;
  copies: number;
  /** Bytes of the txs received from others, and of all. */
  receivedBytes: number;
  bytes: number;
  sized: number;
}

/** Per protocol: txs seen (own and received), copies, and bytes, in one pass. */
function tally(txs: Iterable<TxRecord>): Record<ProtocolName, Tally> {
  const out = Object.fromEntries(PROTOCOLS.map((p) => [p, { txs: 0, own: 0, copies: 0, receivedBytes: 0, bytes: 0, sized: 0 }])) as Record<ProtocolName, Tally>;
  for (const tx of txs) {
    const t = out[tx.protocol];
    t.txs += 1;
    t.copies += tx.copies;
    if (tx.own) t.own += 1;
    else t.receivedBytes += tx.bytes;
    if (tx.bytes > 0) {
      t.bytes += tx.bytes;
      t.sized += 1;
    }
  }
  return out;
}

function render(): void {
  frame = 0;
  if (!light || !light.gossip) return;
  const gossip = light.gossip;
  const conns = light.connections();
  net?.setConnected(roles(conns));
  const peersBody = $<HTMLTableSectionElement>('ln-peers');
  peersBody.replaceChildren(
    ...[...conns].map(([peer, list]) => {
      const tr = document.createElement('tr');
      tr.dataset.peer = peer;
      tr.dataset.transports = [...new Set(list.map((c) => c.transport))].sort().join(' ');
      tr.append(
        cell(short(peer)),
        cell(tr.dataset.transports),
        cell(list.map((c) => `${c.direction}${c.limited ? ' (limited)' : ''} ${c.addr}`).join('\n')),
      );
      return tr;
    }),
  );
  txTable?.update(light.txs.values());

  // Gossipsub first (the stats @libp2p/gossipsub does not show are blank), then CAT and Strokkur;
  // each row's title holds its engine's own counters.
  const gossipRow = document.createElement('tr');
  const g = gossip.stats;
  const blank = (n: number | undefined) => (n === undefined ? '' : String(n));
  gossipRow.title = JSON.stringify(gossip.counters().engine);
  gossipRow.dataset.protocol = 'gossipsub';
  gossipRow.append(
    cell(`gossipsub (${gossip.router === 'js' ? '@libp2p' : 'txcast'} ${gossip.version})`),
    cell(String(light.topicPeers())),
    cell(String(g.own)),
    cell(String(g.delivered)),
    cell(g.framesIn === undefined ? '' : `${g.framesIn} / ${g.framesOut}`),
    cell(String(g.malformed)),
    cell(blank(g.oversized)),
    cell(blank(g.rateLimited)),
    cell(blank(g.disconnected)),
  );
  $<HTMLTableSectionElement>('ln-framed').replaceChildren(
    gossipRow,
    ...light.framed.map((f) => {
      const tr = document.createElement('tr');
      tr.title = JSON.stringify(f.counters());
      tr.dataset.protocol = f.name;
      const st = f.stats;
      tr.append(
        cell(f.name),
        cell(String(f.peers.size)),
        cell(String(st.own)),
        cell(String(st.delivered)),
        cell(`${st.framesIn} / ${st.framesOut}`),
        cell(String(st.malformed)),
        cell(String(st.oversized)),
        cell(String(st.rateLimited)),
        cell(String(st.disconnected)),
      );
      return tr;
    }),
  );
  const now = Date.now();
  $<HTMLTableSectionElement>('ln-bans').replaceChildren(
    ...light.bans.list().map((ban) => {
      const tr = document.createElement('tr');
      tr.dataset.peer = ban.peer;
      tr.append(cell(short(ban.peer)), cell(ban.reason), cell(`${Math.ceil((ban.untilMs - now) / 1000)} s`));
      net?.markHostile(ban.peer);
      return tr;
    }),
  );

  scheduleNetwork();
  drawCharts();

  let webrtc = 0;
  let relayConnected = false;
  for (const list of conns.values()) {
    if (list.some((c) => c.transport === 'webrtc')) webrtc += 1;
    if (light.relayAddr && list.some((c) => light!.relayAddr.includes(c.addr.split('/p2p/')[0]) && c.transport !== 'webrtc')) relayConnected = true;
  }
  const seen = tally(light.txs.values());
  const gs = gossip.stats;
  const counters = gossip.counters();
  const facts: Record<string, string | number> = {
    peerId: light.peerId,
    router: gossip.router,
    version: gossip.version,
    peers: conns.size,
    webrtcPeers: webrtc,
    relayConnected: String(relayConnected),
    reservations: light.reservations().length,
    topicPeers: light.topicPeers(),
    meshPeers: light.meshPeers(),
    // Gossipsub's txs, as the e2e tests have always read them.
    txs: seen.gossipsub.txs,
    own: gs.own,
    delivered: gs.delivered,
    copies: seen.gossipsub.copies,
    duplicates: gs.duplicates,
    malformed: gs.malformed,
    ...light.counters,
    badSignatures: counters.badSignatures,
    rejected: counters.rejected,
    bans: light.bans.banned,
    banRefused: light.bans.refused,
    banned: light.bans.list().length,
  };
  facts.dAnnounce = gossip.router === 'txcast' && gossip.version === 'v2.0' ? (started?.dAnnounce ?? '') : 'n/a';
  for (const [key, value] of Object.entries(gs)) facts[`gossipsub${key[0].toUpperCase()}${key.slice(1)}`] = value as number;
  if (gossip.router === 'txcast') {
    for (const [kind] of CONTROL) {
      // About txs (the tx topic), as the comparison table shows them.
      facts[`${kind}Sent`] = counters.txTopic.sent[kind] ?? 0;
      facts[`${kind}Received`] = counters.txTopic.received[kind] ?? 0;
    }
  }
  for (const f of light.framed) {
    facts[`${f.name}Peers`] = f.peers.size;
    facts[`${f.name}Txs`] = seen[f.name].txs;
    facts[`${f.name}Copies`] = seen[f.name].copies;
    for (const [key, value] of Object.entries(f.stats)) facts[`${f.name}${key[0].toUpperCase()}${key.slice(1)}`] = value;
  }
  if (net) {
    facts.netNodes = net.peers.length;
    facts.netPayload = net.payloadSends;
    facts.netControl = net.controlSends;
  }
  const rejected = gs.malformed + (gs.oversized ?? 0) + (gs.rateLimited ?? 0) + light.framed.reduce((sum, f) => sum + f.stats.malformed + f.stats.oversized + f.stats.rateLimited, 0);
  $<HTMLParagraphElement>('ln-summary').textContent = [
    `${plural(conns.size, 'peer')} (${webrtc} over WebRTC)${relayConnected ? ', relay connected' : ''}, ${plural(light.reservations().length, 'relay reservation')}`,
    `txs seen: ${PROTOCOLS.map((p) => `${seen[p].txs} ${NAMES[p]}`).join(', ')} (${PROTOCOLS.reduce((sum, p) => sum + seen[p].own, 0)} submitted here)`,
    `${plural(gs.duplicates, 'duplicate')} over gossipsub`,
    `gossipsub mesh ${light.meshPeers()} of ${light.topicPeers()} topic peers`,
    `${plural(rejected, 'frame')} rejected, ${plural(light.bans.list().length, 'peer')} banned`,
  ].join(' · ');
  const dl = $<HTMLDListElement>('ln-facts');
  dl.replaceChildren(
    ...Object.entries(facts).map(([key, value]) => {
      root.dataset[key] = String(value);
      const div = document.createElement('div');
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = key;
      dd.textContent = String(value);
      div.append(dt, dd);
      return div;
    }),
  );
  renderControl(seen.gossipsub);
}

// ---- GossipSub control entries, live and simulated -----------------------------------------

/** The last comparison run, what it was for, and whether one is running. */
let sim: { key: string; result: CompareResult | null; error: string; running: boolean; startedMs: number } = { key: '', result: null, error: '', running: false, startedMs: -Infinity };
/** Runs at most this often while the inputs keep changing (txs arriving). */
const SIM_EVERY_MS = 1500;

function fmt(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 2 : 1);
}

/** The live counts of this page's router next to the simulator's per-node averages. */
function renderControl(gossipsub: Tally): void {
  if (!light?.gossip || !started) return;
  const gossip = light.gossip;
  const visible = gossip.router === 'txcast';
  const counters = gossip.counters();
  const result = sim.result;
  const rows = CONTROL.map(([kind, name]) => {
    const tr = document.createElement('tr');
    tr.dataset.kind = kind;
    const own = counters.txTopic;
    const live = visible ? [fmt(own.sent[kind] ?? 0), fmt(own.received[kind] ?? 0)] : ['not visible', 'not visible'];
    tr.append(cell(name), ...live.map(cell), cell(result ? fmt(result.sent[kind]) : '…'), cell(result ? fmt(result.received[kind]) : '…'));
    return tr;
  });
  const dups = document.createElement('tr');
  dups.dataset.kind = 'duplicates';
  const perTx = gossipsub.txs - gossipsub.own > 0 ? gossip.stats.duplicates / (gossipsub.txs - gossipsub.own) : Number.NaN;
  dups.append(cell('duplicates per tx received'), cell(''), cell(fmt(perTx)), cell(''), cell(result ? fmt(result.duplicatesPerTx) : '…'));
  $<HTMLTableSectionElement>('ln-gs').replaceChildren(...rows, dups);
  const version = effectiveVersion(started);
  const nodes = Math.max(4, light.topicPeers() + 1);
  $<HTMLParagraphElement>('ln-gs-note').textContent =
    `Live: the entries this page's router sent and received about txs (the tx topic; address announcements left out)` +
    `${visible ? '' : '; @libp2p/gossipsub does not show them to the page'}. Simulator: the same router code and settings (${version}` +
    `${version === 'v2.0' ? `, D_announce ${started.dAnnounce}` : ''}) on a complete graph of ${result?.nodes ?? Math.min(32, nodes)} nodes ` +
    `(this page and its topic peers, at least 4) carrying the ${gossipsub.txs} txs this page saw, at their mean size, from random publishers; averages per node.`;
  const data = root.dataset;
  if (result) {
    data.simNodes = String(result.nodes);
    data.simTxs = String(result.simulatedTxs);
    for (const [kind] of CONTROL) {
      data[`sim${kind[0].toUpperCase()}${kind.slice(1)}Sent`] = fmt(result.sent[kind]);
      data[`sim${kind[0].toUpperCase()}${kind.slice(1)}Received`] = fmt(result.received[kind]);
    }
    data.simDuplicatesPerTx = fmt(result.duplicatesPerTx);
  }
  data.simState = sim.running ? 'running' : sim.error ? 'error' : result ? 'done' : 'idle';
  const status = $<HTMLParagraphElement>('ln-sim-status');
  status.textContent = sim.error
    ? `simulator: ${sim.error}`
    : sim.running
      ? 'simulator: running…'
      : result
        ? `simulator: ${result.simulatedTxs} txs on ${result.nodes} nodes in ${result.wallMs.toFixed(0)} ms${result.scale > 1 ? `, counts scaled by ${result.scale.toFixed(2)} to ${gossipsub.txs} txs` : ''}; delivery ${(100 * result.delivery).toFixed(0)}%`
        : 'simulator: runs once this page has seen a gossipsub tx';
  maybeSimulate(gossipsub);
}

/** Starts a comparison run when its inputs changed (at most one at a time, every SIM_EVERY_MS). */
function maybeSimulate(gossipsub: Tally): void {
  if (!light || !started || !simcompare || sim.running || gossipsub.txs === 0) return;
  const input = {
    nodes: light.topicPeers() + 1,
    txs: gossipsub.txs,
    txBytes: gossipsub.sized ? gossipsub.bytes / gossipsub.sized : DEFAULT_TX_BYTES,
    version: effectiveVersion(started),
    dAnnounce: started.dAnnounce,
  };
  const key = simcompare.inputKey(input);
  if (key === sim.key) return;
  if (performance.now() - sim.startedMs < SIM_EVERY_MS) return scheduleLater();
  sim = { ...sim, key, running: true, startedMs: performance.now(), error: '' };
  const { simulateCounts } = simcompare;
  void (async () => {
    try {
      // The same module the light node runs on (already initialised by it).
      const wasm = await import('../wasm/txcast_wasm.js');
      await wasm.default();
      const result = await simulateCounts(wasm.Simulation, input, { cancelled: () => !light });
      if (result) sim.result = result;
    } catch (error) {
      sim.error = (error as Error).message;
      log(`simulator comparison failed: ${sim.error}`);
    }
    sim.running = false;
    scheduleRender();
  })();
}

/** The picked tx: the one chosen in the list, else the newest this page has seen. */
function pickedTx(): string | null {
  if (!net) return null;
  const ids = net.txIds();
  if (pick.value && ids.includes(pick.value)) return pick.value;
  return ids.at(-1) ?? null;
}

// The network view animates on its own frames (flashes move), apart from the tables and charts.
let netFrame = 0;
function scheduleNetwork(): void {
  if (!netFrame) netFrame = requestAnimationFrame(drawNetwork);
}

/** "cat ab12cd34…9f0e1a" for a key "cat:<hash>". */
function keyLabel(key: string): string {
  const [protocol, hash] = key.split(':');
  return `${protocol} ${hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash}`;
}

function drawNetwork(): void {
  netFrame = 0;
  if (!net || !views || !root.classList.contains('open')) return;
  const picked = pickedTx();
  const { spanUs, nodes, links, view } = views.netdraw.drawLiveNet(netCanvas, net, picked);
  netCanvas.dataset.nodes = String(nodes);
  netCanvas.dataset.links = String(links);
  netCanvas.dataset.picked = picked ?? '';
  if (Math.round(spanUs / 1000) !== legendSpan) {
    legendSpan = Math.round(spanUs / 1000);
    views.legend.drawLegend(svg('ln-legend'), legendSpan);
  }
  const reached = view ? [...view.arrivalUs].filter((t) => t >= 0).length : 0;
  $<HTMLSpanElement>('ln-pick-info').textContent = view && picked
    ? `${keyLabel(picked)}: ${reached} of ${nodes} nodes known to have it, ${view.duplicates.length / 2} duplicates here`
    : 'no tx yet';
  // Keep animating while flashes are on their way.
  if (net.busy(net.nowUs())) scheduleNetwork();
}

function refreshPickList(): void {
  if (!net || document.activeElement === pick) return;
  const ids = net.txIds().slice(-50).reverse();
  const keep = pick.value;
  pick.replaceChildren(new Option('newest', ''), ...ids.map((id) => new Option(keyLabel(id), id)));
  pick.value = ids.includes(keep) ? keep : '';
}

/** The charts, at most twice a second (D3 rebuilds the SVG each time). */
function drawCharts(): void {
  if (!light || !views) return;
  const now = Date.now();
  if (now - chartDrawnMs < 500) {
    scheduleLater();
    return;
  }
  chartDrawnMs = now;
  refreshPickList();
  const { charts, live } = views;
  $<HTMLUListElement>('ln-run-legend').replaceChildren(
    ...live.PROTOCOLS.map((protocol) => {
      const li = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'run-swatch';
      swatch.style.background = live.colourOf(protocol);
      li.append(swatch, protocol);
      return li;
    }),
  );
  const received: Record<ProtocolName, number[]> = { gossipsub: [], cat: [], strokkur: [] };
  for (const tx of light.txs.values()) if (!tx.own) received[tx.protocol].push((tx.firstMs - startedMs) / 1000);
  const series = live.PROTOCOLS.map((label) => {
    const times = received[label].sort((a, b) => a - b);
    return { label, colour: live.colourOf(label), x: [0, ...times], y: [0, ...times.map((_, k) => k + 1)] };
  });
  const chart = svg('ln-chart');
  charts.lineChart(chart, { width: 340, height: 200, xLabel: 's since start', yLabel: 'txs received' }, series);
  chart.dataset.series = series.map((s) => `${s.label}:${s.x.length - 1}`).join(' ');

  void storeReady().then((store) => {
    if (!store || !light || !net || !views || !light.gossip) return;
    const rows = store.book.rows();
    svg('ln-latency').dataset.series = live.drawLatency(svg('ln-latency'), rows);
    // Overhead as the simulator defines it: bytes received per byte of new tx received.
    const seen = tally(light.txs.values());
    const overhead = { gossipsub: Number.NaN, cat: Number.NaN, strokkur: Number.NaN };
    const gossipIn = light.gossip.stats.bytesIn;
    if (gossipIn !== undefined) overhead.gossipsub = seen.gossipsub.receivedBytes ? gossipIn / seen.gossipsub.receivedBytes : Number.NaN;
    else {
      // @libp2p/gossipsub shows the page only the messages: full copies received per new byte.
      let copiesIn = 0;
      for (const tx of light.txs.values()) if (tx.protocol === 'gossipsub' && !tx.own) copiesIn += tx.bytes * tx.copies;
      overhead.gossipsub = seen.gossipsub.receivedBytes ? copiesIn / seen.gossipsub.receivedBytes : Number.NaN;
    }
    for (const f of light.framed) overhead[f.name] = seen[f.name].receivedBytes ? f.stats.bytesIn / seen[f.name].receivedBytes : Number.NaN;
    live.drawDuplicates(svg('ln-dups'), rows, overhead);
    svg('ln-dups').dataset.duplicates = live.PROTOCOLS.map((p) => `${p}:${rows.filter((r) => r.protocol === p && !r.own).reduce((sum, r) => sum + r.duplicates, 0)}`).join(' ');
    live.drawBytes(svg('ln-bandwidth'), net.bins);
  });
}

let later: ReturnType<typeof setTimeout> | null = null;
function scheduleLater(): void {
  later ??= setTimeout(() => {
    later = null;
    scheduleRender();
  }, 500);
}

// ---- actions -------------------------------------------------------------------------------

async function start(): Promise<void> {
  if (light) return dialMore();
  let settings: GossipSettings;
  try {
    settings = formSettings();
  } catch (error) {
    showSettingsError((error as Error).message);
    statusLine.textContent = 'not started: the settings need fixing';
    return;
  }
  if (urlErrors.length) log(`started with the settings shown; the URL's were refused: ${urlErrors.join('; ')}`);
  urlErrors = [];
  showSettingsError('');
  startButton.disabled = true;
  root.dataset.state = 'starting';
  settingsChanged();
  statusLine.textContent = 'loading libp2p…';
  try {
    const { LightNode } = await import('./node');
    views = await import('./views');
    simcompare = await import('./simcompare');
    void loadCaps();
    const { netview } = views;
    startedMs = Date.now();
    started = settings;
    light = new LightNode({
      onChange: scheduleRender,
      onArrival: record,
      onWire: (protocol, direction, peer, bytes, info) => {
        if (!net) return;
        net.wire(protocol, direction, peer, bytes, info.payload);
        // A peer that sends a full tx has it; one we send it to has it once it lands.
        const at = direction === 'in' ? wallMs() : wallMs() + netview.FLASH_US / 1000;
        for (const hash of info.txs) net.peerHas(`${protocol}:${hash}`, peer, at);
      },
      log,
      router: settings.router,
      version: settings.version,
      dAnnounce: settings.dAnnounce,
    });
    await light.start(relayInput.value);
    net = new netview.LiveNet(light.peerId, startedMs);
    txTable = new TxTable($<HTMLTableSectionElement>('ln-txs'), short);
    const relay = light.relayPeer();
    if (relay) net.node(relay, 'relay');
    root.dataset.state = 'running';
    const gossip = light.gossip!;
    const what = gossip.router === 'js' ? `${ROUTER_NAMES.js} (${gossip.version})` : `${ROUTER_NAMES.txcast} ${gossip.version}${gossip.version === 'v2.0' ? `, D_announce ${settings.dAnnounce}` : ''}`;
    statusLine.textContent = `running as ${light.peerId}; gossipsub: ${what}`;
    $<HTMLElement>('ln-bandwidth-caption').textContent =
      gossip.router === 'txcast'
        ? 'Bytes over time: bytes sent and received per second, per protocol (every frame, gossipsub control included).'
        : 'Bytes over time: bytes sent and received per second, per protocol (gossipsub: tx and announcement payloads only; @libp2p/gossipsub does not show its control messages to the page).';
    submitButton.disabled = false;
    ownButton.disabled = false;
    startButton.textContent = 'Dial';
    startButton.title = 'dial the address above as well (another relay or peer)';
  } catch (error) {
    root.dataset.state = 'error';
    statusLine.textContent = `failed: ${(error as Error).message}`;
    log(statusLine.textContent);
    await light?.stop().catch(() => undefined);
    light = null;
    started = null;
  }
  startButton.disabled = false;
  settingsChanged();
  scheduleRender();
}

/** Once running, the start form dials one more peer; a banned one is refused. */
async function dialMore(): Promise<void> {
  if (!light) return;
  const addr = relayInput.value.trim();
  if (!addr) return;
  root.dataset.dial = 'dialling';
  try {
    await light.dial(addr);
    root.dataset.dial = 'connected';
  } catch (error) {
    root.dataset.dial = 'refused';
    log(`dial ${addr} failed: ${(error as Error).message}`);
  }
  scheduleRender();
}

function checkedProtocols(): ProtocolName[] {
  return PROTOCOLS.filter((p) => $<HTMLInputElement>(`ln-${p}`).checked);
}

/** Why `bytes` cannot go on `protocols` (the first cap it exceeds), or ''. */
function overCap(protocols: ProtocolName[], bytes: number): string {
  for (const p of protocols) {
    if (caps && bytes > caps[p]) return `${p} carries txs of at most ${caps[p]} bytes; this one has ${bytes}`;
  }
  return '';
}

async function submit(): Promise<void> {
  if (!light) return;
  const bytes = Math.floor(Number($<HTMLInputElement>('ln-bytes').value));
  const count = Number($<HTMLInputElement>('ln-count').value);
  const protocols = checkedProtocols();
  const refuse = (why: string) => {
    root.dataset.submitError = why;
    $<HTMLParagraphElement>('ln-submit-error').textContent = why;
  };
  if (protocols.length === 0) return refuse('tick at least one protocol');
  if (!Number.isInteger(count) || count < 1 || count > 1000) return refuse('count is a whole number from 1 to 1000');
  if (!Number.isFinite(bytes) || bytes < GENERATED_HEADER_BYTES) return refuse(`a generated tx has at least ${GENERATED_HEADER_BYTES} bytes (its header and submit time)`);
  // Checked here for all protocols first: nothing goes out if one of them cannot carry it.
  const over = overCap(protocols, bytes);
  if (over) return refuse(over);
  delete root.dataset.submitError;
  $<HTMLParagraphElement>('ln-submit-error').textContent = '';
  for (let i = 0; i < count; i++) {
    try {
      await light.submitGenerated(protocols, bytes);
    } catch (error) {
      log(`submit failed: ${(error as Error).message}`);
    }
  }
  root.dataset.submitted = String(light.counters.published);
}

// ---- a user's own tx -------------------------------------------------------------------------

function ownFormat(): 'text' | 'hex' | 'file' {
  const checked = root.querySelector<HTMLInputElement>('input[name="ln-format"]:checked');
  return (checked?.value as 'text' | 'hex' | 'file') ?? 'text';
}

/** Shows the tx's size as given so far, and the caps it is over. */
function showOwnSize(): void {
  const format = ownFormat();
  let text = '';
  let size = -1;
  if (format === 'file') {
    const file = ownFile.files?.[0];
    if (file) size = file.size;
    else text = 'no file picked';
  } else if (ownText.value) {
    try {
      size = parseTx(ownText.value, format).length;
    } catch (error) {
      text = (error as Error).message;
    }
  }
  if (size >= 0) {
    const over = checkedProtocols().filter((p) => caps && size > caps[p]);
    text = `${plural(size, 'byte')}${over.length ? ` — over the cap of ${over.map((p) => NAMES[p]).join(', ')}` : ''}`;
  }
  $<HTMLSpanElement>('ln-own-size').textContent = text;
}

function syncOwnFormat(): void {
  const file = ownFormat() === 'file';
  ownFile.hidden = !file;
  ownText.hidden = file;
  showOwnSize();
}

function showOwn(result: string, error: string): void {
  $<HTMLParagraphElement>('ln-own-result').textContent = result;
  $<HTMLParagraphElement>('ln-own-error').textContent = error;
  if (error) root.dataset.ownError = error;
  else delete root.dataset.ownError;
}

async function sendOwn(): Promise<void> {
  if (!light) return;
  const protocols = checkedProtocols();
  const format = ownFormat();
  ownButton.disabled = true;
  try {
    if (protocols.length === 0) throw new Error('tick at least one protocol to send on');
    let data: Uint8Array;
    if (format === 'file') {
      const file = ownFile.files?.[0];
      if (!file) throw new Error('pick a file first');
      // Refused before reading: a file far over the caps is never loaded.
      const over = overCap(protocols, file.size);
      if (over) throw new Error(over);
      data = new Uint8Array(await file.arrayBuffer());
    } else {
      data = parseTx(ownText.value, format);
    }
    const hash = await light.submitBytes(protocols, data);
    root.dataset.ownTx = hash;
    root.dataset.ownTxBytes = String(data.length);
    showOwn(`sent ${hash} (${plural(data.length, 'byte')}) on ${protocols.map((p) => NAMES[p]).join(', ')}`, '');
    log(`own tx ${hash.slice(0, 16)}… (${data.length} bytes) on ${protocols.join(', ')}`);
  } catch (error) {
    showOwn('', (error as Error).message);
  } finally {
    ownButton.disabled = !light;
    scheduleRender();
  }
}

// ---- the tx list's buttons -------------------------------------------------------------------

async function copyHash(hash: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(hash);
    log(`copied ${hash}`);
  } catch {
    // No clipboard here (an insecure origin, or refused): show the hash to copy by hand.
    window.prompt('the full SHA-256 of the tx', hash);
  }
}

function downloadTx(key: string): void {
  const tx = light?.txs.get(key);
  if (!tx?.data) {
    log(`${keyLabel(key)}: its bytes are no longer kept`);
    return;
  }
  save(`tx-${tx.protocol}-${tx.id.slice(0, 16)}.bin`, 'application/octet-stream', tx.data as Uint8Array<ArrayBuffer>);
}

opener.addEventListener('click', () => {
  open();
  scheduleRender();
});
$<HTMLButtonElement>('ln-export').addEventListener('click', () => void exportArrivals('json'));
$<HTMLButtonElement>('ln-export-csv').addEventListener('click', () => void exportArrivals('csv'));
$<HTMLButtonElement>('ln-export-log').addEventListener('click', () => void exportArrivals('txal'));
$<HTMLButtonElement>('ln-clear').addEventListener('click', () => {
  void storeReady().then((store) => store?.clear()).then(showSaved);
});
$<HTMLTableSectionElement>('ln-txs').addEventListener('click', (event) => {
  const target = event.target as HTMLElement;
  const key = target.closest('tr')?.dataset.key;
  if (!key) return;
  const action = target.closest<HTMLButtonElement>('button[data-action]')?.dataset.action;
  if (action === 'copy') return void copyHash(key.slice(key.indexOf(':') + 1));
  if (action === 'download') return downloadTx(key);
  refreshPickList();
  if (![...pick.options].some((o) => o.value === key)) pick.append(new Option(keyLabel(key), key));
  pick.value = key;
  scheduleRender();
});
pick.addEventListener('change', scheduleNetwork);
root.querySelector('.ln-close')!.addEventListener('click', () => root.classList.remove('open'));
for (const control of [routerSelect, versionSelect, dAnnounceInput]) {
  control.addEventListener('change', () => {
    settingsChanged();
    showSettingsError('');
  });
}
$<HTMLFormElement>('ln-start-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void start();
});
$<HTMLFormElement>('ln-submit-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});
$<HTMLFormElement>('ln-own-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void sendOwn();
});
for (const radio of root.querySelectorAll<HTMLInputElement>('input[name="ln-format"]')) radio.addEventListener('change', syncOwnFormat);
ownText.addEventListener('input', showOwnSize);
ownFile.addEventListener('change', showOwnSize);
for (const p of PROTOCOLS) $<HTMLInputElement>(`ln-${p}`).addEventListener('change', showOwnSize);
if (params.has('relay') || location.hash === '#lightnode') open();
if (params.get('autostart') === '1') {
  if (urlErrors.length) statusLine.textContent = 'not started: the URL asks for settings that cannot run (see above)';
  else void start();
}
