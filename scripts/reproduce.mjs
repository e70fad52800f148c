// `npm run reproduce -- [--quick] [--only ID,ID] [--out DIR] [--jobs N] [--scenarios DIR]`: the seeds' tables and figures,
// measured again by `txsim reproduce` (built in release mode first) and written to docs/results.md
// with SVG figures; and the `gossipsub-real` study (compare-real.mjs: txcast's GossipSub next to
// @libp2p/gossipsub on the same network), added to the same page. The two run at once, so the
// whole takes about their CPU time spread over the cores, not one's time after the other's: the
// real nodes keep a virtual clock (compare-real.mjs), so sharing the cores slows them, not what
// they measure.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTxsim, projectEnv, ROOT } from './lib/bootstrap.mjs';
import { commandLine } from './lib/cli.mjs';
import { appendStudy, STUDY_ID } from './compare/study.mjs';

const USAGE = `usage: npm run reproduce -- [--quick] [--only ID,ID] [--out DIR] [--jobs N] [--scenarios DIR]

Runs the seeds' studies with txsim (built first), then ${STUDY_ID} (txcast's GossipSub next to
@libp2p/gossipsub), and writes DIR/results.md, results.json, figures/ and reports/ (DIR: docs/).
Exits non-zero if a direction the seeds report does not hold.
  --quick          small networks: the seeds' directions in a fraction of the time
  --only ID,ID     only these studies (${STUDY_ID} or those txsim lists below); they replace
                   theirs on the page already in DIR, the others stay
  --out DIR        write there instead of docs/
  --jobs N         txsim threads (default: all cores)
  --scenarios DIR  read the studies' scenario files from DIR (default: scenarios/)
`;

/** compare-real.mjs while it runs (stopped if this script fails first). */
let compareReal = null;
try {
  const opts = await commandLine('npm run reproduce', USAGE, {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string' },
    jobs: { type: 'string' },
    scenarios: { type: 'string' },
  }, {
    check: ({ jobs, only, quick, out }) => {
      if (jobs !== undefined && !/^[1-9][0-9]{0,3}$/.test(jobs)) throw new Error(`--jobs wants a number of threads from 1, got ${JSON.stringify(jobs)}`);
      // --only adds to the page in --out; never a quick study among full ones or the reverse.
      const index = path.join(path.resolve(out ?? path.join(ROOT, 'docs')), 'results.json');
      const mode = quick ? 'quick' : 'full';
      const written = only && fs.existsSync(index) ? JSON.parse(fs.readFileSync(index, 'utf8')).mode : mode;
      if (written !== mode) throw new Error(`${path.dirname(index)} holds a ${written} mode run; this ${mode} mode run of ${only} would be mixed into it: choose another --out (or run every study)`);
    },
    moreHelp: async () => {
      const help = spawnSync(await buildTxsim(), ['reproduce', '--help'], { encoding: 'utf8' });
      const list = help.stdout?.split('\n').find((line) => line.startsWith('studies'));
      return list ? `\ntxsim's ${list}\n` : '';
    },
  });
  const only = opts.only?.split(',').map((id) => id.trim()) ?? [];
  const quick = opts.quick;
  const out = path.resolve(opts.out ?? path.join(ROOT, 'docs'));
  const seeds = only.filter((id) => id !== STUDY_ID);
  let status = 0;
  const binary = await buildTxsim();
  const file = path.join(os.tmpdir(), `compare-real-${process.pid}.json`);
  if (only.length === 0 || only.includes(STUDY_ID)) {
    compareReal = spawn(process.execPath, [path.join(ROOT, 'scripts', 'compare-real.mjs'), ...(quick ? ['--quick'] : []), '--out', file], { stdio: ['ignore', 'ignore', 'inherit'], env: projectEnv() });
  }
  const real = compareReal && exitOf(compareReal);
  real?.catch(() => undefined); // awaited below; until then a failure to start is not unhandled
  if (only.length === 0 || seeds.length > 0) {
    const passed = [...(quick ? ['--quick'] : []), ...['out', 'jobs', 'scenarios'].flatMap((name) => (opts[name] === undefined ? [] : [`--${name}`, opts[name]]))];
    const rest = [...passed, ...(seeds.length ? ['--only', seeds.join(',')] : [])];
    if (real) console.error(`${STUDY_ID} runs alongside (compare-real.mjs)`);
    const code = await exitOf(spawn(binary, ['reproduce', ...rest], { stdio: 'inherit' }));
    status = typeof code === 'number' ? code : 1;
  }
  if (real) {
    const code = await real;
    if (code !== 0) throw new Error(`compare-real exited with ${code}`);
    const holds = appendStudy(out, JSON.parse(fs.readFileSync(file, 'utf8')), quick ? 'quick' : 'full');
    fs.rmSync(file, { force: true });
    console.log(`${holds ? 'ok  ' : 'FAIL'} ${STUDY_ID}: added to ${path.join(out, 'results.md')}`);
    if (!holds) status = status || 1;
  }
  process.exit(status);
} catch (error) {
  console.error(`npm run reproduce: ${error instanceof Error ? error.message : error}`);
  compareReal?.kill();
  process.exit(1);
}

/** A child's exit code (its signal's name if a signal ended it); rejects if it could not start. */
function exitOf(child) {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? signal));
  });
}
