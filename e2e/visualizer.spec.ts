import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { clickNode, pageReady, pixelsNear, runJson, runsDone, seekDrawn, shownRuns, SMALL_SCENARIO } from './page';
import { ensureTxsim } from '../scripts/lib/txsim.mjs';
import { nativeRuns, nativeTraceRows } from './txsim';

const VERMILLION: [number, number, number] = [0xd5, 0x5e, 0x00];

test('the page is cross-origin isolated', async ({ page }) => {
  await page.goto('/');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
});

test('the library lists every scenario file', async ({ page }) => {
  await page.goto('/');
  await pageReady(page);
  const files = readdirSync('scenarios').filter((f) => f.endsWith('.json') && f !== 'schema.json');
  const options = await page.locator('#scenario option:not([value="custom"])').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(options.map((id) => `${id}.json`).sort()).toEqual(files.sort());
  await expect(page.locator('#scenario')).toHaveValue('compare-300');
});

test('the glossary lists the protocols of the core\'s registry, as txsim does', async ({ page }) => {
  await page.goto('/');
  await pageReady(page);
  const listed = execFileSync(await ensureTxsim(), ['protocols'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/)[0]);
  await expect(page.locator('#protocol-list dt')).toHaveText(listed);
  await expect(page.locator('#protocol-list dd').first()).not.toBeEmpty();
});

test('the first screen compares the protocols with the numbers txsim reports', async ({ page }) => {
  await page.goto('/');
  await runsDone(page);
  const native = await nativeRuns({ file: 'scenarios/compare-300.json' });
  const shown = await shownRuns(page);
  expect(native.length).toBeGreaterThanOrEqual(2);
  expect(shown.map((r) => r.label)).toEqual(native.slice(0, 4).map((r) => r.label));
  expect(shown.map((r) => r.digest)).toEqual(native.slice(0, 4).map((r) => r.digest));
  expect(shown.map((r) => r.events)).toEqual(native.slice(0, 4).map((r) => r.events));
  await expect(page.locator('.panel[data-state="done"]')).toHaveCount(shown.length);
  // Every chart has one line or bar group per run.
  await expect(page.locator('#chart-latency path.series')).toHaveCount(shown.length);
  await expect(page.locator('#chart-delivery path.series')).toHaveCount(shown.length);
  await expect(page.locator('#chart-bandwidth path.series')).toHaveCount(shown.length);
  await expect(page.locator('#chart-bars rect.bar')).toHaveCount(2 * shown.length);
  // Protocol counters: the flood run has none, so a CAT counter shows one line (CAT's).
  await page.locator('#counter-pick').selectOption('cat.requested_txs');
  await expect(page.locator('#chart-counters path.series')).toHaveCount(1);
  // The core describes the counter: its unit on the axis, what it counts on the option.
  await expect(page.locator('#chart-counters')).toContainText('requests /s per node');
  await expect(page.locator('#counter-pick option[value="cat.requested_txs"]')).toHaveAttribute('title', /WantTx/);
  // Every tick label inside its chart: the last one ("10,000") was cut off past the right edge.
  const outside = await page.locator('.chart-grid svg').evaluateAll((svgs) =>
    svgs.flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('.tick text')].filter((t) => t.getBoundingClientRect().right > box.right || t.getBoundingClientRect().left < box.left).map((t) => `${svg.id}: ${t.textContent}`);
    }),
  );
  expect(outside).toEqual([]);
});

test('the fifth protocol swaps in for another; a fifth tick is refused and the limit is pointed out', async ({ page }) => {
  await page.goto('/');
  await runsDone(page);
  const box = (label: string) => page.locator('#runs label', { hasText: label }).locator('input');
  await box('strokkur').click();
  await expect(box('strokkur')).not.toBeChecked();
  await expect(page.locator('#runs')).toHaveClass(/at-limit/);
  await box('inv (jitter 100 ms)').uncheck();
  await box('strokkur').check();
  await expect(page.locator('#runs')).not.toHaveClass(/at-limit/);
  await page.click('#run-button');
  await expect(page.locator('#metrics-table tr[data-label="strokkur"]')).toHaveCount(1, { timeout: 45_000 });
  await runsDone(page);
  const native = await nativeRuns({ file: 'scenarios/compare-300.json' });
  const want = native.filter((r) => r.label !== 'inv (jitter 100 ms)');
  const shown = await shownRuns(page);
  expect(shown.map((r) => r.label)).toEqual(want.map((r) => r.label));
  expect(shown.map((r) => r.digest)).toEqual(want.map((r) => r.digest));
});

