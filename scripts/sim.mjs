// `npm run sim -- <args>`: the native txsim CLI, built in release mode first (quietly when up to date).
import { spawnSync } from 'node:child_process';
import { buildTxsim } from './lib/bootstrap.mjs';

try {
  const binary = await buildTxsim();
  const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
} catch (error) {
  console.error(`npm run sim: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
