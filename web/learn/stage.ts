// Draws a lesson's network at one step: nodes numbered, the ones holding the lesson's tx filled,
// the node that acts ringed, and every message in flight as an arrow from sender to receiver
// labelled with its type (the step's own messages drawn bold). A pure function of the step.
import { ActionKind, MessageClass, SendField } from '../wasm/txcast_wasm.js';
import type { LessonRecord } from '../../workers/lesson';
import type { Step } from './steps';
import { fitCanvas } from '../canvas/render';
import { drawnOn } from '../canvas/drawn';

export const CLASS_COLOURS: Record<MessageClass, string> = {
  [MessageClass.Payload]: '#e69f00',
  [MessageClass.Announcement]: '#009e73',
  [MessageClass.Request]: '#cc79a7',
  [MessageClass.Control]: '#56b4e9',
};
const BACKGROUND = '#111821';
const HAS = '#009e73';
const NODE = '#2e3845';
const ACTIVE = '#f0e442';
/** Messages in flight up to which every arrow is labelled. */
const MAX_LABELLED = 16;

export interface StageInput {
  record: Pick<LessonRecord, 'nodes' | 'edges' | 'positions' | 'sends' | 'kinds' | 'kindClasses' | 'txPlan'>;
  label: (kind: string) => string;
  /** The step shown, or null before the first. */
  step: Step | null;
  /** When each node first held the lesson's tx (us), -1 never. */
  holds: Float64Array;
  tx: number;
}

/** What was drawn, for the page's status and the tests. */
export interface StageStats {
  arrows: number;
  /** Arrows of messages still on their way (not the one the step handled). */
  inFlight: number;
}