test('playback: pause, step to the next arrival, seek, and the tx spreads on the canvas', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const app = page.locator('#app');
  await expect(app).toHaveAttribute('data-playing', 'true');
  await page.keyboard.press('Space');
  await expect(app).toHaveAttribute('data-playing', 'false');

  // Seek to the start, pick tx 0, and step: time moves to arrivals of tx 0, one at a time.
  await page.locator('#timeline').fill('0');
  await page.fill('#tx', '0');
  await page.locator('#tx').dispatchEvent('change');
  await page.locator('#tx').blur(); // shortcuts are off while typing in a field
  await expect(app).toHaveAttribute('data-tx', '0');
  let previous = Number(await app.getAttribute('data-t-us'));
  for (let k = 0; k < 4; k += 1) {
    await page.keyboard.press('ArrowRight');
    await expect(app).not.toHaveAttribute('data-t-us', String(previous)); // drawn in the next frame
    const now = Number(await app.getAttribute('data-t-us'));
    expect(now).toBeGreaterThan(previous);
    previous = now;
  }
  await expect(app).toHaveAttribute('data-tx', '0');

  // Before the tx exists nothing is coloured; at the end, most nodes are.
  const yellowish: [number, number, number] = [0xfd, 0xe7, 0x25];
  await page.locator('#timeline').fill('1000');
  await expect(app).not.toHaveAttribute('data-t-us', String(previous)); // the seek is drawn
  const late = await pixelsNear(page, '.panel[data-run="0"] canvas', yellowish, 200);
  expect(late).toBeGreaterThan(50);
  // Adversarial nodes are marked (vermillion diamonds) where they act: CAT withholds, flooding
  // has no requests to withhold, so its panel marks none and says so.
  expect(await pixelsNear(page, '.panel[data-run="1"] canvas', VERMILLION, 60)).toBeGreaterThan(20);
  expect(await pixelsNear(page, '.panel[data-run="0"] canvas', VERMILLION, 60)).toBe(0);
  await expect(page.locator('.panel[data-run="0"] .effects')).toContainText('`flood` ignores `withhold_on_request`');
});

test('Space and Enter act on a focused button, link or summary; Space plays and pauses from the page, a canvas or the play button', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  await seekDrawn(page, 0); // paused
  const playing = page.locator('#app');
  // A control reached by keyboard (Tab back and forth onto it, as a keyboard user arrives).
  const space = async (selector: string | null) => {
    if (selector) {
      await page.locator(selector).focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(page.locator(selector)).toBeFocused();
    } else await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Space');
  };
  await space(null);
  await expect(playing).toHaveAttribute('data-playing', 'true');
  await space(null);
  await expect(playing).toHaveAttribute('data-playing', 'false');

  // A collapsible heading opens and closes; a button is clicked (the editor closes); a link keeps
  // its key; the clock stays paused all along.
  const details = page.locator('details', { has: page.locator('summary', { hasText: /^Protocols$/ }) });
  await expect(details).toHaveJSProperty('open', false);
  await space('details summary:text-is("Protocols")');
  await expect(details).toHaveJSProperty('open', true);
  await page.keyboard.press('Enter');
  await expect(details).toHaveJSProperty('open', false);
  await expect(page.locator('#editor')).toBeVisible();
  await space('#edit-toggle');
  await expect(page.locator('#editor')).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(page.locator('#editor')).toBeVisible();
  await space('#learn-link');
  await expect(playing).toHaveAttribute('data-playing', 'false');

  // The play button plays (once), and a focused network panel takes Space as the page does.
  await space('#play');
  await expect(playing).toHaveAttribute('data-playing', 'true');
  await space('.panel[data-run="0"] canvas:not(.gpu-layer)');
  await expect(playing).toHaveAttribute('data-playing', 'false');

  // A button just clicked (by a mouse user: no ring, unlike one clicked while it has the keyboard's
  // ring) keeps focus: Space is the page's there (it plays, and the editor stays as the click left it).
  const editorShown = await page.locator('#editor').isVisible();
  await page.locator('h1').first().click();
  await page.click('#edit-toggle');
  await expect(page.locator('#editor')).toBeVisible({ visible: !editorShown });
  await page.keyboard.press('Space');
  await expect(playing).toHaveAttribute('data-playing', 'true');
  await expect(page.locator('#editor')).toBeVisible({ visible: !editorShown });
});

