// The light node on a real network: a relay and three browser pages, all inside a network
// namespace this test creates (WebRTC needs a non-loopback interface; nothing leaves the namespace).
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
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
const started = Date.now();
const mark = (what: string) => console.log(`[lightnode e2e] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);

test.describe.configure({ mode: 'serial' });
// CI always runs these (as root); elsewhere, without root, they say why they cannot.
test.skip(!netnsAvailable() && !process.env.CI, 'needs root and `ip netns` to create a network namespace');

let ns: Netns;
let relay: ChildProcessWithoutNullStreams;
let relayAddr = '';
type FramedStats = { delivered: number };
let relayStats: { delivered?: number; cat?: FramedStats; strokkur?: FramedStats } = {};
let browser: Browser;
const pages: Page[] = [];

// libp2p needs Node 22: the project's own (the npm package `node`) when this runs on another.
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/node/bin/node')) ? path.join(ROOT, 'node_modules/node/bin/node') : process.execPath;

function node(script: string, args: string[]) {
  return ns.exec(NODE, [path.join(ROOT, script), ...args], { cwd: ROOT });
}

async function data(page: Page, key: string): Promise<string> {
  return (await page.locator('#lightnode').getAttribute(`data-${key}`)) ?? '';
}

async function waitData(page: Page, key: string, predicate: (value: number) => boolean, timeout = 20_000) {
  await expect.poll(async () => predicate(Number(await data(page, key))), { timeout, message: `data-${key}` }).toBe(true);
}

/** Submits `count` txs on the page and waits until it has published `total` in all. */
async function submit(page: Page, count: number, total: number) {
  await page.fill('#ln-count', String(count));
  await page.fill('#ln-bytes', String(TX_BYTES));
  await page.click('#ln-submit');
  await waitData(page, 'published', (n) => n === total);
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  ns = createNetns(`txcast-ln-${process.pid}`, 0);
  relay = node('scripts/relay/relay.mjs', ['--host', ns.addr, '--ws-port', '19090', '--tcp-port', '19091', '--stats-ms', '300']);
  relay.stdout.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('stats ')) relayStats = JSON.parse(line.slice(6));
  });
  relayAddr = (await waitForLine(relay, /^(\/ip4\/\S+\/ws\/p2p\/\S+)$/))[1];
  await startPreview(ns, { root: ROOT, node: NODE, dist: DIST, port: WEB_PORT });
  browser = await chromium.launch({
    executablePath: ns.chromiumWrapper(),
    // Without this Chromium hides host candidates behind mDNS names nobody here resolves.
    args: [...chromiumArgs, '--disable-features=WebRtcHideLocalIpsWithMdns'],
  });
  for (let i = 0; i < PAGES; i++) {
    const context = await browser.newContext();
    pages.push(await context.newPage());
  }
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  // What each page saw, to tell a lost tx from a lost peer.
  for (const [i, page] of pages.entries()) {
    const seen = await page.locator('#lightnode').evaluate((el) => ({
      data: { ...(el as HTMLElement).dataset },
      framed: [...el.querySelectorAll('#ln-framed tr')].map((tr) => (tr as HTMLElement).title),
      log: el.querySelector('#ln-log')?.textContent,
    }));
    await testInfo.attach(`page-${i}`, { body: JSON.stringify(seen, null, 1), contentType: 'application/json' });
    console.log(`page ${i}: ${JSON.stringify(seen)}`);
  }
});

test.afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await ns?.destroy();
});

test('three pages join through the relay, connect over WebRTC and gossip txs', async () => {
  mark('relay, web server and browser up');
  const url = `http://${ns.addr}:${WEB_PORT}${PAGE}?relay=${encodeURIComponent(relayAddr)}&autostart=1`;
  await Promise.all(pages.map((page) => page.goto(url)));
  for (const page of pages) {
    await expect(page.locator('#lightnode')).toHaveAttribute('data-state', 'running', { timeout: 20_000 });
    await waitData(page, 'reservations', (n) => n >= 1);
  }
  // Each page ends up with a direct WebRTC connection to both others, and gossips with all three.
  for (const page of pages) {
    await waitData(page, 'webrtc-peers', (n) => n === PAGES - 1, 30_000);
    await waitData(page, 'topic-peers', (n) => n === PAGES, 10_000);
    const webrtcRows = page.locator('#ln-peers tr[data-transports~="webrtc"]');
    await expect(webrtcRows).toHaveCount(PAGES - 1);
    await expect(webrtcRows.first().locator('td').nth(2)).toContainText('/webrtc');
  }

  mark('all pages have direct WebRTC connections');
  for (const page of pages) await submit(page, FIRST_ROUND, FIRST_ROUND);
  const total = PAGES * FIRST_ROUND;
  for (const page of pages) {
    await waitData(page, 'delivered', (n) => n === total - FIRST_ROUND);
    expect(Number(await data(page, 'own'))).toBe(FIRST_ROUND);
    expect(Number(await data(page, 'txs'))).toBe(total);
    // Every copy is either a tx's first one or a duplicate (read together: copies keep coming).
    const copiesLessDuplicates = () =>
      page.locator('#lightnode').evaluate((el) => Number((el as HTMLElement).dataset.copies) - Number((el as HTMLElement).dataset.duplicates));
    await expect.poll(copiesLessDuplicates).toBe(total);
    expect(Number(await data(page, 'malformed'))).toBe(0);
    // CAT and Strokkur, over their own streams and the Rust state machines.
    for (const protocol of ['cat', 'strokkur']) {
      await waitData(page, `${protocol}-delivered`, (n) => n === total - FIRST_ROUND);
      expect(Number(await data(page, `${protocol}-own`))).toBe(FIRST_ROUND);
      expect(Number(await data(page, `${protocol}-peers`))).toBe(PAGES);
      expect(Number(await data(page, `${protocol}-malformed`))).toBe(0);
    }
  }
  mark('every page has every tx on all three protocols');
  const received = total - FIRST_ROUND;
  await expect(pages[0].locator('#ln-chart')).toHaveAttribute('data-series', `gossipsub:${received} cat:${received} strokkur:${received}`);
  for (const page of pages) {
    // Every tx of every protocol has one stored arrival (one seq each), in IndexedDB.
    await waitData(page, 'saved', (n) => n === 3 * total);
    await waitData(page, 'stored-cells', (n) => n === 3 * total);
    // The latency CDF has every gossipsub tx received (they carry their submit time).
    await expect(page.locator('#ln-latency')).toHaveAttribute('data-series', `gossipsub:${received}`);
    // The network view: this page, the relay and the two other browsers; links to each, and the
    // relay's to the browsers; payload and control both crossed.
    await expect(page.locator('#ln-net')).toHaveAttribute('data-nodes', String(PAGES + 1));
    await expect(page.locator('#ln-net')).toHaveAttribute('data-links', String(PAGES + (PAGES - 1)));
    expect(Number(await data(page, 'net-payload'))).toBeGreaterThan(0);
    expect(Number(await data(page, 'net-control'))).toBeGreaterThan(0);
    // The store counted every duplicate copy the protocols saw (Strokkur sends no full copies).
    const duplicatesSeen = () =>
      page.locator('#lightnode').evaluate((el) => {
        const d = (el as HTMLElement).dataset;
        return [Number(d.savedDuplicates), Number(d.duplicates) + Number(d.catDuplicates) + Number(d.strokkurDuplicates)];
      });
    await expect.poll(async () => { const [saved, seen] = await duplicatesSeen(); return saved === seen && seen > 0; }).toBe(true);
  }
  mark('network views, charts and stored arrivals agree');
  await expect.poll(() => relayStats.delivered ?? 0, { timeout: 10_000 }).toBe(total);
  await expect.poll(() => [relayStats.cat?.delivered, relayStats.strokkur?.delivered], { timeout: 10_000 }).toEqual([total, total]);
});

test('after the relay stops the pages keep exchanging over their direct connections', async () => {
  process.kill(-relay.pid!, 'SIGTERM');
  await new Promise((resolve) => relay.once('exit', resolve));
  for (const page of pages) {
    await expect(page.locator('#lightnode')).toHaveAttribute('data-relay-connected', 'false', { timeout: 10_000 });
    await waitData(page, 'webrtc-peers', (n) => n === PAGES - 1);
  }
  mark('relay stopped');
  for (const page of pages) await submit(page, SECOND_ROUND, FIRST_ROUND + SECOND_ROUND);
  const expected = (PAGES - 1) * (FIRST_ROUND + SECOND_ROUND);
  for (const page of pages) {
    await waitData(page, 'delivered', (n) => n === expected);
    expect(Number(await data(page, 'own'))).toBe(FIRST_ROUND + SECOND_ROUND);
    for (const protocol of ['cat', 'strokkur']) await waitData(page, `${protocol}-delivered`, (n) => n === expected);
  }
  mark('second round delivered without the relay');
});
