import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/store';
import { resumeWithSaferRate } from './faultResume';

describe('resumeWithSaferRate', () => {
  it('clears the fault, lowers the learning rate tenfold and starts, in that order', async () => {
    const store = createAppStore();
    const calls: string[] = [];
    store.setState({ config: { ...store.getState().config, lr: 0.003 } });
    store
      .getState()
      .setError('Training stopped at update 4', { kind: 'numeric', site: 'loss', update: 4, lr: 0.003, gradClip: 1, message: 'Training stopped at update 4' });
    store.setState({
      actions: {
        ...store.getState().actions,
        configure: async (patch) => void calls.push(`configure lr=${patch.lr}`),
        start: async () => void calls.push('start'),
      },
    });
    expect(resumeWithSaferRate(store)).toBe(0.0003);
    expect(calls).toEqual(['configure lr=0.0003', 'start']);
    expect(store.getState().error).toBeNull();
    expect(store.getState().stoppedBy).toBeNull();
  });
});
