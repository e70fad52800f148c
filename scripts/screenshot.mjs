// `npm run screenshot`: builds the app, serves it, and saves docs/screenshot.png of the real page.
import path from 'node:path';
import { bootstrap, buildWasm, ROOT, say } from './lib/bootstrap.mjs';
import { chromiumArgs, chromiumPath } from './lib/chromium.mjs';
import { commandLine } from './lib/cli.mjs';

await commandLine('npm run screenshot', `usage: npm run screenshot   build and serve the page, and save docs/screenshot.png of it in Chromium
`);

await bootstrap({ chromium: true });
await buildWasm();
const vite = await import('vite');
const { chromium } = await import('@playwright/test');
const configFile = path.join(ROOT, 'vite.config.ts');
say('building the web app');
await vite.build({ configFile, logLevel: 'warn' });
const server = await vite.preview({ configFile, preview: { port: 0, host: '127.0.0.1' } });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, deviceScaleFactor: 1 });
  // The first screen: the protocol comparison, paused on tx 0 while it spreads.
  await page.goto(`${server.resolvedUrls.local[0]}?scenario=compare-300&tx=0&t=300`);
  await page.locator('#app[data-state="done"]').waitFor({ timeout: 120_000 });
  const file = path.join(ROOT, 'docs', 'screenshot.png');
  await page.screenshot({ path: file, fullPage: true });
  say(`saved ${path.relative(ROOT, file)}`);
} finally {
  await browser.close();
  await server.close();
}
