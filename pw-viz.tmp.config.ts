import base from './playwright.config';
const port = 4391;
export default {
  ...base,
  outputDir: 'test-results/e2e-viz',
  reporter: [['list']],
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  webServer: { ...base.webServer, command: `node node_modules/vite/bin/vite.js preview --port ${port} --strictPort --host 127.0.0.1`, url: `http://127.0.0.1:${port}/` },
};
