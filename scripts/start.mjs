// `npm start`: install what is missing, build the WASM core (release) and the web app, serve it.
// `npm run dev` (`--dev`) serves the sources with Vite's dev server instead of the build.
import path from 'node:path';
import { bootstrap, buildWasm, buildWeb, ROOT, say } from './lib/bootstrap.mjs';
import { commandLine } from './lib/cli.mjs';

const USAGE = `usage: npm start      install what is missing, build the WASM core and the page, serve the build
       npm run dev    the same, but serve the sources with Vite's dev server (reloads on edits)
The URL is printed when it is ready (http://localhost:4173/ unless that port is taken). Ctrl-C stops it.
`;

const { dev } = await commandLine('npm start', USAGE, { dev: { type: 'boolean', default: false } });

try {
  await bootstrap();
  say('building the WASM core (cargo build --release --target wasm32-unknown-unknown)');
  await buildWasm();
  const vite = await import('vite');
  const configFile = path.join(ROOT, 'vite.config.ts');
  let server;
  if (dev) {
    server = await vite.createServer({ configFile });
    await server.listen();
  } else {
    say('building the web app (vite build)');
    await buildWeb();
    server = await vite.preview({ configFile });
  }
  const url = server.resolvedUrls?.local[0] ?? '(unknown address)';
  console.log(`\n  txcast is running at ${url}   (Ctrl-C to stop)\n`);
} catch (error) {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
