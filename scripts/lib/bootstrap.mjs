// Installs what the project needs and builds the Rust core, for `npm start`, `npm test`,
// `npm run sim` and `npm run bench`. Every step checks first and returns at once when done.
// This file must run on the machine's own Node (20) too: it is what installs Node 22.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RUST = path.join(ROOT, 'rust-core');
export const MANIFEST = path.join(RUST, 'Cargo.toml');
export const TARGET_DIR = process.env.CARGO_TARGET_DIR
  ? path.resolve(process.env.CARGO_TARGET_DIR)
  : path.join(RUST, 'target');
export const TXSIM = path.join(TARGET_DIR, 'release', 'txsim');
export const WASM_OUT = path.join(ROOT, 'web', 'wasm');
export const WASM_GLUE = path.join(WASM_OUT, 'txcast_wasm.js');
export const WASM_BINARY = path.join(WASM_OUT, 'txcast_wasm_bg.wasm');
export const CHROMIUM = '/usr/bin/chromium';
export const NODE_MAJOR = 22;

const TOOLS_BIN = path.join(ROOT, '.tools', 'bin');
const WASM_BINDGEN = path.join(TOOLS_BIN, 'wasm-bindgen');
const PROJECT_NODE = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');
const NPM_STAMP = path.join(ROOT, 'node_modules', '.txcast-installed');
const BINDGEN_STAMP = path.join(WASM_OUT, '.built-from');

/** Progress goes to stderr so that commands printing JSON keep stdout clean. */
export function say(message) {
  process.stderr.write(process.stderr.isTTY ? `\x1b[36m▸\x1b[0m ${message}\n` : `▸ ${message}\n`);
}

/** PATH with the project's tools first, so children run on the project's Node; rustup's cargo last, as a fallback. */
export function projectEnv(extra = {}) {
  const first = [path.join(ROOT, 'node_modules', '.bin'), TOOLS_BIN];
  const last = [path.join(os.homedir(), '.cargo', 'bin')];
  return { ...process.env, PATH: [...first, process.env.PATH ?? '', ...last].join(path.delimiter), ...extra };
}

/** Runs a command with inherited output; throws if it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, env: projectEnv(), ...options });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  }
  return result;
}

function capture(command, args, cwd = ROOT) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: projectEnv() });
  return result.status === 0 ? result.stdout : null;
}

function fingerprint(files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(fs.existsSync(file) ? fs.readFileSync(file) : `missing ${file}`);
  return hash.digest('hex');
}

/** `npm ci` unless node_modules was installed from exactly this package.json + lockfile. */
export function ensureNpmPackages() {
  const lock = path.join(ROOT, 'package-lock.json');
  const wanted = fingerprint([path.join(ROOT, 'package.json'), lock]);
  if (fs.existsSync(PROJECT_NODE) && fs.existsSync(NPM_STAMP) && fs.readFileSync(NPM_STAMP, 'utf8') === wanted) return;
  const verb = fs.existsSync(lock) ? 'ci' : 'install';
  say(`installing npm packages (npm ${verb}; this also brings Node ${NODE_MAJOR})`);
  run('npm', [verb, '--no-audit', '--no-fund', '--loglevel=error'], { env: { ...process.env, npm_config_update_notifier: 'false' } });
  fs.writeFileSync(NPM_STAMP, fingerprint([path.join(ROOT, 'package.json'), lock]));
}

/**
 * Re-runs the current script on the project's Node 22 when started by another Node
 * (on a fresh machine `npm start` begins on the system Node, before node_modules exists), or
 * without the V8 flags in `nodeFlags` (they size the heap, which only the command line can).
 * Resolves only when already so; otherwise this process ends with the child, passing on the
 * signals that stop it (so stopping `npm start` stops the server it re-ran).
 */
export async function ensureProjectNode(nodeFlags = []) {
  const rightNode = Number(process.versions.node.split('.')[0]) === NODE_MAJOR;
  const missing = nodeFlags.filter((flag) => !process.execArgv.includes(flag));
  if (rightNode && missing.length === 0) return;
  if (!rightNode && !fs.existsSync(PROJECT_NODE)) throw new Error(`Node ${NODE_MAJOR} missing at ${PROJECT_NODE}`);
  const child = spawn(rightNode ? process.execPath : PROJECT_NODE, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: projectEnv(),
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
  await new Promise(() => {});
}

/** Run from rust-core/ so that a toolchain file there would count. */
export function ensureWasmTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed'], RUST);
  if (installed === null) throw new Error('rustup not found: install Rust with rustup first');
  if (installed.split('\n').includes('wasm32-unknown-unknown')) return;
  say('adding the Rust target wasm32-unknown-unknown (rustup)');
  run('rustup', ['target', 'add', 'wasm32-unknown-unknown'], { cwd: RUST });
}