test('an edited scenario runs with txsim digests; an invalid one shows its JSON path and the app keeps working', async ({ page }) => {
  await page.goto('/');
  await runsDone(page);
  const bad = { ...SMALL_SCENARIO, topology: { kind: 'random_regular', degree: 60 } };
  await runJson(page, JSON.stringify(bad));
  await expect(page.locator('#app')).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(page.locator('#scenario-error')).toContainText('topology.degree');

  // Once the text is edited the rejection no longer speaks for it (the editor's check does).
  const json = JSON.stringify(SMALL_SCENARIO, null, 2);
  await page.fill('#scenario-json', json);
  await expect(page.locator('#scenario-error')).toBeHidden();
  await expect(page.locator('#editor-status')).toContainText('valid:');
  await runJson(page, json);
  await runsDone(page);
  const native = await nativeRuns({ json });
  expect((await shownRuns(page)).map((r) => r.digest)).toEqual(native.map((r) => r.digest));
});

test('the schema form shows an engine error beside its field, and runs once fixed', async ({ page }) => {
  await page.goto('/');
  await runsDone(page);
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const degree = page.locator('#scenario-form [data-path="topology.degree"]');
  await degree.locator('input').fill('75');
  await expect(degree.locator('.field-error')).toContainText('below the node count');
  await expect(page.locator('#editor-status')).toContainText('at `topology.degree`');
  await degree.locator('input').fill('4');
  await expect(page.locator('#editor-status')).toHaveAttribute('data-valid', 'true');
  const edited = JSON.parse(await page.locator('#scenario-json').inputValue());
  expect(edited.topology.degree).toBe(4);
  // The form writes what was edited, not every default it shows.
  expect(Object.keys(edited).sort()).toEqual(Object.keys(SMALL_SCENARIO).sort());
  expect(edited.protocols).toEqual(SMALL_SCENARIO.protocols);
  await page.click('#apply-json');
  await runsDone(page);
  await expect(page.locator('.panel[data-state="done"]')).toHaveCount(2);
});

test('clicking a node shows its state at the paused time', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  // The timeline paused halfway, its frame drawn, then node 7 clicked.
  await seekDrawn(page, 500);
  await clickNode(page, 1, 7);
  const inspector = page.locator('#inspector');
  await expect(inspector).toHaveAttribute('data-node', '7', { timeout: 20_000 });
  await expect(inspector).toContainText('node 7 in cat');
  await expect(inspector).toContainText('txs in pool');
  await expect(inspector).toContainText('cat.requested_txs');
});

test('the inspector shows the picked node at the time a seek moves to, and forgets it when new runs start', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const inspector = page.locator('#inspector');
  const endUs = Number(await page.locator('#app').getAttribute('data-end-us'));
  const at = (position: number) => `at ${((position / 1000) * endUs / 1000).toFixed(1)} ms`;
  await seekDrawn(page, 500);
  await clickNode(page, 0, 7);
  await expect(inspector.locator('h2')).toHaveText(`node 7 in flood ${at(500)}`, { timeout: 20_000 });
  await seekDrawn(page, 800);
  await expect(inspector.locator('h2')).toHaveText(`node 7 in flood ${at(800)}`, { timeout: 20_000 });

  // Run again: the inspector is back to its placeholder, no node picked.
  await page.click('#run-button');
  await expect(inspector).toContainText('Click a node');
  await expect(inspector).not.toHaveAttribute('data-node');
  await runsDone(page);

  // Another scenario (with no flood run): the same.
  await clickNode(page, 0, 7);
  await expect(inspector).toHaveAttribute('data-node', '7', { timeout: 20_000 });
  await page.locator('#scenario').selectOption('strokkur-250');
  await expect(inspector).toContainText('Click a node');
  await expect(inspector).not.toHaveAttribute('data-node');
  await expect(inspector).not.toContainText('flood');
});

test('the inspect form names the node picked on a panel, and a flood node shows no empty counters', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  await seekDrawn(page, 500);
  const inspector = page.locator('#inspector');
  const counters = inspector.locator('h3', { hasText: /^counters$/ });
  await clickNode(page, 1, 12);
  await expect(inspector).toHaveAttribute('data-node', '12', { timeout: 20_000 });
  await expect(page.locator('#inspect-node')).toHaveValue('12');
  await expect(page.locator('#inspect-run option:checked')).toHaveText('cat');
  await expect(counters).toHaveCount(1);
  await clickNode(page, 0, 40);
  await expect(inspector).toHaveAttribute('data-node', '40', { timeout: 20_000 });
  await expect(inspector).toContainText('node 40 in flood');
  await expect(page.locator('#inspect-node')).toHaveValue('40');
  await expect(page.locator('#inspect-run option:checked')).toHaveText('flood');
  // Flooding counts nothing of its own.
  await expect(counters).toHaveCount(0);
});

