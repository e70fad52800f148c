// One way for the npm scripts to read their command line: --help (-h) prints the usage and
// exits 0; an unknown option or a bad value prints what is wrong and the usage and exits 2,
// before anything is built, run or written.
import { parseArgs } from 'node:util';

/**
 * The `options` (as `node:util` parseArgs takes them) read strictly from `process.argv`, or exit.
 * `check(values)` may throw an Error for a bad value; `moreHelp()` may add to --help's text.
 * With `positionals`, the words that are not options come back as `values.positionals`.
 */
export async function commandLine(name, usage, options = {}, { check = () => {}, moreHelp = async () => '', positionals = false } = {}) {
  let values;
  try {
    const parsed = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
      allowPositionals: positionals,
    });
    values = positionals ? { ...parsed.values, positionals: parsed.positionals } : parsed.values;
    if (!values.help) check(values);
  } catch (error) {
    console.error(`${name}: ${error.message.replace(/\s*\n\s*/g, ' ')}\n\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(usage + (await moreHelp()));
    process.exit(0);
  }
  return values;
}
