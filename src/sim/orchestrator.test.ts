import { describe, expect, it } from 'vitest';
import { A_IDLE, claim, dm, work } from './actions';
import { randomPolicy, scriptedOrganisation } from './baselines';
import { mean, runEpisodes } from './evaluate';
import { criticalSteps, orchestrated, OrchestratorRules, scriptedOrchestrator, scriptedWorkers } from './orchestrator';
import { createStructure } from './presets';
import { generateTask } from './task';
import { handTask } from './testing';

const ORCH = { structure: 'orchestrator' as const, budget: 1, islands: 1 };

describe('orchestrator structure', () => {
  it('counts critical steps on a hand-made trace: per stage, orchestrator steps plus the slowest worker', () => {
    const orch = [1, 1, 0, 1, 1, 0, 0, 0];
    const assigns = [0, 1, 0, 0, 1, 1, 0, 0]; // a spawn at minute 1, a round of two at minutes 4-5
    const w1 = [0, 1, 1, 1, 0, 1, 1, 0];
    const w2 = [0, 0, 1, 1, 1, 1, 1, 1];
    // stages: minutes 0-1, 2-5, 6-7.
    // orchestrator 2 + 2 + 0; slowest worker max(1, 0) + max(3, 4) + max(1, 2)
    expect(criticalSteps(orch, [w1, w2], assigns)).toBe(4 + 1 + 4 + 2);
    // without assignments: one stage, every orchestrator step plus the busiest worker
    expect(criticalSteps(orch, [w1, w2], new Array(8).fill(0))).toBe(4 + 6);
    // a lone orchestrator, and nothing at all
    expect(criticalSteps([1, 1, 1], [], [0, 1, 0])).toBe(3);
    expect(criticalSteps([], [], [])).toBe(0);
  });

  it('assigns with claim-then-DM: the claim and the interfaces go to the worker, logged as assign', () => {
    const env = createStructure(ORCH, 3).createEnv(1);
    env.reset([handTask([1, 2, 3], [1, 1, 1], [-1, -1, 0])], 0, 20);
    env.logRollout = 0;
    env.step(Int32Array.from([dm(1), A_IDLE, A_IDLE])); // no claim in hand: a plain DM
    env.step(Int32Array.from([claim(1), work(0), A_IDLE]));
    expect(env.claim[1]).toBe(0);
    env.step(Int32Array.from([dm(2), A_IDLE, A_IDLE]));
    expect(env.claim[1]).toBe(2);
    env.step(Int32Array.from([claim(2), A_IDLE, work(1)]));
    env.step(Int32Array.from([dm(2), dm(0), work(1)])); // worker 1 hands module 0's interface to the orchestrator meanwhile
    expect(env.claim[2]).toBe(2);
    expect((env.known[2] >>> 0) & 1).toBe(0); // the orchestrator's DM carries what it knew at the start of the minute
    const kinds = env.events.filter((e) => e.agent === 0 && (e.kind === 'dm' || e.kind === 'assign')).map((e) => `${e.t}:${e.kind}:${e.module}>${e.target}`);
    expect(kinds).toEqual(['0:dm:-1>1', '2:assign:1>2', '4:assign:2>2']);
    const rules = env.rules as OrchestratorRules;
    expect(rules.assigns[0]).toBe(2);
    expect(rules.parallelShare(env, 0)).toBe(0.5);
    expect(rules.finishShare(env, 0)).toBe(0.5); // module 1 is done, module 2 is not
  });

  it('keeps the critical-step count online exactly as the trace rule says', async () => {
    const env = createStructure(ORCH, 4).createEnv(1);
    env.reset([generateTask('coupled', 3)], 1, 24);
    env.logRollout = 0;
    const source = orchestrated(randomPolicy(5), scriptedWorkers);
    source.reset?.(env);
    const actions = new Int32Array(4);
    const orch: number[] = [];
    const workers: number[][] = [[], [], []];
    while (!env.isOver()) {
      await source.act(env, actions);
      env.step(actions);
      orch.push(env.lastAction[0] !== A_IDLE ? 1 : 0);
      for (let w = 1; w < 4; w++) workers[w - 1].push(env.lastAction[w] !== A_IDLE ? 1 : 0);
    }
    const assigns = orch.map((_, t) => (env.events.some((e) => e.t === t && e.kind === 'assign') ? 1 : 0));
    expect(assigns.some((a) => a === 1)).toBe(true);
    expect((env.rules as OrchestratorRules).criticalSteps(env, 0)).toBe(criticalSteps(orch, workers, assigns));
  });

  it('scripted workers act only on assignments and never claim; a scripted orchestrator keeps them busy', async () => {
    const tasks = Array.from({ length: 8 }, (_, i) => generateTask('coupled', 1_000_000_000 + i));
    const idle = await runEpisodes(orchestrated({ name: 'idle', act: (_, out) => void out.fill(A_IDLE) }, scriptedWorkers), tasks, 6, 1, 24, 0, ORCH);
    expect(idle.stats.every((s) => s.ret === 0)).toBe(true);
    const run = await runEpisodes(orchestrated(scriptedOrchestrator, scriptedWorkers), tasks, 6, 1, 24, 0, ORCH);
    expect(run.events.filter((e) => e.agent > 0 && e.kind === 'claim')).toEqual([]);
    expect(run.events.filter((e) => e.agent === 0 && e.kind === 'work')).toEqual([]);
    expect(run.events.some((e) => e.kind === 'assign')).toBe(true);
    const random = await runEpisodes(orchestrated(randomPolicy(1), scriptedWorkers), tasks, 6, 1, 24, 0, ORCH);
    expect(mean(run.stats.map((s) => s.ret))).toBeGreaterThan(mean(random.stats.map((s) => s.ret)) + 0.3);
    for (const s of run.structure ?? []) {
      expect(s.criticalSteps).toBeGreaterThan(0);
      expect(s.parallelShare).toBeGreaterThan(0);
    }
  });

  it('leaves a flat swarm untouched: no rules, and the same results as before structures existed', async () => {
    const tasks = Array.from({ length: 4 }, (_, i) => generateTask('mixed', i));
    const flat = await runEpisodes(scriptedOrganisation, tasks, 5, 2, 20, 0);
    const viaFlat = await runEpisodes(scriptedOrganisation, tasks, 5, 2, 20, 0, { structure: 'flat', budget: 1, islands: 3 });
    expect(viaFlat).toEqual(flat);
    expect(createStructure({ structure: 'flat', budget: 1, islands: 1 }, 5).createEnv(2).rules).toBeNull();
  });
});
