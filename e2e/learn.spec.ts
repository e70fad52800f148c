// The Learn page: every lesson played to its end on a desktop and a phone viewport, each
// narration line naming the kind, sender and receiver of its event; a golden screenshot of each
// lesson's first step; the keyboard; an experiment compared side by side.
import { readdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { smallTargets } from './page';

const lessons = readdirSync('web/learn/lessons')
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();

const viewports = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } };

async function openLesson(page: Page, id: string): Promise<void> {
  await page.goto(`/learn/#${id}`);
  await page.locator('#learn[data-state="ready"]').waitFor({ timeout: 30_000 });
}

/** Plays to the end at full speed, pressing play again wherever a stop pauses it. */
async function playToEnd(page: Page): Promise<void> {
  await page.locator('#speed').selectOption('120');
  for (let i = 0; i < 400 && !(await page.locator('#learn[data-state="end"]').count()); i += 1) {
    if ((await page.locator('#play').getAttribute('aria-pressed')) !== 'true') await page.click('#play');
    await page.waitForTimeout(150);
  }
  await page.locator('#learn[data-state="end"]').waitFor({ timeout: 5_000 });
}

test('the first screen links to the lessons, and the list has every lesson file', async ({ page }) => {
  await page.goto('/');
  await page.click('#learn-link');
  await expect(page).toHaveURL(/\/learn\/$/);
  await expect(page.locator('#lesson-list li')).toHaveCount(lessons.length);
  await page.locator('#lesson-list a').first().click();
  await page.locator('#learn[data-state="ready"]').waitFor();
  // From a lesson: on to the next, back to the list, back to the visualizer.
  await page.click('#next-lesson');
  await expect(page.locator('#learn')).toHaveAttribute('data-lesson', lessons[1]);
  await page.locator('#learn[data-state="ready"]').waitFor();
  await page.getByRole('link', { name: '← all lessons' }).click();
  await expect(page.locator('#lesson-list')).toBeVisible();
  await page.locator('#lesson-list a').last().click();
  await page.locator('#learn[data-state="ready"]').waitFor();
  await expect(page.locator('#next-lesson')).toBeHidden();
  await page.getByRole('link', { name: 'the visualizer →' }).click();
  await expect(page.locator('#learn-link')).toBeVisible();
});

for (const [name, viewport] of Object.entries(viewports)) {
  test.describe(`on a ${name}`, () => {
    test.use({ viewport });
    for (const id of lessons) {
      test(`lesson ${id} plays to its end, and each line names its event's kind, sender and receiver`, async ({ page }) => {
        test.setTimeout(120_000);
        await openLesson(page, id);
        const steps = Number(await page.locator('#lesson').getAttribute('data-steps'));
        expect(steps).toBeGreaterThan(20);
        // Nothing on the page is wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        await page.click('#next');
        await expect(page.locator('#lesson')).toHaveAttribute('data-step', '0');
        if (name === 'desktop') await expect(page.locator('#stage')).toHaveScreenshot(`${id}-first-step.png`, { maxDiffPixelRatio: 0.002 });
        await playToEnd(page);
        const lines = await page.locator('#narration li').evaluateAll((items) =>
          items.map((li) => {
            const d = (li as HTMLElement).dataset;
            return { text: li.textContent ?? '', kind: d.kind ?? '', from: Number(d.from), to: Number(d.to) };
          }),
        );
        expect(lines.length).toBe(steps);
        for (const line of lines) {
          expect(line.text).toContain(line.kind);
          expect(line.text).toContain(`node ${line.to}`);
          if (line.from >= 0) expect(line.text).toContain(`node ${line.from}`);
        }
        // Messages were drawn as arrows somewhere along the way: at least the last step's, or earlier ones.
        expect(lines.some((l) => l.from >= 0)).toBe(true);
      });
    }
  });
}

test.describe('on a touch phone', () => {
  test.use({ viewport: viewports.phone, isMobile: true, hasTouch: true });
  test('every link and control of the list and of a lesson is big enough to tap', async ({ page }) => {
    await page.goto('/learn/');
    expect(await smallTargets(page)).toEqual([]);
    await openLesson(page, '01-flooding');
    expect(await smallTargets(page)).toEqual([]);
  });
});

test('the keyboard steps, goes back, plays and jumps to the end', async ({ page }) => {
  await openLesson(page, lessons[0]);
  await page.locator('#stage').focus();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  await expect(page.locator('#lesson')).toHaveAttribute('data-step', '2');
  await expect(page.locator('#narration li')).toHaveCount(3);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#lesson')).toHaveAttribute('data-step', '1');
  await expect(page.locator('#narration li')).toHaveCount(2);
  await page.keyboard.press('End');
  await expect(page.locator('#learn')).toHaveAttribute('data-state', 'end');
  await page.keyboard.press('Home');
  await expect(page.locator('#lesson')).toHaveAttribute('data-step', '-1');
  await expect(page.locator('#narration li')).toHaveCount(0);
});

