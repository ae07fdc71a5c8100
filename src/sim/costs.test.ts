import { describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, claim, dm, work } from './actions';
import { scriptedOrganisation } from './baselines';
import { NO_COSTS, tasksWithCosts, withCosts, type SprintCosts } from './costs';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import { encodeObservations, G_MINUTES_LEFT, OBS_DIM } from './observe';
import { islandTask } from './islands';
import { evaluationTasks } from './seeds';
import { handTask } from './testing';
import { totalWork, type Task } from './task';

const INTERRUPT: SprintCosts = { interrupt: true, conflict: false, broadcast: false, merge: false };
const CONFLICT: SprintCosts = { interrupt: false, conflict: true, broadcast: false, merge: false };
const BOTH: SprintCosts = { interrupt: true, conflict: true, broadcast: false, merge: true };
const ALL: SprintCosts = { interrupt: true, conflict: true, broadcast: true, merge: true };
const BROADCAST: SprintCosts = { interrupt: false, conflict: false, broadcast: true, merge: false };
const MERGE: SprintCosts = { interrupt: false, conflict: false, broadcast: false, merge: true };
/** Booked effort of `x` times the nominal work, no other rule. */
const effort = (x: number): SprintCosts => ({ ...NO_COSTS, effort: x });

/** A fresh environment of `agents` agents on `task` under `costs`, deadline 20. */
function envOn(task: Task, agents: number, costs: SprintCosts): SprintEnv {
  const env = new SprintEnv(1, agents);
  env.reset([withCosts(task, costs)], 0, 20);
  return env;
}

const step = (env: SprintEnv, actions: number[]) => env.step(Int32Array.from(actions));

