import { expect, test } from '@playwright/test';
import { runJson, runsDone, shownRuns, SMALL_SCENARIO } from './page';

interface Hooks {
  txcast: { crashWorker(k: number): void };
}

test('a crashed worker is reported, and Run starts a fresh one without reloading', async ({ page }) => {
  await page.goto('/');
  await runJson(page, JSON.stringify(SMALL_SCENARIO));
  await runsDone(page);
  const before = (await shownRuns(page)).map((r) => r.digest);
  await page.evaluate(() => (window as unknown as Hooks).txcast.crashWorker(1));
  await expect(page.locator('#app')).toHaveAttribute('data-crashed', 'true');
  await expect(page.locator('#scenario-error')).toContainText('crashed');
  await expect(page.locator('.panel[data-run="1"]')).toHaveAttribute('data-state', 'error');
  await page.click('#run-button');
  await runsDone(page);
  await expect(page.locator('#app')).not.toHaveAttribute('data-crashed', 'true');
  expect((await shownRuns(page)).map((r) => r.digest)).toEqual(before);
});

test('a fixed scenario paused at a fixed time matches the golden image', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/?scenario=push-vs-flood-300&t=900');
  await runsDone(page);
  await expect(page.locator('#app')).toHaveAttribute('data-t-us', '900000');
  await expect(page.locator('#app')).toHaveAttribute('data-playing', 'false');
  await expect(page.locator('#panels')).toHaveScreenshot('push-vs-flood-300-at-900ms.png', { maxDiffPixelRatio: 0.002 });
});
