// `npm run reproduce [-- --quick] [-- --only ID,ID]`: the seeds' tables and figures, measured again by
// `txsim reproduce` (built in release mode first) and written to docs/results.md with SVG figures.
import { spawnSync } from 'node:child_process';
import { buildTxsim } from './lib/bootstrap.mjs';

try {
  const binary = await buildTxsim();
  const result = spawnSync(binary, ['reproduce', ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
} catch (error) {
  console.error(`npm run reproduce: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
