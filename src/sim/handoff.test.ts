import { describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, A_READ, dm, work } from './actions';
import { SprintEnv } from './env';
import { handTask } from './testing';

const step = (env: SprintEnv, actions: number[]) => env.step(Int32Array.from(actions));
const knows = (env: SprintEnv, i: number, k: number) => ((env.known[i] >>> k) & 1) === 1;

/** Module 0 (2 minutes of work) is the prerequisite of module 1. */
const chain = (handoff: boolean) => handTask([2, 2], [1, 1], [-1, 0], [], handoff);

describe('the handoff rule (Task.handoff)', () => {
  it('teaches a finished interface only to the agent whose minute finished it', () => {
    const env = new SprintEnv(1, 3);
    env.reset([chain(true)], 0, 20);
    step(env, [work(0), A_IDLE, A_IDLE]); // agent 0 does the first minute
    step(env, [A_IDLE, work(0), A_IDLE]); // agent 1 finishes it
    expect(env.done[0] & 1).toBe(1);
    expect([knows(env, 0, 0), knows(env, 1, 0), knows(env, 2, 0)]).toEqual([false, true, false]);
  });

  it('teaches nothing to a teammate who collided on the finishing minute', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([1], [1], [-1], [], true)], 0, 20);
    step(env, [work(0), work(0)]);
    expect(env.metric(0, 'duplicate')).toBe(1);
    expect([knows(env, 0, 0), knows(env, 1, 0)]).toEqual([true, false]);
  });

  it('without the rule, every agent who worked on the module learns it (the short families)', () => {
    const env = new SprintEnv(1, 3);
    env.reset([chain(false)], 0, 20);
    step(env, [work(0), A_IDLE, A_IDLE]);
    step(env, [A_IDLE, work(0), A_IDLE]);
    expect([knows(env, 0, 0), knows(env, 1, 0), knows(env, 2, 0)]).toEqual([true, true, false]);
  });

  it('lets the interface travel by a DM, unblocking the receiver, at a minute of the sender', () => {
    const env = new SprintEnv(1, 2);
    env.reset([chain(true)], 0, 20);
    step(env, [work(0), A_IDLE]);
    step(env, [work(0), A_IDLE]);
    step(env, [A_IDLE, work(1)]); // agent 1 lacks the interface: blocked, the minute is lost
    expect(env.metric(0, 'blocked')).toBe(1);
    step(env, [dm(1), A_IDLE]);
    expect(knows(env, 1, 0)).toBe(true);
    expect(env.metric(0, 'handoffs')).toBe(1);
    step(env, [A_IDLE, work(1)]);
    expect(env.metric(0, 'useful')).toBe(3);
  });

  it('lets the interface travel by the board: a post, then a read', () => {
    const env = new SprintEnv(1, 2);
    env.reset([chain(true)], 0, 20);
    step(env, [work(0), A_IDLE]);
    step(env, [work(0), A_READ]); // reads an empty board
    expect(env.metric(0, 'emptyReads')).toBe(1);
    step(env, [A_POST, A_IDLE]);
    expect(knows(env, 1, 0)).toBe(false);
    step(env, [A_IDLE, A_READ]);
    expect(knows(env, 1, 0)).toBe(true);
    expect(env.metric(0, 'handoffs')).toBe(1);
  });

  it('spreads no interface by working a module in turns: only the finisher knows it', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([4, 1], [1, 1], [-1, 0], [], true)], 0, 20);
    for (let t = 0; t < 4; t++) step(env, t % 2 ? [A_IDLE, work(0)] : [work(0), A_IDLE]);
    expect([knows(env, 0, 0), knows(env, 1, 0)]).toEqual([false, true]);
  });
});
