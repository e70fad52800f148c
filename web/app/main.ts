// The visualizer page: pick or edit a scenario, run 1 to 4 of its protocols in parallel workers,
// replay what happened on one shared clock, and show the report and the charts.
// This is its composition root: one store (state.ts) holds the page's state; the session runs the
// workers and puts what they compute in it; each view subscribes to the slice it draws and turns
// what the user does into updates; the frame loop draws the runs' canvases.
import { mountResultCharts } from '../charts/results';
import { mountChanges } from '../changes/view';
import { FrameLoop } from '../canvas/frames';
import { mountInspector } from '../canvas/inspector';
import { mountInspectForm } from '../canvas/inspect-form';
import { mountLegend } from '../canvas/legend';
import { mountMessageLegend } from '../canvas/message-legend';
import { mountLayoutPicker, mountPanels } from '../canvas/panels';
import { mountTransport } from '../playback/transport';
import { mountExports } from '../report/exports';
import { mountPhasesTable } from '../report/phases';
import { mountReportTable } from '../report/table';
import { ScenarioBar } from '../scenario/bar';
import { Session } from '../sim/session';
import { element } from './dom';
import { fillGlossary } from './glossary';
import { installHooks, pageMeasures } from './hooks';
import { mountShare } from './share-view';
import { createAppStore } from './state';
import { mountStatus } from './status';
import { openFromUrl } from './url';

const store = createAppStore();
const measures = pageMeasures();
const redraw = () => frames.request();
const session = new Session(store, { redraw, reduceMotion: window.matchMedia('(prefers-reduced-motion: reduce)').matches });
const frames = new FrameLoop(store, measures, (k, tx) => {
  session.askCensoring(k, tx);
  session.askFlights(k, tx);
  session.askHeld(k, tx);
});
const run = () => session.run();

const bar = new ScenarioBar(store, run);
mountStatus(store, element('app'));
mountPanels(store, element('panels'), redraw);
mountLayoutPicker(store, element('layout'));
mountTransport(store, { seekTo: (tUs) => session.seekTo(tUs), run });
mountChanges(store, session);
mountLegend(store, element('legend'));
mountMessageLegend(store, element('message-legend'));
mountInspector(store, element('inspector'), { peel: () => session.peelInspected() });
mountInspectForm(store, element('inspect-form'), (panel, node) => {
  session.addPicked([node], true);
  session.inspect(panel, node);
});
mountReportTable(store, element('metrics-table'));
mountPhasesTable(store, element('phases-table'));
mountResultCharts(store);
mountExports(store, (k) => session.allDuplicates(k));
mountShare(store);
fillGlossary(element('protocol-list'), element('metric-list'));
installHooks(store, session, measures);
openFromUrl(store, bar);
