// Each node's state at a simulated time as a run's timed events leave it: its behaviour (as the
// run's protocol takes it), whether it is away, which side of a partition it is on; and the
// network's loss and load. Read from the core's resolved changes (`RunEvents.changes`), so the
// page draws what the engine did. Moving forward applies the changes passed; moving back starts
// over (a frame moves forward almost always).
import { ChangeField, ChangeWhat } from '../wasm/txcast_wasm.js';

export interface NodeState {
  /** Index into the run's `behaviourNames`, per node. */
  behaviour: Uint8Array;
  away: Uint8Array;
  /** Partitions in force that cut the node off, one bit each: nodes whose values differ are cut apart. */
  side: Float64Array;
  /** The network's loss and load now (NaN while no event has set them). */
  loss: number;
  load: number;
}

export interface StatesSource {
  nodes: number;
  changes: Float64Array;
  /** Each node's behaviour at the start, by name. */
  behaviours: string[];
  behaviourNames: string[];
}

export class NodeStates {
  private state: NodeState;
  /** Rows applied so far, and the time they were applied up to. */
  private next = 0;
  private atUs = -1;

  /** When each behaviour change happens, in order. */
  private readonly behaviourTimes: Float64Array;

  constructor(private readonly source: StatesSource) {
    this.state = this.initial();
    const rows = source.changes;
    const times: number[] = [];
    for (let r = 0; r + ChangeField.Stride <= rows.length; r += ChangeField.Stride) {
      if (rows[r + ChangeField.What] === ChangeWhat.Behaviour) times.push(rows[r + ChangeField.Time]);
    }
    this.behaviourTimes = Float64Array.from(times);
  }

  private initial(): NodeState {
    const { nodes, behaviours, behaviourNames } = this.source;
    const behaviour = Uint8Array.from({ length: nodes }, (_, v) => Math.max(0, behaviourNames.indexOf(behaviours[v] ?? 'honest')));
    return { behaviour, away: new Uint8Array(nodes), side: new Float64Array(nodes), loss: NaN, load: NaN };
  }

  /** The state at `tUs` (changes at exactly `tUs` included). The object is reused: read it, do not keep it. */
  at(tUs: number): NodeState {
    if (tUs < this.atUs) {
      this.state = this.initial();
      this.next = 0;
    }
    const rows = this.source.changes;
    const s = this.state;
    for (; this.next + ChangeField.Stride <= rows.length; this.next += ChangeField.Stride) {
      const r = this.next;
      if (rows[r + ChangeField.Time] > tUs) break;
      const node = rows[r + ChangeField.Node];
      const value = rows[r + ChangeField.Value];
      switch (rows[r + ChangeField.What]) {
        case ChangeWhat.Behaviour:
          s.behaviour[node] = value;
          break;
        case ChangeWhat.Away:
          s.away[node] = value;
          break;
        case ChangeWhat.Side:
          s.side[node] = value;
          break;
        case ChangeWhat.Loss:
          s.loss = value;
          break;
        case ChangeWhat.Load:
          s.load = value;
          break;
      }
    }
    this.atUs = tUs;
    return s;
  }

  /** How many behaviour changes happened by `tUs` (what a node censors may differ from one to the next). */
  behaviourEpoch(tUs: number): number {
    const times = this.behaviourTimes;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= tUs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Each node's adversary behaviour over the run: the last one other than honest it took, or "honest". */
export function adversaryBehaviours(source: StatesSource): string[] {
  const out = Array.from({ length: source.nodes }, (_, v) => source.behaviours[v] ?? 'honest');
  const rows = source.changes;
  for (let r = 0; r + ChangeField.Stride <= rows.length; r += ChangeField.Stride) {
    if (rows[r + ChangeField.What] !== ChangeWhat.Behaviour) continue;
    const name = source.behaviourNames[rows[r + ChangeField.Value]];
    if (name && name !== 'honest') out[rows[r + ChangeField.Node]] = name;
  }
  return out;
}
