// The npm scripts' and txsim's command lines as a user meets them: --help answers and runs
// nothing; an unknown option ends with a usage line and exit code 2 before anything runs or
// is written (`npm run reproduce -- --help` once ran every study and rewrote docs/).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bench, initSync } from '../web/wasm/txcast_wasm.js';
import { WASM_BINARY } from './lib/bootstrap.mjs';
import { ensureTxsim } from './lib/txsim.mjs';

const SCRIPTS = import.meta.dirname;
let txsim = '';

beforeAll(async () => {
  txsim = await ensureTxsim();
}, 600_000);

function node(script: string, args: string[]) {
  const run = spawnSync(process.execPath, [path.join(SCRIPTS, script), ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run reproduce', () => {
  it('--help prints the options and every study id, and runs nothing', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-cli-'));
    const run = node('reproduce.mjs', ['--help', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('usage: npm run reproduce');
    for (const id of ['gossipsub-real', 'gossipsub-multi', 'strokkur-fig9', 'arrivals-tickets']) expect(run.stdout).toContain(id);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('an unknown option or a bad --jobs is a usage error before anything is written', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-cli-'));
    for (const args of [['--bogus'], ['--jobs', 'many'], ['--jobs', '0']]) {
      const run = node('reproduce.mjs', [...args, '--out', out]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/npm run reproduce: .*(--bogus|--jobs)/);
    }
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('--only into a folder holding the other mode\'s page is refused before anything runs', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-cli-'));
    const page = JSON.stringify({ mode: 'full', took: 'earlier', studies: [] });
    fs.writeFileSync(path.join(out, 'results.json'), page);
    const run = node('reproduce.mjs', ['--quick', '--only', 'gossipsub-real', '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('holds a full mode run');
    expect(fs.readdirSync(out)).toEqual(['results.json']);
    expect(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).toBe(page);
  });
});

describe('npm start, build and screenshot', () => {
  it('--help answers without building or serving; an unknown option is a usage error', () => {
    for (const [script, says] of [['start.mjs', 'npm run dev'], ['build.mjs', 'dist/'], ['screenshot.mjs', 'docs/screenshot.png']]) {
      const help = node(script, ['--help']);
      expect(help.code, script).toBe(0);
      expect(help.stdout).toContain(says);
      const bad = node(script, ['--port', '80']);
      expect(bad.code, script).toBe(2);
      expect(bad.stderr).toContain("Unknown option '--port'");
    }
  });
});

describe('npm run bench', () => {
  it('--help lists the benchmarks; a missing, unknown or second name is a usage error before anything is built', () => {
    const help = node('bench.mjs', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/benchmarks: .*engine.*codec.*strokkur/);
    for (const [args, says] of [[[], 'which benchmark?'], [['bogus'], 'no benchmark `bogus`'], [['engine', 'codec'], 'one benchmark name, not 2']] as const) {
      const bad = node('bench.mjs', [...args]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain(says);
      expect(bad.stderr).not.toContain('building');
    }
  });

  it('says on stderr what it measures, natively and in WASM, and prints one JSON object on stdout', () => {
    const run = node('bench.mjs', ['codec']);
    expect(run.code, run.stderr).toBe(0);
    const figures = JSON.parse(run.stdout);
    expect(Object.keys(figures)).toEqual(['native', 'wasm', 'wasm_over_native']);
    expect(figures.native.block_decode_tx_per_s).toBeGreaterThan(0);
    expect(figures.wasm.block_decode_tx_per_s).toBeGreaterThan(0);
    expect(run.stderr).toContain('txsim bench codec: the LT codec');
    expect(run.stderr).toContain('wasm: the LT codec');
  }, 300_000);

  it('in WASM, a progress function that throws costs its lines, not the figures', () => {
    initSync({ module: fs.readFileSync(WASM_BINARY) });
    const said: string[] = [];
    const figures = JSON.parse(bench('codec', (what) => {
      said.push(what);
      throw new Error('a broken progress line');
    }));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('the LT codec');
    expect(figures.encode_codewords_per_s).toBeGreaterThan(0);
    expect(() => bench('nope', (what) => said.push(what))).toThrow(/unknown benchmark `nope`/);
    expect(said).toHaveLength(1);
  }, 120_000);
});

describe('txsim CMD --help', () => {
  it('prints the usage, with the names bench and reproduce take', () => {
    const bench = spawnSync(txsim, ['bench', '--help'], { encoding: 'utf8' });
    expect(bench.status).toBe(0);
    expect(bench.stdout).toMatch(/benchmarks: .*engine.*codec.*strokkur/);
    const reproduce = spawnSync(txsim, ['reproduce', '-h'], { encoding: 'utf8' });
    expect(reproduce.status).toBe(0);
    expect(reproduce.stdout).toMatch(/studies \(for --only\): .*strokkur-fig11/);
    const run = spawnSync(txsim, ['run', 'missing.json', '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('txsim run SCENARIO.json');
  });
});

describe('txsim run --jobs', () => {
  it('runs the protocols on several threads with the same report and trace as one at a time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-cli-'));
    const scenario = path.join(dir, 'three.json');
    fs.writeFileSync(scenario, JSON.stringify({
      name: 'three runs', seed: 7, nodes: 40,
      topology: { kind: 'random_regular', degree: 6 },
      latency: { kind: 'geographic' },
      workload: { kind: 'poisson', total_tps: 20, duration_ms: 2000, tx_bytes: 128 },
      protocols: [{ protocol: 'strokkur' }, { protocol: 'flood' }, { protocol: 'inv' }],
    }));
    const outputs = [1, 3].map((jobs) => {
      const [report, trace] = [path.join(dir, `report${jobs}.json`), path.join(dir, `trace${jobs}.jsonl`)];
      const run = spawnSync(txsim, ['run', scenario, '--jobs', String(jobs), '--quiet', '--out', report, '--trace', trace], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const runs = JSON.parse(fs.readFileSync(report, 'utf8')).runs.map(({ wall_ms: _, ...rest }: { wall_ms: number }) => rest);
      return { runs, trace: fs.readFileSync(trace, 'utf8') };
    });
    expect(outputs[0].runs.map((r: { label: string }) => r.label)).toEqual(['strokkur', 'flood', 'inv']);
    expect(outputs[1].runs).toEqual(outputs[0].runs);
    expect(outputs[1].trace).toBe(outputs[0].trace);
    expect(outputs[0].trace.split('\n')[0]).toContain('strokkur');
    // The runs' part files are joined and gone.
    expect(fs.readdirSync(dir).sort()).toEqual(['report1.json', 'report3.json', 'three.json', 'trace1.jsonl', 'trace3.jsonl']);
    const bad = spawnSync(txsim, ['run', scenario, '--jobs', 'many'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--jobs wants a number');
  });
});

describe('txsim run --out, --trace', () => {
  it('a file it cannot write, or would write over, is refused before anything runs, and what was there stays', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-cli-'));
    const scenario = path.join(dir, 'small.json');
    const text = JSON.stringify({
      name: 'small', seed: 3, nodes: 20,
      topology: { kind: 'random_regular', degree: 4 },
      workload: { kind: 'poisson', total_tps: 10, duration_ms: 1000, tx_bytes: 128 },
      protocols: [{ protocol: 'flood' }],
    });
    fs.writeFileSync(scenario, text);
    const old = path.join(dir, 'old.json');
    fs.writeFileSync(old, '{"earlier": true}');
    fs.mkdirSync(path.join(dir, 'folder'));
    const refused: [string[], string][] = [
      [['--out', path.join(dir, 'missing', 'r.json')], 'cannot write there'],
      [['--out', old, '--trace', path.join(dir, 'folder')], 'cannot write there'],
      [['--out', scenario], 'is the scenario'],
      [['--out', path.join(dir, 'same.json'), '--trace', path.join(dir, 'same.json')], 'is --out'],
    ];
    for (const [flags, says] of refused) {
      const run = spawnSync(txsim, ['run', scenario, ...flags], { encoding: 'utf8' });
      expect(run.status, flags.join(' ')).toBe(2);
      expect(run.stderr).toContain(says);
      // No run began: the table it prints after the runs is not there.
      expect(run.stdout).toBe('');
    }
    expect(fs.readFileSync(scenario, 'utf8')).toBe(text);
    expect(fs.readFileSync(old, 'utf8')).toBe('{"earlier": true}');
    expect(fs.readdirSync(dir).sort()).toEqual(['folder', 'old.json', 'small.json']);
    // The same flags into files it can write: the report replaces what was there.
    const run = spawnSync(txsim, ['run', scenario, '--quiet', '--out', old], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(old, 'utf8')).runs).toHaveLength(1);
  });
});

describe('txsim network', () => {
  it('takes --seed as run does; a reader that stops early ends it quietly, with no panic', async () => {
    const scenario = path.join(import.meta.dirname, '..', 'scenarios', 'cat-vs-flood.json');
    const network = (args: string[]) => spawnSync(txsim, ['network', scenario, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const [plain, seeded, again] = [network([]), network(['--seed', '3']), network(['--seed', '3'])];
    expect(seeded.status, seeded.stderr).toBe(0);
    expect(seeded.stdout).toBe(again.stdout);
    expect(seeded.stdout).not.toBe(plain.stdout);
    const bad = network(['--seed', 'abc']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--seed wants a number, got `abc`');
    // As `txsim network X | head -c 100` does, with more than a pipe holds (about 500 kB).
    const child = spawn(txsim, ['network', path.join(path.dirname(scenario), 'strokkur-250.json')]);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('panicked');
    const jobs = spawnSync(txsim, ['run', scenario, '--jobs', '0'], { encoding: 'utf8' });
    expect(jobs.status).toBe(2);
    expect(jobs.stderr).toContain('--jobs wants at least 1');
  });
});
