import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIO, findScenario, LIBRARY } from './scenarios';

describe('the scenario library', () => {
  const files = readdirSync(new URL('../scenarios/', import.meta.url)).filter((f) => f.endsWith('.json') && f !== 'schema.json');

  it('lists every scenario file, the default first, and not the schema', () => {
    expect(LIBRARY.map((e) => `${e.id}.json`).sort()).toEqual(files.sort());
    expect(LIBRARY[0].id).toBe(DEFAULT_SCENARIO);
    expect(findScenario('schema')).toBeUndefined();
  });

  it('keeps the file bytes and reads name and description', () => {
    for (const e of LIBRARY) {
      expect(e.text).toBe(readFileSync(new URL(`../scenarios/${e.id}.json`, import.meta.url), 'utf8'));
      expect(e.name.length).toBeGreaterThan(0);
    }
  });
});
