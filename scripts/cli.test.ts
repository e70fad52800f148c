// The npm scripts' and txsim's command lines as a user meets them: --help answers and runs
// nothing; an unknown option ends with a usage line and exit code 2 before anything runs or
// is written (`npm run reproduce -- --help` once ran every study and rewrote docs/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
