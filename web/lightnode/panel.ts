// The light node panel: mounted by one marked line in web/index.html. A "Light node" button opens
// it; ?relay=MULTIADDR (or #lightnode) in the URL opens it at once. libp2p loads only when the
// panel opens. Every count is also a data attribute on #lightnode, for the e2e tests.
import './panel.css';
import type { LightNode, LightNodeOptions } from './node';
import { ArrivalStore, exportJson } from './store';
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
  <dl class="ln-facts" id="ln-facts"></dl>
  <h3>Arrivals over time</h3>
  <svg id="ln-chart" class="ln-chart" aria-label="txs received over time, per protocol"></svg>
  <h3>CAT and Strokkur</h3>
  <table class="ln-table"><thead><tr><th>protocol</th><th>peers</th><th>own</th><th>delivered</th><th>frames in/out</th><th>malformed</th><th>oversized</th><th>rate-limited</th><th>disconnected</th></tr></thead><tbody id="ln-framed"></tbody></table>
  <h3>Peers</h3>
  <table class="ln-table"><thead><tr><th>peer</th><th>transports</th><th>connections</th></tr></thead><tbody id="ln-peers"></tbody></table>
  <h3>Transactions</h3>
  <table class="ln-table"><thead><tr><th>tx</th><th>origin</th><th>bytes</th><th>latency ms</th><th>copies</th><th>from</th></tr></thead><tbody id="ln-txs"></tbody></table>
  <h3>Saved arrivals</h3>
  <p class="ln-row">
    <span id="ln-saved">–</span> arrivals stored in this browser (kept across reloads)
    <button id="ln-export" type="button">Export JSON</button>
    <button id="ln-clear" type="button">Clear</button>
  </p>
  <pre class="ln-log" id="ln-log"></pre>`;

const opener = document.createElement('button');
opener.type = 'button';
opener.id = 'lightnode-open';
opener.className = 'lightnode-open';
opener.textContent = 'Light node';
document.body.append(opener, root);

const $ = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`)!;
const relayInput = $<HTMLInputElement>('ln-relay');
const startButton = $<HTMLButtonElement>('ln-start');
const submitButton = $<HTMLButtonElement>('ln-submit');
const statusLine = $<HTMLParagraphElement>('ln-status');
const logBox = $<HTMLPreElement>('ln-log');
relayInput.value = params.get('relay') ?? '';

let light: LightNode | null = null;
let charts: typeof import('../charts') | null = null;
let palette: typeof import('../palette') | null = null;
let startedMs = 0;
let chartDrawnMs = 0;
const storeReady: Promise<ArrivalStore | null> = ArrivalStore.open().catch((error) => {
  log(`arrival store unavailable: ${(error as Error).message}`);
  return null;
});
let savedTimer: ReturnType<typeof setTimeout> | null = null;

/** Shows how many arrivals are stored (after the store's own batching). */
async function showSaved(): Promise<void> {
  const store = await storeReady;
  const saved = store ? await store.count() : 0;
  root.dataset.saved = String(saved);
  $<HTMLSpanElement>('ln-saved').textContent = String(saved);
}

function record(arrival: Parameters<LightNodeOptions['onArrival']>[0]): void {
  void storeReady.then((store) => {
    if (!store || !light) return;
    store.add({ ...arrival, node: light.peerId });
    savedTimer ??= setTimeout(() => {
      savedTimer = null;
      void store.flush().then(showSaved);
    }, 300);
  });
}

async function exportArrivals(): Promise<void> {
  const store = await storeReady;
  if (!store) return;
  const blob = new Blob([exportJson(await store.all())], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `txcast-arrivals-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
let frame = 0;
const logLines: string[] = [];
const short = (peer: string) => (peer.length > 10 ? `…${peer.slice(-8)}` : peer);

function log(line: string): void {
  logLines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  if (logLines.length > 200) logLines.shift();
  logBox.textContent = logLines.join('\n');
}

function open(): void {
  root.dataset.state = light ? root.dataset.state : 'idle';
  root.classList.add('open');
}

function scheduleRender(): void {
  if (!frame) frame = requestAnimationFrame(render);
}

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

function render(): void {
  frame = 0;
  if (!light) return;
  const conns = light.connections();
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

  drawChart();

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
  };
  for (const f of light.framed) {
    facts[`${f.name}Peers`] = f.peers.size;
    for (const [key, value] of Object.entries(f.stats)) facts[`${f.name}${key[0].toUpperCase()}${key.slice(1)}`] = value;
  }
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

/** Txs received from others over time, one line per protocol: the simulator's chart, live. */
function drawChart(): void {
  if (!light || !charts || !palette) return;
  const now = Date.now();
  if (now - chartDrawnMs < 500) {
    scheduleLater();
    return;
  }
  chartDrawnMs = now;
  const sources: [string, Iterable<{ firstMs: number; own: boolean }>][] = [
    ['gossipsub', light.txs.values()],
    ...light.framed.map((f): [string, Iterable<{ firstMs: number; own: boolean }>] => [f.name, f.arrivals.values()]),
  ];
  const series = sources.map(([label, arrivals], i) => {
    const times = [...arrivals].filter((a) => !a.own).map((a) => (a.firstMs - startedMs) / 1000).sort((a, b) => a - b);
    return { label, colour: palette!.runColour(i), x: [0, ...times], y: [0, ...times.map((_, k) => k + 1)] };
  });
  const svg = $<HTMLElement>('ln-chart') as unknown as SVGSVGElement;
  charts.lineChart(svg, { width: 640, height: 180, xLabel: 's since start', yLabel: 'txs received' }, series);
  svg.dataset.series = series.map((s) => `${s.label}:${s.x.length - 1}`).join(' ');
}

let later: ReturnType<typeof setTimeout> | null = null;
function scheduleLater(): void {
  later ??= setTimeout(() => {
    later = null;
    scheduleRender();
  }, 500);
}

async function start(): Promise<void> {
  if (light) return;
  startButton.disabled = true;
  root.dataset.state = 'starting';
  statusLine.textContent = 'loading libp2p…';
  try {
    const { LightNode } = await import('./node');
    [charts, palette] = await Promise.all([import('../charts'), import('../palette')]);
    startedMs = Date.now();
    light = new LightNode({ onChange: scheduleRender, onArrival: record, log });
    await light.start(relayInput.value);
    root.dataset.state = 'running';
    statusLine.textContent = `running as ${light.peerId}`;
    submitButton.disabled = false;
  } catch (error) {
    root.dataset.state = 'error';
    statusLine.textContent = `failed: ${(error as Error).message}`;
    log(statusLine.textContent);
    startButton.disabled = false;
    await light?.stop().catch(() => undefined);
    light = null;
  }
  scheduleRender();
}

async function submit(): Promise<void> {
  if (!light) return;
  const bytes = Number($<HTMLInputElement>('ln-bytes').value) || DEFAULT_TX_BYTES;
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

opener.addEventListener('click', open);
$<HTMLButtonElement>('ln-export').addEventListener('click', () => void exportArrivals());
$<HTMLButtonElement>('ln-clear').addEventListener('click', () => {
  void storeReady.then((store) => store?.clear()).then(showSaved);
});
void showSaved();
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