describe('costs of talk and of piling on', () => {
  it('attaches no rule when none is on, so the task is the same object', () => {
    const task = handTask([3], [1], [-1]);
    expect(withCosts(task, NO_COSTS)).toBe(task);
    expect(withCosts(task, undefined)).toBe(task);
    expect(withCosts(task, BOTH).costs).toEqual(BOTH);
    expect(task.costs).toBeUndefined();
  });

  it("travels with the task to an island's variant", () => {
    const task = withCosts(evaluationTasks('long-coupled', 1)[0], BOTH);
    expect(islandTask(task, 1).seed).not.toBe(task.seed);
    expect(islandTask(task, 1).costs).toEqual(BOTH);
    expect(islandTask(evaluationTasks('long-coupled', 1)[0], 1).costs).toBeUndefined();
  });

  it('an interruption costs the working receiver exactly its minute of work, and the DM still delivers', () => {
    // Agent 0 finishes module 0 (1 min); then agent 0 DMs agent 1 while agent 1 works module 2.
    const task = handTask([1, 3, 3], [1, 1, 1], [-1, 0, -1], [], true);
    const play = (costs: SprintCosts) => {
      const env = envOn(task, 2, costs);
      step(env, [work(0), work(2)]);
      step(env, [dm(1), work(2)]);
      return env;
    };
    const off = play(NO_COSTS);
    const on = play(INTERRUPT);
    expect(off.left[2]).toBe(1);
    expect(on.left[2]).toBe(2); // one minute lost, not more
    expect(on.metric(0, 'interrupted')).toBe(1);
    expect(off.metric(0, 'interrupted')).toBe(0);
    expect(on.metric(0, 'useful')).toBe(off.metric(0, 'useful') - 1);
    expect(on.known[1] & 1).toBe(1); // the interface arrived all the same
    expect(on.lastWasted[1]).toBe(1);
    // The lost minute delays the module by exactly one minute.
    step(on, [A_IDLE, work(2)]);
    expect(on.left[2]).toBe(1);
    step(on, [A_IDLE, work(2)]);
    expect(on.left[2]).toBe(0);
  });

  it('a DM to an agent that is idle, talking or blocked costs it nothing more', () => {
    const task = handTask([1, 3], [1, 1], [-1, 0], [], true);
    const env = envOn(task, 3, INTERRUPT);
    step(env, [work(0), A_IDLE, A_IDLE]);
    // agent 1 idles, agent 2 is blocked on module 1: both receive a DM from agent 0.
    step(env, [dm(1), A_IDLE, work(1)]);
    step(env, [dm(2), A_POST, work(1)]); // agent 2 is blocked again: the DM arrives at the end of the minute
    expect(env.metric(0, 'interrupted')).toBe(0);
    expect(env.metric(0, 'blocked')).toBe(2);
    step(env, [A_IDLE, A_IDLE, work(1)]);
    expect(env.left[1]).toBe(2);
  });

  it('several DMs to one working agent in one minute interrupt it once', () => {
    const env = envOn(handTask([5], [1], [-1]), 3, INTERRUPT);
    step(env, [work(0), dm(0), dm(0)]);
    expect(env.metric(0, 'interrupted')).toBe(1);
    expect(env.left[0]).toBe(5);
  });

  it('a second agent on the module does not insure against an interruption (collisions resolve first)', () => {
    const task = handTask([4], [1], [-1]);
    const play = (costs: SprintCosts) => {
      const env = envOn(task, 3, costs);
      step(env, [work(0), work(0), dm(1)]);
      return env;
    };
    expect(play(NO_COSTS).left[0]).toBe(3);
    const on = play(INTERRUPT);
    expect(on.left[0]).toBe(4);
    expect(on.metric(0, 'duplicate')).toBe(1);
    expect(on.metric(0, 'useful')).toBe(0);
  });

  it('a post interrupts every other working agent once, costs idle, talking and blocked agents nothing, and still lands on the board', () => {
    // Agent 0 finishes module 0; then agent 0 posts while 1 and 2 work modules 2 and 3 and 3 is blocked on module 1.
    const task = handTask([1, 3, 3, 3], [1, 1, 1, 1], [-1, 0, -1, -1], [], true);
    const play = (costs: SprintCosts) => {
      const env = envOn(task, 4, costs);
      step(env, [work(0), work(2), work(3), A_IDLE]);
      step(env, [A_POST, work(2), work(3), work(1)]);
      return env;
    };
    const off = play(NO_COSTS);
    const on = play(BROADCAST);
    expect([off.left[2], off.left[3]]).toEqual([1, 1]);
    expect([on.left[2], on.left[3]]).toEqual([2, 2]); // one minute lost on each worked module, no more
    expect(on.metric(0, 'interrupted')).toBe(2);
    expect(on.metric(0, 'blocked')).toBe(1);
    expect(on.metric(0, 'useful')).toBe(off.metric(0, 'useful') - 2);
    expect(on.board[0] & 1).toBe(1);
    // Two posts in one minute interrupt a working agent once; a poster does not interrupt itself.
    const env = envOn(handTask([5], [1], [-1]), 3, BROADCAST);
    step(env, [A_POST, A_POST, work(0)]);
    expect(env.metric(0, 'interrupted')).toBe(1);
    step(env, [work(0), A_POST, A_IDLE]);
    expect(env.metric(0, 'interrupted')).toBe(2);
    step(env, [work(0), A_IDLE, A_IDLE]);
    expect(env.left[0]).toBe(4);
    // The interruption rule alone leaves posts free.
    const dmOnly = envOn(handTask([5], [1], [-1]), 2, INTERRUPT);
    step(dmOnly, [work(0), A_POST]);
    expect(dmOnly.metric(0, 'interrupted')).toBe(0);
    expect(dmOnly.left[0]).toBe(4);
  });

  it('a merge conflict: two agents on a module without its claimant get nothing', () => {
    const task = handTask([4, 4], [1, 1], [-1, -1]);
    const env = envOn(task, 3, CONFLICT);
    step(env, [A_IDLE, A_IDLE, claim(0)]);
    step(env, [work(0), work(0), A_IDLE]); // claimed by 2, worked by 0 and 1
    expect(env.left[0]).toBe(4);
    expect(env.metric(0, 'conflicts')).toBe(1);
    expect(env.metric(0, 'duplicate')).toBe(1);
    expect(env.metric(0, 'useful')).toBe(0);
    step(env, [work(1), work(1), A_IDLE]); // unclaimed module 1: a conflict too
    expect(env.left[1]).toBe(4);
    expect(env.metric(0, 'conflicts')).toBe(2);
    step(env, [work(1), A_IDLE, A_IDLE]); // one agent alone counts, claimant or not
    expect(env.left[1]).toBe(3);
    expect(env.metric(0, 'conflicts')).toBe(2);
    // Without the rule the same minutes advance both modules.
    const off = envOn(task, 3, NO_COSTS);
    step(off, [A_IDLE, A_IDLE, claim(0)]);
    step(off, [work(0), work(0), A_IDLE]);
    expect(off.left[0]).toBe(3);
    expect(off.metric(0, 'conflicts')).toBe(0);
  });

  it('a merge: two agents on a module land one minute, and its next worked minute merges (no progress), whoever works it', () => {
    const task = handTask([6, 6], [1, 1], [-1, -1]);
    const env = envOn(task, 3, MERGE);
    step(env, [work(0), work(0), work(1)]); // a collision on 0: one minute counts, a merge is owed
    expect([env.left[0], env.left[1]]).toEqual([5, 5]);
    expect(env.mergeOwed[0]).toBe(1);
    expect(env.metric(0, 'duplicate')).toBe(1);
    expect(env.metric(0, 'conflicts')).toBe(0);
    step(env, [A_IDLE, A_IDLE, work(1)]); // nobody works 0: the merge waits
    expect(env.mergeOwed[0]).toBe(1);
    step(env, [work(0), A_IDLE, work(1)]); // the next worked minute merges
    expect(env.left[0]).toBe(5);
    expect(env.mergeOwed[0]).toBe(0);
    expect(env.metric(0, 'conflicts')).toBe(1);
    step(env, [work(0), A_IDLE, work(1)]);
    expect(env.left[0]).toBe(4);
    // Piling on every minute moves the module at half the speed of one agent alone.
    const pile = envOn(handTask([20], [1], [-1]), 2, MERGE);
    const lone = envOn(handTask([20], [1], [-1]), 2, MERGE);
    for (let t = 0; t < 8; t++) {
      step(pile, [work(0), work(0)]);
      step(lone, [work(0), A_IDLE]);
    }
    expect(pile.left[0]).toBe(16);
    expect(lone.left[0]).toBe(12);
    expect(pile.metric(0, 'conflicts')).toBe(4);
    expect(lone.metric(0, 'conflicts')).toBe(0);
    // Without the rule the pile moves as fast as the lone agent.
    const free = envOn(handTask([20], [1], [-1]), 2, NO_COSTS);
    for (let t = 0; t < 8; t++) step(free, [work(0), work(0)]);
    expect(free.left[0]).toBe(12);
  });

  it('a merge ramped in: it takes the given share of a minute, and a whole minute from a share of 1', () => {
    const quarter = envOn(handTask([6], [1], [-1]), 2, { ...MERGE, mergeCost: 0.25 });
    step(quarter, [work(0), work(0)]); // a pile: one minute counts, a quarter of a minute is owed
    expect(quarter.left[0]).toBe(5);
    expect(quarter.mergeOwed[0]).toBe(0.25);
    step(quarter, [work(0), A_IDLE]); // the next worked minute pays the quarter and moves the module 0.75
    expect(quarter.left[0]).toBe(4.25);
    expect(quarter.mergeOwed[0]).toBe(0);
    expect(quarter.metric(0, 'conflicts')).toBe(0.25);
    // A share of 0 costs nothing, as without the rule; a share above 1 is a whole minute.
    const none = envOn(handTask([6], [1], [-1]), 2, { ...MERGE, mergeCost: 0 });
    const free = envOn(handTask([6], [1], [-1]), 2, NO_COSTS);
    const whole = envOn(handTask([6], [1], [-1]), 2, { ...MERGE, mergeCost: 3 });
    const full = envOn(handTask([6], [1], [-1]), 2, MERGE);
    for (let t = 0; t < 4; t++) {
      for (const env of [none, free, whole, full]) step(env, [work(0), t % 2 === 0 ? work(0) : A_IDLE]);
    }
    expect(none.left[0]).toBe(free.left[0]);
    expect(none.metric(0, 'conflicts')).toBe(0);
    expect(whole.left[0]).toBe(full.left[0]);
    expect(full.left[0]).toBe(4);
  });

  it('an interrupted minute does not pay the merge: it is still owed', () => {
    const env = envOn(handTask([6], [1], [-1]), 3, { ...MERGE, interrupt: true });
    step(env, [work(0), work(0), A_IDLE]);
    step(env, [work(0), A_IDLE, dm(0)]); // interrupted: the minute is lost, the merge still owed
    expect(env.mergeOwed[0]).toBe(1);
    expect(env.metric(0, 'interrupted')).toBe(1);
    expect(env.metric(0, 'conflicts')).toBe(0);
    step(env, [work(0), A_IDLE, A_IDLE]);
    expect(env.mergeOwed[0]).toBe(0);
    expect(env.left[0]).toBe(5);
  });

  it('the claimant wins: its minute counts and, under the handoff rule, it finishes the module', () => {
    const task = handTask([1, 3], [1, 1], [-1, 0], [], true);
    const env = envOn(task, 3, CONFLICT);
    step(env, [A_IDLE, A_IDLE, claim(0)]);
    env.logRollout = 0;
    step(env, [work(0), work(0), work(0)]); // agent 2, the claimant, is the last of three
    expect(env.done[0] & 1).toBe(1);
    expect(env.metric(0, 'conflicts')).toBe(0);
    expect(env.metric(0, 'duplicate')).toBe(2);
    expect(env.known[2] & 1).toBe(1); // the finisher is the claimant
    expect(env.known[0] & 1).toBe(0);
    expect(env.lastWasted[2]).toBe(0);
    expect(env.lastWasted[0]).toBe(1);
    expect(env.events.filter((e) => e.kind === 'complete').map((e) => e.agent)).toEqual([2]);
    expect(env.events.filter((e) => e.kind === 'work').map((e) => e.agent)).toEqual([2]);
  });

  it('a lost minute still draws its luck, so the other draws do not move', () => {
    const task = handTask([1, 1], [1, 1], [-1, -1], [0.3, 0.3]);
    const rng = (costs: SprintCosts) => {
      const env = envOn(task, 2, costs);
      step(env, [work(0), dm(0)]);
      return env.rng[0];
    };
    expect(rng(INTERRUPT)).toBe(rng(NO_COSTS));
  });

  it('counts messages that delivered nothing: a DM with nothing new, a post adding nothing', () => {
    const env = envOn(handTask([1, 3], [1, 1], [-1, 0], [], true), 3, NO_COSTS);
    step(env, [A_POST, dm(0), A_IDLE]); // nothing known yet: both deliver nothing
    expect(env.metric(0, 'wastedMessages')).toBe(2);
    step(env, [work(0), A_IDLE, A_IDLE]);
    step(env, [dm(1), A_IDLE, A_IDLE]); // delivers the interface
    expect(env.metric(0, 'wastedMessages')).toBe(2);
    step(env, [dm(1), dm(0), A_IDLE]); // agent 1 has it already; agent 0 learns nothing from 1
    expect(env.metric(0, 'wastedMessages')).toBe(4);
    step(env, [A_POST, A_POST, A_IDLE]); // the first post is news, the second is not
    expect(env.metric(0, 'wastedMessages')).toBe(5);
    expect(env.metric(0, 'dms') + env.metric(0, 'posts')).toBe(7);
  });

  it('leaves the scripted organisation untouched: the same return, counters and events under interruptions, conflicts and merges', async () => {
    const tasks = evaluationTasks('long-coupled', 12);
    const off = await runEpisodes(scriptedOrganisation, tasks, 8, 7, 80, 3);
    const on = await runEpisodes(scriptedOrganisation, tasksWithCosts(tasks, BOTH), 8, 7, 80, 3);
    expect(on.stats).toEqual(off.stats);
    expect(on.events).toEqual(off.events);
    expect(on.events.length).toBeGreaterThan(100);
    // It talks and hands over, and no DM of it lands on a working agent, no two of it share a module.
    expect(off.stats.every((s) => s.metrics.dms > 0 && s.metrics.interrupted === 0 && s.metrics.duplicate === 0)).toBe(true);
  });

  it('under the broadcast rule the scripted organisation still posts for three or more claimers: a few working teammates lose a minute, the return barely moves', async () => {
    const tasks = evaluationTasks('long-coupled', 12);
    const off = await runEpisodes(scriptedOrganisation, tasksWithCosts(tasks, BOTH), 8, 7, 80, 0);
    const on = await runEpisodes(scriptedOrganisation, tasksWithCosts(tasks, ALL), 8, 7, 80, 0);
    const sum = (r: typeof on, f: (s: (typeof on.stats)[number]) => number) => r.stats.reduce((a, s) => a + f(s), 0);
    expect(sum(on, (s) => s.metrics.posts)).toBe(sum(off, (s) => s.metrics.posts));
    expect(sum(on, (s) => s.metrics.posts)).toBeGreaterThan(0);
    expect(sum(on, (s) => s.metrics.interrupted)).toBeGreaterThan(0);
    expect(sum(on, (s) => s.metrics.interrupted)).toBeLessThanOrEqual(sum(on, (s) => s.metrics.posts) * 7);
    expect(sum(on, (s) => s.metrics.duplicate)).toBe(0);
    expect(Math.abs(sum(on, (s) => s.ret) - sum(off, (s) => s.ret)) / tasks.length).toBeLessThan(0.01);
  });

  it('booked effort: every minute not idled draws one agent-minute, idling is free, and the sprint ends when it is spent', () => {
    // Nominal work 6 + 4 = 10 agent-minutes; effort 1.2 books ceil(12) = 12.
    const task = handTask([6, 4], [1, 1], [-1, -1]);
    const env = envOn(task, 2, effort(1.2));
    expect(env.effortLeft[0]).toBe(12);
    step(env, [work(0), A_IDLE]);
    step(env, [claim(1), A_IDLE]);
    step(env, [dm(1), A_POST]);
    expect(env.effortLeft[0]).toBe(8); // four minutes not idled, two idled
    expect(env.finished[0]).toBe(0);
    step(env, [work(0), work(0)]); // a duplicate draws its minute too
    expect(env.effortLeft[0]).toBe(6);
    expect(env.metric(0, 'duplicate')).toBe(1);
    for (let m = 0; m < 3; m++) step(env, [work(0), work(1)]);
    expect(env.effortLeft[0]).toBe(0);
    expect(env.finished[0]).toBe(1); // spent: the sprint is cut here, as at the deadline
    expect(env.tEnd[0]).toBe(env.t);
    expect(env.isOver()).toBe(true);
    expect(env.left[0]).toBe(1);
    expect(env.left[1]).toBe(1);
  });

  it('booked effort: an agent whose action the rest cannot pay idles, in agent order', () => {
    const task = handTask([3, 3], [1, 1], [-1, -1]);
    const env = envOn(task, 2, effort(0.5)); // ceil(3) = 3 agent-minutes
    step(env, [work(0), work(1)]);
    expect(env.effortLeft[0]).toBe(1);
    step(env, [work(0), work(1)]); // agent 0 pays the last minute; agent 1 idles
    expect(env.left[0]).toBe(1);
    expect(env.left[1]).toBe(2);
    expect(env.lastAction[1]).toBe(A_IDLE);
    expect(env.metric(0, 'idle')).toBe(1);
    expect(env.metric(0, 'useful')).toBe(3);
    expect(env.finished[0]).toBe(1);
  });

  it('booked effort of 0 or absent is unlimited, and the same sprint as without the rule', () => {
    const task = handTask([6, 4], [1, 1], [-1, -1]);
    expect(withCosts(task, effort(0))).toBe(task);
    const env = envOn(task, 2, effort(0));
    expect(env.effortLeft[0]).toBe(Infinity);
    for (let m = 0; m < 5; m++) step(env, [work(0), work(1)]);
    expect(env.finished[0]).toBe(0);
    expect(env.left[0]).toBe(1);
  });

  it('booked effort of 1.3 x the nominal work leaves the scripted organisation untouched on long-coupled', async () => {
    const tasks = tasksWithCosts(evaluationTasks('long-coupled', 12), { interrupt: true, conflict: false, broadcast: true, merge: false });
    const off = await runEpisodes(scriptedOrganisation, tasks, 8, 7, 80, 2);
    const on = await runEpisodes(
      scriptedOrganisation,
      tasks.map((t) => withCosts(t, { ...(t.costs as SprintCosts), effort: 1.3 })),
      8,
      7,
      80,
      2,
    );
    expect(on.stats).toEqual(off.stats);
    expect(on.events).toEqual(off.events);
    // ...and the rule binds: the organisation's busiest sprint needs more than its nominal work.
    const busiest = Math.max(...off.stats.map((s, i) => (s.tEnd * 8 - s.metrics.idle) / totalWork(tasks[i])));
    expect(busiest).toBeGreaterThan(1.1);
    expect(busiest).toBeLessThanOrEqual(1.3);
  });

  it("booked effort: the observation's minutes left are those the rest pays the whole team for, when fewer than to the deadline", () => {
    const task = handTask([6, 4], [1, 1], [-1, -1]);
    const env = envOn(task, 2, effort(1.2)); // 12 agent-minutes: 6 minutes of both agents, deadline 20
    const obs = new Float32Array(2 * OBS_DIM);
    encodeObservations(env, obs);
    expect(env.minutesLeft(0)).toBe(6);
    expect(obs[G_MINUTES_LEFT]).toBeCloseTo(6 / 30, 6);
    expect(obs[OBS_DIM + G_MINUTES_LEFT]).toBeCloseTo(6 / 30, 6);
    step(env, [work(0), A_IDLE]);
    expect(env.minutesLeft(0)).toBe(5.5);
    const free = envOn(task, 2, NO_COSTS);
    encodeObservations(free, obs);
    expect(obs[G_MINUTES_LEFT]).toBeCloseTo(20 / 30, 6);
  });
});
