import { describe, expect, it } from 'vitest';
import { ChangeWhat } from '../wasm/txcast_wasm.js';
import { adversaryBehaviours, NodeStates } from './node-states';

describe("each node's state under timed events", () => {
  // Node 1 turns silent at 100 us and honest at 300; node 2 leaves at 200 and comes back at 400;
  // nodes 0 and 1 are cut off at 250; the loss goes to 0.1 at 50.
  const rows = [
    [50, -1, ChangeWhat.Loss, 0.1],
    [100, 1, ChangeWhat.Behaviour, 1],
    [200, 2, ChangeWhat.Away, 1],
    [250, 0, ChangeWhat.Side, 1],
    [250, 1, ChangeWhat.Side, 1],
    [300, 1, ChangeWhat.Behaviour, 0],
    [400, 2, ChangeWhat.Away, 0],
  ];
  const source = { nodes: 3, changes: Float64Array.from(rows.flat()), behaviours: ['honest', 'honest', 'honest'], behaviourNames: ['honest', 'silent'] };

  it('follows the changes forwards and backwards', () => {
    const states = new NodeStates(source);
    const at = (t: number) => {
      const s = states.at(t);
      return { behaviour: Array.from(s.behaviour), away: Array.from(s.away), side: Array.from(s.side), loss: s.loss };
    };
    expect(at(0)).toEqual({ behaviour: [0, 0, 0], away: [0, 0, 0], side: [0, 0, 0], loss: NaN });
    expect(at(250)).toEqual({ behaviour: [0, 1, 0], away: [0, 0, 1], side: [1, 1, 0], loss: 0.1 });
    expect(at(1000)).toEqual({ behaviour: [0, 0, 0], away: [0, 0, 0], side: [1, 1, 0], loss: 0.1 });
    // Back in time: it starts over.
    expect(at(150).behaviour).toEqual([0, 1, 0]);
    expect(states.behaviourEpoch(99)).toBe(0);
    expect(states.behaviourEpoch(100)).toBe(1);
    expect(states.behaviourEpoch(1000)).toBe(2);
  });

  it('names the adversary behaviour each node takes during the run', () => {
    expect(adversaryBehaviours(source)).toEqual(['honest', 'silent', 'honest']);
  });
});
