// The scenario library: every file in scenarios/ (but the schema), bundled as raw JSON text so the
// engine parses exactly the bytes that txsim reads.

export interface LibraryEntry {
  /** File name without the extension, e.g. "compare-300". */
  id: string;
  name: string;
  description: string;
  text: string;
}

/** The scenario shown on the first screen: a small comparison of the protocols. */
export const DEFAULT_SCENARIO = 'compare-300';

const files = import.meta.glob<string>(['../scenarios/*.json', '!../scenarios/schema.json'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

function entry(path: string, text: string): LibraryEntry {
  const id = path.replace(/^.*\//, '').replace(/\.json$/, '');
  let name = id;
  let description = '';
  try {
    const parsed = JSON.parse(text) as { name?: unknown; description?: unknown };
    if (typeof parsed.name === 'string') name = parsed.name;
    if (typeof parsed.description === 'string') description = parsed.description;
  } catch {
    description = 'this file is not valid JSON';
  }
  return { id, name, description, text };
}

export const LIBRARY: LibraryEntry[] = Object.entries(files)
  .map(([path, text]) => entry(path, text))
  .sort((a, b) => (a.id === DEFAULT_SCENARIO ? -1 : b.id === DEFAULT_SCENARIO ? 1 : a.id.localeCompare(b.id)));

export function findScenario(id: string): LibraryEntry | undefined {
  return LIBRARY.find((e) => e.id === id);
}
