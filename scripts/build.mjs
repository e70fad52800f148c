// `npm run build`: install what is missing, build the WASM core (release) and write the web app to
// dist/: a folder any static web server serves as it is, from any path (README, "Publishing").
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap, buildWasm, buildWeb, ROOT, say } from './lib/bootstrap.mjs';
import { commandLine } from './lib/cli.mjs';

await commandLine('npm run build', `usage: npm run build   install what is missing, build the WASM core and write the whole site to dist/
(any static web server serves it as it is, from any path: README, "Publishing")
`);

const DIST = path.join(ROOT, 'dist');

/** Every file under `dir`, relative to it. */
function files(dir) {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

try {
  await bootstrap();
  say('building the WASM core (cargo build --release --target wasm32-unknown-unknown)');
  await buildWasm();
  say('building the web app (vite build) into dist/');
  await buildWeb();
  const all = files(DIST);
  const bytes = all.reduce((sum, f) => sum + fs.statSync(path.join(DIST, f)).size, 0);
  const pages = all.filter((f) => f.endsWith('.html')).sort();
  console.log(`\n  dist/: ${all.length} files, ${(bytes / 1e6).toFixed(1)} MB; pages: ${pages.join(', ')}`);
  console.log('  Put the folder on any static web server, at any path: no special headers are needed (.wasm');
  console.log('  files sent as application/wasm start faster). See README.md, "Publishing".\n');
} catch (error) {
  console.error(`\nnpm run build failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
