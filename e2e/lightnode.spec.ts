// The light node on a real network: a relay and three browser pages, all inside a network
// namespace this test creates (WebRTC needs a non-loopback interface; nothing leaves the namespace).
// Gossipsub runs txcast's own router (the simulator's state machine) in the pages and the relay,
// once on v1.2 and once on v2.0; on v2.0 D_announce = D, so every forward to a mesh peer goes
// lazily (IANNOUNCE, then INEED for the message). The v1.2 pages have no ICE server (the default:
// host candidates only); the v2.0 pages are given a STUN server that runs in the namespace too.
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromiumArgs } from '../scripts/lib/chromium.mjs';
import { createNetns, netnsAvailable, startPreview, waitForLine, type Netns } from '../scripts/lib/netns.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = process.env.LIGHTNODE_DIST ?? path.join(ROOT, 'dist');
// The light node's own page: the visualizer's canvas would compete with libp2p for the main thread.
const PAGE = process.env.LIGHTNODE_PAGE ?? '/lightnode/index.html';
const WEB_PORT = 4318;
const PAGES = 3;
const FIRST_ROUND = 4; // txs each page submits while the relay runs
const SECOND_ROUND = 3; // and after it stopped
const TX_BYTES = 128; // one Strokkur symbol per tx (its default symbol size)
const OWN_BYTES = 2000; // a user's tx: above the 1 KiB from which receivers send IDONTWANT
const started = Date.now();
const mark = (what: string) => console.log(`[lightnode e2e] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);

// CI always runs these (as root); elsewhere, without root, they say why they cannot.
test.skip(!netnsAvailable() && !process.env.CI, 'needs root and `ip netns` to create a network namespace');

// libp2p needs Node 22: the project's own (the npm package `node`) when this runs on another.
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/node/bin/node')) ? path.join(ROOT, 'node_modules/node/bin/node') : process.execPath;

async function data(page: Page, key: string): Promise<string> {
  return (await page.locator('#lightnode').getAttribute(`data-${key}`)) ?? '';
}

async function num(page: Page, key: string): Promise<number> {
  return Number(await data(page, key));
}

async function waitData(page: Page, key: string, predicate: (value: number) => boolean, timeout = 20_000) {
  await expect.poll(async () => predicate(Number(await data(page, key))), { timeout, message: `data-${key}` }).toBe(true);
}

/** Submits `count` generated txs on the page and waits until it has published `total` in all. */
async function submit(page: Page, count: number, total: number) {
  await page.fill('#ln-count', String(count));
  await page.fill('#ln-bytes', String(TX_BYTES));
  await page.click('#ln-submit');
  await waitData(page, 'published', (n) => n === total);
}

type Version = 'v1.2' | 'v2.0';
const SUITES: { version: Version; dAnnounce?: number; subnet: number; stun?: boolean }[] = [
  { version: 'v1.2', subnet: 0 },
  // D_announce = D = 6: the publisher, too, announces instead of sending (the v2.0 draft).
  { version: 'v2.0', dAnnounce: 6, subnet: 2, stun: true },
];
const STUN_PORT = 3478;

// No relay needed: the page alone, beside the panel on the visualizer page.
test('the light node page has the dark fields and buttons of the panel on the visualizer page', async ({ page }) => {
  const look = () =>
    page.evaluate(() =>
      ['#ln-relay', '#ln-start', '#ln-router', '#ln-d-announce'].map((selector) => {
        const el = document.querySelector(selector)!;
        const css = getComputedStyle(el);
        return { selector, background: css.backgroundColor, color: css.color, border: css.borderTopColor, height: Math.round(el.getBoundingClientRect().height) };
      }),
    );
  await page.goto('/#lightnode');
  await page.locator('#lightnode.open #ln-d-announce').waitFor();
  const inPanel = await look();
  await page.goto('/lightnode/');
  await page.locator('#ln-d-announce').waitFor();
  expect(await look()).toEqual(inPanel);
  // D_announce no taller than the select beside it.
  const height = (selector: string) => inPanel.find((l) => l.selector === selector)!.height;
  expect(height('#ln-d-announce')).toBeLessThanOrEqual(height('#ln-router'));
});

for (const suite of SUITES) {
  test.describe(`txcast's gossipsub router ${suite.version}`, () => {
    test.describe.configure({ mode: 'serial' });
    const lazy = suite.version === 'v2.0';
    let ns: Netns;
    let relay: ChildProcessWithoutNullStreams;
    let relayAddr = '';
    /** The ICE servers the pages are given ('' for none), and the Binding requests the STUN server answered. */
    let ice = '';
    let stunBindings = 0;
    type FramedStats = { delivered: number };
    type GossipStats = { router: string; version: string; sent: Record<string, number>; received: Record<string, number> };
    let relayStats: { delivered?: number; gossipsub?: GossipStats; cat?: FramedStats; strokkur?: FramedStats } = {};
    let browser: Browser;
    const pages: Page[] = [];
    const pageErrors: string[] = [];
    const pageTrouble: string[] = [];

    function node(script: string, args: string[]) {
      return ns.exec(NODE, [path.join(ROOT, script), ...args], { cwd: ROOT });
    }

    test.beforeAll(async () => {
      test.setTimeout(60_000);
      ns = createNetns(`txcast-ln${suite.subnet}-${process.pid}`, suite.subnet);
      const gossip = ['--gossipsub', 'txcast', '--gossipsub-version', suite.version];
      if (suite.dAnnounce !== undefined) gossip.push('--d-announce', String(suite.dAnnounce));
      relay = node('scripts/relay/relay.mjs', ['--host', ns.addr, '--ws-port', '19090', '--tcp-port', '19091', '--stats-ms', '300', ...gossip]);
      relay.stdout.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n')) if (line.startsWith('stats ')) relayStats = JSON.parse(line.slice(6));
      });
      relayAddr = (await waitForLine(relay, /^(\/ip4\/\S+\/ws\/p2p\/\S+)$/))[1];
      if (suite.stun) {
        const stun = node('scripts/lib/stun-server.mjs', ['--host', ns.addr, '--port', String(STUN_PORT)]);
        stun.stdout.on('data', (chunk: Buffer) => {
          for (const match of chunk.toString().matchAll(/^binding (\d+)$/gm)) stunBindings = Number(match[1]);
        });
        await waitForLine(stun, /^listening on /);
        ice = `stun:${ns.addr}:${STUN_PORT}`;
      }
      await startPreview(ns, { root: ROOT, node: NODE, dist: DIST, port: WEB_PORT });
      browser = await chromium.launch({
        executablePath: ns.chromiumWrapper(),
        // Without this Chromium hides host candidates behind mDNS names nobody here resolves.
        args: [...chromiumArgs, '--disable-features=WebRtcHideLocalIpsWithMdns'],
      });
      for (let i = 0; i < PAGES; i++) {
        const context = await browser.newContext({ acceptDownloads: true });
        const page = await context.newPage();
        page.on('pageerror', (error) => pageErrors.push(`page ${i}: ${error.message}`));
        // A renderer that dies shows only as a missing element otherwise.
        page.on('crash', () => mark(`page ${i} crashed`));
        // So do a script that failed to load and an error only the console saw: kept for a failure's report.
        page.on('requestfailed', (request) => pageTrouble.push(`page ${i}: ${request.url()} failed (${request.failure()?.errorText})`));
        page.on('console', (message) => {
          if (message.type() === 'error') pageTrouble.push(`page ${i} console: ${message.text()}`);
        });
        pages.push(page);
      }
    });

    test.afterEach(async ({}, testInfo) => {
      if (testInfo.status === testInfo.expectedStatus) return;
      // What each page saw, to tell a lost tx from a lost peer.
      console.log(`page errors: ${JSON.stringify(pageErrors)}; failed requests and console errors: ${JSON.stringify(pageTrouble.slice(-40))}`);
      for (const [i, page] of pages.entries()) {
        if ((await page.locator('#lightnode').count()) === 0) {
          // The panel's module never ran: say how far the page got and which files it fetched.
          const got = await page.evaluate(() => ({
            url: location.href,
            readyState: document.readyState,
            body: document.body?.innerHTML.slice(0, 300),
            fetched: performance.getEntriesByType('resource').map((r) => `${r.name.split('/').pop()} ${Math.round(r.duration)} ms`),
          }));
          console.log(`page ${i}: no #lightnode: ${JSON.stringify(got)}`);
          continue;
        }
        const seen = await page.locator('#lightnode').evaluate((el) => ({
          data: { ...(el as HTMLElement).dataset },
          framed: [...el.querySelectorAll('#ln-framed tr')].map((tr) => (tr as HTMLElement).title),
          log: el.querySelector('#ln-log')?.textContent,
        }));
        await testInfo.attach(`page-${i}`, { body: JSON.stringify(seen, null, 1), contentType: 'application/json' });
        console.log(`page ${i}: ${JSON.stringify(seen)}`);
      }
      console.log(`relay: ${JSON.stringify(relayStats)}`);
    });

    test.afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await ns?.destroy();
    });

    test('three pages join through the relay, connect over WebRTC and gossip txs', async () => {
      mark(`${suite.version}: relay, web server and browser up`);
      const query = `version=${suite.version}${suite.dAnnounce === undefined ? '' : `&d_announce=${suite.dAnnounce}`}`;
      const iceQuery = ice ? `&ice=${encodeURIComponent(ice)}` : '';
      const url = `http://${ns.addr}:${WEB_PORT}${PAGE}?relay=${encodeURIComponent(relayAddr)}&autostart=1&gossipsub=txcast&${query}${iceQuery}`;
      await Promise.all(pages.map((page) => page.goto(url)));
      for (const page of pages) {
        await expect(page.locator('#lightnode')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
        expect([await data(page, 'router'), await data(page, 'version')]).toEqual(['txcast', suite.version]);
        expect(await data(page, 'd-announce')).toBe(lazy ? String(suite.dAnnounce) : 'n/a');
        expect(await data(page, 'ice')).toBe(ice);
        // One relay, one reservation (its addresses, one per transport, are not counted apart).
        await waitData(page, 'reservations', (n) => n === 1);
      }
      // Each page ends up with a direct WebRTC connection to both others, and gossips with all
      // three (the relay and the two pages). On v1.2 all of them join its mesh (D_lo is 4). On
      // v2.0 an INEED that goes unanswered for 400 ms (seen here while connections are set up)
      // costs the announcer a behaviour penalty, and the heartbeat prunes a peer whose score is
      // negative: a mesh of one or two peers is the protocol working as specified.
      // A WebRTC dial whose signalling times out is tried again at the next announcement
      // (every 1.5 s), and the answering side may count the failed one for a while: allow a
      // second dial before the gossip on it has to be up.
      for (const page of pages) {
        await waitData(page, 'webrtc-peers', (n) => n === PAGES - 1, 30_000);
        await waitData(page, 'topic-peers', (n) => n === PAGES, 30_000);
        await waitData(page, 'mesh-peers', (n) => (lazy ? n >= 1 : n === PAGES), 30_000);
        const webrtcRows = page.locator('#ln-peers tr[data-transports~="webrtc"]');
        await expect(webrtcRows).toHaveCount(PAGES - 1);
        await expect(webrtcRows.first().locator('td').nth(2)).toContainText('/webrtc');
      }

      // With a STUN server given, every page asked it for its address while gathering candidates
      // (one Binding request or more per WebRTC connection end); without one, nothing asks.
      if (suite.stun) expect(stunBindings).toBeGreaterThanOrEqual(PAGES);
      mark(`${suite.version}: all pages have direct WebRTC connections and meshes${suite.stun ? ` (ICE: ${ice}, ${stunBindings} STUN Binding requests answered)` : ''}`);
      for (const page of pages) await submit(page, FIRST_ROUND, FIRST_ROUND);
      const total = PAGES * FIRST_ROUND;
      for (const page of pages) {
        await waitData(page, 'delivered', (n) => n === total - FIRST_ROUND);
        expect(await num(page, 'own')).toBe(FIRST_ROUND);
        expect(await num(page, 'txs')).toBe(total);
        // Every copy is either a tx's first one or a duplicate (read together: copies keep coming).
        const copiesLessDuplicates = () =>
          page.locator('#lightnode').evaluate((el) => Number((el as HTMLElement).dataset.copies) - Number((el as HTMLElement).dataset.duplicates));
        await expect.poll(copiesLessDuplicates).toBe(total);
        expect(await num(page, 'malformed')).toBe(0);
        expect(await num(page, 'bad-signatures')).toBe(0);
        // CAT and Strokkur, over their own streams and the Rust state machines.
        for (const protocol of ['cat', 'strokkur']) {
          await waitData(page, `${protocol}-delivered`, (n) => n === total - FIRST_ROUND);
          expect(await num(page, `${protocol}-own`)).toBe(FIRST_ROUND);
          expect(await num(page, `${protocol}-peers`)).toBe(PAGES);
          expect(await num(page, `${protocol}-malformed`)).toBe(0);
        }
      }
      mark(`${suite.version}: every page has every tx on all three protocols`);
      // IANNOUNCE and INEED: on v2.0 with D_announce = D a publisher announces each of its txs to
      // every mesh peer instead of sending it, and a peer that has not got it asks by INEED; a v1.2
      // router never sends either. The txs are below 1 KiB: no IDONTWANT anywhere.
      const sums: Record<string, number> = {};
      for (const page of pages) {
        const counts: Record<string, number> = Object.fromEntries(
          await Promise.all(['iannounce-sent', 'iannounce-received', 'ineed-sent', 'ineed-received', 'idontwant-sent', 'idontwant-received'].map(async (k) => [k, await num(page, k)])),
        );
        for (const [k, n] of Object.entries(counts)) sums[k] = (sums[k] ?? 0) + n;
        if (lazy) {
          // Every page has a mesh peer: each of its txs was announced to one at least.
          expect(counts['iannounce-sent']).toBeGreaterThanOrEqual(FIRST_ROUND);
        } else {
          expect(counts).toMatchObject({ 'iannounce-sent': 0, 'iannounce-received': 0, 'ineed-sent': 0, 'ineed-received': 0 });
        }
        expect([counts['idontwant-sent'], counts['idontwant-received']]).toEqual([0, 0]);
      }
      if (lazy) {
        // Over the three pages: every tx announced at least once, and txs fetched by INEED.
        expect(sums['iannounce-sent']).toBeGreaterThanOrEqual(total);
        expect(sums['iannounce-received']).toBeGreaterThanOrEqual(total);
        expect(sums['ineed-sent']).toBeGreaterThan(0);
        expect(sums['ineed-received']).toBeGreaterThan(0);
      }
      mark(`${suite.version}: control entries over the pages: ${JSON.stringify(sums)}`);
      const received = total - FIRST_ROUND;
      await expect(pages[0].locator('#ln-chart')).toHaveAttribute('data-series', `gossipsub:${received} cat:${received} strokkur:${received}`);
      for (const page of pages) {
        // Every tx of every protocol has one stored arrival (one seq each), in IndexedDB.
        await waitData(page, 'saved', (n) => n === 3 * total);
        await waitData(page, 'stored-cells', (n) => n === 3 * total);
        // The latency CDF has every tx received, on every protocol: generated txs carry their submit time.
        await expect(page.locator('#ln-latency')).toHaveAttribute('data-series', `gossipsub:${received} cat:${received} strokkur:${received}`);
        // The network view: this page, the relay and the two other browsers; links to each, and the
        // relay's to the browsers; payload and control both crossed.
        await expect(page.locator('#ln-net')).toHaveAttribute('data-nodes', String(PAGES + 1));
        await expect(page.locator('#ln-net')).toHaveAttribute('data-links', String(PAGES + (PAGES - 1)));
        expect(await num(page, 'net-payload')).toBeGreaterThan(0);
        expect(await num(page, 'net-control')).toBeGreaterThan(0);
        // The store counted every duplicate copy the protocols saw (Strokkur sends no full copies).
        const duplicatesSeen = () =>
          page.locator('#lightnode').evaluate((el) => {
            const d = (el as HTMLElement).dataset;
            return [Number(d.savedDuplicates), Number(d.duplicates) + Number(d.catDuplicates) + Number(d.strokkurDuplicates)];
          });
        // On v1.2 every page floods its txs and forwards the others' to its mesh: duplicates are
        // certain. On v2.0 with D_announce = D a copy comes only when asked for by INEED.
        await expect.poll(async () => { const [saved, seen] = await duplicatesSeen(); return saved === seen && (lazy || seen > 0); }).toBe(true);
        // Every tx is listed with its hash, on each protocol: 12 txs, 3 protocols.
        await expect(page.locator('#ln-txs tr')).toHaveCount(3 * total);
      }
      mark(`${suite.version}: network views, charts and stored arrivals agree`);
      // The simulator beside it: the same settings on 4 nodes with the 12 txs this page saw.
      const page = pages[0];
      await expect.poll(async () => [await data(page, 'sim-state'), await data(page, 'sim-nodes'), await data(page, 'sim-txs')], { timeout: 15_000 }).toEqual(['done', '4', String(total)]);
      if (lazy) {
        expect(await num(page, 'sim-iannounce-sent')).toBeGreaterThan(0);
        expect(await num(page, 'sim-ineed-received')).toBeGreaterThan(0);
      } else {
        expect([await num(page, 'sim-iannounce-sent'), await num(page, 'sim-ineed-sent')]).toEqual([0, 0]);
      }
      // The table shows the same live counts as the attributes (read in one go: they move).
      const shown = () =>
        page.locator('#lightnode').evaluate((el) => {
          const row = el.querySelector('#ln-gs tr[data-kind="iannounce"]')!;
          return row.children[1].textContent === (el as HTMLElement).dataset.iannounceSent && row.children[3].textContent === (el as HTMLElement).dataset.simIannounceSent;
        });
      await expect.poll(shown).toBe(true);
      await expect.poll(() => relayStats.delivered ?? 0, { timeout: 10_000 }).toBe(total);
      await expect.poll(() => [relayStats.cat?.delivered, relayStats.strokkur?.delivered], { timeout: 10_000 }).toEqual([total, total]);
      expect([relayStats.gossipsub?.router, relayStats.gossipsub?.version]).toEqual(['txcast', suite.version]);
      // The relay runs the same router: on v1.2 it announces nothing.
      if (!lazy) expect([relayStats.gossipsub?.sent.iannounce ?? 0, relayStats.gossipsub?.sent.ineed ?? 0]).toEqual([0, 0]);
      expect(pageErrors).toEqual([]);
    });

    test('after the relay stops the pages keep exchanging over their direct connections', async () => {
      process.kill(-relay.pid!, 'SIGTERM');
      await new Promise((resolve) => relay.once('exit', resolve));
      for (const page of pages) {
        await expect(page.locator('#lightnode')).toHaveAttribute('data-relay-connected', 'false', { timeout: 10_000 });
        await waitData(page, 'webrtc-peers', (n) => n === PAGES - 1);
      }
      mark(`${suite.version}: relay stopped`);
      for (const page of pages) await submit(page, SECOND_ROUND, FIRST_ROUND + SECOND_ROUND);
      const expected = (PAGES - 1) * (FIRST_ROUND + SECOND_ROUND);
      for (const page of pages) {
        await waitData(page, 'delivered', (n) => n === expected);
        expect(await num(page, 'own')).toBe(FIRST_ROUND + SECOND_ROUND);
        for (const protocol of ['cat', 'strokkur']) await waitData(page, `${protocol}-delivered`, (n) => n === expected);
      }
      mark(`${suite.version}: second round delivered without the relay`);
    });

    test("a user's own bytes reach the others on every protocol, by their SHA-256, and download intact", async () => {
      const [sender, ...receivers] = pages;
      const before = await Promise.all(pages.map(async (page) => ({ gossipsub: await num(page, 'delivered'), cat: await num(page, 'cat-delivered'), strokkur: await num(page, 'strokkur-delivered') })));
      const published = await num(sender, 'published');

      // Over Strokkur's cap (the smallest, as the panel shows it): refused with the cap named,
      // and nothing sent on any protocol.
      const strokkurCap = await num(sender, 'strokkur-cap');
      expect(strokkurCap).toBeGreaterThan(OWN_BYTES);
      expect(strokkurCap).toBeLessThan(Math.min(await num(sender, 'cat-cap'), await num(sender, 'gossipsub-cap')));
      await sender.fill('#ln-own-text', 'x'.repeat(strokkurCap + 1));
      await expect(sender.locator('#ln-own-size')).toContainText(`${strokkurCap + 1} bytes — over the cap of Strokkur`);
      await sender.click('#ln-own-send');
      await expect(sender.locator('#ln-own-error')).toHaveText(`strokkur carries txs of at most ${strokkurCap} bytes; this one has ${strokkurCap + 1}`);
      expect(await num(sender, 'published')).toBe(published);
      expect(await num(sender, 'cat-own')).toBe(FIRST_ROUND + SECOND_ROUND);

      // Generated txs over a cap: the same, before any protocol gets one.
      await sender.fill('#ln-bytes', String(strokkurCap + 1));
      await sender.fill('#ln-count', '2');
      await sender.click('#ln-submit');
      await expect(sender.locator('#ln-submit-error')).toHaveText(`strokkur carries txs of at most ${strokkurCap} bytes; this one has ${strokkurCap + 1}`);
      expect([await num(sender, 'published'), await num(sender, 'cat-own')]).toEqual([published, FIRST_ROUND + SECOND_ROUND]);

      // Hex that is not: said so, nothing sent.
      await sender.check('input[name="ln-format"][value="hex"]');
      await sender.fill('#ln-own-text', '0x12 3');
      await sender.click('#ln-own-send');
      await expect(sender.locator('#ln-own-error')).toHaveText('odd number of hex digits (3): each byte takes two');
      expect(await num(sender, 'published')).toBe(published);

      // Any bytes, from a file (picked by keyboard as well: a native file input).
      const bytes = crypto.randomBytes(OWN_BYTES);
      const hash = crypto.createHash('sha256').update(bytes).digest('hex');
      await sender.check('input[name="ln-format"][value="file"]');
      await sender.setInputFiles('#ln-own-file', { name: 'tx.bin', mimeType: 'application/octet-stream', buffer: bytes });
      await expect(sender.locator('#ln-own-size')).toHaveText(`${OWN_BYTES} bytes`);
      await sender.click('#ln-own-send');
      await expect(sender.locator('#lightnode')).toHaveAttribute('data-own-tx', hash);
      await expect(sender.locator('#ln-own-result')).toContainText(hash);
      await expect(sender.locator('#ln-own-error')).toHaveText('');
      expect(await num(sender, 'published')).toBe(published + 1);

      for (const [i, page] of receivers.entries()) {
        const was = before[i + 1];
        await waitData(page, 'delivered', (n) => n === was.gossipsub + 1);
        await waitData(page, 'cat-delivered', (n) => n === was.cat + 1);
        await waitData(page, 'strokkur-delivered', (n) => n === was.strokkur + 1);
        // Listed once per protocol under the one hash, with its size; it carries no submit time.
        const rows = page.locator(`#ln-txs tr[data-tx="${hash}"]`);
        await expect(rows).toHaveCount(3);
        for (const protocol of ['gossipsub', 'cat', 'strokkur']) {
          const row = page.locator(`#ln-txs tr[data-key="${protocol}:${hash}"]`);
          await expect(row).toHaveAttribute('data-bytes', String(OWN_BYTES));
          await expect(row.locator('code')).toHaveAttribute('title', hash);
          await expect(row.locator('td').nth(4)).toHaveText('');
        }
        // The bytes as received (Strokkur's decoded from codewords): the sender's, exactly.
        for (const protocol of ['gossipsub', 'strokkur']) {
          const download = page.waitForEvent('download');
          await page.locator(`#ln-txs tr[data-key="${protocol}:${hash}"] button[data-action="download"]`).click();
          const file = await (await download).path();
          expect(crypto.createHash('sha256').update(fs.readFileSync(file!)).digest('hex')).toBe(hash);
        }
      }
      // IDONTWANT (txs of 1 KiB and more): each receiver told its other mesh peer, the one it did
      // not get the tx from, as the tx came in; the publisher has no one to tell. On v1.2 the
      // meshes are whole; on v2.0 one may have lost that peer (see the first test), so only the
      // publisher's side is certain there. Who receives them depends on the race: a receiver that
      // got the tx from the other receiver first tells the publisher, and then the other receiver
      // hears none. So every one sent is received somewhere, not one each.
      if (!lazy) {
        for (const page of receivers) await waitData(page, 'idontwant-sent', (n) => n >= 1);
        const sum = async (key: string) => (await Promise.all(pages.map((page) => num(page, key)))).reduce((a, b) => a + b, 0);
        await expect.poll(async () => (await sum('idontwant-received')) - (await sum('idontwant-sent')), { message: 'IDONTWANTs sent but not received' }).toBe(0);
        expect(await sum('idontwant-received')).toBeGreaterThanOrEqual(receivers.length);
      }
      expect(await num(sender, 'idontwant-sent')).toBe(0);
      mark(`${suite.version}: a user's tx delivered, listed by hash and downloaded intact`);
      expect(pageErrors).toEqual([]);
    });
  });
}
