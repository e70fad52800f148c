// The light node panel's markup: every id and class here is read by the views and the e2e tests.
import { D } from './settings';
import { DEFAULT_TX_BYTES, GENERATED_HEADER_BYTES } from '../p2p/txwire.mjs';

export const PANEL_HTML = `
  <header><h2>Light node</h2><button type="button" class="ln-close" aria-label="close">×</button></header>
  <form id="ln-start-form" novalidate>
    <div class="ln-row">
      <label>relay <input id="ln-relay" name="relay" size="60" placeholder="/ip4/…/tcp/9090/ws/p2p/12D3Koo…" /></label>
      <button id="ln-start" type="submit">Start</button>
    </div>
    <div class="ln-row">
      <label>ICE servers <input id="ln-ice" name="ice" size="44" autocomplete="off" spellcheck="false" autocapitalize="off"
        placeholder="none: same LAN only (e.g. stun:stun.example.org:3478)" aria-describedby="ln-ice-hint" /></label>
      <span class="ln-hint" id="ln-ice-hint">chosen before Start; STUN reaches browsers behind NATs, TURN
        (turn:USER:PASSWORD@HOST:PORT) relays where no direct path exists</span>
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
  <div class="ln-scroll"><table class="ln-table"><thead><tr><th>protocol</th><th>peers</th><th>own</th><th>delivered</th><th>frames in/out</th><th>malformed</th><th>oversized</th><th title="frames read later than they came: the peer was over its rate (backpressure, no penalty)">throttled</th><th>disconnected</th></tr></thead><tbody id="ln-framed"></tbody></table></div>
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