export function drawStage(canvas: HTMLCanvasElement, input: StageInput): StageStats {
  const g = canvas.getContext('2d');
  if (!g) return { arrows: 0, inFlight: 0 };
  const { width, height } = fitCanvas(canvas, g);
  g.fillStyle = BACKGROUND;
  g.fillRect(0, 0, width, height);
  const { record, step } = input;
  const r = Math.max(8, Math.min(13, width / 36));
  const margin = r + 6;
  const x = (i: number) => margin + ((record.positions[2 * i] + 1) / 2) * (width - 2 * margin);
  const y = (i: number) => margin + ((record.positions[2 * i + 1] + 1) / 2) * (height - 2 * margin);
  const t = step?.tUs ?? 0;

  g.strokeStyle = 'rgba(140, 160, 185, 0.25)';
  g.lineWidth = 1;
  g.beginPath();
  for (let e = 0; e + 1 < record.edges.length; e += 2) {
    g.moveTo(x(record.edges[e]), y(record.edges[e]));
    g.lineTo(x(record.edges[e + 1]), y(record.edges[e + 1]));
  }
  g.stroke();

  // Messages in flight at this step's time, and the one it handled (arriving now). With many in
  // flight only the step's own are labelled: the labels would hide each other and the nodes.
  const { sends } = record;
  const flying: { o: number; handled: boolean; own: boolean }[] = [];
  for (let o = 0; step && o + SendField.Stride <= sends.length; o += SendField.Stride) {
    const sent = sends[o + SendField.Time];
    const arrive = sends[o + SendField.Arrive];
    const from = sends[o + SendField.From];
    const to = sends[o + SendField.To];
    if (sent > t) continue;
    const handled = arrive === t && to === step.node && from === step.peer;
    if ((arrive <= t || sends[o + SendField.Lost] !== 0) && !handled) continue;
    flying.push({ o, handled, own: handled || (sent === t && from === step.node) });
  }
  const labelAll = flying.length <= MAX_LABELLED;
  // Kept so that hovering an arrow (or `[` and `]`) can name its message.
  const drawn = drawnOn(canvas);
  drawn.clear();
  const perLink = new Map<string, number>();
  g.font = `${Math.round(r * 0.85)}px system-ui, sans-serif`;
  g.textBaseline = 'middle';
  for (const { o, own } of flying) {
    const sent = sends[o + SendField.Time];
    const arrive = sends[o + SendField.Arrive];
    const from = sends[o + SendField.From];
    const to = sends[o + SendField.To];
    const kind = sends[o + SendField.Kind];
    const colour = CLASS_COLOURS[record.kindClasses[kind]] ?? '#ffffff';
    const [x0, y0, x1, y1] = [x(from), y(from), x(to), y(to)];
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
    // Arrows on the same link side by side; each direction bends to its own side.
    const key = `${from}>${to}`;
    const nth = perLink.get(key) ?? 0;
    perLink.set(key, nth + 1);
    const side = 3 + 5 * nth;
    const [nx, ny] = [-uy * side, ux * side];
    const [ax, ay] = [x0 + ux * r + nx, y0 + uy * r + ny];
    const [bx, by] = [x1 - ux * (r + 2) + nx, y1 - uy * (r + 2) + ny];
    g.strokeStyle = colour;
    g.fillStyle = colour;
    g.globalAlpha = own ? 1 : 0.7;
    g.lineWidth = own ? 2.6 : 1.4;
    g.beginPath();
    g.moveTo(ax, ay);
    g.lineTo(bx, by);
    g.stroke();
    const head = 7;
    g.beginPath();
    g.moveTo(bx, by);
    g.lineTo(bx - ux * head - uy * head * 0.5, by - uy * head + ux * head * 0.5);
    g.lineTo(bx - ux * head + uy * head * 0.5, by - uy * head - ux * head * 0.5);
    g.closePath();
    g.fill();
    drawn.add(ax, ay, bx, by, sends, o);
    // Where the message is now.
    const progress = arrive > sent ? Math.min(1, (t - sent) / (arrive - sent)) : 1;
    g.beginPath();
    g.arc(ax + (bx - ax) * progress, ay + (by - ay) * progress, 3, 0, 2 * Math.PI);
    g.fill();
    if (labelAll || own) {
      const text = input.label(record.kinds[kind]);
      const [lx, ly] = [ax + (bx - ax) * 0.5 + nx * 1.5, ay + (by - ay) * 0.5 + ny * 1.5];
      const w = g.measureText(text).width;
      g.globalAlpha = 0.85;
      g.fillStyle = BACKGROUND;
      g.fillRect(lx - w / 2 - 2, ly - r * 0.55, w + 4, r * 1.1);
      g.globalAlpha = 1;
      g.fillStyle = colour;
      g.textAlign = 'center';
      g.fillText(text, lx, ly);
    }
  }
  const arrows = flying.length;
  g.globalAlpha = 1;

  // Nodes, numbered; filled once they hold the lesson's tx.
  const origin = input.tx * 2 + 1 < record.txPlan.length ? record.txPlan[2 * input.tx + 1] : -1;
  g.textAlign = 'center';
  g.font = `bold ${Math.round(r * 0.95)}px system-ui, sans-serif`;
  for (let i = 0; i < record.nodes; i += 1) {
    const holds = input.holds[i] >= 0 && input.holds[i] <= t && step !== null;
    g.beginPath();
    g.arc(x(i), y(i), r, 0, 2 * Math.PI);
    g.fillStyle = holds ? HAS : NODE;
    g.fill();
    if (i === origin) {
      g.strokeStyle = '#ffffff';
      g.lineWidth = 1.5;
      g.beginPath();
      g.arc(x(i), y(i), r + 3, 0, 2 * Math.PI);
      g.stroke();
    }
    if (step && i === step.node) {
      g.strokeStyle = ACTIVE;
      g.lineWidth = 3;
      g.beginPath();
      g.arc(x(i), y(i), r + 1.5, 0, 2 * Math.PI);
      g.stroke();
    }
    g.fillStyle = holds ? '#0b0f14' : '#d8dee6';
    g.fillText(String(i), x(i), y(i) + 0.5);
  }
  return { arrows, inFlight: flying.filter((f) => !f.handled).length };
}

/** When each node first held `tx` (us): from the steps' deliveries. */
export function holdTimes(steps: Step[], nodes: number, tx: number): Float64Array {
  const out = new Float64Array(nodes).fill(-1);
  for (const s of steps) for (const a of s.actions) if (a.act === ActionKind.Deliver && a.tx === tx && out[s.node] < 0) out[s.node] = s.tUs;
  return out;
}
