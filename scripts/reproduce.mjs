// `npm run reproduce [-- --quick] [-- --only ID,ID] [-- --out DIR]`: the seeds' tables and figures,
// measured again by `txsim reproduce` (built in release mode first) and written to docs/results.md
// with SVG figures; then the `gossipsub-real` study (compare-real.mjs: txcast's GossipSub next to
// @libp2p/gossipsub on the same network), added to the same page.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTxsim, projectEnv, ROOT } from './lib/bootstrap.mjs';
import { appendStudy, STUDY_ID } from './compare/study.mjs';

try {
  const args = process.argv.slice(2);
  const value = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const only = value('--only')?.split(',') ?? [];
  const quick = args.includes('--quick');
  const out = path.resolve(value('--out') ?? path.join(ROOT, 'docs'));
  const seeds = only.filter((id) => id !== STUDY_ID);
  let status = 0;
  if (only.length === 0 || seeds.length > 0) {
    const rest = only.length ? [...args.filter((a, i) => a !== '--only' && args[i - 1] !== '--only'), '--only', seeds.join(',')] : args;
    const binary = await buildTxsim();
    const result = spawnSync(binary, ['reproduce', ...rest], { stdio: 'inherit' });
    if (result.error) throw result.error;
    status = result.status ?? 1;
  }
  if (only.length === 0 || only.includes(STUDY_ID)) {
    const file = path.join(os.tmpdir(), `compare-real-${process.pid}.json`);
    const real = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'compare-real.mjs'), ...(quick ? ['--quick'] : []), '--out', file], { stdio: ['ignore', 'ignore', 'inherit'], env: projectEnv() });
    if (real.status !== 0) throw new Error(`compare-real exited with ${real.status ?? real.signal}`);
    const holds = appendStudy(out, JSON.parse(fs.readFileSync(file, 'utf8')), quick ? 'quick' : 'full');
    fs.rmSync(file, { force: true });
    console.log(`${holds ? 'ok  ' : 'FAIL'} ${STUDY_ID}: added to ${path.join(out, 'results.md')}`);
    if (!holds) status = status || 1;
  }
  process.exit(status);
} catch (error) {
  console.error(`npm run reproduce: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
