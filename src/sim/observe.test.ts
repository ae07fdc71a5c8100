import { describe, expect, it } from 'vitest';
import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, claim, NUM_ACTIONS, work } from './actions';
import { SprintEnv } from './env';
import { AGENT_DIM, AGENTS_OFFSET, encodeMasks, encodeObservations, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from './observe';
import { handTask } from './testing';

describe('observations and masks', () => {
  const setup = () => {
    const env = new SprintEnv(1, 3);
    env.reset([handTask([1, 4, 2], [1, 2, 3], [-1, 0, -1])], 0, 10);
    return env;
  };
  const mod = (obs: Float32Array, agent: number, k: number, f: number) => obs[agent * OBS_DIM + MODULES_OFFSET + k * MODULE_DIM + f];
  const other = (obs: Float32Array, agent: number, j: number, f: number) => obs[agent * OBS_DIM + AGENTS_OFFSET + j * AGENT_DIM + f];

  it('shows who is blocked on what, and whom a DM would unblock', () => {
    const env = setup();
    env.step(Int32Array.from([work(0), claim(1), A_IDLE]));
    const obs = new Float32Array(3 * OBS_DIM);
    encodeObservations(env, obs);
    expect(obs[0 * OBS_DIM + 0]).toBe(1); // own id
    expect(obs[1 * OBS_DIM + 1]).toBe(1);
    expect(mod(obs, 0, 0, 1)).toBe(1); // module 0 done
    expect(mod(obs, 0, 1, 4)).toBe(0); // agent 0 built module 0, so module 1 is open to it
    expect(mod(obs, 1, 1, 4)).toBe(1); // ... but blocked for agent 1
    expect(mod(obs, 1, 1, 6)).toBe(1); // claimed by agent 1
    expect(mod(obs, 0, 1, 7)).toBe(1); // claimed by another, seen from agent 0
    expect(other(obs, 0, 1, 2)).toBe(1); // agent 0 can unblock agent 1's claim
    expect(other(obs, 0, 2, 2)).toBe(0);
    expect(other(obs, 0, 0, 0)).toBe(0); // no DM to oneself
    expect(mod(obs, 1, 0, 12)).toBe(1); // agent 1 saw agent 0 work on module 0
    expect(mod(obs, 0, 0, 12)).toBe(0); // ... agent 0 saw nobody else there
    expect(obs.every(Number.isFinite)).toBe(true);
  });

  it('masks finished modules, taken claims and self-DMs; a finished rollout may only idle', () => {
    const env = setup();
    env.step(Int32Array.from([work(0), claim(1), A_IDLE]));
    const mask = new Float32Array(3 * NUM_ACTIONS);
    encodeMasks(env, mask);
    expect(mask[work(0)]).toBe(0);
    expect(mask[work(1)]).toBe(1); // blocked work is legal, it just wastes the minute
    expect(mask[A_CLAIM + 1]).toBe(0);
    expect(mask[A_CLAIM + 2]).toBe(1);
    expect(mask[A_DM + 0]).toBe(0);
    expect(mask[A_DM + 1]).toBe(1);
    expect(mask[work(5)]).toBe(0);
    expect(mask[A_POST] + mask[A_READ] + mask[A_IDLE]).toBe(3);
    env.finished[0] = 1;
    encodeMasks(env, mask);
    expect(Array.from(mask.subarray(0, NUM_ACTIONS)).reduce((a, b) => a + b)).toBe(1);
  });
});
