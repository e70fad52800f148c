// The charts under the report, drawn once every run has reported: latency CDF, delivery over
// time and by creation time, duplicates and overhead, bandwidth, and the rate of any protocol
// counter picked. The time charts mark the scenario's timed events.
import { element } from '../app/dom';
import { counterNote } from '../app/core';
import type { AppState, AppStore } from '../app/state';
import { runColour } from '../canvas/palette';
import { deliveryByCreation, deliveryOverTime, latenciesMs } from '../sim/trace';
import { barChart, CHART_POINTS, lineChart, thin, type LineSeries, type Mark } from './charts';
import { orderStatistics } from './order-statistics';

const SIZE = { width: 460, height: 240 };

export function mountResultCharts(store: AppStore): void {
  const ui = {
    runLegend: element<HTMLElement>('run-legend'),
    latency: element<SVGSVGElement>('chart-latency'),
    delivery: element<SVGSVGElement>('chart-delivery'),
    reach: element<SVGSVGElement>('chart-reach'),
    bars: element<SVGSVGElement>('chart-bars'),
    bandwidth: element<SVGSVGElement>('chart-bandwidth'),
    counters: element<SVGSVGElement>('chart-counters'),
    counterPick: element<HTMLSelectElement>('counter-pick'),
  };

  /** The timed events of the first run (every run shares the scenario's, unless one brings its own). */
  const eventMarks = (s: AppState): Mark[] => {
    const first = s.panels.find((p) => p.trace)?.trace;
    return first ? first.markTimes.map((x, i) => ({ x, label: first.markKinds[i].replace(/_/g, ' ') })) : [];
  };

  /** The picked protocol counter's rate over time, one line per run that has it. */
  const renderCounterChart = () => {
    const name = ui.counterPick.value;
    lineChart(
      ui.counters,
      { ...SIZE, xLabel: 'simulated time (ms)', yLabel: name ? `${counterNote(name)?.unit ?? name} /s per node` : 'no counters' },
      store.get().panels.flatMap((p) => {
        const t = p.trace;
        const c = t ? t.counterNames.indexOf(name) : -1;
        if (!t || c < 0) return [];
        const bins = t.counterBins.length / Math.max(1, t.counterNames.length);
        const x = Float64Array.from({ length: bins }, (_, b) => ((b + 0.5) * t.binUs) / 1000);
        const y = Float64Array.from({ length: bins }, (_, b) => t.counterBins[c * bins + b] / t.nodes / (t.binUs / 1e6));
        return [{ label: p.label, colour: runColour(p.index), x, y }];
      }),
      { marks: eventMarks(store.get()) },
    );
  };

  const renderCharts = (s: AppState) => {
    const { panels, reports } = s;
    const done = panels.filter((p) => p.trace);
    const marks = eventMarks(s);
    ui.runLegend.replaceChildren(
      ...done.map((p) => {
        const li = document.createElement('li');
        const swatch = document.createElement('span');
        swatch.className = 'run-swatch';
        swatch.style.background = runColour(p.index);
        li.append(swatch, p.label);
        return li;
      }),
    );
    // One chart per task: together they would hold the main thread for longer than a frame should.
    const mine = s.generation;
    const steps: (() => void)[] = [];
    const later = (f: () => void) => steps.push(f);
    // Each run's latency CDF in a task of its own, as the points the chart draws: the latencies at
    // those ranks, not all of a big run's million sorted.
    const cdfs: LineSeries[] = [];
    for (const p of done) {
      later(() => {
        const latencies = latenciesMs(p.trace!);
        const kept = thin(latencies.length, CHART_POINTS);
        const x = orderStatistics(latencies, kept);
        const y = Float64Array.from(kept, (i) => (i + 1) / latencies.length);
        cdfs.push({ label: p.label, colour: runColour(p.index), x, y });
      });
    }
    later(() => lineChart(ui.latency, { ...SIZE, xLabel: 'latency (ms)', yLabel: 'share of arrivals' }, cdfs, { yMax: 1 }));
    later(() => lineChart(
      ui.delivery,
      { ...SIZE, xLabel: 'simulated time (ms)', yLabel: 'delivered share' },
      done.map((p) => {
        const { tMs, share } = deliveryOverTime(p.trace!, 200);
        return { label: p.label, colour: runColour(p.index), x: tMs, y: share };
      }),
      { yMax: 1, marks },
    ));
    later(() => lineChart(
      ui.reach,
      { ...SIZE, xLabel: 'tx created at (ms)', yLabel: 'share of nodes reached' },
      done.map((p) => {
        const { tMs, share } = deliveryByCreation(p.trace!, 250);
        return { label: p.label, colour: runColour(p.index), x: tMs, y: share };
      }),
      { yMax: 1, marks },
    ));
    later(() => barChart(
      ui.bars,
      { ...SIZE, xLabel: '', yLabel: 'per delivered tx / ratio' },
      ['duplicates per tx', 'overhead'],
      done.map((p, k) => {
        const r = reports[panels.indexOf(p)] ?? reports[k]!;
        return { label: p.label, colour: runColour(p.index), values: [r.summary.duplicates.mean ?? NaN, r.summary.overhead.mean ?? NaN] };
      }),
    ));
    later(() => lineChart(
      ui.bandwidth,
      { ...SIZE, xLabel: 'simulated time (ms)', yLabel: 'kB/s per node' },
      done.map((p) => {
        const t = p.trace!;
        const bins = t.bandwidth.length / 2;
        const x = Float64Array.from({ length: bins }, (_, b) => ((b + 0.5) * t.binUs) / 1000);
        const y = Float64Array.from({ length: bins }, (_, b) => (t.bandwidth[2 * b] + t.bandwidth[2 * b + 1]) / t.nodes / (t.binUs / 1e6) / 1000);
        return { label: p.label, colour: runColour(p.index), x, y };
      }),
      { marks },
    ));
    later(() => {
      const names = [...new Set(done.flatMap((p) => p.trace!.counterNames))].sort();
      const keep = ui.counterPick.value;
      ui.counterPick.replaceChildren(
        ...names.map((n) => {
          const option = new Option(n, n);
          option.title = counterNote(n)?.about ?? '';
          return option;
        }),
      );
      // Strokkur's first counter in codewords, if a Strokkur run is shown: its codeword flow.
      const codewords = names.find((n) => counterNote(n)?.unit === 'codewords');
      ui.counterPick.value = names.includes(keep) ? keep : (codewords ?? names[0] ?? '');
      renderCounterChart();
    });
    const next = () => {
      if (mine !== store.get().generation) return;
      steps.shift()?.();
      if (steps.length) setTimeout(next, 0);
      else store.update({ chartsDone: true });
    };
    store.update({ chartsDone: false });
    setTimeout(next, 0);
  };

  store.subscribe(
    (s) => s.reports,
    (reports, _previous, s) => {
      if (reports.length > 0 && reports.every((r) => r !== null)) renderCharts(s);
    },
  );
  ui.counterPick.addEventListener('change', renderCounterChart);
}
