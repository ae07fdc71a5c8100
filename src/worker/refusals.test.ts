import { describe, expect, it } from 'vitest';
import { defaultConfig, type Config } from '../rl/config';
import { TrainerService } from './service';

const tiny: Config = { ...defaultConfig(), agents: 2, tasksPerUpdate: 1, groupSize: 2, tmaxStart: 6, tmaxEnd: 6, updates: 3, hidden: 16, scorer: 8 };

describe('TrainerService refusals', () => {
  it('resetWith weights that do not fit keeps the trainer it had, its updates and its weights', async () => {
    const svc = new TrainerService({ budgetMs: 50, maxRuns: 2 });
    await svc.init(tiny, 'cpu');
    await svc.step();
    const before = await svc.weights();
    const nan = structuredClone(before.weights);
    nan.weights.b1.data[0] = Number.NaN;
    await expect(svc.resetWith(tiny, nan)).rejects.toThrow(/b1/);
    await expect(svc.resetWith({ ...tiny, hidden: 32 }, before.weights)).rejects.toThrow(
      'the weights are for a policy of hidden 16 / scorer 8, but the settings say 32 / 8',
    );
    const after = await svc.weights();
    expect(after.updates).toBe(1);
    expect(after.weights.weights).toEqual(before.weights.weights);
  });

  it('refuses to train settings too large for memory, before any update', async () => {
    const svc = new TrainerService({ budgetMs: 50, maxRuns: 2 });
    await svc.init({ ...tiny, family: 'coupled', tasksPerUpdate: 64, groupSize: 64, tmaxStart: 20, tmaxEnd: 20 }, 'cpu');
    await expect(svc.step()).rejects.toThrow(/need about .* GB of memory in one update .* lower "tasks per update" \(64\) or "group size" \(64\)/);
    await expect(svc.start()).rejects.toThrow(/GB of memory/);
    expect((await svc.weights()).updates).toBe(0);
  });
});
