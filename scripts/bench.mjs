// `npm run bench -- NAME`: the same bench natively (txsim bench NAME) and in WASM (bench(NAME) in Node),
// printed as ONE JSON object on stdout: {"native": {...}, "wasm": {...}, "wasm_over_native": {...}}.
// Progress goes to stderr.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bootstrap, buildWasm, say, WASM_BINARY, WASM_GLUE } from './lib/bootstrap.mjs';
import { commandLine } from './lib/cli.mjs';
import { ensureTxsim, txsimJson } from './lib/txsim.mjs';

/** The benchmark names, as txsim's `bench --help` lists them. */
async function benchNames() {
  const help = spawnSync(await ensureTxsim(), ['bench', '--help'], { encoding: 'utf8' });
  const list = help.stdout?.split('\n').find((line) => line.startsWith('benchmarks: '));
  return list ? list.slice('benchmarks: '.length).split(', ') : [];
}

const USAGE = `usage: npm run bench -- NAME   run benchmark NAME natively (txsim bench NAME) and in WASM,
                              print one JSON object: {"native", "wasm", "wasm_over_native"}
`;
const { positionals } = await commandLine('npm run bench', USAGE, {}, {
  positionals: true,
  check: ({ positionals: words }) => {
    if (words.length !== 1) throw new Error(words.length ? `one benchmark name, not ${words.length}` : 'which benchmark?');
  },
  moreHelp: async () => `\nbenchmarks: ${(await benchNames()).join(', ')}\n`,
});
const name = positionals[0];
const names = await benchNames();
if (!names.includes(name)) {
  console.error(`npm run bench: no benchmark \`${name}\`; the benchmarks: ${names.join(', ')}\n\n${USAGE}`);
  process.exit(2);
}

function numericKeys(object, origin) {
  if (!object || typeof object !== 'object') throw new Error(`${origin} did not print a JSON object`);
  return Object.fromEntries(Object.entries(object).filter(([, value]) => typeof value === 'number'));
}

try {
  await bootstrap();
  say('building the native and WASM cores (release)');
  await buildWasm();
  say(`native: txsim bench ${name}`);
  const native = numericKeys(await txsimJson(['bench', name]), 'txsim bench');
  say(`wasm: bench("${name}") in Node ${process.versions.node}`);
  const glue = await import(pathToFileURL(WASM_GLUE).href);
  glue.initSync({ module: fs.readFileSync(WASM_BINARY) });
  const wasm = numericKeys(JSON.parse(glue.bench(name, (what) => say(`wasm: ${what}`))), 'bench()');
  const ratio = {};
  for (const [key, value] of Object.entries(wasm)) {
    if (key in native && native[key] !== 0) ratio[key] = value / native[key];
  }
  console.log(JSON.stringify({ native, wasm, wasm_over_native: ratio }));
} catch (error) {
  console.error(`npm run bench: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