/** The wasm-bindgen version the core is locked to; the CLI must match it exactly. */
export function wasmBindgenVersion() {
  const lock = fs.readFileSync(path.join(RUST, 'Cargo.lock'), 'utf8');
  const match = lock.match(/\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!match) throw new Error('wasm-bindgen not found in rust-core/Cargo.lock');
  return match[1];
}

export function ensureWasmBindgen() {
  const version = wasmBindgenVersion();
  if (fs.existsSync(WASM_BINDGEN) && capture(WASM_BINDGEN, ['--version'])?.trim() === `wasm-bindgen ${version}`) return;
  say(`installing wasm-bindgen-cli ${version} into .tools (cargo install, a debug build: a few minutes)`);
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', path.join(ROOT, '.tools'), '--debug', '--force']);
}

/** Debian's Chromium for the browser tests (Playwright cannot download its own here). */
export function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return;
  say('installing Debian chromium (apt-get) for the browser tests');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const apt = (args) => {
    const [command, ...rest] = [...sudo, 'apt-get', ...args];
    run(command, rest, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  apt(['update']);
  apt(['install', '-y', 'chromium']);
}

/**
 * Runs cargo, passing its output through except the "Finished" line,
 * so an up-to-date build prints nothing and a real build shows its progress.
 * Cargo reads its config (rust-core/.cargo/config.toml) from the working directory, not the manifest's.
 */
export function cargoQuiet(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('cargo', args, { cwd: RUST, env: projectEnv(), stdio: ['ignore', 'inherit', 'pipe'] });
    let pending = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) if (!/^\s*Finished /.test(line)) process.stderr.write(`${line}\n`);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (pending && !/^\s*Finished /.test(pending)) process.stderr.write(pending);
      if (code === 0) resolve();
      else reject(new Error(`cargo ${args.join(' ')} exited with ${code}`));
    });
  });
}

/** The native txsim binary in release mode (cargo is quick when nothing changed). */
export async function buildTxsim() {
  await cargoQuiet(['build', '--manifest-path', MANIFEST, '--release', '-p', 'txsim', '--bin', 'txsim']);
  return TXSIM;
}

/**
 * The glue's options: `__wbg_reset_state` lets a host start a fresh instance after a trap
 * (a panic on wasm32 aborts, and the old instance's memory can no longer be trusted).
 */
const BINDGEN_FLAGS = ['--target', 'web', '--experimental-reset-state-function'];

/** The WASM core in release mode, then its JS glue (web target) into web/wasm/. */
export async function buildWasm() {
  await cargoQuiet(['build', '--manifest-path', MANIFEST, '-p', 'txcast-wasm', '--target', 'wasm32-unknown-unknown', '--release']);
  const input = path.join(TARGET_DIR, 'wasm32-unknown-unknown', 'release', 'txcast_wasm.wasm');
  const stat = fs.statSync(input);
  // cargo rewrites the .wasm only when it rebuilt it: same bytes in, same glue out.
  const source = `${wasmBindgenVersion()} ${stat.size} ${stat.mtimeMs} ${BINDGEN_FLAGS.join(' ')}`;
  const fresh = fs.existsSync(WASM_GLUE) && fs.existsSync(WASM_BINARY) && fs.existsSync(BINDGEN_STAMP);
  if (fresh && fs.readFileSync(BINDGEN_STAMP, 'utf8') === source) return;
  say('generating the JS bindings (wasm-bindgen --target web) into web/wasm/');
  fs.rmSync(WASM_OUT, { recursive: true, force: true });
  run(WASM_BINDGEN, [...BINDGEN_FLAGS, '--out-dir', WASM_OUT, input]);
  fs.writeFileSync(BINDGEN_STAMP, source);
}

/** The web app into dist/ (vite build), after the WASM core it bundles. */
export async function buildWeb() {
  const vite = await import('vite');
  await vite.build({ configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
}

/** Everything both `npm start` and `npm test` need before touching the Rust core. */
export async function bootstrap({ chromium = false } = {}) {
  ensureNpmPackages();
  await ensureProjectNode();
  ensureWasmTarget();
  ensureWasmBindgen();
  if (chromium) ensureChromium();
}
