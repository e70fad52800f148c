import { expect, test, type Page } from '@playwright/test';
import { txsimDemo } from '../scripts/lib/txsim.mjs';

const BACKGROUND = [0x11, 0x18, 0x21];

async function finishedRun(page: Page) {
  const run = page.locator('#run[data-state="done"]');
  await expect(run).toBeAttached({ timeout: 30_000 });
  return page.locator('#run').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
}

/** Counts canvas pixels away from the background, and those with a clearly saturated colour. */
function canvasPixels(page: Page) {
  return page.locator('#graph').evaluate((canvas, background) => {
    const c = canvas as HTMLCanvasElement;
    const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
    let drawn = 0;
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (Math.abs(r - background[0]) + Math.abs(g - background[1]) + Math.abs(b - background[2]) > 24) drawn += 1;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured += 1;
    }
    return { drawn, coloured };
  }, BACKGROUND);
}

test('the page is cross-origin isolated', async ({ page }) => {
  await page.goto('/');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
});

test('the worker computes the same run as the native txsim', async ({ page }) => {
  await page.goto('/?seed=11&nodes=300&degree=8');
  const shown = await finishedRun(page);
  const native = await txsimDemo({ seed: 11, nodes: 300, degree: 8 });
  expect(shown.digest).toBe(native.digest);
  expect(Number(shown.events)).toBe(native.events);
  expect(Number(shown.origin)).toBe(native.origin);
  expect(Number(shown.reached)).toBe(native.arrival_us.filter((t) => t >= 0).length);
  await expect(page.locator('#digest')).toHaveText(native.digest);
});

test('the canvas shows the nodes coloured by arrival once played', async ({ page }) => {
  await page.goto('/?seed=5&nodes=400&degree=8');
  await expect(page.locator('#run[data-played="true"]')).toBeAttached({ timeout: 30_000 });
  const { drawn, coloured } = await canvasPixels(page);
  expect(drawn).toBeGreaterThan(2_000);
  expect(coloured).toBeGreaterThan(1_000);
  await expect(page.locator('#legend .tick').first()).toBeAttached();
});

test('the controls rerun the simulation in the worker, and replay replays it', async ({ page }) => {
  await page.goto('/?seed=1&nodes=300&degree=8');
  const first = await finishedRun(page);
  await page.fill('#seed', '12');
  await page.fill('#nodes', '200');
  await page.fill('#degree', '6');
  await page.click('#run-button');
  await expect(page.locator('#run')).toHaveAttribute('data-seed', '12', { timeout: 30_000 });
  const second = await finishedRun(page);
  expect(second.digest).not.toBe(first.digest);
  expect(second.digest).toBe((await txsimDemo({ seed: 12, nodes: 200, degree: 6 })).digest);
  expect(page.url()).toContain('seed=12&nodes=200&degree=6');

  await expect(page.locator('#replay')).toBeEnabled({ timeout: 30_000 });
  await page.click('#replay');
  await expect(page.locator('#run')).toHaveAttribute('data-played', 'false');
  await expect(page.locator('#run')).toHaveAttribute('data-played', 'true', { timeout: 30_000 });
});

test('a run the engine cannot build shows its error', async ({ page }) => {
  await page.goto('/?seed=1&nodes=9&degree=3');
  await expect(page.locator('#run')).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(page.locator('#status')).toContainText('the engine rejected this run');
});
