// A private network namespace for the WebRTC tests: WebRTC needs an interface other than loopback,
// and tests must never send traffic off the machine. Both ends of a veth pair live inside the
// namespace, with the default route on one of them, so every packet stays in the namespace.
// The relay, the web server and Chromium all run in it through `ip netns exec`.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const IP = fs.existsSync('/usr/sbin/ip') ? '/usr/sbin/ip' : 'ip';

function ip(...args) {
  execFileSync(IP, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Whether this process may create namespaces (root with the `ip` tool). */
export function netnsAvailable() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return false;
  try {
    execFileSync(IP, ['netns', 'list'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates namespace `name` with veth addresses 10.213.<subnet>.1/30 and .2/30 (both inside it).
 * Returns {name, addr, exec(cmd, args, opts), chromiumWrapper(), destroy()}.
 */
export function createNetns(name, subnet = 0) {
  const addr = `10.213.${subnet}.1`;
  const peer = `10.213.${subnet}.2`;
  try {
    ip('netns', 'del', name); // a namespace left over by a killed run
  } catch {
    // none: the usual case
  }
  ip('netns', 'add', name);
  const children = new Set();
  let wrapperDir = null;
  try {
    ip('-n', name, 'link', 'set', 'lo', 'up');
    ip('-n', name, 'link', 'add', 'ln0', 'type', 'veth', 'peer', 'name', 'ln1');
    ip('-n', name, 'addr', 'add', `${addr}/30`, 'dev', 'ln0');
    ip('-n', name, 'addr', 'add', `${peer}/30`, 'dev', 'ln1');
    // No IPv6 link-local addresses: each would turn valid a second or two after the link comes
    // up, and Chromium, started by then, takes that for a network change and fails the requests
    // in flight (a page's module import failed with ERR_NETWORK_CHANGED).
    for (const dev of ['ln0', 'ln1']) {
      ip('-n', name, 'link', 'set', dev, 'addrgenmode', 'none');
      ip('-n', name, 'link', 'set', dev, 'up');
    }
    // Chromium picks its WebRTC interface from the default route.
    ip('-n', name, 'route', 'add', 'default', 'dev', 'ln0');
  } catch (error) {
    ip('netns', 'del', name);
    throw error;
  }
  return {
    name,
    addr,
    /** Spawns a command inside the namespace, in its own process group (killed by destroy()). */
    exec(command, args, options = {}) {
      const child = spawn(IP, ['netns', 'exec', name, command, ...args], { detached: true, stdio: ['pipe', 'pipe', 'pipe'], ...options });
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    },
    /** An executable that runs Chromium inside the namespace, for Playwright's executablePath. */
    chromiumWrapper(chromium = '/usr/bin/chromium') {
      wrapperDir = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-netns-'));
      const file = path.join(wrapperDir, 'chromium');
      fs.writeFileSync(file, `#!/bin/sh\nexec ${IP} netns exec ${name} ${chromium} "$@"\n`, { mode: 0o755 });
      return file;
    },
    async destroy() {
      for (const child of children) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      children.clear();
      try {
        ip('netns', 'del', name);
      } catch {
        // already deleted
      }
      if (wrapperDir) fs.rmSync(wrapperDir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first line of the child's stdout that matches, or rejects on exit or timeout. */
export function waitForLine(child, pattern, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let seen = '';
    const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; output:\n${seen.slice(-2000)}`)), timeoutMs);
    const onData = (chunk) => {
      buffer += chunk;
      seen += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const match = line.replace(/\x1b\[[0-9;]*m/g, '').match(pattern); // without colours
        if (match) return done(null, match);
      }
    };
    const onExit = (code) => done(new Error(`exited with ${code} before ${pattern}; output:\n${seen.slice(-2000)}`));
    function done(error, match) {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(match);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', onExit);
  });
}

/** Serves a built app (`vite preview --outDir dist`) on the namespace's address; resolves once it listens. */
export async function startPreview(ns, { root, node, dist, port }) {
  const web = ns.exec(node, [path.join(root, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', dist, '--port', String(port), '--strictPort', '--host', ns.addr], { cwd: root });
  await waitForLine(web, new RegExp(`http://${ns.addr.replaceAll('.', '\\.')}:${port}`));
  return web;
}
