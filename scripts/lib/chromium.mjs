// How the browser tests start Debian's Chromium (Playwright cannot download a browser here).
// Without the background-networking flags Chromium keeps dialling Google, which this network refuses.
export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
