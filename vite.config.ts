import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const web = path.join(root, 'web');

// Cross-origin isolation: SharedArrayBuffer and precise timers in the page and its workers. Only
// `npm start`'s server sends these; the build runs without them too (see README, "Publishing").
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Every page under web/ (each .html file; web/wasm/ holds generated code only), named by its folder:
 * web/index.html is `main`, web/lightnode/index.html `lightnode`. A page added later is built
 * without touching this file.
 */
function pages(dir = web): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'wasm' && entry.name !== 'node_modules') Object.assign(found, pages(file));
    } else if (entry.name.endsWith('.html')) {
      const name = path.relative(web, file).replace(/\.html$/, '').replace(/(^|\/)index$/, '').replaceAll('/', '-');
      found[name || 'main'] = file;
    }
  }
  return found;
}

export default defineConfig({
  root: web,
  // Relative URLs throughout: dist/ works from any folder of any static host, not only its root.
  base: './',
  build: {
    outDir: `${root}dist`,
    emptyOutDir: true,
    target: 'es2022',
    // The largest chunk is js-libp2p (~570 kB, 160 kB gzipped), loaded only when a light node starts.
    chunkSizeWarningLimit: 640,
    // The visualizer, the light node alone (web/lightnode/, lighter for phones and tests), the seeds'
    // results (web/papers/, from docs/results.json), and any page added later.
    rollupOptions: { input: pages() },
  },
  worker: { format: 'es' },
  server: { headers: isolation, fs: { allow: [root] } },
  preview: { headers: isolation },
});