test('a share link reopens the same scenario; a damaged one says so', async ({ page }) => {
  await page.goto('/');
  const json = JSON.stringify({ ...SMALL_SCENARIO, name: 'shared one' }, null, 2);
  await runJson(page, json);
  await runsDone(page);
  const digests = (await shownRuns(page)).map((r) => r.digest);
  await page.click('#share');
  // The link is made once the deflate library has loaded (it loads with the first link).
  await expect(page.locator('#share-url')).toHaveValue(/#s=[A-Za-z0-9_-]+$/);
  const url = await page.locator('#share-url').inputValue();
  // A scenario picked from the menu after sharing is a new history entry: Back reopens the shared one.
  await page.locator('#scenario').selectOption('cat-vs-flood');
  await expect(page).toHaveURL(/\?scenario=cat-vs-flood$/);
  await expect(page.locator('#scenario-json')).not.toHaveValue(/shared one/);
  await page.goBack();
  await expect(page).toHaveURL(url);
  await expect(page.locator('#scenario')).toHaveValue('custom');
  await expect.poll(async () => (await shownRuns(page)).map((r) => r.digest), { timeout: 45_000 }).toEqual(digests);

  const other = await page.context().newPage();
  await other.goto(url);
  await runsDone(other);
  expect(JSON.parse(await other.locator('#scenario-json').inputValue())).toEqual(JSON.parse(json));
  expect((await shownRuns(other)).map((r) => r.digest)).toEqual(digests);

  const damaged = await page.context().newPage();
  await damaged.goto('/#s=not-a-scenario');
  await runsDone(damaged);
  await expect(damaged.locator('#scenario-error')).toContainText('could not open the shared scenario');
  await expect(damaged.locator('#scenario')).toHaveValue('compare-300');
});

test('each scenario picked from the menu is a history entry: Back and Forward reopen them', async ({ page }) => {
  const labelsOf = (file: string) =>
    (JSON.parse(readFileSync(`scenarios/${file}.json`, 'utf8')) as { protocols: { label?: string; protocol: string }[] }).protocols.map(
      (p) => p.label ?? p.protocol,
    );
  await page.goto('/?scenario=cat-vs-flood');
  await pageReady(page);
  await expect(page.locator('#runs label')).toHaveText(labelsOf('cat-vs-flood'));
  await page.locator('#scenario').selectOption('push-vs-flood-300');
  await expect(page).toHaveURL(/\?scenario=push-vs-flood-300$/);
  await expect(page.locator('#runs label')).toHaveText(labelsOf('push-vs-flood-300'));

  await page.goBack();
  await expect(page).toHaveURL(/\?scenario=cat-vs-flood$/);
  await expect(page.locator('#scenario')).toHaveValue('cat-vs-flood');
  await expect(page.locator('#runs label')).toHaveText(labelsOf('cat-vs-flood'));
  await expect(page.locator('.panel').first()).toHaveAttribute('data-label', labelsOf('cat-vs-flood')[0]);

  await page.goForward();
  await expect(page.locator('#scenario')).toHaveValue('push-vs-flood-300');
  await expect(page.locator('#runs label')).toHaveText(labelsOf('push-vs-flood-300'));
});

test('exports the report as JSON and CSV, the trace, and a chart as SVG and PNG', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const save = async (selector: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: (await import('node:fs')).readFileSync(path) };
  };
  const json = await save('#export-json');
  const report = JSON.parse(json.text.toString()) as { runs: { digest: string }[]; scenario: { name: string } };
  expect(report.scenario.name).toBe(SMALL_SCENARIO.name);
  expect(report.runs.map((r) => r.digest)).toEqual((await shownRuns(page)).map((r) => r.digest));
  const csv = (await save('#export-csv')).text.toString().trim().split('\n');
  expect(csv.length).toBe(3);
  expect(csv[0]).toContain('digest');
  const trace = (await save('#export-trace')).text.toString().trim().split('\n');
  expect(trace[0]).toBe('run,event,t_us,node,tx');
  expect(trace.length).toBeGreaterThan(100);
  // Every first arrival and duplicate copy (the duplicates come from the workers, which keep them), as txsim traces them.
  expect(trace.filter((row) => row.includes(',duplicate,')).length).toBeGreaterThan(100);
  expect(trace.slice(1)).toEqual(await nativeTraceRows(JSON.stringify(SMALL_SCENARIO)));
  const svg = await save('figure[data-chart="latency"] [data-format="svg"]');
  expect(svg.name).toMatch(/\.svg$/);
  expect(svg.text.toString()).toContain('<path class="series"');
  const png = await save('figure[data-chart="latency"] [data-format="png"]');
  expect(Array.from(png.text.subarray(1, 4), (b) => String.fromCharCode(b)).join('')).toBe('PNG');
});

