// The papers page's DOM, built from a PageView with createElement, setAttribute and text nodes only:
// every string from results.json lands as text, never as markup.
import type { LiveLink, PageView, StudyView } from './view';

/** The part of `document` the page needs (a test passes a small fake). */
export type Doc = Pick<Document, 'createElement'>;
type Child = Node | string;

function h(doc: Doc, tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const el = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

function header(doc: Doc, page: PageView): HTMLElement {
  // txsim's "took" usually names the mode already ("quick mode, 49 s on 2 threads").
  const mode = `${page.mode} mode`;
  const when = page.took.includes(mode) ? page.took : [mode, page.took].filter(Boolean).join(', ');
  return h(
    doc,
    'header',
    {},
    h(doc, 'p', { class: 'crumbs' }, h(doc, 'a', { href: '../' }, '← back to the visualizer')),
    h(doc, 'h1', {}, 'Papers: the seeds\' results, measured again'),
    h(
      doc,
      'p',
      { class: 'lede' },
      'Each section takes a table or figure from a source document (a "seed": an ADR, a paper, a study) and puts our simulator\'s numbers beside the seed\'s. ',
      'The checks test the direction the seed reports (which protocol wins, by roughly how much); "where we differ" says why our magnitudes may not match. ',
      'Open any scenario as a live run to watch it spread in the visualizer.',
    ),
    h(
      doc,
      'p',
      { class: 'run-info', id: 'run-info' },
      'Written by ',
      h(doc, 'code', {}, page.quick ? 'npm run reproduce -- --quick' : 'npm run reproduce'),
      ` (${when}). Directions checked: `,
      h(doc, 'strong', { id: 'tally' }, `${page.held} of ${page.checked} hold`),
      '.',
    ),
    ...(page.quick
      ? [h(doc, 'p', { class: 'quick-note', role: 'note' }, 'Quick mode: small networks and short loads, for the test suite. The directions are checked; the magnitudes are not the papers\' setting.')]
      : []),
  );
}

function tally(doc: Doc, s: StudyView): HTMLElement {
  if (s.checks.length === 0) return h(doc, 'span', { class: 'tally' }, 'no checks');
  const all = s.held === s.checks.length;
  return h(doc, 'span', { class: `tally ${all ? 'all-hold' : 'some-fail'}` }, `${s.held} of ${s.checks.length} hold`);
}

function contents(doc: Doc, page: PageView): HTMLElement {
  const items = page.studies.map((s) => h(doc, 'li', {}, h(doc, 'a', { href: `#${s.anchor}` }, s.title), ' ', tally(doc, s)));
  return h(doc, 'nav', { class: 'toc', 'aria-labelledby': 'toc-title' }, h(doc, 'h2', { id: 'toc-title' }, 'Studies'), h(doc, 'ol', {}, ...items));
}

function table(doc: Doc, s: StudyView): HTMLElement {
  const head = h(doc, 'thead', {}, h(doc, 'tr', {}, ...s.head.map((c) => h(doc, 'th', { scope: 'col' }, c))));
  const body = h(doc, 'tbody', {}, ...s.rows.map((row) => h(doc, 'tr', {}, ...row.map((c) => h(doc, 'td', {}, c)))));
  // Focusable so a keyboard user can scroll a wide table on a narrow screen.
  return h(doc, 'div', { class: 'table-wrap', role: 'region', 'aria-label': `${s.title}: table`, tabindex: '0' }, h(doc, 'table', {}, head, body));
}

function figure(doc: Doc, s: StudyView): HTMLElement | null {
  if (s.figure !== null) {
    const img = h(doc, 'img', { src: s.figure, alt: `Plot of the table: ${s.title}`, width: '640', height: '360', loading: 'lazy' });
    return h(
      doc,
      'figure',
      { class: 'plot' },
      h(doc, 'a', { href: s.figure, target: '_blank', rel: 'noopener', 'aria-label': `${s.title}: the figure, full size` }, img),
      h(doc, 'figcaption', {}, 'Our numbers, and the seed\'s where the plot\'s legend names them. Click to open full size.'),
    );
  }
  if (s.figureMissing) return h(doc, 'p', { class: 'note' }, 'The figure named in results.json is not in this build: run npm run reproduce again.');
  return null;
}

function checks(doc: Doc, s: StudyView): HTMLElement {
  if (s.checks.length === 0) return h(doc, 'p', { class: 'note' }, 'This study checks no direction.');
  const items = s.checks.map((c) =>
    h(
      doc,
      'li',
      { class: `check ${c.holds ? 'holds' : 'fails'}`, 'data-holds': String(c.holds) },
      // The mark and the word carry the verdict; the colour only repeats it.
      h(doc, 'span', { class: 'mark', 'aria-hidden': 'true' }, c.holds ? '✓' : '✗'),
      h(doc, 'span', { class: 'verdict' }, c.holds ? 'holds' : 'does not hold'),
      h(doc, 'span', { class: 'claim' }, c.claim),
    ),
  );
  return h(doc, 'ul', { class: 'checks' }, ...items);
}

function liveItem(doc: Doc, link: LiveLink, title: string): HTMLElement {
  const label = h(doc, 'span', { class: 'live-name' }, link.name, ' ', h(doc, 'code', {}, link.file));
  const action =
    link.href === null
      ? h(doc, 'span', { class: 'live-open unavailable' }, 'cannot open live')
      : h(doc, 'a', { class: 'live-open', href: link.href, 'data-file': link.file, title: `${title}: open ${link.file} in the visualizer` }, 'Open as a live scenario');
  const notes = link.notes.map((n) => h(doc, 'p', { class: 'note' }, n));
  return h(doc, 'li', { 'data-file': link.file }, action, ' ', label, ...notes);
}

function study(doc: Doc, s: StudyView): HTMLElement {
  const titleId = `${s.anchor}-title`;
  const parts: Child[] = [
    h(doc, 'h2', { id: titleId }, s.title, ' ', tally(doc, s)),
    h(doc, 'p', { class: 'source' }, 'Source: ', s.source || 'not given'),
    h(doc, 'div', { class: 'result' }, table(doc, s), ...[figure(doc, s)].filter((f): f is HTMLElement => f !== null)),
    h(doc, 'h3', {}, 'Checks'),
    checks(doc, s),
  ];
  if (s.differences) parts.push(h(doc, 'h3', {}, 'Where we differ'), h(doc, 'p', { class: 'differences' }, s.differences));
  parts.push(h(doc, 'h3', {}, 'Changes for this run'));
  parts.push(
    s.changes.length > 0
      ? h(doc, 'ul', { class: 'changes' }, ...s.changes.map((c) => h(doc, 'li', {}, h(doc, 'code', {}, c))))
      : h(doc, 'p', { class: 'note' }, 'None: the scenario files were run as they are.'),
  );
  parts.push(h(doc, 'h3', {}, 'Live scenarios'));
  parts.push(
    s.live.length > 0 ? h(doc, 'ul', { class: 'live' }, ...s.live.map((l) => liveItem(doc, l, s.title))) : h(doc, 'p', { class: 'note' }, 'This study names no scenario file.'),
  );
  if (s.report !== null) {
    parts.push(h(doc, 'p', { class: 'raw' }, h(doc, 'a', { href: s.report, download: `${s.id}.json` }, 'Raw run reports (JSON)')));
  }
  return h(doc, 'section', { class: 'study', id: s.anchor, 'data-study': s.id, 'aria-labelledby': titleId }, ...parts);
}

/** The whole page body, in reading order. */
export function renderPage(doc: Doc, page: PageView): HTMLElement[] {
  if (page.studies.length === 0) {
    return [header(doc, page), h(doc, 'p', { class: 'error' }, 'results.json lists no studies: run npm run reproduce.')];
  }
  return [header(doc, page), contents(doc, page), ...page.studies.map((s) => study(doc, s))];
}

/** What the page shows when there are no results to read. */
export function renderError(doc: Doc, message: string): HTMLElement[] {
  return [
    h(doc, 'header', {}, h(doc, 'p', { class: 'crumbs' }, h(doc, 'a', { href: '../' }, '← back to the visualizer')), h(doc, 'h1', {}, 'Papers')),
    h(doc, 'p', { class: 'error', role: 'alert' }, message),
  ];
}
