// The scenario library: every file in scenarios/ (but the schema). Names and descriptions are
// bundled; each file's text is fetched when picked (some files are large), raw, so the engine
// parses exactly the bytes that txsim reads.

export interface LibraryEntry {
  /** File name without the extension, e.g. "compare-300". */
  id: string;
  name: string;
  description: string;
  /** The file's exact text. */
  load(): Promise<string>;
}

/** The scenario shown on the first screen: a small comparison of the protocols. */
export const DEFAULT_SCENARIO = 'compare-300';

const names = import.meta.glob<string | undefined>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { import: 'name', eager: true });
const descriptions = import.meta.glob<string | undefined>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { import: 'description', eager: true });
const texts = import.meta.glob<string>(['../../scenarios/*.json', '!../../scenarios/schema.json'], { query: '?raw', import: 'default' });

const idOf = (path: string) => path.replace(/^.*\//, '').replace(/\.json$/, '');
/** By code unit, not `localeCompare`: its first use builds a collator in a long main-thread task. */
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const LIBRARY: LibraryEntry[] = Object.keys(texts)
  .map((path) => ({
    id: idOf(path),
    name: typeof names[path] === 'string' ? names[path] : idOf(path),
    description: typeof descriptions[path] === 'string' ? descriptions[path] : '',
    load: texts[path],
  }))
  .sort((a, b) => (a.id === DEFAULT_SCENARIO ? -1 : b.id === DEFAULT_SCENARIO ? 1 : byId(a.id, b.id)));

export function findScenario(id: string): LibraryEntry | undefined {
  return LIBRARY.find((e) => e.id === id);
}
