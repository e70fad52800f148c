// Guard rail: the WASM core must import nothing from `env`. Such imports mean a C library or a
// missing symbol slipped into the build, and browsers fail to instantiate the module.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, WASM_BINARY } from './lib/bootstrap.mjs';

const file = process.argv[2] ? path.resolve(process.argv[2]) : WASM_BINARY;
if (!fs.existsSync(file)) {
  console.error(`no WASM module at ${path.relative(ROOT, file)}: build it first`);
  process.exit(1);
}
const imports = WebAssembly.Module.imports(new WebAssembly.Module(fs.readFileSync(file)));
const fromEnv = imports.filter((entry) => entry.module === 'env');
const modules = [...new Set(imports.map((entry) => entry.module))];
if (fromEnv.length > 0) {
  console.error(`${path.relative(ROOT, file)} imports ${fromEnv.length} item(s) from "env":`);
  for (const entry of fromEnv) console.error(`  env.${entry.name} (${entry.kind})`);
  process.exit(1);
}
console.log(`${path.relative(ROOT, file)}: ${imports.length} imports, none from "env" (modules: ${modules.join(', ') || 'none'})`);
