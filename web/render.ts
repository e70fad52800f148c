// Draws a run on a 2D canvas at one instant of simulated time. Display state is a pure
// function of (scene, now): replaying or resizing just draws again.
import type { RunResult } from '../workers/protocol';
import { arrivalColour, arrivalFraction, BACKGROUND, edgeColour, UNREACHED } from './palette';

export interface Scene {
  nodes: number;
  origin: number;
  edges: Uint32Array;
  positions: Float32Array;
  arrivalUs: Float64Array;
  maxUs: number;
  colours: string[];
  /** Node indices by arrival time, unreached last, so later arrivals paint over earlier ones. */
  order: Uint32Array;
}

export function makeScene(result: RunResult, maxUs: number): Scene {
  const { nodes, arrivalUs } = result;
  const colours = Array.from(arrivalUs, (t) => (t >= 0 ? arrivalColour(arrivalFraction(t, maxUs)) : UNREACHED));
  const key = (i: number) => (arrivalUs[i] >= 0 ? arrivalUs[i] : Infinity);
  const order = Uint32Array.from({ length: nodes }, (_, i) => i).sort((a, b) => key(a) - key(b) || a - b);
  return { nodes, origin: result.origin, edges: result.edges, positions: result.positions, arrivalUs, maxUs, colours, order };
}

/** Matches the canvas backing store to its CSS size; returns the CSS size. */
function fitCanvas(canvas: HTMLCanvasElement, context: CanvasRenderingContext2D): { width: number; height: number } {
  const width = Math.max(1, canvas.clientWidth);
  const height = Math.max(1, canvas.clientHeight);
  const ratio = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { width, height };
}

export function drawScene(canvas: HTMLCanvasElement, scene: Scene | null, nowUs: number): void {
  const context = canvas.getContext('2d');
  if (!context) return;
  const { width, height } = fitCanvas(canvas, context);
  context.fillStyle = BACKGROUND;
  context.fillRect(0, 0, width, height);
  if (!scene) return;

  const margin = 18;
  const scale = Math.max(10, Math.min(width, height) / 2 - margin);
  const cx = width / 2;
  const cy = height / 2;
  const { positions } = scene;
  const x = (i: number) => cx + positions[2 * i] * scale;
  const y = (i: number) => cy + positions[2 * i + 1] * scale;
  const radius = Math.min(5, Math.max(1.6, (0.16 * 2 * scale) / Math.sqrt(scene.nodes)));

  context.strokeStyle = edgeColour(scene.edges.length / 2);
  context.lineWidth = 1;
  context.beginPath();
  for (let e = 0; e + 1 < scene.edges.length; e += 2) {
    context.moveTo(x(scene.edges[e]), y(scene.edges[e]));
    context.lineTo(x(scene.edges[e + 1]), y(scene.edges[e + 1]));
  }
  context.stroke();

  // A node that the tx reached within the last few percent of the run gets a fading halo: the front.
  const flashUs = Math.max(1, scene.maxUs * 0.06);
  for (const i of scene.order) {
    const t = scene.arrivalUs[i];
    const reached = t >= 0 && t <= nowUs;
    const age = nowUs - t;
    if (reached && age < flashUs) {
      context.globalAlpha = 0.35 * (1 - age / flashUs);
      context.fillStyle = scene.colours[i];
      context.beginPath();
      context.arc(x(i), y(i), radius * 2.6, 0, 2 * Math.PI);
      context.fill();
      context.globalAlpha = 1;
    }
    context.fillStyle = reached ? scene.colours[i] : UNREACHED;
    context.beginPath();
    context.arc(x(i), y(i), radius, 0, 2 * Math.PI);
    context.fill();
  }

  context.strokeStyle = '#ffffff';
  context.lineWidth = 1.5;
  context.beginPath();
  context.arc(x(scene.origin), y(scene.origin), radius + 3.5, 0, 2 * Math.PI);
  context.stroke();
}
