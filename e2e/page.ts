// Helpers for driving the visualizer page in the e2e tests.
import type { Page } from '@playwright/test';

/**
 * Waits until `#app` has `data-NAME="VALUE"` by querying for it. Not `expect(...).toHaveAttribute`:
 * each of its failed polls builds an accessibility snapshot of the whole page on the page's main
 * thread (tens of ms), which the perf spec would count as the page's own long tasks.
 */
export async function appState(page: Page, name: string, value: string, timeout = 45_000): Promise<void> {
  await page.locator(`#app[data-${name}="${value}"]`).waitFor({ state: 'attached', timeout });
}

/** Waits until every run of the current scenario has finished in its worker. */
export async function runsDone(page: Page, timeout = 45_000): Promise<void> {
  await appState(page, 'state', 'done', timeout);
}

/** The metrics table as the page shows it: one entry per run with its digest and events. */
export function shownRuns(page: Page) {
  return page.locator('#metrics-table tr[data-digest]').evaluateAll((rows) =>
    rows.map((row) => {
      const r = row as HTMLElement;
      const cell = (key: string) => r.querySelector(`td[data-key="${key}"]`)?.textContent ?? '';
      return { label: r.dataset.label ?? '', digest: r.dataset.digest ?? '', events: Number(cell('events').replace(/,/g, '')), delivery: cell('delivery') };
    }),
  );
}

/**
 * Waits until the page has set itself up and opened its first scenario: web/app/boot.ts loads it in
 * stages, which may end after the load event `page.goto` waits for, and the first scenario's text
 * arrives later still. A scenario typed into the editor before then would be overwritten by it.
 */
export async function pageReady(page: Page): Promise<void> {
  await page.locator('#scenario option').first().waitFor({ state: 'attached' });
  await page.locator('#app:not([data-state="idle"])').waitFor({ state: 'attached' });
}

/**
 * Clicks node `node` of run panel `k` where it is drawn. The point is taken relative to the canvas
 * and the click goes through the canvas's locator, which reads the canvas's box again just before
 * it clicks (once the box has stopped moving): a page point read earlier went stale when something
 * above the panel changed height in between (under load, a click meant for node 7 hit node 23).
 */
export async function clickNode(page: Page, k: number, node: number, how: 'click' | 'tap' = 'click'): Promise<void> {
  const canvas = page.locator(`.panel[data-run="${k}"] canvas:not(.gpu-layer)`);
  const position = await canvas.evaluate((c, [k, node]) => {
    const hooks = (window as unknown as { txcast: { nodePoint(k: number, n: number): { x: number; y: number } } }).txcast;
    const p = hooks.nodePoint(k, node);
    const rect = c.getBoundingClientRect();
    return { x: p.x - rect.left, y: p.y - rect.top };
  }, [k, node]);
  await (how === 'tap' ? canvas.tap({ position }) : canvas.click({ position }));
}

/**
 * Moves the paused timeline to `position` of its 1000 steps and waits until that moment is drawn
 * (`data-t-us` is written by the next frame, so an earlier seek's value may still be there) and
 * the runs' workers have answered who has the picked tx then.
 */
export async function seekTimeline(page: Page, position: number): Promise<void> {
  await seekDrawn(page, position);
  await appState(page, 'seek', 'scanned');
}

/** Moves the paused timeline to `position` of its 1000 steps and waits until that moment is drawn. */
export async function seekDrawn(page: Page, position: number): Promise<void> {
  await page.locator('#timeline').fill(String(position));
  const endUs = Number(await page.locator('#app').getAttribute('data-end-us'));
  await appState(page, 't-us', String(Math.round((position / 1000) * endUs)));
}

/** Puts scenario JSON into the editor and runs it. */
export async function runJson(page: Page, json: string): Promise<void> {
  await pageReady(page);
  if (await page.locator('#editor').isHidden()) await page.click('#edit-toggle');
  await page.fill('#scenario-json', json);
  await page.click('#apply-json');
}

/** Counts pixels of one canvas near an RGB colour. */
export function pixelsNear(page: Page, selector: string, rgb: [number, number, number], tolerance = 40) {
  return page.locator(selector).evaluate(
    (canvas, [colour, tol]) => {
      const c = canvas as HTMLCanvasElement;
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      const [r0, g0, b0] = colour as number[];
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - r0) + Math.abs(data[i + 1] - g0) + Math.abs(data[i + 2] - b0) < (tol as number)) n += 1;
      }
      return n;
    },
    [rgb, tolerance] as const,
  );
}

/** A small scenario for fast tests: 60 nodes, 10% of them withholding, two protocols. */
export const SMALL_SCENARIO = {
  name: 'e2e: small, with adversaries',
  description: 'A small network for the browser tests.',
  seed: 3,
  nodes: 60,
  topology: { kind: 'random_regular', degree: 6 },
  latency: { kind: 'lognormal', median_ms: 50, sigma: 0.4 },
  workload: { kind: 'poisson', total_tps: 10, duration_ms: 1000, tx_bytes: 200 },
  drain_ms: 3000,
  protocols: [
    { label: 'flood', protocol: 'flood' },
    { label: 'cat', protocol: 'cat' },
  ],
  adversaries: [{ fraction: 0.1, behaviour: { kind: 'withhold_on_request' } }],
};

/**
 * The visible links and controls shorter than `min` px, by their text (a radio counts through
 * its label, which takes the tap): what a phone user would struggle to hit.
 */
export function smallTargets(page: Page, min = 40): Promise<string[]> {
  return page.locator('a, button, select, label, input:not([type="radio"])').evaluateAll(
    (els, least) =>
      els
        .filter((e) => (e as HTMLElement).offsetParent !== null && e.getBoundingClientRect().height < least)
        .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}" ${Math.round(e.getBoundingClientRect().height)} px`),
    min,
  );
}