test('a step draws its messages as arrows, and the narration tells the message it handled', async ({ page }) => {
  await openLesson(page, '03-cat');
  const first = page.locator('#narration li').first();
  await page.click('#next');
  await expect(first).toContainText('created tx 0');
  await page.click('#next');
  await expect(page.locator('#narration li').nth(1)).toContainText('got Txs about tx 0 from node');
  expect(Number(await page.locator('#stage').getAttribute('data-arrows'))).toBeGreaterThan(0);
  // Each arrow can be read: ] on the focused network names a message in flight.
  await page.locator('#stage').focus();
  await page.keyboard.press(']');
  await expect(page.locator('#stage-tip')).toBeVisible();
  await expect(page.locator('#stage-tip')).toContainText(/^Txs \(payload\) · \d+ bytes · node 0 → node \d+ · tx 0/);
});

test('an experiment runs the changed network and compares the numbers side by side', async ({ page }) => {
  await openLesson(page, '01-flooding');
  await page.locator('#change-value').fill('1');
  await page.locator('input[name="prediction"][value="fewer"]').check();
  await page.click('#run-experiment');
  await expect(page.locator('#comparison')).toBeVisible({ timeout: 30_000 });
  const rows = page.locator('#comparison tbody tr');
  await expect(rows).toHaveCount(4);
  const dup = rows.first().locator('td');
  const [before, after] = [Number(await dup.nth(1).textContent()), Number(await dup.nth(2).textContent())];
  expect(before).toBeGreaterThan(after);
  await expect(page.locator('#experiment-status')).toContainText('Your prediction held');
});

test('an experiment shows its own table; the next lesson starts with no prediction', async ({ page }) => {
  await openLesson(page, '01-flooding');
  await page.locator('input[name="prediction"][value="fewer"]').check();
  await page.click('#run-experiment');
  await expect(page.locator('#comparison')).toBeVisible({ timeout: 30_000 });
  await page.click('#next-lesson');
  await expect(page.locator('#learn')).toHaveAttribute('data-lesson', '02-inv-getdata');
  await expect(page.locator('input[name="prediction"]:checked')).toHaveCount(0);
  await expect(page.locator('#comparison')).toBeHidden();
  await page.click('#run-experiment');
  await expect(page.locator('#comparison')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#comparison thead tr')).toHaveCount(1);
  await expect(page.locator('#comparison thead')).toContainText('dedup_requests');
  // Counts read as counts.
  await expect(page.locator('#comparison tr[data-measure="GETDATA requests"] td').nth(1)).toHaveText(/^\d+$/);
});

test('a question about latency is answered higher or lower', async ({ page }) => {
  await openLesson(page, '08-adversaries');
  await expect(page.locator('#prediction')).toContainText('higher');
  await page.locator('input[name="prediction"][value="fewer"]').check();
  await page.click('#run-experiment');
  await expect(page.locator('#experiment-status')).toContainText('You predicted lower; latency, 95th percentile (ms): lower with the change. Your prediction held.', { timeout: 30_000 });
});

test("a stop's words show at the step it stops at, not at later ones of its kind", async ({ page }) => {
  await openLesson(page, '04-gossipsub-mesh');
  await page.locator('#speed').selectOption('120');
  await page.click('#play');
  // Paused at the heartbeat that sends GRAFT: its words are shown.
  await expect(page.locator('#look')).toContainText('A heartbeat', { timeout: 30_000 });
  await expect(page.locator('#play')).toHaveAttribute('aria-pressed', 'false');
  await page.locator('#stage').focus();
  for (let i = 0; i < 80 && !(await page.locator('#narration li.now[data-kind="GRAFT"]').count()); i += 1) await page.keyboard.press('ArrowRight');
  // A GRAFT it sent arriving: no heartbeat there.
  await expect(page.locator('#narration li.now')).toHaveAttribute('data-kind', 'GRAFT');
  await expect(page.locator('#look')).toBeHidden();
});

test('the Strokkur lesson shows a node\'s decoder peeling: codewords with degrees, symbols, short IDs per link', async ({ page }) => {
  await openLesson(page, '07-strokkur');
  await expect(page.locator('#peel-section')).toBeVisible();
  await page.locator('#peel-node').selectOption('2');
  await page.locator('#peel-pick button').click();
  const view = page.locator('#peeling');
  await expect(view).toHaveAttribute('data-steps', /^[1-9]\d*$/, { timeout: 30_000 });
  await expect(view.locator('.peel-say')).toContainText(/Codeword \d+ arrives from node \d+/);
  // The first codeword: a box with its degree, linked to symbols by 8-hex-digit short IDs.
  await expect(view.locator('svg rect')).toHaveCount(1);
  await expect(view.locator('svg text').first()).toHaveText(/^[0-9a-f]{8}$/);
  await expect(view.locator('svg g text', { hasText: /^cw 0 · d \d$/ })).toHaveCount(1);
  // Stepping on, a codeword is released and the node knows a tx it did not create.
  for (let i = 0; i < 60 && !(await view.locator('.peel-say', { hasText: 'one unknown left' }).count()); i += 1) await view.locator('button', { hasText: 'step' }).click();
  await expect(view.locator('.peel-say')).toContainText('one unknown left');
  await expect(view.locator('.peel-known')).toContainText('tx');
});

test('lessons other than Strokkur\'s have no peeling view', async ({ page }) => {
  await openLesson(page, '03-cat');
  await expect(page.locator('#peel-section')).toBeHidden();
});
