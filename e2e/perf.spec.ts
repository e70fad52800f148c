// Measured, printed, not asserted as time: frame time while animating big networks, time to the
// first frame, and the gzipped size of what the page downloads.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { appState, runJson, runsDone } from './page';

interface Hooks {
  txcast: { frameTimes(): number[]; frameIntervals(): number[]; clearFrameTimes(): void; firstFrameMs(): number | null; longestTaskSinceRun(): number };
}

const figures: Record<string, number> = {};

/**
 * Main-thread tasks over 50 ms as the browser reports them (PerformanceObserver 'longtask'),
 * registered before the page's own scripts so none is missed.
 */
async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: [number, number][] = [];
    (window as unknown as { __longTasks: [number, number][] }).__longTasks = seen;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task and the count over 50 ms since `since` (performance.now() in the page). */
async function longTasksSince(page: Page, since: number): Promise<{ longest: number; over50: number }> {
  return page.evaluate((from) => {
    const tasks = (window as unknown as { __longTasks: [number, number][] }).__longTasks.filter(([start]) => start >= from);
    return { longest: Math.max(0, ...tasks.map(([, d]) => d)), over50: tasks.filter(([, d]) => d > 50).length };
  }, since);
}

/** Records the long tasks of a phase under `name`. */
async function recordLongTasks(page: Page, name: string, since: number): Promise<void> {
  const { longest, over50 } = await longTasksSince(page, since);
  figures[`longest_main_task_ms_${name}`] = longest;
  figures[`main_tasks_over_50ms_${name}`] = over50;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** One flood over a random 8-regular network of `nodes`: the layout and frames are what is measured. */
function bigScenario(nodes: number): string {
  return JSON.stringify({
    name: `perf: ${nodes} nodes`,
    seed: 5,
    nodes,
    topology: { kind: 'random_regular', degree: 8 },
    latency: { kind: 'lognormal', median_ms: 70, sigma: 0.5 },
    workload: { kind: 'poisson', total_tps: 4, duration_ms: 1000, tx_bytes: 250 },
    drain_ms: 2000,
    protocols: [{ label: 'flood', protocol: 'flood' }],
  });
}

async function frameTimes(page: Page, nodes: number) {
  const since = await page.evaluate(() => performance.now());
  await runJson(page, bigScenario(nodes));
  await runsDone(page, 120_000);
  await appState(page, 'charts', 'done');
  // While the run computes and plays (it plays as soon as the first chunk is computed).
  await recordLongTasks(page, `during_run_${nodes}`, since);
  // Play slowly from the start so messages are in flight in every frame measured.
  await page.locator('#speed').selectOption({ label: '0.1×' });
  await page.locator('#timeline').fill('0');
  await page.locator('#timeline').blur();
  await page.evaluate(() => (window as unknown as Hooks).txcast.clearFrameTimes());
  await page.click('#play');
  await appState(page, 'playing', 'true');
  await page.waitForTimeout(3000);
  const times = (await page.evaluate(() => (window as unknown as Hooks).txcast.frameTimes())).sort((a, b) => a - b);
  expect(times.length).toBeGreaterThan(10);
  const intervals = (await page.evaluate(() => (window as unknown as Hooks).txcast.frameIntervals())).sort((a, b) => a - b);
  // Draw: our script's time per frame; interval: time between frames (includes the browser's paint).
  figures[`draw_ms_median_${nodes}`] = quantile(times, 0.5);
  figures[`draw_ms_p95_${nodes}`] = quantile(times, 0.95);
  figures[`frame_interval_ms_median_${nodes}`] = quantile(intervals, 0.5);
  figures[`frame_interval_ms_p95_${nodes}`] = quantile(intervals, 0.95);
  const tasks = await longTasksSince(page, since);
  console.log(`${nodes} nodes: longest main-thread task ${tasks.longest.toFixed(0)} ms, ${tasks.over50} over 50 ms (run, charts and 3 s of playback)`);
}

test.describe.configure({ mode: 'serial' });

test('perf: time to first frame', async ({ page }) => {
  await observeLongTasks(page);
  await page.goto('/');
  await runsDone(page);
  await appState(page, 'charts', 'done');
  await recordLongTasks(page, 'first_screen', 0);
  const first = await page.evaluate(() => (window as unknown as Hooks).txcast.firstFrameMs());
  expect(first).not.toBeNull();
  figures.first_frame_ms = first!;
  // The UI must not freeze while the workers compute: the longest main-thread task meanwhile.
  figures.longest_main_task_ms_during_first_runs = await page.evaluate(() => (window as unknown as Hooks).txcast.longestTaskSinceRun());
});

test('perf: frame time at 2,000 and 5,000 nodes', async ({ page }) => {
  test.setTimeout(240_000);
  await observeLongTasks(page);
  await page.goto('/');
  await runsDone(page);
  await frameTimes(page, 2000);
  await frameTimes(page, 5000);
});

test('perf: gzipped sizes of the WASM module and the JS bundle', () => {
  const assets = path.join('dist', 'assets');
  const files = readdirSync(assets);
  // The visualizer's JS: the entry dist/index.html loads, its worker and the WASM glue (the map
  // outline loads later, only for geographic scenarios, and is listed on its own).
  // Every script dist/index.html loads up front (the entry and the chunks it preloads), and the
  // chunks the entry imports as the page starts (web/app/boot.ts sets the page up in stages).
  // The build's URLs are relative: "./assets/x.js" in the HTML, "./x.js" between chunks.
  const scripts = (text: string) => [...text.matchAll(/(?:assets\/|"\.\/)([^"/]+\.js)"/g)].map((m) => m[1]);
  const html = readFileSync(path.join('dist', 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]* src="\.\/assets\/([^"]+\.js)"/.exec(html)![1];
  const loaded = [...scripts(html), ...scripts(readFileSync(path.join(assets, entry), 'utf8'))];
  const pick = (re: RegExp) => files.filter((f) => re.test(f));
  const js = [...new Set(loaded), ...pick(/^sim\.worker-.*\.js$/), ...pick(/^txcast_wasm-.*\.js$/)];
  const gz = (names: string[]) => names.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(assets, f))).length, 0) / 1024;
  const raw = (names: string[]) => names.reduce((sum, f) => sum + statSync(path.join(assets, f)).size, 0) / 1024;
  const wasm = pick(/\.wasm$/);
  expect(wasm.length).toBeGreaterThan(0);
  expect(loaded.length).toBeGreaterThan(0);
  figures.wasm_gzip_kb = gz(wasm);
  figures.wasm_raw_kb = raw(wasm);
  figures.js_gzip_kb = gz(js);
  figures.js_raw_kb = raw(js);
  figures.map_gzip_kb = gz(pick(/^land-110m-.*\.js$/));
});

test.afterAll(() => {
  const longest = Object.entries(figures).filter(([k]) => k.startsWith('longest_main_task_ms_'));
  if (longest.length) console.log(`\nlongest main-thread tasks (ms): ${longest.map(([k, v]) => `${k.slice('longest_main_task_ms_'.length)} ${v.toFixed(0)}`).join(', ')}`);
  const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 100) / 100]));
  console.log(`\nperf figures (measured, not asserted): ${JSON.stringify(rounded)}`);
  mkdirSync('test-results', { recursive: true });
  writeFileSync(path.join('test-results', 'perf.json'), `${JSON.stringify(rounded, null, 2)}\n`);
});
