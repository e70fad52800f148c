// Runs the native txsim and parses the one JSON object it prints: the reference the WASM build is checked against.
import { execFileSync } from 'node:child_process';
import { buildTxsim } from './bootstrap.mjs';

let built = null;

/** Builds txsim at most once per process (cargo checks the whole workspace each time). */
export function ensureTxsim() {
  built ??= buildTxsim();
  return built;
}

export async function txsimJson(args) {
  const binary = await ensureTxsim();
  const stdout = execFileSync(binary, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

export function txsimDemo({ seed, nodes, degree }) {
  return txsimJson(['demo', '--seed', String(seed), '--nodes', String(nodes), '--degree', String(degree)]);
}
