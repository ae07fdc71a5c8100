import { describe, expect, it } from 'vitest';
import { variantSeed } from './islands';
import { EVAL_SEED_BASE, evaluationSeed } from './seeds';

describe('the seed split', () => {
  it('puts the evaluation seeds at and above the base', () => {
    expect(evaluationSeed(0)).toBe(1_000_000_000);
    expect(evaluationSeed(31)).toBe(EVAL_SEED_BASE + 31);
  });
  it("keeps an island's variant on its task's side", () => {
    for (let g = 1; g < 6; g++) {
      expect(variantSeed(17, g)).toBeLessThan(EVAL_SEED_BASE);
      expect(variantSeed(evaluationSeed(3), g)).toBeGreaterThanOrEqual(EVAL_SEED_BASE);
    }
  });
});
