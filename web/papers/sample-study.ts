// One study as results.json holds it, for the papers view's tests.
import type { Study } from './results';

export const sampleStudy = (over: Record<string, unknown> = {}): Study => ({
  id: 'cat-vs-flood',
  title: 'CAT vs flooding',
  source: 'seed 000',
  scenarios: ['cat-vs-flood.json'],
  changes: [],
  head: ['run', 'copies'],
  rows: [['flood', '9.10']],
  figure: 'figures/cat-vs-flood.svg',
  checks: [{ claim: 'CAT wins', holds: true }],
  differences: 'unloaded network',
  ...over,
}) as Study;
