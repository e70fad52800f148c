import { describe, expect, it } from 'vitest';
import { COLUMNS, reportCsv, type RunReport } from './report';

const stat = (mean: number) => ({ p5: mean, mean, p50: mean, p95: mean, p99: mean });
const report = (label: string): RunReport => ({
  label,
  protocol: 'flood',
  seed: 1,
  nodes: 10,
  txs: 2,
  events: 1234,
  wall_ms: 1,
  digest: 'abcdef0123456789',
  summary: {
    delivery: stat(1),
    latency_ms: stat(180.25),
    overhead: stat(7.1),
    duplicates: stat(6),
    bytes_up: { payload: stat(1500), control: stat(500) },
    bytes_down: { payload: stat(1500), control: stat(500) },
  },
  counters: {},
});

describe('report figures', () => {
  const column = (key: string) => COLUMNS.find((c) => c.key === key)!;

  it('formats the headline numbers', () => {
    const r = report('a');
    expect(column('delivery').format(column('delivery').value(r))).toBe('100.0%');
    expect(column('latency_p50').format(column('latency_p50').value(r))).toBe('180.3');
    expect(column('up_kb').format(column('up_kb').value(r))).toBe('2.0');
    expect(column('digest').format(column('digest').value(r))).toBe('abcdef012345');
  });

  it('writes CSV with a header and quotes labels that need it', () => {
    const csv = reportCsv([report('plain'), report('with, comma "q"')]).trim().split('\n');
    expect(csv[0].split(',')).toEqual(COLUMNS.map((c) => c.key));
    expect(csv[1].startsWith('plain,flood,1,180.25,180.25,NaN,7.1,6,2000,1234,')).toBe(true);
    expect(csv[2].startsWith('"with, comma ""q""",flood')).toBe(true);
    expect(csv[1].endsWith(',abcdef0123456789')).toBe(true);
  });
});