test('a geographic scenario opens on the world map; circular and force views switch', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, name: 'geo', latency: { kind: 'geographic' } }));
  await runsDone(page);
  await expect(page.locator('#layout')).toHaveValue('map');
  await expect(page.locator('.panel[data-run="0"]')).toHaveAttribute('data-layout', 'map');
  const LAND: [number, number, number] = [0x1b, 0x26, 0x33];
  await expect.poll(() => pixelsNear(page, '.panel[data-run="0"] canvas', LAND, 4), { timeout: 10_000 }).toBeGreaterThan(1_500);
  await page.locator('#layout').selectOption('circular');
  await expect(page.locator('.panel[data-run="0"]')).toHaveAttribute('data-layout', 'circular');
  await page.waitForTimeout(100);
  expect(await pixelsNear(page, '.panel[data-run="0"] canvas', LAND, 4)).toBeLessThan(500);

  // A scenario without coordinates offers no map.
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  await expect(page.locator('#layout option[value="map"]')).toBeDisabled();
});

interface SeekHooks {
  txcast: { nodeColours(k: number): { played: number[]; seeked: number[] | null } | null };
}

test('a long run plays while it is still computing; the timeline shows how far it has got', async ({ page }) => {
  await page.goto('/');
  await runsDone(page);
  // Big enough that the engine needs many chunks (20 s simulated: with a worker per core a
  // shorter run could be computed before the first frame plays).
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, name: 'long', nodes: 1500, workload: { kind: 'poisson', total_tps: 40, duration_ms: 16000, tx_bytes: 200 }, drain_ms: 4000, protocols: [{ label: 'flood', protocol: 'flood' }] }));
  const app = page.locator('#app');
  // Playing, yet still computing, read in the frame where playing starts: the clock is within
  // what is computed, which is short of the end.
  const started = await page.waitForFunction(
    () => {
      const el = document.querySelector<HTMLElement>('#app');
      if (el?.dataset.playing !== 'true') return null;
      return { state: el.dataset.state, t: Number(el.dataset.tUs), computed: Number(el.dataset.computedUs) };
    },
    undefined,
    { timeout: 30_000 },
  );
  const during = (await started.jsonValue())!;
  expect(during.state).toBe('running');
  expect(during.t).toBeLessThanOrEqual(during.computed);
  expect(during.computed).toBeLessThan(20_000_000);
  await expect(page.locator('#compute-progress')).toBeVisible();
  expect(await page.locator('#timeline').evaluate((el) => (el as HTMLElement).style.getPropertyValue('--computed'))).toMatch(/%$/);
  await runsDone(page, 120_000);
  await expect(page.locator('#compute-progress')).toBeHidden();
  await expect(app).toHaveAttribute('data-computed-us', '20000000');
});

test('seeking colours the nodes from the arrival logs exactly as playing to that time does', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const app = page.locator('#app');
  for (const position of ['80', '250', '700']) {
    await page.locator('#timeline').fill(position);
    await expect(app).toHaveAttribute('data-seek', 'scanned');
    for (const k of [0, 1]) {
      const colours = await page.evaluate((panel) => (window as unknown as SeekHooks).txcast.nodeColours(panel), k);
      expect(colours?.seeked).not.toBeNull();
      expect(colours!.seeked).toEqual(colours!.played);
    }
  }
  // Not a trivial agreement: late in the run the picked tx has reached nodes.
  const late = await page.evaluate(() => (window as unknown as SeekHooks).txcast.nodeColours(0));
  expect(late!.played.filter((b) => b >= 0).length).toBeGreaterThan(10);
});

const EFFECT_YELLOW: [number, number, number] = [0xf0, 0xe4, 0x42];

test('adversaries are marked and what they do is drawn: withheld requests, censoring', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, name: 'adversaries', protocols: [{ label: 'cat', protocol: 'cat' }, { label: 'gossipsub', protocol: 'gossipsub' }] }));
  await runsDone(page);
  await expect(page.locator('.panel[data-run="0"] .effects')).toBeVisible();
  await expect(page.locator('.panel[data-run="1"] .effects')).toContainText('requests withheld');
  await expect(page.locator('.effects-legend li')).toHaveCount(3);
  // Withheld requests land all through the run: some time shows the marks.
  const app = page.locator('#app');
  let marked = 0;
  for (const position of ['30', '60', '100', '150', '200', '300']) {
    await page.locator('#timeline').fill(position);
    await expect(app).toHaveAttribute('data-seek', 'scanned');
    await page.waitForTimeout(50);
    marked = Math.max(marked, await pixelsNear(page, '.panel[data-run="0"] canvas', EFFECT_YELLOW, 30));
  }
  expect(marked).toBeGreaterThan(10);

  // Censors: a tx a censor holds is marked on it.
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, name: 'censors', adversaries: [{ fraction: 0.3, behaviour: { kind: 'censor', fraction: 1.0 } }], protocols: [{ label: 'flood', protocol: 'flood' }] }));
  await runsDone(page);
  await page.fill('#tx', '0');
  await page.locator('#tx').dispatchEvent('change');
  await page.locator('#timeline').fill('1000');
  await expect(app).toHaveAttribute('data-seek', 'scanned');
  await page.waitForTimeout(100);
  expect(await pixelsNear(page, '.panel[data-run="0"] canvas', EFFECT_YELLOW, 30)).toBeGreaterThan(20);
});

