// The simulator's charts (web/charts/charts.ts, one colour per protocol as it has one per run), fed
// from what the light node measured: the latency CDF of the txs that carry their submit time
// (generated ones, on every protocol), duplicates per tx and download overhead, and bytes over time.
import { barChart, lineChart } from '../charts/charts';
import { runColour } from '../canvas/palette';
import type { ArrivalRow, ProtocolName } from './arrivals';

export const PROTOCOLS: ProtocolName[] = ['gossipsub', 'cat', 'strokkur'];
const SIZE = { width: 340, height: 200 };

export const colourOf = (protocol: ProtocolName) => runColour(PROTOCOLS.indexOf(protocol));

/** Latencies (ms) of txs received from others whose submit time is known, sorted. */
export function latencies(rows: ArrivalRow[], protocol: ProtocolName): number[] {
  return rows
    .filter((r) => r.protocol === protocol && !r.own && r.latencyMs !== undefined && Number.isFinite(r.latencyMs))
    .map((r) => Math.max(0, r.latencyMs!))
    .sort((a, b) => a - b);
}

/** Mean duplicates per tx received from others (NaN when none arrived). */
export function duplicatesPerTx(rows: ArrivalRow[], protocol: ProtocolName): number {
  const got = rows.filter((r) => r.protocol === protocol && !r.own);
  return got.length ? got.reduce((sum, r) => sum + r.duplicates, 0) / got.length : Number.NaN;
}

export function drawLatency(svg: SVGSVGElement, rows: ArrivalRow[]): string {
  const series = PROTOCOLS.flatMap((protocol) => {
    const x = latencies(rows, protocol);
    return x.length ? [{ label: protocol, colour: colourOf(protocol), x, y: x.map((_, i) => (i + 1) / x.length) }] : [];
  });
  lineChart(svg, { ...SIZE, xLabel: 'latency (ms)', yLabel: 'share of arrivals' }, series, { yMax: 1 });
  return series.map((s) => `${s.label}:${s.x.length}`).join(' ');
}

/** Duplicates per delivered tx and download overhead (bytes received per byte of new tx), per protocol. */
export function drawDuplicates(svg: SVGSVGElement, rows: ArrivalRow[], overhead: Record<ProtocolName, number>): void {
  barChart(
    svg,
    { ...SIZE, xLabel: '', yLabel: 'per delivered tx / ratio' },
    ['duplicates per tx', 'overhead'],
    PROTOCOLS.map((protocol) => ({ label: protocol, colour: colourOf(protocol), values: [duplicatesPerTx(rows, protocol), overhead[protocol]] })),
  );
}

/** Bytes in and out per second for each protocol: bins[protocol][second] = bytes. */
export function drawBytes(svg: SVGSVGElement, bins: Record<ProtocolName, number[]>): void {
  const series = PROTOCOLS.map((protocol) => {
    const y = bins[protocol].map((b) => b / 1000);
    return { label: protocol, colour: colourOf(protocol), x: y.map((_, s) => s + 0.5), y };
  });
  lineChart(svg, { ...SIZE, xLabel: 's since start', yLabel: 'kB/s (in + out)' }, series);
}
