import { describe, expect, it } from 'vitest';
import { A_DM, A_IDLE, claim, dm, NUM_ACTIONS, work } from './actions';
import { randomPolicy } from './baselines';
import { CeoRules, scriptedCeo } from './ceo';
import { mean, runEpisodes } from './evaluate';
import { encodeMasks, encodeObservations, G_MINUTES_LEFT, OBS_DIM } from './observe';
import { createStructure } from './presets';
import { mixSeed, nextFloat } from './rng';
import { generateTask } from './task';
import { handTask } from './testing';

const ceo = (budget: number) => ({ structure: 'ceo' as const, budget, islands: 1 });

function ceoEnv(agents: number, budget: number, tasks = [handTask([6, 6, 6], [2, 2, 2], [-1, -1, -1])], tmax = 30) {
  const env = createStructure(ceo(budget), agents).createEnv(tasks.length);
  env.reset(tasks, 0, tmax);
  return { env, rules: env.rules as CeoRules };
}

describe('CEO structure', () => {
  it('starts with agent 0 alone; only agent 0 may hire, the others may only idle', () => {
    const { env } = ceoEnv(3, 100);
    expect(Array.from(env.active)).toEqual([1, 0, 0]);
    const mask = new Float32Array(3 * NUM_ACTIONS);
    encodeMasks(env, mask);
    expect(mask[A_DM + 1]).toBe(1);
    expect(mask[A_DM + 2]).toBe(1);
    expect(mask[A_DM + 0]).toBe(0);
    for (const i of [1, 2]) expect(Array.from(mask.subarray(i * NUM_ACTIONS, (i + 1) * NUM_ACTIONS)).reduce((a, b) => a + b)).toBe(1);
  });

  it('hires and fires with its DMs, from the next minute on, and logs hire and fire', () => {
    const { env, rules } = ceoEnv(3, 100);
    env.logRollout = 0;
    env.step(Int32Array.from([dm(1), work(0), work(0)]));
    expect(env.left[0]).toBe(6); // nobody worked: agent 0 hired, the others were not yet active
    expect(Array.from(env.active)).toEqual([1, 1, 0]);
    expect(rules.spent[0]).toBe(1);
    env.step(Int32Array.from([work(0), claim(1), work(2)]));
    expect(rules.spent[0]).toBe(3);
    expect(env.claim[1]).toBe(1);
    env.step(Int32Array.from([dm(1), work(1), A_IDLE]));
    expect(env.left[1]).toBe(5); // a fired agent still acts in the minute it is fired
    expect(Array.from(env.active)).toEqual([1, 0, 0]);
    expect(env.claim[1]).toBe(-1); // its claim is released
    env.step(Int32Array.from([A_IDLE, work(1), A_IDLE]));
    expect(env.left[1]).toBe(5);
    expect(env.events.filter((e) => e.kind === 'hire' || e.kind === 'fire').map((e) => `${e.t}:${e.kind}>${e.target}`)).toEqual(['0:hire>1', '2:fire>1']);
    expect(rules.hires[0]).toBe(1);
    expect(rules.fires[0]).toBe(1);
    expect(rules.headCurve()).toEqual([1, 2, 2, 1]);
  });

  it('allows a hire only if the budget pays this minute and one more of the larger team', () => {
    // budget 7: minute 0 costs 1; a hire needs 7 - 0 - 1 >= 2.
    const { env, rules } = ceoEnv(4, 7);
    const mask = new Float32Array(4 * NUM_ACTIONS);
    env.step(Int32Array.from([dm(1), 0, 0, 0])); // spent 1, head 2
    expect(rules.canHire(env, 0)).toBe(true); // 7 - 1 - 2 = 4 >= 3
    env.step(Int32Array.from([dm(2), A_IDLE, 0, 0])); // spent 3, head 3
    expect(rules.canHire(env, 0)).toBe(false); // 7 - 3 - 3 = 1 < 4
    encodeMasks(env, mask);
    expect(mask[A_DM + 3]).toBe(0);
    expect(mask[A_DM + 1]).toBe(1); // firing stays legal
    env.step(Int32Array.from([dm(3), A_IDLE, A_IDLE, 0])); // an unaffordable hire is a wasted DM
    expect(env.active[3]).toBe(0);
    expect(env.metric(0, 'selfDms')).toBe(1);
    expect(rules.spent[0]).toBe(6);
    // 7 - 6 = 1 < 3 active: the budget is spent, the rollout ends here
    expect(env.finished[0]).toBe(1);
    expect(env.tEnd[0]).toBe(3);
    expect(env.isOver()).toBe(true);
  });

  it('never spends more than the budget, whatever the agents do', () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask('coupled', i));
    for (const budget of [1, 5, 17, 60]) {
      const { env, rules } = ceoEnv(6, budget, tasks, 40);
      const rng = Uint32Array.of(mixSeed(budget, 1));
      const actions = new Int32Array(env.B * env.N);
      while (!env.isOver()) {
        // raw random actions, masks ignored
        for (let r = 0; r < actions.length; r++) actions[r] = Math.floor(nextFloat(rng, 0) * NUM_ACTIONS);
        env.step(actions);
        for (let b = 0; b < env.B; b++) {
          expect(rules.spent[b]).toBeLessThanOrEqual(budget);
          let head = 0;
          for (let i = 0; i < env.N; i++) head += env.active[b * env.N + i];
          expect(head).toBe(rules.head[b]);
          expect(env.active[b * env.N]).toBe(1);
        }
      }
      for (let b = 0; b < env.B; b++) {
        // ended by the deadline, by finishing, or because the rest cannot pay a minute of the team
        if (env.tEnd[b] < env.tmax && env.returnOf(b) < 1) expect(budget - rules.spent[b]).toBeLessThan(rules.head[b]);
        expect(rules.headMinutes[b]).toBe(rules.spent[b]);
      }
    }
  });

  it('shows the minutes the budget still pays for as the minutes left', () => {
    const { env } = ceoEnv(3, 12, undefined, 30);
    env.step(Int32Array.from([dm(1), 0, 0])); // spent 1, head 2: 11 / 2 = 5 minutes
    const obs = new Float32Array(3 * OBS_DIM);
    encodeObservations(env, obs);
    expect(obs[G_MINUTES_LEFT]).toBeCloseTo(5 / 30);
    expect(obs[OBS_DIM + G_MINUTES_LEFT]).toBeCloseTo(5 / 30);
  });

  it('a random CEO respects the budget; the scripted CEO hires what the budget sustains and does well', async () => {
    const tasks = Array.from({ length: 8 }, (_, i) => generateTask('coupled', 1_000_000_000 + i));
    const random = await runEpisodes(randomPolicy(3), tasks, 8, 1, 24, 0, ceo(60));
    for (const s of random.structure ?? []) expect(s.budgetSpent).toBeLessThanOrEqual(60);
    const small = await runEpisodes(scriptedCeo, tasks, 8, 1, 24, 0, ceo(60));
    const large = await runEpisodes(scriptedCeo, tasks, 8, 1, 24, 0, ceo(400));
    expect(mean(small.structure!.map((s) => s.headCount))).toBeLessThan(mean(large.structure!.map((s) => s.headCount)));
    expect(mean(large.stats.map((s) => s.ret))).toBeGreaterThan(mean(random.stats.map((s) => s.ret)) + 0.3);
    expect(large.events.some((e) => e.kind === 'hire')).toBe(true);
    expect(large.events.some((e) => e.agent === 0 && e.kind === 'dm')).toBe(false);
    expect(large.events.filter((e) => e.kind === 'fire')).toEqual([]);
  });
});
