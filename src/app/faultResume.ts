import { saferLearningRate } from '../rl/numericFault';
import type { AppStore } from '../store/store';

/**
 * After a numeric fault (the trainer is back at its last good weights): lowers the learning rate
 * tenfold and trains on, clearing the fault's notice. Returns the rate it chose.
 */
export function resumeWithSaferRate(store: AppStore): number {
  const s = store.getState();
  const lr = saferLearningRate(s.config.lr);
  s.setError(null);
  void s.actions.configure({ lr });
  void s.actions.start();
  return lr;
}