test('picking a tx flashes only its messages; all traffic otherwise', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, protocols: [{ label: 'flood', protocol: 'flood' }] }));
  await runsDone(page);
  // The picked tx's messages by default; all traffic on request.
  await expect(page.locator('#tx-only')).toBeChecked();
  // Just after tx 5 is created, earlier txs are still spreading: of the messages in flight, few are tx 5's.
  await page.fill('#tx', '5');
  await page.locator('#tx').dispatchEvent('change');
  await page.locator('#tx-only').uncheck();
  const app = page.locator('#app');
  await expect(app).toHaveAttribute('data-tx', '5');
  await expect(app).toHaveAttribute('data-playing', 'false');
  await expect(app).toHaveAttribute('data-seek', 'scanned');
  const panel = page.locator('.panel[data-run="0"]');
  const createdUs = Number(await app.getAttribute('data-t-us'));
  // The timeline's 1000 steps span the 4 s run.
  const position = Math.round((createdUs + 40_000) / 4000);
  await page.locator('#timeline').fill(String(position));
  await expect(app).toHaveAttribute('data-t-us', String(position * 4000));
  await expect(app).toHaveAttribute('data-seek', 'scanned');
  const all = Number(await panel.getAttribute('data-flashes'));
  await page.locator('#tx-only').check();
  await expect(panel).not.toHaveAttribute('data-flashes', String(all));
  const one = Number(await panel.getAttribute('data-flashes'));
  expect(all).toBeGreaterThan(20);
  expect(one).toBeGreaterThan(0);
  expect(one).toBeLessThan(all);
  // Picking a tx turns the filter on.
  await page.locator('#tx-only').uncheck();
  await page.fill('#tx', '2');
  await page.locator('#tx').dispatchEvent('change');
  await expect(page.locator('#tx-only')).toBeChecked();
});

test('the inspector lists a GossipSub node\'s mesh peers, and they are highlighted on the canvas', async ({ page }) => {
  await page.goto('/');
  const scenario = { ...SMALL_SCENARIO, name: 'mesh', adversaries: [], topology: { kind: 'random_regular', degree: 8 }, protocols: [{ label: 'gossipsub', protocol: 'gossipsub' }] };
  await runJson(page, JSON.stringify(scenario));
  await runsDone(page);
  await page.locator('#timeline').fill('800');
  const panel = page.locator('.panel[data-run="0"]');
  await panel.locator('canvas').scrollIntoViewIfNeeded();
  const mesh: [number, number, number] = [0xff, 0x4f, 0xd8];
  const before = await pixelsNear(page, '.panel[data-run="0"] canvas', mesh, 30);
  await clickNode(page, 0, 5);
  const inspector = page.locator('#inspector');
  await expect(inspector).toHaveAttribute('data-node', '5', { timeout: 20_000 });
  const group = inspector.locator('li[data-group="mesh"]');
  await expect(group).toContainText('mesh: node');
  const members = (await group.getAttribute('data-nodes'))!.split(',').map(Number);
  expect(members.length).toBeGreaterThanOrEqual(4);
  // The peer table says "mesh" for exactly those nodes.
  const table = inspector.locator('section[data-table="peers"] tbody tr');
  const inMesh = await table.evaluateAll((rows) => rows.filter((r) => r.children[1]?.textContent === 'mesh').map((r) => Number((r as HTMLElement).dataset.node)));
  expect(inMesh.sort((a, b) => a - b)).toEqual([...members].sort((a, b) => a - b));
  await expect(panel).toHaveAttribute('data-highlighted', String(members.length));
  expect(await pixelsNear(page, '.panel[data-run="0"] canvas', mesh, 30)).toBeGreaterThan(before + 50);
});

