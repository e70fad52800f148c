// The papers page (/papers/): every study of docs/results.json with its figure and checks, and a
// link that opens a study's scenario in the visualizer.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { smallTargets } from './page';

interface StudyJson {
  id: string;
  title: string;
  scenarios: string[];
  figure: string | null;
  checks: { claim: string; holds: boolean }[];
  rows: string[][];
}
const results = JSON.parse(readFileSync('docs/results.json', 'utf8')) as { mode: string; studies: StudyJson[] };

test('every study is shown with its table, figure and checks', async ({ page }) => {
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  // The visualizer links to it.
  await page.goto('/');
  await page.locator('#papers-link').click();
  await expect(page).toHaveURL(/\/papers\/$/);
  await expect(page.locator('#papers')).toHaveAttribute('data-state', 'ready');
  const held = results.studies.flatMap((s) => s.checks).filter((c) => c.holds).length;
  const total = results.studies.flatMap((s) => s.checks).length;
  await expect(page.locator('#tally')).toHaveText(`${held} of ${total} hold`);
  // docs/results.md counts the same checks as the page.
  expect(readFileSync('docs/results.md', 'utf8')).toContain(`Directions checked: **${held} of ${total} hold**`);
  await expect(page.locator('#run-info')).toContainText(`${results.mode} mode`);
  await expect(page.locator('nav.toc li')).toHaveCount(results.studies.length);
  await expect(page.locator('section.study')).toHaveCount(results.studies.length);

  for (const study of results.studies) {
    const section = page.locator(`section[data-study="${study.id}"]`);
    await expect(section.locator('h2')).toContainText(study.title);
    await expect(section.locator('tbody tr')).toHaveCount(study.rows.length);
    const img = section.locator('figure.plot img');
    if (study.figure === null) {
      await expect(img).toHaveCount(0);
    } else {
      await img.scrollIntoViewIfNeeded(); // the figures load lazily
      await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    }
    const checks = section.locator('li.check');
    await expect(checks).toHaveCount(study.checks.length);
    for (const [k, check] of study.checks.entries()) {
      await expect(checks.nth(k)).toHaveAttribute('data-holds', String(check.holds));
      await expect(checks.nth(k).locator('.verdict')).toHaveText(check.holds ? 'holds' : 'does not hold');
      await expect(checks.nth(k).locator('.claim')).toHaveText(check.claim);
    }
    await expect(section.locator('.live li')).toHaveCount(study.scenarios.length);
  }
  expect(failures).toEqual([]);
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('every link and button is big enough to tap', async ({ page }) => {
    await page.goto('/papers/');
    await expect(page.locator('#papers')).toHaveAttribute('data-state', 'ready');
    expect(await smallTargets(page)).toEqual([]);
  });
});

test('the contents link to each study, by keyboard too', async ({ page }) => {
  await page.goto('/papers/');
  const last = results.studies.at(-1)!;
  const link = page.locator('nav.toc a').last();
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#study-${last.id}$`));
  await expect(page.locator(`section[data-study="${last.id}"] h2`)).toBeInViewport();
  // A link to a study from elsewhere lands on it too, although the sections are drawn after load.
  await page.goto('/');
  await page.goto(`/papers/#study-${last.id}`);
  await expect(page.locator(`section[data-study="${last.id}"] h2`)).toBeInViewport();
  // And by the anchor docs/results.md gives it (its bare id).
  await page.goto('/');
  await page.goto(`/papers/#${last.id}`);
  await expect(page.locator(`section[data-study="${last.id}"] h2`)).toBeInViewport();
});

test('"Open as a live scenario" opens the visualizer with that scenario', async ({ page }) => {
  // The smallest study with a scenario file: CAT vs flooding when it is there.
  const study = results.studies.find((s) => s.id === 'cat-vs-flood') ?? results.studies.find((s) => s.scenarios.length > 0)!;
  const file = study.scenarios[0];
  const scenario = JSON.parse(readFileSync(`scenarios/${file}`, 'utf8')) as { protocols: { label?: string; protocol: string }[] };
  const labels = scenario.protocols.map((p) => p.label ?? p.protocol);

  await page.goto('/papers/');
  const open = page.locator(`section[data-study="${study.id}"] a.live-open[data-file="${file}"]`);
  await expect(open).toHaveText('Open as a live scenario');
  await open.focus();
  await page.keyboard.press('Enter');

  const id = file.replace(/\.json$/, '');
  await expect(page).toHaveURL(new RegExp(`/\\?scenario=${id}$`));
  await expect(page.locator('#scenario')).toHaveValue(id);
  await expect(page.locator('#runs label')).toHaveText(labels);
  // The first runs (up to 4) start in their workers under the scenario's labels.
  const panels = page.locator('.panel');
  await expect(panels).toHaveCount(Math.min(4, labels.length), { timeout: 30_000 });
  expect(await panels.evaluateAll((ps) => ps.map((p) => (p as HTMLElement).dataset.label))).toEqual(labels.slice(0, 4));
});
