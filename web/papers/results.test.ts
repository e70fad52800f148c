import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readResults, ResultsError } from './results';
import { sampleStudy } from './sample-study';

const study = sampleStudy;

describe('reading results.json', () => {
  it('reads the file the last `npm run reproduce` wrote', () => {
    const raw = JSON.parse(readFileSync(new URL('../../docs/results.json', import.meta.url), 'utf8')) as { studies: { id: string; checks: unknown[] }[] };
    const results = readResults(raw);
    expect(['quick', 'full']).toContain(results.mode);
    expect(results.studies.map((s) => s.id)).toEqual(raw.studies.map((s) => s.id));
    expect(results.studies.flatMap((s) => s.checks)).toHaveLength(raw.studies.flatMap((s) => s.checks).length);
  });

  it('keeps a null figure and shows numeric cells as text', () => {
    const r = readResults({ mode: 'full', took: '9 min', studies: [study({ figure: null, rows: [['flood', 9.1]] })] });
    expect(r.studies[0].figure).toBeNull();
    expect(r.studies[0].rows).toEqual([['flood', '9.1']]);
  });

  it('names the field that has the wrong shape', () => {
    expect(() => readResults({ mode: 'quick', studies: [study(), study({ id: 'b', checks: [{ claim: 'x', holds: 'yes' }] })] })).toThrow(
      'results.json.studies[1].checks[0].holds',
    );
    expect(() => readResults({ mode: 'quick', studies: [study({ rows: [['a', { b: 1 }]] })] })).toThrow('results.json.studies[0].rows[0][1]');
    expect(() => readResults({ mode: 'quick' })).toThrow(ResultsError);
    expect(() => readResults([])).toThrow('results.json: expected an object');
  });

  it('rejects two studies with one id (their anchors would collide)', () => {
    expect(() => readResults({ mode: 'quick', studies: [study(), study()] })).toThrow('appears twice');
  });
});