test('a message in flight can be read by hovering or from the keyboard; the legend lists the message types', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  await expect(page.locator('#message-legend li[data-kind="SeenTx"]')).toContainText('SeenTx');
  await expect(page.locator('#message-legend li[data-kind="tx"]')).toContainText('TX');
  // All traffic, at a time when much is in flight.
  await page.locator('#tx-only').uncheck();
  await page.locator('#timeline').fill('150');
  const panel = page.locator('.panel[data-run="1"]');
  await panel.locator('canvas').scrollIntoViewIfNeeded();
  await expect.poll(() => panel.getAttribute('data-flashes')).not.toBe('0');
  type Hooks = { txcast: { messagePoint(k: number, i: number): { x: number; y: number; count: number } | null } };
  // A frame drawn between reading the point and moving there may move the message: read again.
  let point: { x: number; y: number; count: number } | null = null;
  await expect(async () => {
    point = await page.evaluate(() => (window as unknown as Hooks).txcast.messagePoint(1, 0));
    expect(point).not.toBeNull();
    await page.mouse.move(point!.x, point!.y);
    await expect(panel.locator('.msg-tip')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  const tip = await panel.getAttribute('data-tip');
  expect(tip).toMatch(/^(Txs|SeenTx|WantTx) \((payload|announcement|request)\) · [\d,]+ bytes · node \d+ → node \d+ · tx \d+/);
  // The keyboard: focus the canvas, then ] and [ go through the messages in flight.
  await page.mouse.move(0, 0);
  await panel.locator('canvas').focus();
  await page.keyboard.press(']');
  const first = await panel.getAttribute('data-tip');
  expect(first).toMatch(/node \d+ → node \d+/);
  if (point!.count > 1) {
    await page.keyboard.press(']');
    await expect(panel).not.toHaveAttribute('data-tip', first!);
    await page.keyboard.press('[');
    await expect(panel).toHaveAttribute('data-tip', first!);
  }
});

test('the ring layouts put the picked tx\'s origin in the middle and the rest around it', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify({ ...SMALL_SCENARIO, protocols: [{ label: 'flood', protocol: 'flood' }] }));
  await runsDone(page);
  await page.fill('#tx', '3');
  await page.locator('#tx').dispatchEvent('change');
  for (const layout of ['rings-hops', 'rings-time']) {
    await page.locator('#layout').selectOption(layout);
    await expect(page.locator('.panel[data-run="0"]')).toHaveAttribute('data-layout', layout);
    // The origin's distance from the canvas's centre, once the next frame has laid the rings out.
    const offCentre = () =>
      page.evaluate(() => {
        const w = window as unknown as { txcast: { nodePoint(k: number, n: number): { x: number; y: number } } };
        const origin = Number(document.querySelector('.panel[data-run="0"]')!.getAttribute('data-origin'));
        const rect = document.querySelector('.panel[data-run="0"] canvas')!.getBoundingClientRect();
        const p = w.txcast.nodePoint(0, origin);
        return Math.hypot(p.x - (rect.left + rect.width / 2), p.y - (rect.top + rect.height / 2));
      });
    await expect.poll(offCentre).toBeLessThan(2);
  }
});

/** Whether the Light node button lies over `selector` once the page is scrolled to put that at the top. */
async function lightNodeButtonCovers(page: Page, selector: string): Promise<boolean> {
  await page.locator('#lightnode-open').waitFor();
  await page.locator(selector).evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - 4));
  return page.evaluate((selector) => {
    const a = document.querySelector('#lightnode-open')!.getBoundingClientRect();
    const b = document.querySelector(selector)!.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }, selector);
}

