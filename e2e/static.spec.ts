// dist/ on a plain static host: served by a server of the test's own that sends files and nothing
// else (no COOP/COEP, so no cross-origin isolation), from a sub-folder as a course's web space
// would be. The first screen runs with txsim's digests, every page of the build opens without an
// error or a missing file, and, served over https, the light node reaches a relay through a TLS
// proxy by its wss address. Everything listens on 127.0.0.1.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { waitForLine } from '../scripts/lib/netns.mjs';
import { serveStatic, type StaticServer } from '../scripts/lib/static-server.mjs';
import { runsDone, shownRuns } from './page';
import { nativeRuns } from './txsim';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PREFIX = '/course/txcast/';
// libp2p needs Node 22: the project's own (the npm package `node`) when this runs on another.
const NODE = fs.existsSync(path.join(ROOT, 'node_modules/node/bin/node')) ? path.join(ROOT, 'node_modules/node/bin/node') : process.execPath;

let server: StaticServer;

test.beforeAll(async () => {
  server = await serveStatic({ dir: DIST, prefix: PREFIX });
});

test.afterAll(async () => {
  await server?.close();
});

/** Opens `url`, collecting page errors and responses that failed (a file the build lacks). */
async function open(page: Page, url: string) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
  const response = await page.goto(url);
  return { problems, headers: response!.headers() };
}

test('the first screen runs from a plain static server, not isolated, with the digests txsim gives', async ({ page }) => {
  const { problems, headers } = await open(page, server.url);
  expect(headers['cross-origin-embedder-policy']).toBeUndefined();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  await runsDone(page, 90_000);
  const native = await nativeRuns({ file: 'scenarios/compare-300.json' });
  const shown = await shownRuns(page);
  expect(shown.length).toBeGreaterThanOrEqual(2);
  expect(shown.map((r) => [r.label, r.digest, r.events])).toEqual(native.slice(0, shown.length).map((r) => [r.label, r.digest, r.events]));
  expect(problems).toEqual([]);
});

test('every page of the build opens from the plain server, with every file it asks for', async ({ page }) => {
  const pages = fs
    .readdirSync(DIST, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .map((f) => f.split(path.sep).join('/').replace(/index\.html$/, ''))
    .sort();
  // The three pages of today, and any added later.
  expect(pages).toEqual(expect.arrayContaining(['', 'lightnode/', 'papers/']));
  for (const relative of pages) {
    const { problems } = await open(page, `${server.url}${relative}`);
    if (relative === '') await page.locator('#scenario option').first().waitFor({ state: 'attached' });
    if (relative === 'papers/') {
      await expect(page.locator('#papers')).toHaveAttribute('data-state', 'ready');
      // The figures load, from the sub-folder.
      const img = page.locator('figure.plot img').first();
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    }
    if (relative === 'lightnode/') {
      // Opened directly: the panel, open, waiting for a relay address.
      await expect(page.locator('#lightnode')).toHaveClass(/\bopen\b/);
      await expect(page.locator('#lightnode')).toHaveAttribute('data-state', 'idle');
      await expect(page.locator('#ln-relay')).toBeFocused();
      await expect(page.locator('#ln-start')).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(problems, relative || 'index').toEqual([]);
  }
});

test.describe('over https', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-tls-'));
  let secure: StaticServer;
  let proxy: tls.Server;
  let relay: ChildProcessWithoutNullStreams;
  const relayLines: string[] = [];
  test.use({ ignoreHTTPSErrors: true }); // the test's own certificate, for localhost

  test.beforeAll(async () => {
    const [key, cert] = [path.join(tmp, 'key.pem'), path.join(tmp, 'cert.pem')];
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    } catch (error) {
      throw new Error(`the test makes its certificate with openssl (apt-get install openssl): ${(error as Error).message}`);
    }
    const credentials = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
    secure = await serveStatic({ dir: DIST, prefix: PREFIX, host: '127.0.0.1', tls: credentials });
    // A TLS proxy in front of the relay's WebSocket port, as a web server would be: TLS ends here.
    let upstreamPort = 0;
    proxy = tls.createServer(credentials, (socket) => {
      const upstream = net.connect(upstreamPort, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyPort = (proxy.address() as net.AddressInfo).port;
    relay = spawn(NODE, [path.join(ROOT, 'scripts/relay/relay.mjs'), '--host', '127.0.0.1', '--port', '0', '--stats-ms', '0', '--announce', `/dns4/localhost/tcp/${proxyPort}/wss`], { cwd: ROOT, detached: true });
    relay.stdout.on('data', (chunk: Buffer) => relayLines.push(...chunk.toString().split('\n')));
    await waitForLine(relay, /^ready$/, 60_000);
    upstreamPort = Number(relayLines.map((l) => /^\/ip4\/127\.0\.0\.1\/tcp\/(\d+)\/ws\/p2p\//.exec(l)?.[1]).find(Boolean));
  });

  test.afterAll(async () => {
    if (relay?.pid) process.kill(-relay.pid, 'SIGKILL');
    proxy?.close();
    await secure?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("a page served over https starts the light node on the relay's announced wss address", async ({ page }) => {
    // What the relay prints for its --announce: the address to give a page.
    const wss = relayLines.find((l) => /^\/dns4\/localhost\/tcp\/\d+\/wss\/p2p\/\S+$/.test(l))!;
    expect(wss).toBeDefined();
    const url = new URL(`${secure.url}lightnode/`.replace('127.0.0.1', 'localhost'));
    url.search = new URLSearchParams({ relay: wss, autostart: '1' }).toString();
    const { problems } = await open(page, url.toString());
    expect(await page.evaluate(() => isSecureContext && location.protocol)).toBe('https:');
    await expect(page.locator('#lightnode')).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
    await expect(page.locator('#lightnode')).toHaveAttribute('data-relay-connected', 'true');
    await expect.poll(async () => Number(await page.locator('#lightnode').getAttribute('data-reservations')), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect(page.locator('#ln-peers tr').first()).toContainText('/wss');
    expect(problems).toEqual([]);
  });
});
