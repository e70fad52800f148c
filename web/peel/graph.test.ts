// The peeling view's graph, built from a watched decoder in the engine (the WASM build, in
// Node): at every step, a waiting codeword's degree is the number of its links not peeled yet,
// and what the view calls known is what the decoder released or had.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../../scripts/lib/bootstrap.mjs';
import { initSync, PeelKind } from '../wasm/txcast_wasm.js';
import { peel } from '../../workers/lesson-run';
import { graphAt, readPeel, sayPeel, txOf } from './graph';

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

const lesson = JSON.parse(readFileSync('web/learn/lessons/07-strokkur.json', 'utf8'));

describe('the peeling view', () => {
  it("draws at every step what the decoder's steps say", () => {
    const data = peel(JSON.stringify(lesson.scenario), 2);
    const steps = readPeel(data);
    const txs = txOf(data);
    expect(steps.length).toBeGreaterThan(10);
    expect(steps.some((s) => s.kind === PeelKind.Released)).toBe(true);
    for (let at = 0; at < steps.length; at += 1) {
      const g = graphAt(steps, at);
      for (const c of g.codewords) {
        if (c.state !== 'waiting') continue;
        const open = g.edges.filter((e) => e.cw === c.cw && !e.peeled).length;
        expect(open, `step ${at}, codeword ${c.cw}`).toBe(c.degree);
      }
      const released = steps.slice(0, at + 1).filter((s) => s.kind === PeelKind.Released || s.kind === PeelKind.Known).map((s) => s.seq);
      expect(g.known).toEqual(released);
      expect(sayPeel(steps[at], txs).length).toBeGreaterThan(20);
    }
    // The node's own txs and the decoded ones are named.
    expect(txs.size).toBeGreaterThanOrEqual(3);
  });

  it('refuses a node that is not a Strokkur decoder', () => {
    const flood = JSON.parse(readFileSync('web/learn/lessons/01-flooding.json', 'utf8'));
    expect(() => peel(JSON.stringify(flood.scenario), 2)).toThrow(/no decoder/);
  });
});
