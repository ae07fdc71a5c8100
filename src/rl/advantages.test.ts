import { describe, expect, it } from 'vitest';
import { gae, groupAdvantages, latencyPenalised } from './advantages';

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
