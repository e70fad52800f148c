import { describe, expect, it } from 'vitest';
import { renderError, renderPage, type Doc } from './render';
import { pageView, type Assets } from './view';
import type { Results } from './results';

// A small stand-in for the DOM (the tests run in Node): the renderer may only create elements, set
// attributes and append text, so markup in a string can never become elements.
class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: (FakeElement | string)[] = [];
  constructor(readonly tag: string) {}
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
  attr(name: string) {
    return this.attributes.get(name);
  }
  append(...items: (FakeElement | string)[]) {
    for (const item of items) {
      if (!(item instanceof FakeElement) && typeof item !== 'string') throw new Error(`appended ${typeof item}`);
      this.children.push(item);
    }
  }
  set innerHTML(_: string) {
    throw new Error('the renderer must not parse markup');
  }
  get text(): string {
    return this.children.map((c) => (typeof c === 'string' ? c : c.text)).join('');
  }
  /** Elements under this one (itself included) that match. */
  all(match: (e: FakeElement) => boolean): FakeElement[] {
    const kids = this.children.filter((c): c is FakeElement => c instanceof FakeElement);
    return [...(match(this) ? [this] : []), ...kids.flatMap((k) => k.all(match))];
  }
  byClass(name: string) {
    return this.all((e) => (e.attr('class') ?? '').split(' ').includes(name));
  }
  byTag(tag: string) {
    return this.all((e) => e.tag === tag);
  }
}

const doc = { createElement: (tag: string) => new FakeElement(tag) } as unknown as Doc;
const render = (results: Results, assets: Assets) => renderPage(doc, pageView(results, assets)) as unknown as FakeElement[];
const one = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0];
};

const assets: Assets = {
  figures: { 'figures/a.svg': '/assets/a.svg' },
  reports: { 'reports/a.json': '/assets/a.json' },
  scenarios: { 'a.json': { name: 'Scenario A', nodes: 50, runs: ['flood', 'cat'] } },
};

const results: Results = {
  mode: 'quick',
  took: 'quick mode, 49 s on 2 threads',
  studies: [
    {
      id: 'a',
      title: 'Study <b>A</b>',
      source: 'seed 000',
      scenarios: ['a.json', 'missing.json'],
      changes: ['a.json: nodes 100 -> 50'],
      head: ['run', 'copies', 'seed'],
      rows: [
        ['flood', '<img src=x onerror=alert(1)>', '17.61'],
        ['cat', '1.12', '1.75'],
      ],
      figure: 'figures/a.svg',
      checks: [
        { claim: 'CAT receives under 2 copies', holds: true },
        { claim: 'flooding 4x', holds: false },
      ],
      differences: 'Our network is unloaded.',
    },
    { id: 'b', title: 'Study B', source: '', scenarios: [], changes: [], head: [], rows: [], figure: null, checks: [], differences: '' },
  ],
};

describe('the papers page DOM', () => {
  const parts = render(results, assets);
  const page = new FakeElement('main');
  page.append(...parts);
  const sections = page.all((e) => e.tag === 'section');

  it('says how the numbers were made and how many directions hold', () => {
    const info = one(page.all((e) => e.attr('id') === 'run-info'));
    expect(info.text).toContain('npm run reproduce -- --quick');
    expect(info.text).toContain('49 s on 2 threads');
    expect(info.text).toContain('1 of 2 hold');
    expect(page.byClass('quick-note')).toHaveLength(1);
  });

  it("names the mode once, whether or not txsim's duration names it", () => {
    const full = render({ ...results, mode: 'full', took: '9 min 12 s on 2 threads' }, assets);
    const info = one(full.flatMap((e) => e.all((x) => x.attr('id') === 'run-info')));
    expect(info.text).toContain('(full mode, 9 min 12 s on 2 threads)');
    expect(info.text).toContain('npm run reproduce (');
    expect(full.flatMap((e) => e.byClass('quick-note'))).toHaveLength(0);
    const quick = one(page.all((x) => x.attr('id') === 'run-info'));
    expect(quick.text.match(/quick mode/g)).toHaveLength(1);
  });

  it('lists every study in the contents, linking to its section', () => {
    const toc = one(page.byTag('nav'));
    const links = toc.byTag('a');
    expect(links.map((a) => a.attr('href'))).toEqual(sections.map((s) => `#${s.attr('id')}`));
    expect(sections.map((s) => s.attr('data-study'))).toEqual(['a', 'b']);
  });

  it('puts table cells and titles in as text, markup and all', () => {
    const a = sections[0];
    expect(one(a.byTag('h2')).text).toContain('Study <b>A</b>');
    expect(a.byTag('b')).toHaveLength(0);
    const cells = a.byTag('tr').map((tr) => tr.all((e) => e.tag === 'td' || e.tag === 'th').map((c) => c.text));
    expect(cells).toEqual([
      ['run', 'copies', 'seed'],
      ['flood', '<img src=x onerror=alert(1)>', '17.61'],
      ['cat', '1.12', '1.75'],
    ]);
    // The only image is the figure, with the bundled URL.
    expect(a.byTag('img').map((i) => i.attr('src'))).toEqual(['/assets/a.svg']);
  });

  it('marks each check with a symbol and a word, not colour alone', () => {
    const checks = sections[0].byClass('check');
    expect(checks.map((c) => c.attr('data-holds'))).toEqual(['true', 'false']);
    expect(checks.map((c) => one(c.byClass('verdict')).text)).toEqual(['holds', 'does not hold']);
    expect(checks.map((c) => one(c.byClass('mark')).text)).toEqual(['✓', '✗']);
    expect(one(sections[0].byClass('tally')).text).toBe('1 of 2 hold');
  });

  it('shows the differences, the changes and a live link per scenario file', () => {
    const a = sections[0];
    expect(one(a.byClass('differences')).text).toBe('Our network is unloaded.');
    expect(one(a.byClass('changes')).text).toBe('a.json: nodes 100 -> 50');
    const [ok, missing] = a.byClass('live-open');
    expect(ok.tag).toBe('a');
    expect(ok.attr('href')).toBe('../?scenario=a');
    expect(ok.text).toBe('Open as a live scenario');
    expect(missing.tag).toBe('span');
    expect(missing.attr('href')).toBeUndefined();
    const notes = a.byTag('li').filter((li) => li.attr('data-file') === 'missing.json').flatMap((li) => li.byClass('note'));
    expect(one(notes).text).toMatch(/not in this build's scenario library/);
    expect(one(a.byClass('raw')).byTag('a')[0].attr('href')).toBe('/assets/a.json');
  });

  it('says what a study without figure, checks, changes or scenarios lacks', () => {
    const b = sections[1];
    expect(b.byTag('img')).toHaveLength(0);
    expect(b.byClass('checks')).toHaveLength(0);
    const notes = b.byClass('note').map((n) => n.text);
    expect(notes).toContain('This study checks no direction.');
    expect(notes).toContain('None: the scenario files were run as they are.');
    expect(notes).toContain('This study names no scenario file.');
    expect(b.byClass('raw')).toHaveLength(0);
  });

  it('shows an error instead of sections when there is nothing to show', () => {
    const empty = render({ mode: 'full', took: '', studies: [] }, assets);
    expect(empty.flatMap((e) => e.byTag('section'))).toHaveLength(0);
    expect(empty.flatMap((e) => e.byClass('error'))).toHaveLength(1);
    const error = renderError(doc, 'bad <shape>') as unknown as FakeElement[];
    expect(error.flatMap((e) => e.byClass('error')).map((e) => e.text)).toEqual(['bad <shape>']);
  });
});
