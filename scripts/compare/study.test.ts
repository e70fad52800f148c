// compare-real's study is added to a results page txsim wrote: once in the contents, its section
// last, and the page's count of directions that hold over every study, its own two included.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendStudy } from './study.mjs';

const caseResult = (ratio: number) => ({
  case: 'gossipsub-real-100-d8',
  nodes: 100,
  degree: 8,
  messages: 20,
  jsVersion: '17.1.1',
  duplicatesRealOverSim: ratio,
  real: { delivery: 1, duplicatesPerNodePerMessage: 2, ihaveIdsPerNodePerMessage: 1, iwantIdsPerNodePerMessage: 0, latencyMs: { p50: 100, p99: 200 }, meshPeersMean: 6 },
  sim: { delivery: 1, duplicatesPerNodePerMessage: 2, ihaveIdsPerNodePerMessage: 1, iwantIdsPerNodePerMessage: 0, latencyMs: { p50: 100, p99: 200 } },
});

describe('appendStudy', () => {
  it('adds the section once and counts every study in the tally', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'txcast-study-'));
    const header = 'Written by txsim. Directions checked: **3 of 3 hold**. Raw reports.\n\n- [CAT](#cat-vs-flood)\n';
    fs.writeFileSync(path.join(dir, 'results.md'), `${header}\n<a id="cat-vs-flood"></a>\n## CAT\n`);
    const checks = [true, true, true].map((holds) => ({ claim: 'x', holds }));
    fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ mode: 'full', studies: [{ id: 'cat-vs-flood', checks }] }));

    expect(appendStudy(dir, [caseResult(1.01)], 'full')).toBe(true);
    expect(appendStudy(dir, [caseResult(1.2)], 'full')).toBe(false);
    const md = fs.readFileSync(path.join(dir, 'results.md'), 'utf8');
    expect(md).toContain('Directions checked: **4 of 5 hold**');
    expect(md.match(/<a id="gossipsub-real">/g)).toHaveLength(1);
    expect(md.match(/\(#gossipsub-real\)/g)).toHaveLength(1);
    const index = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(index.studies.map((s: { id: string }) => s.id)).toEqual(['cat-vs-flood', 'gossipsub-real']);
    fs.rmSync(dir, { recursive: true });
  });
});
