// The light node panel: mounted by one marked line in web/index.html. A "Light node" button opens
// it; ?relay=MULTIADDR (or #lightnode) in the URL opens it at once. libp2p loads only when the
// panel opens. Every count is also a data attribute on #lightnode, for the e2e tests.
import './panel.css';
import type { Copy, ProtocolName } from './arrivals';
import type { LightNode } from './node';
import type { ArrivalStore } from './store';
import { DEFAULT_TX_BYTES } from './txwire.mjs';

const params = new URLSearchParams(location.search);
const root = document.createElement('section');
root.id = 'lightnode';
root.className = 'lightnode';
root.dataset.state = 'closed';
root.innerHTML = `
  <header><h2>Light node</h2><button type="button" class="ln-close" aria-label="close">×</button></header>
  <form class="ln-row" id="ln-start-form">
    <label>relay <input id="ln-relay" name="relay" size="60" placeholder="/ip4/…/tcp/9090/ws/p2p/12D3Koo…" /></label>
    <button id="ln-start" type="submit">Start</button>
  </form>
  <p class="ln-status" id="ln-status" role="status">not started</p>
  <form class="ln-row" id="ln-submit-form">
    <label>tx bytes <input id="ln-bytes" type="number" min="16" max="65536" value="${DEFAULT_TX_BYTES}" /></label>
    <label>count <input id="ln-count" type="number" min="1" max="1000" value="1" /></label>
    <label><input id="ln-gossipsub" type="checkbox" checked /> gossipsub</label>
    <label><input id="ln-cat" type="checkbox" checked /> CAT</label>
    <label><input id="ln-strokkur" type="checkbox" checked /> Strokkur</label>
    <button id="ln-submit" type="submit" disabled>Submit tx</button>
  </form>
  <p class="ln-summary" id="ln-summary" aria-live="polite"></p>
  <details class="ln-all"><summary>all counters</summary><dl class="ln-facts" id="ln-facts"></dl></details>
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
      <figcaption>Latency CDF: share of arrivals within a time after the tx was submitted. Only gossipsub txs carry their
        submit time (the submitter's clock: skew between machines shifts it); CAT and Strokkur txs do not.</figcaption></figure>
    <figure><svg id="ln-dups" class="ln-chart" aria-label="duplicates per tx and overhead"></svg>
      <figcaption>Duplicates per delivered tx (full copies after the first; Strokkur sends codewords, never full copies)
        and download overhead (bytes received per byte of new tx, this session).</figcaption></figure>
    <figure><svg id="ln-bandwidth" class="ln-chart" aria-label="bytes over time"></svg>
      <figcaption>Bytes over time: bytes sent and received per second, per protocol (gossipsub: tx and announcement
        payloads only; its own control messages are not visible to the page).</figcaption></figure>
  </div>
  <h3>CAT and Strokkur</h3>
  <table class="ln-table"><thead><tr><th>protocol</th><th>peers</th><th>own</th><th>delivered</th><th>frames in/out</th><th>malformed</th><th>oversized</th><th>rate-limited</th><th>disconnected</th></tr></thead><tbody id="ln-framed"></tbody></table>
  <h3>Peers</h3>
  <table class="ln-table"><thead><tr><th>peer</th><th>transports</th><th>connections</th></tr></thead><tbody id="ln-peers"></tbody></table>
  <h3>Transactions</h3>
  <table class="ln-table"><thead><tr><th>tx</th><th>origin</th><th>bytes</th><th>latency ms</th><th>copies</th><th>from</th></tr></thead><tbody id="ln-txs"></tbody></table>
  <h3>Banned peers</h3>
  <p class="ln-note">A peer cut off for garbage frames (or by the protocol) is banned by peer id for a while: its
    reconnects are refused by the connection gater and on the protocol streams.</p>
  <table class="ln-table"><thead><tr><th>peer</th><th>why</th><th>ban ends in</th></tr></thead><tbody id="ln-bans"></tbody></table>
  <h3>Saved arrivals</h3>
  <p class="ln-note">Every tx this node sees gets the next number of its own sequence; its first arrival is stored in the
    arrival log's tickets encoding (row key, column, value bytes of the <code>arrivals</code> crate) in IndexedDB, one
    record per tx, and later copies are counted as duplicates. Kept across reloads.</p>
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
const statusLine = $<HTMLParagraphElement>('ln-status');
const logBox = $<HTMLPreElement>('ln-log');
const pick = $<HTMLSelectElement>('ln-pick');
const netCanvas = $<HTMLCanvasElement>('ln-net');
relayInput.value = params.get('relay') ?? '';

type Views = typeof import('./views');
let light: LightNode | null = null;
let views: Views | null = null;
let net: import('./netview').LiveNet | null = null;
let startedMs = 0;
let chartDrawnMs = 0;
let legendSpan = -1;
const logLines: string[] = [];
const short = (peer: string) => (peer.length > 10 ? `…${peer.slice(-8)}` : peer);

function log(line: string): void {
  logLines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  if (logLines.length > 200) logLines.shift();
  logBox.textContent = logLines.join('\n');
}

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
    net?.arrival(copy.id, copy.from, first, copy.atMs, copy.sentAtMs);
    savedTimer ??= setTimeout(() => {
      savedTimer = null;
      void showSaved();
    }, 300);
    scheduleRender();
  });
}

function download(name: string, type: string, body: BlobPart): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([body], { type }));
  link.download = `txcast-arrivals-${new Date().toISOString().replace(/[:.]/g, '-')}.${name}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

