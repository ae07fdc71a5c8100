import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../rl/config';
import { activeAblations } from './AblationsPanel';

describe('activeAblations', () => {
  it('is empty for plain RLCR and names every switched ablation', () => {
    expect(activeAblations(defaultConfig())).toEqual([]);
    const end = defaultConfig().tmaxEnd;
    const c = {
      ...defaultConfig(),
      latencyPenalty: 0.5,
      tmaxStart: end,
      critic: true,
      gamma: 0.95,
      rewards: 'individual' as const,
      advantage: 'grpo' as const,
    };
    expect(activeAblations(c)).toEqual(['latency penalty 0.5', `fixed Tmax ${end}`, 'critic + GAE (γ 0.95, λ 1)', 'individual rewards', 'grpo']);
  });
});
