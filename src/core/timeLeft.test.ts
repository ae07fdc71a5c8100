import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { deadlineAt } from '../rl/deadline';
import { fitCost, TimeLeftModel, updateWork, workBetween, type WorkSettings } from './timeLeft';

/** The default run: 8 agents, 2 x 16 rollouts, deadline 20 -> 72 minutes over 450 updates. */
const c: WorkSettings = defaultConfig();

/** A run whose update u takes exactly a + b * work(u) seconds, observed one update at a time from a clock in ms. */
function simulate(model: TimeLeftModel, a: number, b: number, upTo: number, settings: WorkSettings = c): number {
  let t = 0;
  model.start(t, 0);
  for (let u = 0; u < upTo; u++) {
    t += 1000 * (a + b * updateWork(settings, u));
    model.observe(t, u + 1, settings);
  }
  return t;
}

describe('the work of an update', () => {
  it('is agents x deadline x rollouts, growing with the schedule', () => {
    expect(updateWork(c, 0)).toBe(8 * 20 * 32);
    expect(updateWork(c, c.updates - 1)).toBe(8 * c.tmaxEnd * 32);
    expect(workBetween(c, 0, 2)).toBe(updateWork(c, 0) + updateWork(c, 1));
    expect(workBetween(c, 5, 5)).toBe(0);
  });

  it('counts the agents that play the update while the team schedule grows the team', () => {
    const grows: WorkSettings = { ...c, teamStart: 3, teamRamp: 150 };
    expect(updateWork(grows, 0)).toBe(3 * 20 * 32);
    expect(updateWork(grows, 30)).toBe(4 * deadlineAt(grows, 30) * 32);
    expect(updateWork(grows, 150)).toBe(updateWork(c, 150));
  });
});

describe('fitCost', () => {
  it('recovers a fixed cost and a cost per agent-minute from exact spans', () => {
    const spans = [20, 30, 40, 60, 80].map((tmax) => ({ updates: 1, work: tmax * 256, seconds: 0.05 + 2e-5 * tmax * 256 }));
    const f = fitCost(spans, { shrink: 0 })!;
    expect(f.perUpdate).toBeCloseTo(0.05, 6);
    expect(f.perWork).toBeCloseTo(2e-5, 9);
  });

  it('never fits a negative cost: a fixed cost below 0 falls back to a cost proportional to the work', () => {
    const spans = [20, 40, 80].map((tmax) => ({ updates: 1, work: tmax, seconds: tmax * 0.01 - 0.1 }));
    const f = fitCost(spans, { shrink: 0 })!;
    expect(f.perUpdate).toBe(0);
    expect(f.perWork).toBeGreaterThan(0);
  });

  it('says nothing without work', () => {
    expect(fitCost([])).toBeNull();
    expect(fitCost([{ updates: 1, work: 0, seconds: 1 }])).toBeNull();
  });
});

describe('TimeLeftModel', () => {
  it('after 10% of a default run predicts the rest of a cost that grows with the deadline, where the current rate would not', () => {
    const a = 0.02;
    const b = 4e-5;
    const model = new TimeLeftModel();
    const t = simulate(model, a, b, 30);
    let rest = 0;
    for (let u = 30; u < 300; u++) rest += a + b * updateWork(c, u);
    // The pull of the fixed cost towards 0 errs on the long side, by a few per cent here.
    const left = model.secondsLeft(t, 300, c)!;
    expect(left / rest).toBeGreaterThan(0.99);
    expect(left / rest).toBeLessThan(1.06);
    const exact = new TimeLeftModel({ shrink: 0 });
    expect(exact.secondsLeft(simulate(exact, a, b, 30), 300, c)! / rest).toBeCloseTo(1, 6);
    // What "the current rate" says (the last 10 updates' rate times the updates left) is far too little.
    let last10 = 0;
    for (let u = 20; u < 30; u++) last10 += a + b * updateWork(c, u);
    expect(((300 - 30) * last10) / 10 / rest).toBeLessThan(0.75);
  });

  it('counts down while an update is under way, and says 0 when done', () => {
    const model = new TimeLeftModel();
    const t = simulate(model, 0, 1e-4, 20);
    const now = model.secondsLeft(t, 300, c)!;
    expect(model.secondsLeft(t + 2000, 300, c)!).toBeCloseTo(now - 2, 6);
    const done = new TimeLeftModel();
    const end = simulate(done, 0, 1e-4, 300);
    expect(done.secondsLeft(end, 300, c)).toBe(0);
  });

  it('says nothing before it has measured, nor while paused, and does not count the first stretch after a start', () => {
    const model = new TimeLeftModel();
    expect(model.secondsLeft(0, 300, c)).toBeNull();
    model.start(0, 0);
    // The first update carries the start-up: 60 s. It must not count.
    model.observe(60_000, 1, c);
    let t = 60_000;
    expect(model.secondsLeft(t, 300, c)).toBeNull();
    for (let u = 1; u < 4; u++) model.observe((t += 1000 * 1e-4 * updateWork(c, u)), u + 1, c);
    const left = model.secondsLeft(t, 300, c)!;
    expect(left).toBeCloseTo(1e-4 * workBetween(c, 4, 300), 3);
    // Under a second of measurement says nothing yet.
    const quick = new TimeLeftModel();
    quick.start(0, 0);
    quick.observe(10, 1, c);
    quick.observe(20, 2, c);
    expect(quick.secondsLeft(20, 300, c)).toBeNull();
    model.pause();
    expect(model.secondsLeft(t, 300, c)).toBeNull();
    // The paused time is not measured: after a minute's pause the estimate is what it was.
    model.start(t + 60_000, 4);
    model.observe(t + 60_000 + 1000 * 1e-4 * updateWork(c, 4), 5, c);
    model.observe(t + 60_000 + 1000 * 1e-4 * workBetween(c, 4, 6), 6, c);
    expect(model.secondsLeft(t + 60_000 + 1000 * 1e-4 * workBetween(c, 4, 6), 300, c)!).toBeCloseTo(1e-4 * workBetween(c, 6, 300), 3);
  });

  it('follows a change of schedule: the updates to come are summed under the settings of now', () => {
    const model = new TimeLeftModel();
    const t = simulate(model, 0, 1e-4, 30);
    const longer = { ...c, tmaxEnd: 160 };
    expect(model.secondsLeft(t, 300, longer)!).toBeGreaterThan(1.5 * model.secondsLeft(t, 300, c)!);
  });

  it('starts over when the count goes back (a reset)', () => {
    const model = new TimeLeftModel();
    const t = simulate(model, 0, 1e-3, 30);
    model.observe(t + 10, 0, c);
    expect(model.secondsLeft(t + 10, 300, c)).toBeNull();
    // Or when training starts again from fewer updates than it paused at.
    const paused = new TimeLeftModel();
    const t2 = simulate(paused, 0, 1e-3, 30);
    paused.pause();
    paused.start(t2, 0);
    paused.observe(t2 + 1000, 1, c);
    expect(paused.secondsLeft(t2 + 1000, 300, c)).toBeNull();
  });
});
