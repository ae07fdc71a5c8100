import { describe, expect, it } from 'vitest';
import { randomPolicy, scriptedOrganisation } from './baselines';
import { OBS_DIM, encodeObservations } from './observe';
import { encodeObservationsReference } from './observeReference';
import { createStructure } from './presets';
import { FAMILIES, generateTask } from './task';

describe('the fast observation encoder', () => {
  const cases = [
    ...FAMILIES.map((family) => ({ family, structure: 'flat' as const, agents: 8 })),
    { family: 'long-coupled' as const, structure: 'ceo' as const, agents: 6 },
    { family: 'coupled' as const, structure: 'orchestrator' as const, agents: 5 },
    { family: 'mixed' as const, structure: 'flat' as const, agents: 16 },
  ];
  for (const { family, structure, agents } of cases) {
    it(`writes the reference's numbers every minute (${family}, ${structure}, ${agents} agents)`, () => {
      const B = 6;
      const env = createStructure({ structure, budget: 40, islands: 1 }, agents).createEnv(B);
      const tasks = Array.from({ length: B }, (_, b) => generateTask(family, 40 + b));
      env.reset(tasks, 3, 40);
      // Half the rollouts follow the scripted organisation (claims, handoffs, finished modules), half act at random.
      const scripted = scriptedOrganisation;
      const random = randomPolicy(5);
      scripted.reset?.(env);
      random.reset?.(env);
      const R = B * agents;
      const fast = new Float32Array(R * OBS_DIM + 7).fill(Number.NaN);
      const ref = new Float32Array(R * OBS_DIM + 7).fill(Number.NaN);
      const a1 = new Int32Array(R);
      const a2 = new Int32Array(R);
      let minutes = 0;
      while (!env.isOver()) {
        encodeObservations(env, fast, 7);
        encodeObservationsReference(env, ref, 7);
        const first = fast.findIndex((x, k) => k >= 7 && !Object.is(x, ref[k]));
        expect(first, `first difference at minute ${minutes}`).toBe(-1);
        scripted.act(env, a1);
        random.act(env, a2);
        for (let r = 0; r < R; r++) if (Math.floor(r / agents) % 2 === 1) a1[r] = a2[r];
        env.step(a1);
        minutes++;
      }
      expect(minutes).toBeGreaterThan(5);
      expect(Number.isNaN(fast[0])).toBe(true); // nothing written before the offset
    });
  }
});
