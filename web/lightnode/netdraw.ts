// Draws the live network with the simulator's renderer (web/canvas/render.ts), then names the nodes:
// the simulator's nodes are anonymous, here each is a real peer worth naming.
import { MARKS } from '../canvas/palette';
import { baseMapping, drawFrame, type FrameInput } from '../canvas/render';
import type { TxView } from '../sim/trace';
import type { LiveNet } from './netview';

const IDENTITY = { k: 1, x: 0, y: 0 };
/** Pixels between a node's centre and where its links are traced. */
const LINK_GAP = 10;

/** A view for when no tx is picked: nothing reached, no origin ring. */
function noTx(nodes: number): TxView {
  return {
    tx: 0,
    createdUs: Number.POSITIVE_INFINITY,
    origin: 0,
    arrivalUs: new Float64Array(nodes).fill(-1),
    times: new Float64Array(0),
    duplicates: new Float64Array(0),
    lastUs: 0,
  };
}

/** Arrival colours span the picked tx's spread, at least 50 ms so one arrival is not all "late". */
export function spanOf(view: TxView | null): number {
  if (!view || !Number.isFinite(view.createdUs)) return 1_000_000;
  return Math.max(50_000, view.lastUs - view.createdUs);
}

/** Draws the network at the current moment with tx `picked` coloured; returns what it drew. */
export function drawLiveNet(canvas: HTMLCanvasElement, net: LiveNet, picked: string | null): { spanUs: number; nodes: number; links: number; view: TxView | null } {
  const trace = net.trace();
  const view = (picked ? net.txView(picked) : null) ?? null;
  const spanUs = spanOf(view);
  // The renderer reads only the network and its sends from a trace: that is all a live one has.
  const frame: FrameInput = { trace: trace as FrameInput['trace'], positions: trace.positions, tx: view ?? noTx(trace.nodes), tUs: net.nowUs(), spanUs, transform: IDENTITY };
  drawFrame(canvas, frame);
  const drawn = { spanUs, nodes: trace.nodes, links: trace.edges.length / 2, view };
  const context = canvas.getContext('2d');
  if (!context) return drawn;
  const width = Math.max(1, canvas.clientWidth);
  const height = Math.max(1, canvas.clientHeight);
  const { cx, cy, scale } = baseMapping(width, height);
  // The simulator keeps links faint because it draws thousands; a live view has a handful, so
  // they are traced again, stopping short of the nodes so the arrival colours stay clear.
  context.strokeStyle = 'rgba(140, 160, 185, 0.35)';
  context.lineWidth = 1;
  context.beginPath();
  for (let e = 0; e + 1 < trace.edges.length; e += 2) {
    const [a, b] = [trace.edges[e], trace.edges[e + 1]];
    const ax = cx + trace.positions[2 * a] * scale;
    const ay = cy + trace.positions[2 * a + 1] * scale;
    const bx = cx + trace.positions[2 * b] * scale;
    const by = cy + trace.positions[2 * b + 1] * scale;
    const length = Math.hypot(bx - ax, by - ay);
    if (length < 2 * LINK_GAP) continue;
    const [ux, uy] = [(bx - ax) / length, (by - ay) / length];
    context.moveTo(ax + ux * LINK_GAP, ay + uy * LINK_GAP);
    context.lineTo(bx - ux * LINK_GAP, by - uy * LINK_GAP);
  }
  context.stroke();
  context.font = '11px system-ui, sans-serif';
  context.textBaseline = 'middle';
  net.peers.forEach((peer, i) => {
    const x = cx + trace.positions[2 * i] * scale;
    const y = cy + trace.positions[2 * i + 1] * scale;
    const name = i === 0 ? 'this page' : `${peer.role === 'other' ? 'peer' : peer.role} …${peer.id.slice(-6)}`;
    context.fillStyle = peer.hostile ? MARKS.adversary : peer.connected || i === 0 ? '#dde3ea' : '#7d8a99';
    // Labels sit outside the ring (and right of the centre node), away from the links.
    const right = i === 0 || x >= cx;
    context.textAlign = right ? 'left' : 'right';
    context.fillText(name + (peer.connected || i === 0 ? '' : ' (gone)'), x + (right ? 10 : -10), y);
  });
  return drawn;
}
