// A plain static web server, as the simplest host would be: files under one URL prefix, a folder's
// index.html, a MIME type by extension, and no other header (no COOP/COEP, no caching rules). The
// e2e tests serve dist/ with it to check that the build works from any static host, over http or
// (given a certificate) https.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

/**
 * Serves the files under `dir` at `http(s)://host:port{prefix}` (`prefix` starts and ends with
 * "/"). With `tls` ({cert, key}) it speaks https. Resolves once listening, with {url, close()}.
 */
export async function serveStatic({ dir, host = '127.0.0.1', port = 0, prefix = '/', tls = null }) {
  const base = path.resolve(dir);
  const handler = (req, res) => {
    const reply = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, 'method not allowed\n', { allow: 'GET, HEAD' });
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    } catch {
      return reply(400, 'bad path\n');
    }
    if (!pathname.startsWith(prefix)) return reply(404, 'not found\n');
    const file = path.join(base, pathname.slice(prefix.length));
    if (file !== base && !file.startsWith(base + path.sep)) return reply(404, 'not found\n');
    let stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      // A folder without its slash: redirect, so that the page's relative URLs resolve inside it.
      if (!pathname.endsWith('/')) return reply(301, 'moved\n', { location: `${pathname}/` });
      stat = fs.statSync(path.join(file, 'index.html'), { throwIfNoEntry: false });
      if (stat) return send(path.join(file, 'index.html'));
    } else if (stat?.isFile()) {
      return send(file);
    }
    return reply(404, 'not found\n');

    function send(target) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream', 'content-length': stat.size });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(target).pipe(res);
    }
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `${tls ? 'https' : 'http'}://${shownHost}:${address.port}${prefix}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
