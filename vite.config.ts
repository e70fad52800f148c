import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// Cross-origin isolation: SharedArrayBuffer and precise timers in the page and its workers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: `${root}web`,
  build: {
    outDir: `${root}dist`,
    emptyOutDir: true,
    target: 'es2022',
    // The largest chunk is js-libp2p (~570 kB, 160 kB gzipped), loaded only when a light node starts.
    chunkSizeWarningLimit: 640,
    // Three pages: the visualizer, the light node alone (web/lightnode/, lighter for phones and tests),
    // and the seeds' results (web/papers/, from docs/results.json).
    rollupOptions: {
      input: { main: `${root}web/index.html`, lightnode: `${root}web/lightnode/index.html`, papers: `${root}web/papers/index.html` },
    },
  },
  worker: { format: 'es' },
  server: { headers: isolation, fs: { allow: [root] } },
  preview: { headers: isolation },
});
