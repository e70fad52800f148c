// Every lesson file runs in the engine (the WASM build, in Node) and narrates every step: the
// network is small, the run has a readable number of steps, each line names the event's kind,
// sender and receiver, the stops it names happen, and the experiment's change is a valid scenario
// that moves its first measure the way the lesson says.
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { WASM_BINARY } from '../../scripts/lib/bootstrap.mjs';
import { check_scenario, initSync, StepInputKind } from '../wasm/txcast_wasm.js';
import { record } from '../../workers/lesson-run';
import { allLessons, changed, direction, measure } from './lessons';
import { narrate } from './narrate';
import { readSteps } from './steps';
import { stopAt } from './stops';

beforeAll(() => {
  initSync({ module: readFileSync(WASM_BINARY) });
});

const dir = 'web/learn/lessons';
const files = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))]));
const lessons = allLessons(files);

describe('lessons', () => {
  it('are read in order, one per file', () => {
    expect(lessons.length).toBe(Object.keys(files).length);
    expect(lessons.length).toBeGreaterThanOrEqual(8);
    expect(lessons.map((l) => l.order)).toEqual([...lessons.map((l) => l.order)].sort((a, b) => a - b));
  });

  for (const lesson of lessons) {
    it(`${lesson.id}: runs, and every step's narration names its kind, sender and receiver`, () => {
      const rec = record(JSON.stringify(lesson.scenario), 1n);
      const steps = readSteps(rec);
      expect(steps.length).toBeGreaterThan(20);
      expect(steps.length).toBeLessThan(1500);
      for (const step of steps) {
        const line = narrate(step);
        expect(line.to).toBe(step.node);
        expect(line.text).toContain(`node ${step.node}`);
        expect(line.text).toContain(line.kind);
        if (step.input === StepInputKind.Message) {
          expect(line.from).toBe(step.peer);
          expect(line.text).toContain(`from node ${step.peer}`);
          expect(line.kind).toBe(step.label);
        }
        for (const a of step.actions) if (a.peer >= 0 && a.label) expect(line.text).toContain(`${a.label}`);
      }
      // Every stop the lesson names happens in its run.
      for (const stop of lesson.steps) expect(stopAt(steps, stop, 0), `${lesson.id}: stop ${stop.kind}`).toBeGreaterThanOrEqual(0);
      // The experiment's scenario is one the engine takes.
      const variant = changed(lesson.scenario, lesson.experiment.change, lesson.experiment.change.to);
      expect(() => check_scenario(JSON.stringify(variant))).not.toThrow();
      const report = JSON.parse(rec.report);
      for (const m of lesson.experiment.compare) expect(Number.isFinite(measure(report, m)), `${lesson.id}: ${m.label}`).toBe(true);
      // The suggested change shows what the lesson teaches (a lesson whose network hid its point
      // once had IDONTWANT save nothing: no uplink was ever busy).
      const first = lesson.experiment.compare[0];
      const after = JSON.parse(record(JSON.stringify(variant), 1n).report);
      expect(direction(measure(report, first), measure(after, first)), `${lesson.id}: ${first.label} with the change`).toBe(lesson.experiment.shows);
    });
  }
});

describe('experiments', () => {
  it('compare by direction, within 5% as the same', () => {
    expect(direction(10, 20)).toBe('more');
    expect(direction(10, 5)).toBe('fewer');
    expect(direction(10, 10.3)).toBe('same');
  });
  it('change the setting and those that go with it, not the lesson', () => {
    const base = { protocols: [{ protocol: 'gossipsub', config: { d: 4 } }] };
    const out = changed(base, { path: ['protocols', 0, 'config', 'd'], label: 'd', to: 2, also: { d_lo: 1 } }, 2);
    expect(out).toEqual({ protocols: [{ protocol: 'gossipsub', config: { d: 2, d_lo: 1 } }] });
    expect(base.protocols[0].config).toEqual({ d: 4 });
  });
});
