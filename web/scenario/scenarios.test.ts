import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, findScenario, LIBRARY } from './scenarios';

describe('the scenario library', () => {
  const files = readdirSync(new URL('../../scenarios/', import.meta.url)).filter((f) => f.endsWith('.json') && f !== 'schema.json');

  it('lists every scenario file, the default first, and not the schema', () => {
    expect(LIBRARY.map((e) => `${e.id}.json`).sort()).toEqual(files.sort());
    expect(LIBRARY[0].id).toBe(DEFAULT_SCENARIO);
    expect(findScenario('schema')).toBeUndefined();
  });

  it('loads the exact file bytes, with the name and description from the file', async () => {
    for (const e of LIBRARY) {
      const text = readFileSync(new URL(`../../scenarios/${e.id}.json`, import.meta.url), 'utf8');
      expect(await e.load()).toBe(text);
      const parsed = JSON.parse(text) as { name: string; description?: string };
      expect(e.name).toBe(parsed.name);
      expect(e.description).toBe(parsed.description ?? '');
    }
  });
});
