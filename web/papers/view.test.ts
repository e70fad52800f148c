import { describe, expect, it } from 'vitest';
import { sampleStudy } from './sample-study';
import { anchorFor, keyedAfter, LIVE_RUNS, liveLink, pageView, type Assets } from './view';

const base = sampleStudy({
  checks: [
    { claim: 'CAT wins', holds: true },
    { claim: 'by 4x', holds: false },
  ],
  differences: '',
});

const assets: Assets = {
  figures: { 'figures/cat-vs-flood.svg': '/assets/cat-vs-flood-x.svg' },
  reports: { 'reports/cat-vs-flood.json': '/assets/cat-vs-flood-y.json' },
  scenarios: {
    'cat-vs-flood.json': { name: 'CAT vs flooding (ADR 009)', nodes: 100, runs: ['flood', 'cat'] },
    'big.json': { name: 'Big', nodes: 4000, runs: ['a', 'b', 'c', 'd', 'e', 'f'] },
    'odd name.json': { name: 'Odd', nodes: 10, runs: ['a'] },
  },
};

describe('glob keys', () => {
  it('keys bundled files by their path under docs/ or scenarios/', () => {
    expect(keyedAfter({ '../../docs/figures/a.svg': 'u1', '../../docs/reports/a.json': 'u2' }, 'docs/')).toEqual({ 'figures/a.svg': 'u1', 'reports/a.json': 'u2' });
    expect(keyedAfter({ '../../scenarios/x.json': 1, '../../elsewhere/y.json': 2 }, 'scenarios/')).toEqual({ 'x.json': 1 });
  });

  it('makes element ids that stay ids whatever the study id holds', () => {
    expect(anchorFor('strokkur-fig6')).toBe('study-strokkur-fig6');
    expect(anchorFor('a b"<x>')).toBe('study-a_b__x_');
  });
});

describe('live links', () => {
  it('opens a library file in the visualizer by its id, relative to /papers/', () => {
    const link = liveLink('cat-vs-flood.json', base, assets.scenarios);
    expect(link).toEqual({ file: 'cat-vs-flood.json', name: 'CAT vs flooding (ADR 009)', href: '../?scenario=cat-vs-flood', notes: [] });
    expect(liveLink('odd name.json', base, assets.scenarios).href).toBe('../?scenario=odd%20name');
  });

  it('says when the file is not in the library instead of linking to nothing', () => {
    const link = liveLink('gone.json', base, assets.scenarios);
    expect(link.href).toBeNull();
    expect(link.notes.join(' ')).toMatch(/not in this build's scenario library/);
    // Inherited object keys are not library files.
    expect(liveLink('constructor', base, assets.scenarios).href).toBeNull();
  });

  it('warns about a changed copy, more runs than the page computes at once, and large networks', () => {
    const changed = { ...base, changes: ['big.json: nodes 4000 -> 100', 'other.json: drain_ms 3 -> 2'] };
    const notes = liveLink('big.json', changed, assets.scenarios).notes.join('\n');
    expect(notes).toMatch(/measured a changed copy/);
    expect(notes).toContain(`6 runs: the visualizer computes ${LIVE_RUNS} side by side`);
    expect(notes).toContain('4,000 nodes');
    // A change to another file says nothing about this one.
    expect(liveLink('cat-vs-flood.json', changed, assets.scenarios).notes).toEqual([]);
  });
});

describe('the page view', () => {
  it('finds each study its figure and report and counts the checks that hold', () => {
    const page = pageView({ mode: 'quick', took: '49 s', studies: [base, { ...base, id: 'neo-go', figure: null, checks: [{ claim: 'c', holds: true }] }] }, assets);
    expect(page.quick).toBe(true);
    expect([page.held, page.checked]).toEqual([2, 3]);
    const [cat, neo] = page.studies;
    expect(cat.figure).toBe('/assets/cat-vs-flood-x.svg');
    expect(cat.report).toBe('/assets/cat-vs-flood-y.json');
    expect(cat.held).toBe(1);
    expect(neo.figure).toBeNull();
    expect(neo.figureMissing).toBe(false);
    expect(neo.report).toBeNull();
  });

  it('notices a figure results.json names but the build does not hold', () => {
    const page = pageView({ mode: 'full', took: '', studies: [{ ...base, figure: 'figures/missing.svg' }] }, assets);
    expect(page.quick).toBe(false);
    expect(page.studies[0].figure).toBeNull();
    expect(page.studies[0].figureMissing).toBe(true);
  });
});
