import { describe, expect, it } from 'vitest';
import { A_DM, A_IDLE, A_POST, claim, work } from './actions';
import { scriptedOrganisation } from './baselines';
import { NO_COSTS, tasksWithCosts, withCosts } from './costs';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import { observedSource } from './actionSource';
import { boundTo90, emptyPathCounts, PathAudit } from './pathAudit';
import { evaluationTasks } from './seeds';
import { handTask } from './testing';
import { FAMILIES, type Task } from './task';

/** Plays `minutes` (one action list per minute) on a fresh env, audited, and finishes the audit. */
function audit(task: Task, agents: number, minutes: number[][]) {
  const env = new SprintEnv(1, agents);
  env.reset([task], 0, minutes.length);
  const counts = emptyPathCounts();
  const a = new PathAudit(counts);
  a.begin(env);
  for (const m of minutes) {
    const actions = Int32Array.from(m);
    a.minute(env, actions);
    env.step(actions);
  }
  a.finish();
  return { env, counts };
}

describe('the bound on minutes to 90%', () => {
  it('starts one dependent when its prerequisite is finished and the others a minute later under the handoff rule', () => {
    // Module 0 (4 min, 1 test) carries modules 1 and 2 (6 min, 4 tests each): 9 tests, 90% needs all 9.
    const env = new SprintEnv(2, 3);
    env.reset([handTask([4, 6, 6], [1, 4, 4], [-1, 0, 0], [], true), handTask([4, 6, 6], [1, 4, 4], [-1, 0, 0])], 0, 30);
    expect(boundTo90(env, 0)).toBe(11); // the finisher's dependent ends at 10, the other, handed over, at 11
    expect(boundTo90(env, 1)).toBe(10); // without the rule everyone who worked module 0 knows it at once
  });

  it('picks the best dependent to start first', () => {
    // Module 1 is long, module 2 short: starting the long one first ends at 4 + 9 = 13, the short at 4 + 1 + 2.
    const env = new SprintEnv(1, 3);
    env.reset([handTask([4, 9, 2], [1, 4, 4], [-1, 0, 0], [], true)], 0, 30);
    expect(boundTo90(env, 0)).toBe(13);
  });

  it('is reached by a hand-played perfect handoff, and is null with a luck module', () => {
    const task = handTask([4, 6, 6], [1, 4, 4], [-1, 0, 0], [], true);
    const minutes = [
      ...Array.from({ length: 4 }, () => [work(0), A_IDLE]), // agent 0 builds the prerequisite
      [A_DM + 1, A_IDLE], // and hands it to agent 1
      ...Array.from({ length: 6 }, () => [work(1), work(2)]),
    ];
    const { env, counts } = audit(task, 2, minutes);
    expect(env.t90[0]).toBe(11);
    expect(counts.reached).toBe(1);
    expect(counts.t90).toBe(counts.bound90);
    const luck = new SprintEnv(1, 2);
    luck.reset([handTask([4, 1], [1, 1], [-1, 0], [0, 0.1], true)], 0, 30);
    expect(boundTo90(luck, 0)).toBeNull();
  });

  it('no organisation beats it, on any family’s evaluation tasks', async () => {
    for (const family of FAMILIES) {
      const tasks = tasksWithCosts(evaluationTasks(family, 16), { ...NO_COSTS, interrupt: true, broadcast: true });
      const counts = emptyPathCounts();
      const a = new PathAudit(counts);
      await runEpisodes(observedSource(scriptedOrganisation, a), tasks, 8, 1, 80);
      a.finish();
      expect(counts.rollouts, family).toBe(16);
      expect(counts.t90, family).toBeGreaterThanOrEqual(counts.bound90);
    }
  });
});

describe('the path audit', () => {
  it('puts every stalled minute down to what the module’s last mover did instead', () => {
    // Module 0 (4 min) carries module 1 (3 min); module 2 (2 min) needs nothing. Interruptions on.
    const task = withCosts(handTask([4, 3, 2], [1, 1, 1], [-1, 0, -1], [], true), { ...NO_COSTS, interrupt: true });
    const { counts } = audit(task, 2, [
      [work(0), A_IDLE], // minute 0: module 0 moves (ready at 0: no delay)
      [A_DM + 1, A_IDLE], // 1: agent 0 talks, module 0 stalls (a DM)
      [work(0), A_DM + 0], // 2: agent 1's DM lands on agent 0 working module 0: the minute is lost
      [A_POST, A_IDLE], // 3: stall (a post)
      [claim(2), A_IDLE], // 4: stall (a claim)
      [work(2), A_IDLE], // 5: stall (another module); module 2 starts 5 minutes after it was ready
      [A_IDLE, A_IDLE], // 6: modules 0 and 2 stall (idle)
      [work(0), A_IDLE], // 7: module 2 stalls (another module) from here on while agent 0 works elsewhere
      [work(0), A_IDLE], // 8
      [work(0), A_IDLE], // 9: module 0 finished; module 1 ready from minute 10
      [A_IDLE, A_IDLE], // 10: module 1 not started; module 2 stalls (idle)
      [work(1), A_IDLE], // 11: module 1 starts a minute late
    ]);
    expect(counts.started).toBe(3);
    expect(counts.startDelay).toBe(0 + 5 + 1);
    expect(counts.stallDm).toBe(1);
    expect(counts.stallLost).toBe(1);
    expect(counts.stallPost).toBe(1);
    expect(counts.stallClaim).toBe(1);
    expect(counts.stallOther).toBe(1 + 4); // module 0 in minute 5; module 2 in minutes 7, 8, 9 and 11
    expect(counts.stallIdle).toBe(1 + 2); // module 0 in minute 6; module 2 in minutes 6 and 10
    expect(counts.neverStarted).toBe(0);
    expect(counts.reached).toBe(0);
  });

  it('will not start an episode before the one it audits is finished', () => {
    const env = new SprintEnv(1, 2);
    env.reset([handTask([2], [1], [-1])], 0, 5);
    const a = new PathAudit(emptyPathCounts());
    a.begin(env);
    a.minute(env, Int32Array.from([work(0), A_IDLE]));
    env.step(Int32Array.from([work(0), A_IDLE]));
    env.reset([handTask([2], [1], [-1])], 0, 5);
    expect(() => a.minute(env, Int32Array.from([A_IDLE, A_IDLE]))).toThrow(/finish\(\) the episode/);
  });

  it('counts a ready module nobody started, and leaves the play unchanged', async () => {
    const task = handTask([2, 3], [1, 1], [-1, 0], [], true);
    const { counts } = audit(task, 1, [[work(0)], [work(0)], [A_IDLE], [A_IDLE]]);
    expect(counts.neverStarted).toBe(1);
    const tasks = evaluationTasks('long-planned', 8);
    const plain = await runEpisodes(scriptedOrganisation, tasks, 8, 1, 72);
    const a = new PathAudit(emptyPathCounts());
    const audited = await runEpisodes(observedSource(scriptedOrganisation, a), tasks, 8, 1, 72);
    a.finish();
    expect(audited.stats.map((s) => s.ret)).toEqual(plain.stats.map((s) => s.ret));
    expect(a.counts.rollouts).toBe(8);
  });
});
