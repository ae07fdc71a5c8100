import { describe, expect, it } from 'vitest';
import { decisionAdvantages, gae, groupAdvantages, latencyPenalised, type AdvantageBatch, type AdvantageRule, type Teams } from './advantages';

/** Asserts that `a` holds exactly the numbers `b` (to 5 decimals): a result shorter or longer than the expectation fails. */
function close(a: Float32Array, b: number[]): void {
  expect(a.length).toBe(b.length);
  b.forEach((x, i) => expect(a[i]).toBeCloseTo(x, 5));
}

describe('the comparison helper', () => {
  it('fails on a result shorter or longer than the expectation, or a different number', () => {
    expect(() => close(new Float32Array(0), [1])).toThrow();
    expect(() => close(Float32Array.from([1, 2]), [1])).toThrow();
    expect(() => close(Float32Array.from([1.1]), [1])).toThrow();
    expect(() => close(Float32Array.from([1]), [1])).not.toThrow();
  });
});

describe('group advantages', () => {
  const R = [0.2, 0.4, 0.6, 0.8, 1, 1, 1, 1];
  it('dr-grpo subtracts the group mean', () => close(groupAdvantages(R, 4, 'dr-grpo'), [-0.3, -0.1, 0.1, 0.3, 0, 0, 0, 0]));
  it('grpo also divides by the group std', () => {
    const sd = Math.sqrt((0.09 + 0.01 + 0.01 + 0.09) / 4) + 1e-6;
    close(groupAdvantages(R, 4, 'grpo'), [-0.3 / sd, -0.1 / sd, 0.1 / sd, 0.3 / sd, 0, 0, 0, 0]);
  });
  it('rloo subtracts the mean of the other rollouts', () => {
    // 0.2 - mean(0.4, 0.6, 0.8) = -0.4
    close(groupAdvantages(R, 4, 'rloo'), [-0.4, -0.4 / 3, 0.4 / 3, 0.4, 0, 0, 0, 0]);
  });
  it('gives an all-tied group zero advantage in every form', () => {
    for (const f of ['dr-grpo', 'grpo', 'rloo'] as const) close(groupAdvantages([0.5, 0.5, 0.5], 3, f), [0, 0, 0]);
  });
  it('rejects a batch that does not split into groups', () => {
    expect(() => groupAdvantages([1, 2, 3], 2, 'dr-grpo')).toThrow(/groups/);
  });
});

describe('latency penalty', () => {
  it('weighs the finishing time by the group success', () => {
    // group mean s = 0.75; R' = R - 0.5 * 0.75 * tEnd / 20
    close(latencyPenalised(Float32Array.from([1, 0.5]), Float32Array.from([10, 20]), 20, 2, 0.5), [1 - 0.1875, 0.5 - 0.375]);
  });
});

describe('gae', () => {
  it('is the undiscounted return-to-go minus the value at gamma = lambda = 1', () => {
    close(gae([0, 0.5, 0.5], [0.2, 0.3, 0.1], 1, 1), [1 - 0.2, 1 - 0.3, 0.5 - 0.1]);
  });
  it('discounts late rewards when lambda < 1', () => {
    // values 0: delta = r; adv_t = sum (gamma*lambda)^k r_{t+k}
    close(gae([0, 0, 1], [0, 0, 0], 1, 0.5), [0.25, 0.5, 1]);
  });
});

describe("a batch's decision advantages", () => {
  const rule: AdvantageRule = { groupSize: 2, advantage: 'dr-grpo', latencyPenalty: 0, rewards: 'collective', critic: false, gamma: 1, lambda: 1 };
  const f = (xs: number[]) => Float32Array.from(xs);
  // Four environment rollouts of two agents over two minutes; two islands a team, so two teams: one group of K = 2.
  const batch: AdvantageBatch = { B: 4, N: 2, T: 2, tmax: 10, tEnd: f([5, 10, 10, 10]), credit: f([0.5, 0, 0.25, 0.25, 0, 1, 0.25, 0.75]) };
  const teams: Teams = { I: 2, returns: f([1, 0.5]), tEnd: f([5, 10]), history: new Float32Array(2 * 11) };

  it("collective: the team's advantage for every agent of both its islands, at every minute", () => {
    // mean 0.75: team 0 gets +0.25 (rollouts 0 and 1), team 1 -0.25 (rollouts 2 and 3).
    const minute = [0.25, 0.25, 0.25, 0.25, -0.25, -0.25, -0.25, -0.25];
    close(decisionAdvantages(rule, batch, teams), [...minute, ...minute]);
  });

  it("collective: the shaping bonus is added to the team's return before the comparison", () => {
    // returns 1 + 0, 0.5 + 1: mean 1.25.
    const minute = [-0.25, -0.25, -0.25, -0.25, 0.25, 0.25, 0.25, 0.25];
    close(decisionAdvantages(rule, batch, teams, undefined, f([0, 1])), [...minute, ...minute]);
  });

  it("collective: the latency penalty weighs each team's end by the group's mean return", () => {
    // s = 0.75: R' = 1 - 0.75 * 5/10 = 0.625 and 0.5 - 0.75 * 10/10 = -0.25; mean 0.1875.
    const minute = [0.4375, 0.4375, 0.4375, 0.4375, -0.4375, -0.4375, -0.4375, -0.4375];
    close(decisionAdvantages({ ...rule, latencyPenalty: 1 }, batch, teams), [...minute, ...minute]);
  });

  it('individual: agent i of island g is compared with agent i of island g of the other team, on its own credit', () => {
    // island 0, agent 0: 0.5 vs 0; island 0, agent 1: 0 vs 1; island 1, agent 0: 0.25 vs 0.25; island 1, agent 1: 0.25 vs 0.75.
    const minute = [0.25, -0.5, 0, -0.25, -0.25, 0.5, 0, 0.25];
    close(decisionAdvantages({ ...rule, rewards: 'individual' }, batch, teams), [...minute, ...minute]);
  });

  it("critic: GAE over the team's per-minute rewards and each row's value, up to the rollout's end", () => {
    // One team of two islands, one agent each, three minutes; the team's anytime return 0, 0.25, 0.5, 0.5.
    const b: AdvantageBatch = { B: 2, N: 1, T: 3, tmax: 3, tEnd: f([2, 3]), credit: new Float32Array(2) };
    const t: Teams = { I: 2, returns: f([0.5]), tEnd: f([2]), history: f([0, 0.25, 0.5, 0.5]) };
    const values = f([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]); // minute-major: [minute 0: rollout 0, 1], [minute 1], [minute 2]
    // At gamma = lambda = 1 the advantage is the return to go minus the value; rollout 0 ended after 2 minutes.
    close(decisionAdvantages({ ...rule, groupSize: 2, critic: true }, b, t, values), [0.5 - 0.1, 0.5 - 0.2, 0.25 - 0.3, 0.25 - 0.4, 0, 0 - 0.6]);
  });

  it('critic: without values the flat rule applies', () => {
    const minute = [0.25, 0.25, 0.25, 0.25, -0.25, -0.25, -0.25, -0.25];
    close(decisionAdvantages({ ...rule, critic: true }, batch, teams), [...minute, ...minute]);
  });
});
