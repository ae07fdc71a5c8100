import { describe, expect, it } from 'vitest';
import { SprintEnv } from './env';
import { encodeObservations, G_MINUTES_LEFT, OBS_DIM } from './observe';
import { encodeObservationsReference } from './observeReference';
import { encodeSharedObservations, expandObservations, SHARED_WIDTH, SharedObservations } from './observeShared';
import { createStructure } from './presets';
import { FAMILIES, generateTask, type Task } from './task';
import { handTask, OBSERVATION_CASES, playMixedEpisode } from './testing';

describe('shared-block observations', () => {
  for (const { family, structure, agents, islands } of OBSERVATION_CASES) {
    it(`expand to the dense encoder's rows every minute (${family}, ${structure}, ${agents} agents)`, () => {
      const B = 6;
      const env = createStructure({ structure, budget: 40, islands: islands ?? 1 }, agents).createEnv(B);
      const tasks = Array.from({ length: env.B }, (_, b) => generateTask(family, 40 + b));
      const R = env.B * env.N;
      // Two minutes of slots: the encoder writes the second, the first must stay untouched.
      const store = new SharedObservations(2 * env.B, env.N);
      store.shared.fill(Number.NaN, 0, env.B * SHARED_WIDTH);
      const dense = new Float32Array(R * OBS_DIM);
      const ref = new Float32Array(R * OBS_DIM);
      const expanded = new Float32Array(R * OBS_DIM + 5).fill(Number.NaN);
      let changedMinutesLeft = false;
      const minutes = playMixedEpisode(env, tasks, 40, (minute) => {
        encodeObservations(env, dense);
        encodeObservationsReference(env, ref);
        encodeSharedObservations(env, store, env.B);
        expandObservations(store.view(env.B, env.B), expanded, 5);
        const first = dense.findIndex((x, k) => !Object.is(x, expanded[k + 5]));
        expect(first, `first difference at minute ${minute}`).toBe(-1);
        expect(dense.findIndex((x, k) => !Object.is(x, ref[k]))).toBe(-1);
        for (let r = 0; r < R; r++) if (dense[r * OBS_DIM + G_MINUTES_LEFT] !== Math.fround((env.tmax - env.t) / 30)) changedMinutesLeft = true;
      });
      expect(minutes).toBeGreaterThan(5);
      expect(Number.isNaN(expanded[4])).toBe(true); // nothing written before the offset
      expect(store.shared.subarray(0, env.B * SHARED_WIDTH).every(Number.isNaN)).toBe(true);
      // The CEO's rules shorten 'minutes left' to what the budget pays for: the hook was applied.
      expect(changedMinutesLeft).toBe(structure === 'ceo');
    });
  }

  it('reuses a slot that held a larger task: nothing of it shows', () => {
    const B = 4;
    const env = new SprintEnv(B, 5);
    const store = new SharedObservations(B, 5);
    const dense = new Float32Array(B * 5 * OBS_DIM);
    const expanded = new Float32Array(B * 5 * OBS_DIM);
    const big = Array.from({ length: B }, (_, b) => generateTask('long-mixed', b));
    const small = [handTask([1, 4], [1, 2], [-1, 0]), handTask([2], [1], [-1]), handTask([3, 1, 1], [2, 1, 1], [-1, 0, 0]), handTask([1], [1], [-1])];
    expect(Math.min(...big.map((t) => t.modules))).toBeGreaterThan(3);
    for (const tasks of [big, small]) {
      playMixedEpisode(env, tasks, 6, () => {
        encodeSharedObservations(env, store);
        expandObservations(store, expanded);
        encodeObservations(env, dense);
        expect(dense.findIndex((x, k) => !Object.is(x, expanded[k]))).toBe(-1);
      });
    }
  });

  it('follows an env through episodes of new tasks under every optional cost: the dense rows every minute', () => {
    // The encoder keeps per env what an episode fixes (tests, luck) and what the finished modules
    // fix (dependents); each reset must renew it. Merges leave fractional work, and a module
    // finished by a fractional minute has negative work left.
    const B = 8;
    const N = 5;
    const env = new SprintEnv(B, N);
    const store = new SharedObservations(B, N);
    const dense = new Float32Array(B * N * OBS_DIM);
    const expanded = new Float32Array(B * N * OBS_DIM);
    const costs = [
      { interrupt: false, conflict: false, broadcast: false, merge: true, mergeCost: 0.35 },
      { interrupt: true, conflict: true, broadcast: true, merge: true, mergeCost: 0.5, effort: 0.8 },
    ];
    let fractional = false;
    let negative = false;
    for (let episode = 0; episode < 4; episode++) {
      const tasks: Task[] = Array.from({ length: B }, (_, b) => ({
        ...generateTask(FAMILIES[(b + episode) % FAMILIES.length], 10 * episode + b),
        costs: costs[(b + episode) % costs.length],
      }));
      playMixedEpisode(env, tasks, 40, (minute) => {
        encodeSharedObservations(env, store);
        expandObservations(store, expanded);
        encodeObservations(env, dense);
        expect(
          dense.findIndex((x, k) => !Object.is(x, expanded[k])),
          `episode ${episode}, minute ${minute}`,
        ).toBe(-1);
        fractional ||= env.left.some((x) => x !== Math.round(x));
        negative ||= env.left.some((x) => x < 0);
      });
    }
    expect(fractional && negative).toBe(true);
  });

  it('keeps per agent only its own features, and checks its storage', () => {
    const env = new SprintEnv(2, 3);
    env.reset([handTask([1, 4, 2], [1, 2, 3], [-1, 0, -1]), handTask([2, 2], [1, 1], [-1, 0])], 0, 10);
    const store = new SharedObservations(2, 3);
    expect(store.bits.length).toBeLessThan(OBS_DIM / 4); // 6 agents: their own parts together take under a quarter of one dense row
    encodeSharedObservations(env, store);
    expect(() => encodeSharedObservations(env, store, 1)).toThrow(RangeError);
    expect(() => encodeSharedObservations(env, new SharedObservations(2, 4))).toThrow(RangeError);
    expect(() => store.view(1, 2)).toThrow(RangeError);
    env.rules = { kind: 'ceo', reset() {}, observe() {} };
    expect(() => encodeSharedObservations(env, store)).toThrow(/dense observations only/);
  });
});
