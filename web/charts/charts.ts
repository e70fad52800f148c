// The charts (SVG, D3): lines over a shared x axis and grouped bars, one colour per run.
import { axisBottom, axisLeft, line, max, scaleBand, scaleLinear, select } from 'd3';

export interface LineSeries {
  label: string;
  colour: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

export interface ChartFrame {
  width: number;
  height: number;
  xLabel: string;
  yLabel: string;
}

const MARGIN = { top: 10, right: 12, bottom: 34, left: 48 };

function frame(svg: SVGSVGElement, f: ChartFrame) {
  const root = select(svg)
    .attr('viewBox', `0 0 ${f.width} ${f.height}`)
    .attr('width', f.width)
    .attr('height', f.height)
    .attr('xmlns', 'http://www.w3.org/2000/svg');
  root.selectAll('*').remove();
  const inner = { width: f.width - MARGIN.left - MARGIN.right, height: f.height - MARGIN.top - MARGIN.bottom };
  const g = root.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('x', MARGIN.left + inner.width / 2)
    .attr('y', f.height - 4)
    .attr('text-anchor', 'middle')
    .text(f.xLabel);
  root
    .append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(12, ${MARGIN.top + inner.height / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text(f.yLabel);
  return { g, inner };
}

/** Points a line chart draws of a series at most: a few hundred is as fine as its pixels. */
export const CHART_POINTS = 400;

/** Keeps at most `limit` evenly spaced points (charts need no more than a few hundred). */
export function thin(n: number, limit: number): number[] {
  if (n <= limit) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  for (let k = 0; k < limit; k += 1) out.push(Math.round((k * (n - 1)) / (limit - 1)));
  return out;
}

/** A moment marked on a chart's time axis (a timed event). */
export interface Mark {
  x: number;
  label: string;
}

export function lineChart(svg: SVGSVGElement, f: ChartFrame, series: LineSeries[], options: { yMax?: number; cursorX?: number; marks?: Mark[] } = {}): void {
  const { g, inner } = frame(svg, f);
  const xMax = max(series, (s) => (s.x.length ? s.x[s.x.length - 1] : 0)) ?? 1;
  const yMax = options.yMax ?? (max(series, (s) => max(Array.from(s.y))) ?? 1);
  const x = scaleLinear().domain([0, xMax || 1]).range([0, inner.width]).nice();
  const y = scaleLinear().domain([0, yMax || 1]).range([inner.height, 0]).nice();
  // The last tick sits at the axis's end (a nice domain ends on a tick): its label ends at it.
  // Centred on it, its right half ran past the chart's edge and was cut off ("10,000").
  g.append('g')
    .attr('transform', `translate(0,${inner.height})`)
    .call(axisBottom(x).ticks(6))
    .call((axis) => axis.select('.tick:last-of-type text').attr('text-anchor', 'end'));
  g.append('g').call(axisLeft(y).ticks(5));
  for (const s of series) {
    const points = thin(s.x.length, CHART_POINTS);
    const d = line<number>()
      .x((i) => x(s.x[i]))
      .y((i) => y(s.y[i]))(points);
    g.append('path').attr('class', 'series').attr('fill', 'none').attr('stroke', s.colour).attr('stroke-width', 1.8).attr('d', d ?? '').append('title').text(s.label);
  }
  // Timed events: a dashed line at each, named on hover and by a short label.
  for (const m of options.marks ?? []) {
    if (!(m.x >= x.domain()[0] && m.x <= x.domain()[1])) continue;
    const mark = g.append('g').attr('class', 'event-mark').attr('transform', `translate(${x(m.x)},0)`);
    mark.append('line').attr('y1', 0).attr('y2', inner.height);
    mark.append('text').attr('y', 8).attr('x', 2).text(m.label);
    mark.append('title').text(`${m.label} at ${m.x} ms`);
  }
  if (options.cursorX !== undefined) {
    g.append('line')
      .attr('class', 'cursor')
      .attr('x1', x(options.cursorX))
      .attr('x2', x(options.cursorX))
      .attr('y1', 0)
      .attr('y2', inner.height);
  }
}

export interface BarGroup {
  label: string;
  colour: string;
  values: number[];
}

/** Grouped bars: one group per metric (`metrics`), one bar per run within it. */
export function barChart(svg: SVGSVGElement, f: ChartFrame, metrics: string[], groups: BarGroup[]): void {
  const { g, inner } = frame(svg, f);
  const outer = scaleBand().domain(metrics).range([0, inner.width]).padding(0.25);
  const innerBand = scaleBand()
    .domain(groups.map((_, i) => String(i)))
    .range([0, outer.bandwidth()])
    .padding(0.08);
  const yMax = max(groups.flatMap((gr) => gr.values.filter(Number.isFinite))) ?? 1;
  const y = scaleLinear().domain([0, yMax || 1]).range([inner.height, 0]).nice();
  g.append('g').attr('transform', `translate(0,${inner.height})`).call(axisBottom(outer));
  g.append('g').call(axisLeft(y).ticks(5));
  metrics.forEach((metric, m) => {
    groups.forEach((group, i) => {
      const v = Number.isFinite(group.values[m]) ? group.values[m] : 0;
      g.append('rect')
        .attr('class', 'bar')
        .attr('x', (outer(metric) ?? 0) + (innerBand(String(i)) ?? 0))
        .attr('width', innerBand.bandwidth())
        .attr('y', y(v))
        .attr('height', inner.height - y(v))
        .attr('fill', group.colour)
        .append('title')
        .text(`${group.label}: ${metric} ${v.toFixed(2)}`);
    });
  });
}
