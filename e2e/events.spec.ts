// Changing the network while it runs: a change made in the page lands in every panel at the time
// shown, keeps what was shown before, goes into the scenario's events, and gives txsim's digests.
import { expect, test, type Page } from '@playwright/test';
import { clickNode, runJson, runsDone, seekTimeline, shownRuns } from './page';
import { nativeRuns } from './txsim';

/** 80 honest nodes, CAT and GossipSub: no adversary until the page makes some. */
const CALM = {
  name: 'e2e: calm, then changed',
  seed: 5,
  nodes: 80,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'lognormal', median_ms: 50, sigma: 0.4 },
  workload: { kind: 'poisson', total_tps: 20, duration_ms: 2000, tx_bytes: 200 },
  drain_ms: 2000,
  protocols: [
    { label: 'cat', protocol: 'cat' },
    { label: 'gossipsub', protocol: 'gossipsub' },
  ],
};

const panel = (page: Page, k: number) => page.locator(`.panel[data-run="${k}"]`);

/** Seeks to `ms` of simulated time (the timeline's 1000 steps span the run) and waits until it is drawn. */
async function seekTo(page: Page, endMs: number, ms: number): Promise<void> {
  await seekTimeline(page, Math.round((ms / endMs) * 1000));
}

test('make 30% silent during a run: marks and counters change from then on, the share link and txsim give the same digests', async ({ page }) => {
  await page.goto('/');
  await runsDone(page); // the first screen's runs, before ours replace them
  await runJson(page, JSON.stringify(CALM));
  await runsDone(page);
  const calm = (await shownRuns(page)).map((r) => r.digest);
  await seekTo(page, 4000, 800);
  await expect(panel(page, 0)).toHaveAttribute('data-adversaries-now', '0');
  const tUs = Number(await page.locator('#app').getAttribute('data-t-us'));

  await page.fill('#pick-share', '30');
  await page.click('#pick-random');
  await expect(page.locator('#changes')).toHaveAttribute('data-picked', '24');
  await page.click('button[data-change="silent"]');
  const atMs = Math.floor(tUs / 1000) + 1;
  await expect(page.locator('#change-status')).toContainText(`24 nodes made silent at ${atMs} ms`);
  await runsDone(page);

  // The scenario now says so: one event, at the time shown, naming the picked nodes.
  const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(edited.events).toHaveLength(1);
  expect(edited.events[0]).toMatchObject({ at_ms: atMs, kind: 'behaviour', behaviour: { kind: 'silent' } });
  expect(edited.events[0].nodes).toHaveLength(24);

  // Before the change no node is marked; after it the silent ones are, in every panel, and the
  // panels count them.
  await seekTo(page, 4000, atMs - 50);
  for (const k of [0, 1]) await expect(panel(page, k)).toHaveAttribute('data-adversaries-now', '0');
  await seekTo(page, 4000, atMs + 200);
  for (const k of [0, 1]) {
    await expect(panel(page, k)).toHaveAttribute('data-adversaries-now', '24');
    await expect(panel(page, k).locator('.effects')).toContainText('adversaries: 24 silent');
  }

  // The runs shown are the edited scenario's, to the digest, in txsim and through a share link.
  const digests = (await shownRuns(page)).map((r) => r.digest);
  expect(digests).not.toEqual(calm);
  const native = await nativeRuns({ json: JSON.stringify(edited) });
  expect(native.map((r) => r.digest)).toEqual(digests);
  await page.click('#share');
  await expect(page.locator('#share-url')).toHaveValue(/#s=[A-Za-z0-9_-]+$/);
  const other = await page.context().newPage();
  await other.goto(await page.locator('#share-url').inputValue());
  await runsDone(other);
  expect((await shownRuns(other)).map((r) => r.digest)).toEqual(digests);
});

test('what was shown before a change stays as it was', async ({ page }) => {
  await page.goto('/');
  await runsDone(page); // the first screen's runs, before ours replace them
  await runJson(page, JSON.stringify(CALM));
  await runsDone(page);
  // Arrival times, not colours: the colour scale follows the tx's whole spread, which the change may alter.
  const hooks = () => page.evaluate(() => (window as unknown as { txcast: { arrivals(k: number): number[] } }).txcast.arrivals(0));
  await page.fill('#tx', '10');
  await page.locator('#tx').dispatchEvent('change');
  await seekTo(page, 4000, 900);
  const before = await hooks();
  expect(before.filter((b) => b >= 0).length).toBeGreaterThan(5);
  await page.click('#pick-random');
  await page.click('button[data-change="leave"]');
  await expect(page.locator('#change-status')).toContainText('taken down');
  await runsDone(page);
  expect(await hooks()).toEqual(before);
  // Nodes taken down are drawn away from the change on, and a join brings them back.
  await seekTo(page, 4000, 1500);
  await expect(panel(page, 0)).toHaveAttribute('data-away', '24');
  await page.click('#pick-clear');
  await page.click('button[data-change="join"]');
  await expect(page.locator('#change-status')).toContainText('every node that left brought back');
  await runsDone(page);
  await seekTo(page, 4000, 1600);
  await expect(panel(page, 0)).toHaveAttribute('data-away', '0');
  const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(edited.events.map((e: { kind: string }) => e.kind)).toEqual(['leave', 'join']);
});

test('a partition and heal shows delivery dip and recover in the chart and the phases', async ({ page }) => {
  await page.goto('/');
  await runsDone(page); // the first screen's runs, before ours replace them
  const cut = {
    ...CALM,
    name: 'e2e: partition and heal',
    workload: { kind: 'poisson', total_tps: 30, duration_ms: 4000, tx_bytes: 200 },
    events: [
      { at_ms: 1000, kind: 'partition', fraction: 0.5 },
      { at_ms: 2500, kind: 'heal' },
    ],
    protocols: [{ label: 'flood', protocol: 'flood' }],
  };
  await runJson(page, JSON.stringify(cut));
  await runsDone(page);
  await expect(page.locator('#chart-reach .event-mark')).toHaveCount(2);
  await expect(page.locator('#chart-delivery .event-mark')).toHaveCount(2);
  await expect(page.locator('#chart-reach path.series')).toHaveCount(1);
  const delivery = async (after: string) => Number(await page.locator(`#phases-table tr[data-after="${after}"] td[data-run="0"]`).getAttribute('data-delivery'));
  expect(await delivery('start')).toBeGreaterThan(0.9);
  expect(await delivery('partition')).toBeLessThan(0.8);
  expect(await delivery('heal')).toBeGreaterThan(0.95);
  await expect(page.locator('#phases-table tr[data-after="heal"] td[data-run="0"]')).toContainText('recovered in');
  // The chart's line dips for the txs created during the cut and comes back.
  const ys = await page.locator('#chart-reach path.series').evaluate((p) => {
    const d = p.getAttribute('d') ?? '';
    return [...d.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
  });
  const lowest = Math.max(...ys.map((p) => p.y)); // SVG y grows downwards
  expect(lowest).toBeGreaterThan(ys[0].y + 30);
  expect(ys.at(-1)!.y).toBeLessThan(lowest - 30);
});

test('a change that cannot apply says why and leaves the runs alone', async ({ page }) => {
  await page.goto('/');
  await runsDone(page); // the first screen's runs, before ours replace them
  await runJson(page, JSON.stringify(CALM));
  await runsDone(page);
  const digests = (await shownRuns(page)).map((r) => r.digest);
  await seekTo(page, 4000, 500);
  await page.click('button[data-change="heal"]');
  await expect(page.locator('#change-status')).toContainText('no partition to heal');
  await page.fill('#change-load', '20');
  // CALM's load ends at 2 s: a load change after it is refused by the engine, with its path.
  await seekTo(page, 4000, 3000);
  await page.click('button[data-change="load"]');
  await expect(page.locator('#change-status')).toContainText('not applied');
  await expect(page.locator('#change-status')).toContainText('events[0].at_ms');
  expect((await shownRuns(page)).map((r) => r.digest)).toEqual(digests);
});

test.describe('on a touch screen', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('with "clicks add" ticked, taps add nodes to the picked ones and drop them again', async ({ page }) => {
    await page.goto('/');
    await runsDone(page);
    await runJson(page, JSON.stringify(CALM));
    await runsDone(page);
    const picked = page.locator('#changes');
    await clickNode(page, 0, 3, 'tap');
    await expect(picked).toHaveAttribute('data-picked', '1');
    // Without it a tap picks one node in place of the others, as a click does.
    await clickNode(page, 0, 7, 'tap');
    await expect(picked).toHaveAttribute('data-picked', '1');
    await page.locator('#pick-adds').tap();
    await clickNode(page, 0, 3, 'tap');
    await clickNode(page, 1, 11, 'tap');
    await expect(picked).toHaveAttribute('data-picked', '3');
    await clickNode(page, 0, 7, 'tap');
    await expect(picked).toHaveAttribute('data-picked', '2');
    await page.click('button[data-change="silent"]');
    await expect(page.locator('#change-status')).toContainText('2 nodes made silent');
    await runsDone(page);
    const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
    expect(edited.events[0].nodes).toEqual([3, 11]);
  });

  test('with "clicks and drags add" ticked, a finger\'s drag picks the nodes in its rectangle and leaves the view', async ({ page }) => {
    await page.goto('/');
    await runsDone(page);
    await runJson(page, JSON.stringify(CALM));
    await runsDone(page);
    // Where panel 0's nodes are drawn now, in the viewport.
    const points = () =>
      page.evaluate(
        (n) => Array.from({ length: n }, (_, i) => (window as unknown as { txcast: { nodePoint(k: number, n: number): { x: number; y: number } } }).txcast.nodePoint(0, i)),
        CALM.nodes,
      );
    /** A finger's drag across the middle of panel 0: the nodes drawn in its rectangle, and where every node was drawn before it. */
    const drag = async () => {
      const canvas = page.locator('.panel[data-run="0"] canvas:not(.gpu-layer)');
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      const [from, to] = [0.2, 0.6].map((f) => ({ x: box.x + f * box.width, y: box.y + f * box.height }));
      const before = await points();
      const inside = before.filter((p) => p.x >= from.x && p.x <= to.x && p.y >= from.y && p.y <= to.y).length;
      const touch = await page.context().newCDPSession(page);
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
      for (let step = 1; step <= 8; step += 1) {
        const f = step / 8;
        await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + f * (to.x - from.x), y: from.y + f * (to.y - from.y) }] });
      }
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      return { inside, before };
    };
    const picked = page.locator('#changes');
    await page.locator('#pick-adds').tap();
    // The panels take drags as picks once they show it (a busy machine may take a frame).
    await expect(page.locator('#panels')).toHaveClass(/drag-picks/);
    const picking = await drag();
    expect(picking.inside).toBeGreaterThan(2);
    await expect(picked).toHaveAttribute('data-picked', String(picking.inside));
    expect(await points()).toEqual(picking.before);
    // Unticked (a tap at once: the drag's touches leave none of it to the browser), the same drag
    // moves the view and picks nothing more.
    await page.locator('#pick-adds').tap();
    await expect(page.locator('#pick-adds')).not.toBeChecked();
    await expect(page.locator('#panels')).not.toHaveClass(/drag-picks/);
    const panning = await drag();
    await expect.poll(async () => (await points())[0]).not.toEqual(panning.before[0]);
    await expect(picked).toHaveAttribute('data-picked', String(picking.inside));
  });
});
