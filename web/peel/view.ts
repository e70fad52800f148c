// The peeling view: a watched node's decoder as a graph (codewords left, symbols right, an edge
// per short ID labelled in hex), stepped through with buttons or the arrow keys, each step said
// in words. d3 draws it; the graph at each step comes from graph.ts.
import { select } from 'd3';
import { graphAt, hex, readPeel, sayPeel, symbolName, txOf, type PeelData } from './graph';

const ROW = 30;
const STATE_COLOURS: Record<string, string> = { waiting: '#56b4e9', released: '#009e73', redundant: '#8592a3', corrupt: '#d55e00', lost: '#cc79a7' };

/** Shows `data` in `root` (replacing what it held), for node `node`. */
export function showPeeling(root: HTMLElement, node: number, data: PeelData): void {
  const steps = readPeel(data);
  const txs = txOf(data);
  root.replaceChildren();
  root.classList.add('peeling');
  root.dataset.steps = String(steps.length);
  const title = document.createElement('h3');
  title.textContent = `node ${node}'s decoder, peeling`;
  const bar = document.createElement('div');
  bar.className = 'row';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', 'step through the peeling');
  const button = (text: string, title: string) => Object.assign(document.createElement('button'), { type: 'button', textContent: text, title });
  const back = button('◀ back', 'One step back (←, with the graph focused)');
  const next = button('step ▶', 'One step on (→, with the graph focused)');
  const end = button('to the end', 'The last step (End)');
  const counter = document.createElement('span');
  bar.append(back, next, end, counter);
  const say = document.createElement('p');
  say.className = 'peel-say';
  say.setAttribute('aria-live', 'polite');
  const known = document.createElement('p');
  known.className = 'peel-known';
  const svgBox = document.createElement('div');
  svgBox.className = 'peel-graph';
  svgBox.tabIndex = 0;
  svgBox.setAttribute('aria-label', 'the decoder graph: codewords on the left with their degree, symbols on the right');
  root.append(title, bar, say, known, svgBox);
  if (!steps.length) {
    say.textContent = 'No codeword has reached this node yet.';
    return;
  }
  let at = 0;
  const draw = () => {
    const g = graphAt(steps, at);
    root.dataset.step = String(at);
    counter.textContent = `step ${at + 1} of ${steps.length}`;
    say.textContent = sayPeel(steps[at], txs);
    known.textContent = `known: ${g.known.length ? g.known.map((s) => symbolName(s, txs)).join(', ') : 'nothing yet'}`;
    const width = Math.max(300, Math.min(640, svgBox.clientWidth || 480));
    const rows = Math.max(g.codewords.length, g.symbols.length, 1);
    const height = rows * ROW + 20;
    const left = 90;
    const right = width - 90;
    const cy = new Map(g.codewords.map((c, i) => [c.cw, 20 + i * ROW]));
    const sy = new Map(g.symbols.map((s, i) => [s.key, 20 + i * ROW]));
    const svg = select(svgBox).selectAll('svg').data([0]).join('svg').attr('width', width).attr('height', height).attr('role', 'img');
    svg.selectAll('*').remove();
    svg
      .append('g')
      .selectAll('line')
      .data(g.edges)
      .join('line')
      .attr('x1', left + 40)
      .attr('y1', (e) => cy.get(e.cw) ?? 0)
      .attr('x2', right - 40)
      .attr('y2', (e) => sy.get(e.symbol) ?? 0)
      .attr('stroke', (e) => (e.peeled ? '#3a4656' : '#d8dee6'))
      .attr('stroke-dasharray', (e) => (e.peeled ? '4 3' : null))
      .attr('stroke-width', (e) => (e.cw === g.cw ? 2 : 1));
    // The short ID on each link, a third of the way from the codeword that names it.
    const along = (a: number, b: number) => a + (b - a) * 0.3;
    svg
      .append('g')
      .selectAll('text')
      .data(g.edges)
      .join('text')
      .attr('x', along(left + 40, right - 40))
      .attr('y', (e) => along(cy.get(e.cw) ?? 0, sy.get(e.symbol) ?? 0) - 3)
      .attr('class', 'peel-id')
      .text((e) => hex(e.id));
    const cwG = svg.append('g').selectAll('g').data(g.codewords).join('g').attr('transform', (c) => `translate(${left - 40}, ${(cy.get(c.cw) ?? 0) - 11})`);
    cwG
      .append('rect')
      .attr('width', 80)
      .attr('height', 22)
      .attr('rx', 3)
      .attr('fill', '#111821')
      .attr('stroke', (c) => STATE_COLOURS[c.state])
      .attr('stroke-width', (c) => (c.cw === g.cw ? 3 : 1.5));
    cwG
      .append('text')
      .attr('x', 40)
      .attr('y', 15)
      .attr('text-anchor', 'middle')
      .text((c) => `cw ${c.cw} · d ${c.degree}`);
    const symG = svg.append('g').selectAll('g').data(g.symbols).join('g').attr('transform', (s) => `translate(${right}, ${sy.get(s.key) ?? 0})`);
    symG
      .append('circle')
      .attr('r', 10)
      .attr('fill', (s) => (s.seq >= 0 ? '#009e73' : '#2e3845'))
      .attr('stroke', (s) => (s.key === g.symbol ? '#f0e442' : 'none'))
      .attr('stroke-width', 3);
    symG
      .append('text')
      .attr('x', 14)
      .attr('y', 4)
      .text((s) => (s.seq >= 0 ? symbolName(s.seq, txs) : `? ${hex(s.id)} (node ${s.from})`));
    back.disabled = at === 0;
    next.disabled = at === steps.length - 1;
  };
  const go = (i: number) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  back.addEventListener('click', () => go(at - 1));
  next.addEventListener('click', () => go(at + 1));
  end.addEventListener('click', () => go(steps.length - 1));
  svgBox.addEventListener('keydown', (event) => {
    const keys: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: steps.length - 1 };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  });
  draw();
}
