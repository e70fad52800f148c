// The colour legend: a gradient bar with an axis in milliseconds of simulated time (SVG, D3).
import { axisBottom, scaleLinear, select } from 'd3';
import type { Subscribable } from '../app/store';
import { arrivalColour } from './palette';

const WIDTH = 280;
const BAR = 12;

export function drawLegend(svg: SVGSVGElement, maxMs: number): void {
  const root = select(svg).attr('width', WIDTH + 20);
  root.selectAll('*').remove();
  const gradient = root.append('defs').append('linearGradient').attr('id', 'arrival-gradient');
  for (let k = 0; k <= 10; k += 1) {
    gradient.append('stop').attr('offset', `${k * 10}%`).attr('stop-color', arrivalColour(k / 10));
  }
  root.append('rect').attr('x', 8).attr('y', 4).attr('width', WIDTH).attr('height', BAR).attr('rx', 2).attr('fill', 'url(#arrival-gradient)');
  const scale = scaleLinear().domain([0, Math.max(maxMs, 1e-3)]).range([8, 8 + WIDTH]);
  root
    .append('g')
    .attr('transform', `translate(0, ${4 + BAR})`)
    .call(axisBottom(scale).ticks(5).tickSizeOuter(0).tickFormat((v) => `${v}`));
}

/** The page's legend, scaled to the picked tx's spread in the frame last drawn. */
export function mountLegend(store: Subscribable<{ frame: { spanUs: number } }>, svg: SVGSVGElement): void {
  store.subscribe(
    (s) => s.frame.spanUs,
    (spanUs) => drawLegend(svg, spanUs / 1000),
  );
}
