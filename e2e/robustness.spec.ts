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
  // tx 0 is created at 40 ms and is half-way through the network at 170 ms.
  await page.goto('/?scenario=push-vs-flood-300&tx=0&t=170');
  await runsDone(page);
  await expect(page.locator('#app')).toHaveAttribute('data-t-us', '170000');
  await expect(page.locator('#app')).toHaveAttribute('data-tx', '0');
  await expect(page.locator('#app')).toHaveAttribute('data-playing', 'false');
  // Text above the panels leaves them at a fractional offset that any change there moves, and
  // that shifts every line of the image by a pixel: the image is taken with them on a whole pixel.
  await page.locator('#panels').evaluate((panels) => {
    const top = panels.getBoundingClientRect().top;
    panels.style.marginTop = `${parseFloat(getComputedStyle(panels).marginTop) + Math.ceil(top) - top}px`;
  });
  // The status lines hold wall-clock engine times: masked.
  await expect(page.locator('#panels')).toHaveScreenshot('push-vs-flood-300-tx0-at-170ms.png', {
    maxDiffPixelRatio: 0.002,
    mask: [page.locator('.panel .status')],
  });
});
