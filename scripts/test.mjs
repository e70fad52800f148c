// `npm test`: bootstrap (with Chromium), then every check of the project in order. A failing step
// does not stop the run, so one run shows every failure; the exit code is non-zero if any failed.
// Ends with a table of steps and times, then one line: `N passed, N failed`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap, buildTxsim, buildWasm, MANIFEST, projectEnv, ROOT, RUST, say } from './lib/bootstrap.mjs';

const REPORTS = path.join(ROOT, 'test-results');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

/** @type {{name: string, status: 'ok' | 'FAIL' | 'skip', passed: number, failed: number, seconds: number, note: string}[]} */
const results = [];

/** Runs a command, passing its output through while keeping a copy to read counts from. */
function exec(command, args, { env = {}, cwd = ROOT } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: projectEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    child.on('error', (error) => resolve({ code: 127, output: `${output}\n${error.message}` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/**
 * One step. `body` returns {passed, failed, note?} for a test suite, {skip: why} to skip, or anything
 * else for a check (a check counts as one passed, or one failed if it throws).
 */
async function step(name, body) {
  say(name);
  const started = Date.now();
  let record;
  try {
    const counts = await body();
    if (typeof counts !== 'object' || counts === null) record = { status: 'ok', passed: 1, failed: 0, note: '' };
    else if (counts.skip) record = { status: 'skip', passed: 0, failed: 0, note: counts.skip };
    else record = { status: counts.failed > 0 ? 'FAIL' : 'ok', note: '', ...counts };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`\n✗ ${name}: ${message}`);
    record = { status: 'FAIL', passed: 0, failed: 1, note: message.split('\n')[0].slice(0, 60) };
  }
  results.push({ name, seconds: (Date.now() - started) / 1000, ...record });
  return record.status !== 'FAIL';
}

async function check(command, args, options) {
  const { code } = await exec(command, args, options);
  if (code !== 0) throw new Error(`exit code ${code}`);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Suite counts; a suite that failed without a failing test (a crash, a compile error) adds one failure. */
function suiteCounts(code, passed, failed, note = '') {
  const extra = code !== 0 && failed === 0 ? 1 : 0;
  return { passed, failed: failed + extra, note: extra ? `exit code ${code}${note ? `; ${note}` : ''}` : note };
}

async function cargoTests() {
  const { code, output } = await exec('cargo', ['test', '--manifest-path', MANIFEST, '--workspace', '--no-fail-fast'], { cwd: RUST });
  let passed = 0;
  let failed = 0;
  for (const match of output.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed/gm)) {
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  return suiteCounts(code, passed, failed);
}

/**
 * `npm run reproduce -- --quick` into test-results/ (txsim reproduce, then compare-real's quick
 * cases): one passed or failed per direction it checks.
 */
async function reproduceQuick() {
  const out = path.join(REPORTS, 'reproduce-quick');
  fs.rmSync(out, { recursive: true, force: true });
  const { code } = await exec(process.execPath, [path.join(ROOT, 'scripts', 'reproduce.mjs'), '--quick', '--out', out]);
  const studies = readJson(path.join(out, 'results.json'))?.studies ?? [];
  const checks = studies.flatMap((s) => s.checks);
  const held = checks.filter((c) => c.holds).length;
  return suiteCounts(code, held, checks.length - held);
}

async function vitest() {
  const report = path.join(REPORTS, 'vitest.json');
  fs.rmSync(report, { force: true });
  const { code } = await exec(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  const json = readJson(report);
  if (!json) return suiteCounts(code || 1, 0, 0, 'no report');
  return suiteCounts(code, json.numPassedTests ?? 0, json.numFailedTests ?? 0);
}

async function playwright() {
  const report = path.join(REPORTS, 'e2e.json');
  fs.rmSync(report, { force: true });
  const { code } = await exec(bin('playwright'), ['test'], { env: { E2E_JSON_REPORT: report } });
  const json = readJson(report);
  if (!json) return suiteCounts(code || 1, 0, 0, 'no report');
  const stats = json.stats ?? {};
  return suiteCounts(code, (stats.expected ?? 0) + (stats.flaky ?? 0), stats.unexpected ?? 0);
}

function printSummary() {
  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`\n${'step'.padEnd(width)}  result  passed  failed    seconds`);
  for (const r of results) {
    const line = [
      r.name.padEnd(width),
      r.status.padEnd(6),
      String(r.passed).padStart(6),
      String(r.failed).padStart(6),
      r.seconds.toFixed(1).padStart(9),
    ].join('  ');
    console.log(r.note ? `${line}   ${r.note}` : line);
  }
  const total = results.reduce((sum, r) => sum + r.seconds, 0);
  console.log(`${'total'.padEnd(width)}  ${' '.repeat(22)}  ${total.toFixed(1).padStart(9)}`);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

fs.mkdirSync(REPORTS, { recursive: true });
// Re-runs this script on Node 22 when needed (from inside the step, so only the inner run reports).
const ready = await step('bootstrap', () => bootstrap({ chromium: true }));
if (ready) {
  await step('cargo fmt --check', () => check('cargo', ['fmt', '--manifest-path', MANIFEST, '--all', '--', '--check'], { cwd: RUST }));
  await step('cargo clippy -D warnings', () =>
    check('cargo', ['clippy', '--manifest-path', MANIFEST, '--workspace', '--all-targets', '--', '-D', 'warnings'], { cwd: RUST }),
  );
  await step('cargo test --workspace', cargoTests);
  await step('fuzz (scripts/fuzz.sh 10)', () =>
    fs.existsSync(path.join(ROOT, 'scripts', 'fuzz.sh')) ? check('bash', ['scripts/fuzz.sh', '10']) : { skip: 'no scripts/fuzz.sh' },
  );
  await step('wasm build (release)', buildWasm);
  await step('txsim build (native release)', buildTxsim);
  await step('reproduce --quick (the seeds\' directions)', reproduceQuick);
  await step('wasm imports nothing from env', () => check(process.execPath, ['scripts/check-wasm-imports.mjs']));
  await step('tsc --noEmit', async () => {
    await check(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
    await check(bin('tsc'), ['--noEmit', '-p', 'tsconfig.worker.json']);
  });
  await step('vitest', vitest);
  await step('vite build', () => check(bin('vite'), ['build']));
  await step('playwright e2e (chromium)', playwright);
}
const failed = printSummary();
process.exit(failed > 0 ? 1 : 0);
