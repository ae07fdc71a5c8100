import { describe, expect, it } from 'vitest';
import { scriptedOrganisation } from './baselines';
import { NO_COSTS, tasksWithCosts } from './costs';
import { runEpisodes, summariseWork } from './evaluate';
import { evaluationTasks } from './seeds';
import { scriptedOnSideBoard } from './sideScripted';

describe('the scripted organisation on the unofficial board', () => {
  it('sends every message there, and passes at least as many tests with fewer messages: the board pays by design', async () => {
    const talk = { ...NO_COSTS, interrupt: true, broadcast: true };
    const tasks = evaluationTasks('long-planned', 8);
    const plain = summariseWork((await runEpisodes(scriptedOrganisation, tasksWithCosts(tasks, talk), 8, 1, 72)).stats, 8);
    const side = summariseWork(
      (await runEpisodes(scriptedOnSideBoard, tasksWithCosts(tasks, { ...talk, side: { mode: 'open', catchRate: 0, catchCost: 0 } }), 8, 1, 72)).stats,
      8,
    );
    expect(side.sideShare).toBe(1);
    expect(side.ret).toBeGreaterThanOrEqual(plain.ret);
    expect(side.messages).toBeLessThan(plain.messages);
  });
});