async function exportArrivals(format: 'json' | 'csv' | 'txal'): Promise<void> {
  const store = await storeReady();
  if (!store) return;
  await store.flush();
  const { exportJson } = await import('./arrivals');
  if (format === 'json') download('json', 'application/json', exportJson(store.book, light?.peerId ?? ''));
  else if (format === 'txal') download('txal', 'application/octet-stream', store.book.exportBlob() as Uint8Array<ArrayBuffer>);
  else {
    const rows = store.book.rows();
    const lines = ['seq,id,protocol,own,first_ms,latency_ms,copies,duplicates,from'];
    for (const r of rows) lines.push([r.seq, r.id, r.protocol, r.own, r.firstMs.toFixed(3), r.latencyMs ?? '', r.copies, r.duplicates, r.from].join(','));
    download('csv', 'text/csv', `${lines.join('\n')}\n`);
  }
}

// ---- drawing -------------------------------------------------------------------------------

let frame = 0;
function scheduleRender(): void {
  if (!frame) frame = requestAnimationFrame(render);
}

function open(): void {
  root.dataset.state = light ? root.dataset.state : 'idle';
  root.classList.add('open');
  void showSaved();
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

function render(): void {
  frame = 0;
  if (!light) return;
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
  const txs = [...light.txs.values()].sort((a, b) => b.firstMs - a.firstMs).slice(0, 100);
  $<HTMLTableSectionElement>('ln-txs').replaceChildren(
    ...txs.map((tx) => {
      const tr = document.createElement('tr');
      tr.dataset.tx = tx.id;
      tr.title = 'click to pick this tx in the network view';
      tr.append(
        cell(tx.id),
        cell(tx.own ? 'self' : 'peer'),
        cell(String(tx.bytes)),
        cell(tx.own ? '–' : (tx.firstMs - tx.sentAtMs).toFixed(0)),
        cell(String(tx.copies)),
        cell(tx.own ? '' : short(tx.from)),
      );
      return tr;
    }),
  );

  $<HTMLTableSectionElement>('ln-framed').replaceChildren(
    ...light.framed.map((f) => {
      const tr = document.createElement('tr');
      tr.title = JSON.stringify(f.counters());
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
  const all = [...light.txs.values()];
  const own = all.filter((t) => t.own).length;
  const copies = all.reduce((sum, t) => sum + t.copies, 0);
  const facts: Record<string, string | number> = {
    peerId: light.peerId,
    peers: conns.size,
    webrtcPeers: webrtc,
    relayConnected: String(relayConnected),
    reservations: light.reservations().length,
    topicPeers: light.topicPeers(),
    meshPeers: light.meshPeers(),
    txs: light.txs.size,
    own,
    copies,
    ...light.counters,
    bans: light.bans.banned,
    banRefused: light.bans.refused,
    banned: light.bans.list().length,
  };
  for (const f of light.framed) {
    facts[`${f.name}Peers`] = f.peers.size;
    for (const [key, value] of Object.entries(f.stats)) facts[`${f.name}${key[0].toUpperCase()}${key.slice(1)}`] = value;
  }
  if (net) {
    facts.netNodes = net.peers.length;
    facts.netPayload = net.payloadSends;
    facts.netControl = net.controlSends;
  }
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const rejected = light.counters.malformed + light.framed.reduce((sum, f) => sum + f.stats.malformed + f.stats.oversized + f.stats.rateLimited, 0);
  $<HTMLParagraphElement>('ln-summary').textContent = [
    `${plural(conns.size, 'peer')} (${webrtc} over WebRTC)${relayConnected ? ', relay connected' : ''}, ${plural(light.reservations().length, 'relay reservation')}`,
    `${plural(light.txs.size, 'tx')} seen (${own} submitted here), ${plural(light.counters.duplicates, 'duplicate')} over gossipsub`,
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
  $<HTMLSpanElement>('ln-pick-info').textContent = view
    ? `${picked}: ${reached} of ${nodes} nodes known to have it, ${view.duplicates.length / 2} duplicates here`
    : 'no tx yet';
  // Keep animating while flashes are on their way.
  if (net.busy(net.nowUs())) scheduleNetwork();
}

function refreshPickList(): void {
  if (!net || document.activeElement === pick) return;
  const ids = net.txIds().slice(-50).reverse();
  const keep = pick.value;
  pick.replaceChildren(new Option('newest', ''), ...ids.map((id) => new Option(id, id)));
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
  const sources: [ProtocolName, Iterable<{ firstMs: number; own: boolean }>][] = [
    ['gossipsub', light.txs.values()],
    ...light.framed.map((f): [ProtocolName, Iterable<{ firstMs: number; own: boolean }>] => [f.name, f.arrivals.values()]),
  ];
  const series = sources.map(([label, arrivals]) => {
    const times = [...arrivals].filter((a) => !a.own).map((a) => (a.firstMs - startedMs) / 1000).sort((a, b) => a - b);
    return { label, colour: live.colourOf(label), x: [0, ...times], y: [0, ...times.map((_, k) => k + 1)] };
  });
  const chart = svg('ln-chart');
  charts.lineChart(chart, { width: 340, height: 200, xLabel: 's since start', yLabel: 'txs received' }, series);
  chart.dataset.series = series.map((s) => `${s.label}:${s.x.length - 1}`).join(' ');

  void storeReady().then((store) => {
    if (!store || !light || !net || !views) return;
    const rows = store.book.rows();
    svg('ln-latency').dataset.series = live.drawLatency(svg('ln-latency'), rows);
    // Overhead as the simulator defines it: bytes received per byte of new tx received.
    const received = (protocol: ProtocolName) => rows.filter((r) => r.protocol === protocol && !r.own);
    const gossipBytes = [...light.txs.values()].filter((t) => !t.own).reduce((sum, t) => sum + t.bytes, 0);
    const gossipIn = [...light.txs.values()].filter((t) => !t.own).reduce((sum, t) => sum + t.bytes * t.copies, 0);
    const overhead = { gossipsub: gossipBytes ? gossipIn / gossipBytes : Number.NaN, cat: Number.NaN, strokkur: Number.NaN };
    for (const f of light.framed) {
      const useful = f.stats.delivered * txBytes();
      overhead[f.name] = useful ? f.stats.bytesIn / useful : Number.NaN;
    }
    live.drawDuplicates(svg('ln-dups'), rows, overhead);
    svg('ln-dups').dataset.duplicates = live.PROTOCOLS.map((p) => `${p}:${received(p).reduce((sum, r) => sum + r.duplicates, 0)}`).join(' ');
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

const txBytes = () => Number($<HTMLInputElement>('ln-bytes').value) || DEFAULT_TX_BYTES;

// ---- actions -------------------------------------------------------------------------------

async function start(): Promise<void> {
  if (light) return dialMore();
  startButton.disabled = true;
  root.dataset.state = 'starting';
  statusLine.textContent = 'loading libp2p…';
  try {
    const { LightNode } = await import('./node');
    views = await import('./views');
    const { netview } = views;
    startedMs = Date.now();
    light = new LightNode({
      onChange: scheduleRender,
      onArrival: record,
      onWire: (protocol, direction, peer, bytes, payload) => net?.wire(protocol, direction, peer, bytes, payload),
      log,
    });
    await light.start(relayInput.value);
    net = new netview.LiveNet(light.peerId, startedMs);
    const relay = light.relayPeer();
    if (relay) net.node(relay, 'relay');
    root.dataset.state = 'running';
    statusLine.textContent = `running as ${light.peerId}`;
    submitButton.disabled = false;
    startButton.textContent = 'Dial';
    startButton.title = 'dial the address above as well (another relay or peer)';
  } catch (error) {
    root.dataset.state = 'error';
    statusLine.textContent = `failed: ${(error as Error).message}`;
    log(statusLine.textContent);
    await light?.stop().catch(() => undefined);
    light = null;
  }
  startButton.disabled = false;
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

async function submit(): Promise<void> {
  if (!light) return;
  const bytes = txBytes();
  const count = Math.min(1000, Math.max(1, Number($<HTMLInputElement>('ln-count').value) || 1));
  const on = (id: string) => $<HTMLInputElement>(id).checked;
  for (let i = 0; i < count; i++) {
    try {
      if (on('ln-cat')) light.submitFramed('cat', bytes);
      if (on('ln-strokkur')) light.submitFramed('strokkur', bytes);
      if (on('ln-gossipsub')) await light.submit(bytes);
    } catch (error) {
      log(`submit failed: ${(error as Error).message}`);
    }
  }
  root.dataset.submitted = String(light.counters.published);
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
  const id = (event.target as HTMLElement).closest('tr')?.dataset.tx;
  if (!id) return;
  refreshPickList();
  if (![...pick.options].some((o) => o.value === id)) pick.append(new Option(id, id));
  pick.value = id;
  scheduleRender();
});
pick.addEventListener('change', scheduleNetwork);
root.querySelector('.ln-close')!.addEventListener('click', () => root.classList.remove('open'));
$<HTMLFormElement>('ln-start-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void start();
});
$<HTMLFormElement>('ln-submit-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void submit();
});
if (params.has('relay') || location.hash === '#lightnode') open();
if (params.get('autostart') === '1') void start();
