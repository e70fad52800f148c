// A big network (from 3,000 nodes on) is drawn with WebGL under the panel's 2D marks, and with
// canvas 2D alone where the browser has no WebGL. Chromium here has no GPU: WebGL runs in
// SwiftShader, as on many school machines.
import { expect, test, type Page } from '@playwright/test';
import { clickNode, runJson, runsDone, seekTimeline } from './page';
import { firstCopies, firstCopyParents, inFlight, nativeSends } from './txsim';

/** Sends the runs' chunks carry to the page (`SEND_CAP` in workers/record.ts): drawing once stopped there. */
const SEND_CAP = 250_000;

const BIG = JSON.stringify({
  name: 'e2e: a big flood',
  seed: 11,
  nodes: 3000,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'lognormal', median_ms: 70, sigma: 0.5 },
  workload: { kind: 'poisson', total_tps: 4, duration_ms: 500, tx_bytes: 250 },
  drain_ms: 1500,
  protocols: [{ label: 'flood', protocol: 'flood' }],
});

/** Pixels of a canvas (WebGL or 2D) brighter than the background, the links and unreached nodes. */
function brightPixels(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((canvas) => {
    const c = canvas as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const { data } = g.getImageData(0, 0, c.width, c.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0 && data[i] + data[i + 1] + data[i + 2] > 300) n += 1;
    return n;
  });
}

/** Runs the big scenario, pauses, and shows tx 0 at `position` of the timeline's 1000 steps. */
async function showAt(page: Page, position: number): Promise<void> {
  const app = page.locator('#app');
  await page.fill('#tx', '0');
  await page.locator('#tx').dispatchEvent('change');
  await page.locator('#tx-only').uncheck();
  await expect(app).toHaveAttribute('data-playing', 'false');
  await seekTimeline(page, position);
}

test('a big network is drawn with WebGL under its marks: nodes by arrival, every message in flight', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await runJson(page, BIG);
  await runsDone(page, 90_000);
  const panel = page.locator('.panel[data-run="0"]');
  await showAt(page, 0);
  await expect(panel).toHaveAttribute('data-renderer', 'webgl');
  const layer = '.panel[data-run="0"] canvas.gpu-layer';
  await expect(page.locator(layer)).toBeVisible();
  const early = await brightPixels(page, layer);
  // Later the tx has reached many nodes (bright arrival colours) and copies are in flight.
  await showAt(page, 350);
  const later = await brightPixels(page, layer);
  expect(later).toBeGreaterThan(early + 200);
  expect(Number(await panel.getAttribute('data-flashes'))).toBeGreaterThan(0);
  // The marks canvas on top stays transparent where it draws nothing: the network shows through.
  const marks = '.panel[data-run="0"] canvas:not(.gpu-layer)';
  const opaque = await page.locator(marks).evaluate((c) => {
    const canvas = c as HTMLCanvasElement;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n += 1;
    return n / (data.length / 4);
  });
  expect(opaque).toBeLessThan(0.05);
  // Clicking a node still picks it: the marks canvas takes the pointer, the layer under it does not.
  await clickNode(page, 0, 7);
  await expect(page.locator('#inspector')).toHaveAttribute('data-node', /^\d+$/, { timeout: 20_000 });
});

test('without WebGL a big network is drawn with canvas 2D', async ({ page }) => {
  test.setTimeout(120_000);
  // A browser without WebGL: every WebGL context is refused.
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
      if (kind.includes('webgl')) return null;
      return (original as (this: HTMLCanvasElement, ...args: unknown[]) => RenderingContext | null).call(this, kind, ...rest);
    } as typeof original;
  });
  await page.goto('/');
  await runJson(page, BIG);
  await runsDone(page, 90_000);
  const panel = page.locator('.panel[data-run="0"]');
  await showAt(page, 0);
  await expect(panel).toHaveAttribute('data-renderer', '2d');
  await expect(page.locator('.panel canvas.gpu-layer')).toHaveCount(0);
  const canvas = '.panel[data-run="0"] canvas';
  const early = await brightPixels(page, canvas);
  await showAt(page, 350);
  expect(await brightPixels(page, canvas)).toBeGreaterThan(early + 200);
});

test('every send is drawn, past the first 250,000 the runs once stopped drawing at', async ({ page }) => {
  test.setTimeout(180_000);
  // 3,000 nodes flooding 20 txs send about 378,000 messages; the 250,000th leaves at about 1.07 s.
  const scenario = JSON.stringify({ ...JSON.parse(BIG), name: 'e2e: more sends than the chunks carry', seed: 3, topology: { kind: 'random_regular', degree: 8 }, workload: { kind: 'poisson', total_tps: 20, duration_ms: 1000, tx_bytes: 250 } });
  const native = await nativeSends(scenario);
  expect(native.sentUs.length).toBeGreaterThan(SEND_CAP);
  await page.goto('/');
  await runJson(page, scenario);
  await runsDone(page, 120_000);
  const panel = page.locator('.panel[data-run="0"]');
  const app = page.locator('#app');
  // Late in the run most messages in flight come after the first 250,000: the worker sends them.
  await showAt(page, 450);
  await expect(panel).toHaveAttribute('data-renderer', 'webgl');
  await expect(panel).toHaveAttribute('data-sends-from', /^[1-9]\d*$/);
  await expect(panel).toHaveAttribute('data-sends-complete', 'true');
  const late = inFlight(native, Number(await app.getAttribute('data-t-us')), SEND_CAP);
  expect(late.since).toBeGreaterThan(late.all / 2);
  // With WebGL every message in flight is drawn: as many as the native run has in flight then.
  await expect(panel).toHaveAttribute('data-flashes', String(late.all));
  // Drawing only a tx's messages, those of a late tx come from the worker too.
  await page.locator('#tx-only').check();
  await page.fill('#tx', '15');
  await page.locator('#tx').dispatchEvent('change');
  // Picking the tx jumped to its creation; wait for this seek's frame, not that one's.
  await seekTimeline(page, 480);
  await expect(panel).toHaveAttribute('data-sends-complete', 'true');
  const own = inFlight(native, Number(await app.getAttribute('data-t-us')), SEND_CAP, 15);
  expect(own.since).toBeGreaterThan(own.all / 2);
  await expect(panel).toHaveAttribute('data-flashes', String(own.all));
  // Its duplicate copies so far (the worker keeps every run's and sends the page the picked tx's).
  const shownUs = Number(await app.getAttribute('data-t-us'));
  const copies = native.duplicateTx.filter((tx, i) => tx === 15 && native.duplicateUs[i] <= shownUs).length;
  expect(copies).toBeGreaterThan(100);
  await expect(panel.locator('.txinfo')).toContainText(`, ${copies.toLocaleString('en')} duplicate copies`);
  // Its hop rings hang each node off the sender of its first copy: those past the first 250,000
  // sends come from the worker (without them these nodes hung off the origin).
  const parents = firstCopyParents(native, 15, 3000);
  const first = firstCopies(native, 15, 3000);
  expect(parents.filter((p, node) => p >= 0 && first[node] >= SEND_CAP).length).toBeGreaterThan(100);
  await expect.poll(() => page.evaluate(() => (window as unknown as { txcast: { parents(k: number): number[] | null } }).txcast.parents(0))).toEqual(parents);
  // Seeking back, the sends the chunks carried are drawn again.
  await showAt(page, 300);
  await expect(panel).toHaveAttribute('data-sends-from', '0');
  const early = inFlight(native, Number(await app.getAttribute('data-t-us')));
  expect(early.all).toBeGreaterThan(0);
  await expect(panel).toHaveAttribute('data-flashes', String(early.all));
});