test('the Light node button covers neither the inspect form nor the inspector', async ({ page }) => {
  await page.goto('/');
  await page.locator('#inspect-run option').first().waitFor({ state: 'attached' });
  expect(await lightNodeButtonCovers(page, '#inspect-run')).toBe(false);
  expect(await lightNodeButtonCovers(page, '#inspector')).toBe(false);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the first screen fits the screen, and a node can be inspected', async ({ page }) => {
    await page.goto('/');
    await runJson(page, JSON.stringify(SMALL_SCENARIO));
    await runsDone(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.locator('#timeline').fill('500');
    await clickNode(page, 0, 3);
    await expect(page.locator('#inspector')).toHaveAttribute('data-node', '3', { timeout: 20_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test('tapping a node brings the inspector, stacked under the panels, into view', async ({ page }) => {
    await page.goto('/');
    await runJson(page, JSON.stringify(SMALL_SCENARIO));
    await runsDone(page);
    await seekDrawn(page, 500);
    await expect(page.locator('#inspector')).not.toBeInViewport();
    await clickNode(page, 0, 3, 'tap');
    await expect(page.locator('#inspector')).toHaveAttribute('data-node', '3', { timeout: 20_000 });
    await expect(page.locator('#inspector')).toBeInViewport();
    await expect(page.locator('#inspect-node')).toBeInViewport();
  });
  test('the header links are one per line, and the Light node button covers no playback control', async ({ page }) => {
    await page.goto('/');
    await pageReady(page);
    const learn = (await page.locator('#learn-link').boundingBox())!;
    const papers = (await page.locator('#papers-link').boundingBox())!;
    expect(papers.y).toBeGreaterThanOrEqual(learn.y + learn.height);
    expect(await lightNodeButtonCovers(page, '#transport')).toBe(false);
    expect(await lightNodeButtonCovers(page, '#speed')).toBe(false);
  });
});

test('a Strokkur node\'s decoder can be watched peeling, step by step', async ({ page }) => {
  await page.goto('/');
  const scenario = { ...SMALL_SCENARIO, name: 'peel', adversaries: [], workload: { kind: 'poisson', total_tps: 20, duration_ms: 600, tx_bytes: 256 }, protocols: [{ label: 'strokkur', protocol: 'strokkur' }] };
  await runJson(page, JSON.stringify(scenario));
  await runsDone(page);
  await page.locator('#timeline').fill('300');
  await clickNode(page, 0, 4);
  await expect(page.locator('#inspector')).toHaveAttribute('data-node', '4', { timeout: 20_000 });
  await expect(page.locator('#inspector section[data-table="links"]')).toContainText('rate (/s)');
  await expect(page.locator('#inspector section[data-table="links"]')).toContainText('waiting to peel');
  await page.click('#peel-button');
  const view = page.locator('#inspector-peeling');
  await expect(view).toHaveAttribute('data-steps', /^[1-9]\d*$/, { timeout: 30_000 });
  await expect(view).toHaveAttribute('data-step', '0');
  await expect(view.locator('.peel-say')).toContainText('Codeword 0 arrives from node');
  await view.locator('button', { hasText: 'step' }).click();
  await expect(view).toHaveAttribute('data-step', '1');
  await view.locator('.peel-graph').focus();
  await page.keyboard.press('End');
  await expect(view).toHaveAttribute('data-step', String(Number(await view.getAttribute('data-steps')) - 1));
});

test('the decoder asked for while the inspector replays the node to a new time is shown at that time', async ({ page }) => {
  await page.goto('/');
  // Long enough that replaying the run to a new time takes a while.
  const scenario = { ...SMALL_SCENARIO, name: 'peel later', nodes: 150, adversaries: [], workload: { kind: 'poisson', total_tps: 100, duration_ms: 2000, tx_bytes: 256 }, protocols: [{ label: 'strokkur', protocol: 'strokkur' }] };
  await runJson(page, JSON.stringify(scenario));
  await runsDone(page, 60_000);
  const inspector = page.locator('#inspector');
  await page.locator('#timeline').fill('300');
  await clickNode(page, 0, 4);
  await expect(inspector.locator('#peel-button')).toBeVisible({ timeout: 20_000 });
  const before = await inspector.locator('h2').textContent();
  await page.locator('#timeline').fill('600');
  await inspector.locator('#peel-button').click();
  await expect(inspector.locator('#inspector-peeling')).toHaveAttribute('data-steps', /^[1-9]\d*$/, { timeout: 30_000 });
  await expect(inspector.locator('h2')).not.toHaveText(before ?? '');
});

test('a node can be inspected from the keyboard while the runs are still computing', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  // Big enough that the workers are still computing when the inspection comes back.
  const big = { ...SMALL_SCENARIO, name: 'big', nodes: 5000, topology: { kind: 'random_regular', degree: 8 }, workload: { kind: 'poisson', total_tps: 100, duration_ms: 3000, tx_bytes: 200 }, adversaries: [] };
  await runJson(page, JSON.stringify(big));
  await page.locator('.panel[data-run="1"][data-layer="done"]').waitFor({ timeout: 60_000 });
  await expect(page.locator('#app')).toHaveAttribute('data-state', 'running');
  await page.locator('#inspect-node').fill('42');
  await page.locator('#inspect-run').selectOption({ label: 'cat' });
  await page.locator('#inspect-node').press('Enter');
  const inspector = page.locator('#inspector');
  await expect(inspector).toHaveAttribute('data-node', '42', { timeout: 30_000 });
  await expect(inspector).toContainText('node 42 in cat');
  await expect(inspector).toContainText('pending wants and who has seen what');
  await expect(page.locator('#app')).toHaveAttribute('data-state', 'running');
});
