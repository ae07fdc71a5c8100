import { describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, A_READ, claim, dm, NUM_ACTIONS, work } from './actions';
import { randomPolicy } from './baselines';
import { SprintEnv } from './env';
import { encodeMasks } from './observe';
import { generateTask } from './task';
import { handTask } from './testing';

function stepAll(env: SprintEnv, actions: number[]): void {
  env.step(Int32Array.from(actions));
}

describe('SprintEnv', () => {
  it('gives the same trajectory for the same seed and a different one for another seed', () => {
    const trace = (seed: number) => {
      const tasks = Array.from({ length: 4 }, (_, i) => generateTask('mixed', 10 + i));
      const env = new SprintEnv(4, 6);
      env.reset(tasks, seed, 20);
      const src = randomPolicy(seed);
      src.reset?.(env);
      const a = new Int32Array(24);
      const log: number[] = [];
      while (!env.isOver()) {
        src.act(env, a);
        env.step(a);
        log.push(...env.passing, ...env.known);
      }
      return log;
    };
    expect(trace(3)).toEqual(trace(3));
    expect(trace(3)).not.toEqual(trace(4));
  });

  it('keeps the anytime return in [0, 1] and never lets it fall', () => {
    const tasks = Array.from({ length: 16 }, (_, i) => generateTask(i % 2 ? 'coupled' : 'search', i));
    const env = new SprintEnv(16, 8);
    env.reset(tasks, 1, 40);
    const src = randomPolicy(1);
    src.reset?.(env);
    const a = new Int32Array(16 * 8);
    const prev = new Float64Array(16);
    let rose = false;
    while (!env.isOver()) {
      src.act(env, a);
      env.step(a);
      for (let b = 0; b < 16; b++) {
        const r = env.returnOf(b);
        expect(r).toBeGreaterThanOrEqual(prev[b]);
        expect(r).toBeLessThanOrEqual(1);
        if (r > prev[b]) rose = true;
        prev[b] = r;
      }
    }
    expect(rose).toBe(true);
  });

  it('gives partial credit as work completes and full credit at completion', () => {
    const env = new SprintEnv(1, 1);
    env.reset([handTask([4], [4], [-1])], 0, 10);
    const seen: number[] = [];
    for (let t = 0; t < 4; t++) {
      stepAll(env, [work(0)]);
      seen.push(env.passing[0]);
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(env.finished[0]).toBe(1);
    expect(env.tEnd[0]).toBe(4);
    expect(env.isOver()).toBe(true);
  });

  it('counts only one minute when two agents work on one module (a collision)', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([4], [4], [-1])], 0, 10);
    stepAll(env, [work(0), work(0)]);
    expect(env.left[0]).toBe(3);
    expect(env.metric(0, 'duplicate')).toBe(1);
    expect(env.metric(0, 'useful')).toBe(1);
    stepAll(env, [work(0), A_IDLE]);
    expect(env.left[0]).toBe(2);
  });

  it('wastes the minute of an agent working on a module it lacks the interface for', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([1, 3], [1, 1], [-1, 0])], 0, 10);
    stepAll(env, [work(0), work(1)]);
    expect(env.done[0]).toBe(1);
    expect(env.left[1]).toBe(3);
    expect(env.metric(0, 'blocked')).toBe(1);
    // the builder knows the interface and can go on; agent 1 still cannot
    stepAll(env, [work(1), work(1)]);
    expect(env.left[1]).toBe(2);
    expect(env.metric(0, 'blocked')).toBe(2);
  });

  it('plays only the first teamSize agents of a rollout when told: the others sit out every minute, and a reset without it plays all', () => {
    const env = new SprintEnv(2, 4);
    const tasks = [generateTask('long-coupled', 1), generateTask('long-coupled', 2)];
    env.teamSize = 2;
    env.reset(tasks, 0, 10);
    expect(Array.from(env.active)).toEqual([1, 1, 0, 0, 1, 1, 0, 0]);
    const mask = new Float32Array(8 * NUM_ACTIONS);
    encodeMasks(env, mask);
    const legal = (r: number) => Array.from(mask.subarray(r * NUM_ACTIONS, (r + 1) * NUM_ACTIONS)).flatMap((x, a) => (x > 0 ? [a] : []));
    expect(legal(2)).toEqual([A_IDLE]);
    expect(legal(7)).toEqual([A_IDLE]);
    expect(legal(0)).toContain(work(0));
    expect(legal(0)).not.toContain(dm(2)); // no DM to an agent that sits out
    expect(legal(0)).toContain(dm(1));
    // Told to work, the agents that sit out still do nothing: no work, no idle minute counted.
    env.step(Int32Array.from([work(0), work(1), work(2), work(3), work(0), work(1), work(2), work(3)]));
    expect(env.metric(0, 'useful') + env.metric(0, 'duplicate') + env.metric(0, 'blocked')).toBe(2);
    expect(env.metric(0, 'idle')).toBe(0);
    env.teamSize = 0;
    env.reset(tasks, 0, 10);
    expect(Array.from(env.active)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('hands every known interface over with a DM, at the cost of the sender minute', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([1, 2], [1, 1], [-1, 0])], 0, 10);
    stepAll(env, [work(0), A_IDLE]);
    stepAll(env, [dm(1), A_IDLE]);
    expect(env.metric(0, 'dms')).toBe(1);
    expect(env.metric(0, 'handoffs')).toBe(1);
    expect(env.left[1]).toBe(2); // the sender did not work this minute
    expect(env.known[1] & 1).toBe(1);
    stepAll(env, [A_IDLE, work(1)]);
    expect(env.left[1]).toBe(1);
  });

  it('lets the board carry interfaces: post costs the poster a minute, read the reader one', () => {
    const env = new SprintEnv(1, 3);
    env.reset([handTask([1, 5, 5], [1, 1, 1], [-1, 0, 0])], 0, 10);
    stepAll(env, [A_READ, A_IDLE, A_IDLE]);
    expect(env.metric(0, 'emptyReads')).toBe(1);
    stepAll(env, [work(0), A_IDLE, A_IDLE]);
    stepAll(env, [A_POST, A_READ, A_IDLE]); // a read in the same minute sees the board as it was
    expect(env.known[1] & 1).toBe(0);
    stepAll(env, [A_IDLE, A_READ, A_READ]);
    expect(env.known[1] & 1).toBe(1);
    expect(env.known[2] & 1).toBe(1);
    expect(env.metric(0, 'handoffs')).toBe(2);
  });

  it('gives a claim to the first claimant only', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([3, 3], [1, 1], [-1, -1])], 0, 10);
    stepAll(env, [claim(1), claim(1)]);
    expect(env.claim[1]).toBe(0);
    expect(env.metric(0, 'claims')).toBe(1);
    expect(env.metric(0, 'wasted')).toBe(1);
  });

  it('finishes a luck module only by luck, deterministically per seed', () => {
    const run = (seed: number) => {
      const env = new SprintEnv(1, 1);
      env.reset([handTask([1], [1], [-1], [0.3])], seed, 200);
      while (!env.isOver()) stepAll(env, [work(0)]);
      return env.tEnd[0];
    };
    const ends = [1, 2, 3, 4, 5, 6, 7, 8].map(run);
    expect(ends).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map(run));
    expect(new Set(ends).size).toBeGreaterThan(1);
  });

  it('logs the events of the chosen rollout only', () => {
    const env = new SprintEnv(2, 2);
    env.reset([handTask([1, 2], [1, 1], [-1, 0]), handTask([1, 2], [1, 1], [-1, 0])], 0, 5);
    env.logRollout = 1;
    env.step(Int32Array.from([work(0), work(1), work(0), work(1)]));
    env.step(Int32Array.from([A_IDLE, A_IDLE, dm(1), A_IDLE]));
    expect(env.events.map((e) => `${e.t}:${e.agent}:${e.kind}`)).toEqual(['0:1:blocked', '0:0:work', '0:0:complete', '1:1:idle', '1:0:dm']);
    expect(env.events[4].target).toBe(1);
    expect(env.events[4].useful).toBe(true);
  });

  it('cuts the episode at the deadline', () => {
    const env = new SprintEnv(1, 1);
    env.reset([handTask([10], [10], [-1])], 0, 3);
    let steps = 0;
    while (!env.isOver()) {
      stepAll(env, [work(0)]);
      steps++;
    }
    expect(steps).toBe(3);
    expect(env.returnOf(0)).toBeCloseTo(0.3);
  });
});
