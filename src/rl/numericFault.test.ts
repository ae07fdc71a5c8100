import { describe, expect, it } from 'vitest';
import { faultMessage, NumericFault, saferLearningRate } from './numericFault';

describe('numeric fault', () => {
  it('names the learning rate, or clipping when it is off, and a safer rate', () => {
    expect(faultMessage('loss', 12, { lr: 0.1, gradClip: 1 })).toBe(
      'Training stopped at update 12: the loss became NaN or infinite. The weights are back at their last good values; the likely cause is the learning rate (0.1): lower it, e.g. to 0.01, then resume.',
    );
    expect(faultMessage('weights', 3, { lr: 0.05, gradClip: 0 })).toContain('gradient clipping is off');
    expect(faultMessage('loss', 3, { lr: 0.05, gradClip: 0 })).toContain('the likely cause is the learning rate (0.05)');
    expect(saferLearningRate(0.003)).toBe(0.0003);
    expect(saferLearningRate(1e-6)).toBe(1e-6);
  });

  it('is an Error that keeps its site, update and settings', () => {
    const f = new NumericFault('gradients', 4, { lr: 0.01, gradClip: 1 });
    expect(f).toBeInstanceOf(Error);
    expect(f.name).toBe('NumericFault');
    expect([f.site, f.update, f.settings.lr]).toEqual(['gradients', 4, 0.01]);
    expect(f.message).toBe(faultMessage('gradients', 4, { lr: 0.01, gradClip: 1 }));
  });
});
