import { describe, expect, it } from 'vitest';
import { A_IDLE, A_READ, claim, work } from './actions';
import { randomPolicy, scriptedOrganisation } from './baselines';
import { NO_COSTS, tasksWithCosts, withCosts } from './costs';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import type { ActionSource } from './actionSource';
import { auditedSource, auditMinute, emptyPileCounts, pilesIdled, type PileCounts } from './pileAudit';
import { createStructure } from './presets';
import { evaluationTasks } from './seeds';
import { handTask } from './testing';
import type { Task } from './task';

/** Plays `minutes` (one action list per minute) on a fresh env and audits each minute before it is stepped. */
function audit(task: Task, agents: number, minutes: number[][]): { env: SprintEnv; counts: PileCounts } {
  const env = new SprintEnv(1, agents);
  env.reset([task], 0, 20);
  const counts = emptyPileCounts();
  for (const m of minutes) {
    const actions = Int32Array.from(m);
    auditMinute(env, actions, counts);
    env.step(actions);
  }
  return { env, counts };
}

describe('the pile audit', () => {
  it('counts who works each open module, and matches the environment’s duplicate work', () => {
    // Module 0 (5 min) needs nothing; module 1 (5 min) needs module 0's interface; module 2 (5 min) needs nothing.
    const task = handTask([5, 5, 5], [1, 1, 1], [-1, 0, -1]);
    const { env, counts } = audit(task, 4, [
      [claim(0), claim(1), A_IDLE, A_IDLE], // claims: module 0 to agent 0, module 1 to agent 1
      [work(0), A_IDLE, A_IDLE, A_IDLE], // owner alone; module 1 stalls, blocked for its owner
      [work(0), work(0), work(0), A_IDLE], // owner with two others: agent 1 (own claim blocked), agent 2 (module 2 free)
      [A_READ, work(0), A_IDLE, work(2)], // others without the owner on 0; unclaimed module 2 worked
      [A_IDLE, A_IDLE, A_IDLE, A_IDLE], // module 0 stalls though its owner could work it
    ]);
    expect(counts.ownerAlone).toBe(1);
    expect(counts.ownerWithOthers).toBe(1);
    expect(counts.othersWithoutOwner).toBe(1);
    expect(counts.unclaimedWorked).toBe(1);
    expect(counts.stalledWorkable).toBe(1);
    // Module 1 is blocked for its owner in every audited minute but the claims' (claimed only at its end).
    expect(counts.stalledBlocked).toBe(4);
    expect(counts.redundant).toBe(2);
    expect(counts.redundantOwnBlocked).toBe(1);
    expect(counts.redundantFreeWorkable).toBe(1);
    expect(counts.redundantOwnWorkable + counts.redundantNothing).toBe(0);
    expect(counts.redundant).toBe(env.metric(0, 'duplicate'));
  });

  it('splits a redundant agent by what it could have done: its own workable claim, or nothing at all', () => {
    const task = handTask([5, 5], [1, 1], [-1, -1]);
    const { counts } = audit(task, 3, [
      [claim(0), claim(1), A_IDLE],
      [work(0), work(0), work(0)], // agent 1 neglects its own module 1; agent 2 has no claim and nothing free
    ]);
    expect(counts.redundant).toBe(2);
    expect(counts.redundantOwnWorkable).toBe(1);
    expect(counts.redundantNothing).toBe(1);
    expect(counts.stalledWorkable).toBe(1); // module 1, whose owner was on module 0
  });

  it('does not count a minute the environment would not: blocked, on a finished module, or past the booked effort', () => {
    const task = handTask([1, 5], [1, 1], [-1, 0]);
    // Module 1 needs module 0's interface, which nobody has: three agents on it are all blocked.
    const blocked = audit(task, 3, [[work(1), work(1), work(1)]]);
    expect(blocked.counts.redundant).toBe(0);
    expect(blocked.counts.unclaimedWorked).toBe(0);
    // Booked effort of two agent-minutes: agent 2's minute is not played, so it piles on nobody.
    const booked = withCosts(handTask([5], [1], [-1]), { ...NO_COSTS, effort: 2 / 5 });
    const { env, counts } = audit(booked, 3, [[work(0), work(0), work(0)]]);
    expect(counts.redundant).toBe(1);
    expect(counts.redundant).toBe(env.metric(0, 'duplicate'));
  });

  it('agrees with the environment’s duplicate work over whole episodes, and leaves the play unchanged', async () => {
    const tasks = tasksWithCosts(evaluationTasks('long-coupled', 6), { interrupt: true, conflict: false, broadcast: true, merge: false });
    const duplicates = (stats: { metrics: { duplicate: number } }[]) => stats.reduce((sum, s) => sum + s.metrics.duplicate, 0);
    const plain = await runEpisodes(randomPolicy(5), tasks, 8, 3, 80);
    const counts = emptyPileCounts();
    const audited = await runEpisodes(auditedSource(randomPolicy(5), counts), tasks, 8, 3, 80);
    expect(audited.stats.map((s) => s.ret)).toEqual(plain.stats.map((s) => s.ret));
    expect(counts.redundant).toBeGreaterThan(0);
    expect(counts.redundant).toBe(duplicates(audited.stats));
    expect(counts.redundantOwnWorkable + counts.redundantOwnBlocked + counts.redundantFreeWorkable + counts.redundantNothing).toBe(counts.redundant);
    // The scripted organisation keeps to its own claims.
    const org = emptyPileCounts();
    await runEpisodes(auditedSource(scriptedOrganisation, org), tasks, 8, 3, 80);
    expect(org.redundant).toBe(0);
    expect(org.othersWithoutOwner).toBe(0);
    expect(org.ownerAlone).toBeGreaterThan(0);
  });

  it('refuses a team under a structure, whose rules rewrite actions', () => {
    const s = createStructure({ structure: 'ceo', budget: 120, islands: 2 }, 4);
    const env = s.createEnv(1);
    env.reset(s.cellTasks(evaluationTasks('long-coupled', 1)), 0, 20, s.cellStreams(undefined, 1));
    expect(() => auditMinute(env, new Int32Array(env.B * env.N), emptyPileCounts())).toThrow(/flat teams only/);
  });
});

/** A source that plays `minutes` (one action list per minute), then idles. */
function scripted(minutes: number[][]): ActionSource {
  let t = 0;
  return {
    name: 'scripted',
    act: (_env, out) => {
      out.fill(A_IDLE);
      const m = minutes[t++];
      if (m) out.set(m.slice(0, out.length));
    },
  };
}

/** Plays `minutes` through pilesIdled on a fresh env of one rollout. */
async function idledPlay(task: Task, agents: number, minutes: number[][]) {
  const env = new SprintEnv(1, agents);
  env.reset([task], 0, 20);
  const turned = { minutes: 0 };
  const source = pilesIdled(scripted(minutes), turned);
  const played: number[][] = [];
  for (let t = 0; t < minutes.length; t++) {
    const actions = new Int32Array(agents);
    await source.act(env, actions);
    played.push(Array.from(actions));
    env.step(actions);
  }
  return { env, turned: turned.minutes, played };
}

describe('the piles played as idle minutes', () => {
  it('keeps the first agent on a pile working and idles the others; minutes that would not count are left alone', async () => {
    // Module 1 needs module 0's interface, which nobody has yet: work on it is blocked, not a pile.
    const task = handTask([5, 5, 5], [1, 1, 1], [-1, 0, -1]);
    const { env, turned, played } = await idledPlay(task, 4, [
      [work(0), work(0), work(2), work(0)],
      [work(1), work(1), work(2), A_READ],
    ]);
    expect(played[0]).toEqual([work(0), A_IDLE, work(2), A_IDLE]);
    expect(played[1]).toEqual([work(1), work(1), work(2), A_READ]);
    expect(turned).toBe(2);
    expect(env.metric(0, 'duplicate')).toBe(0);
    expect(env.metric(0, 'idle')).toBe(2);
    expect(env.metric(0, 'useful')).toBe(3);
  });

  it('keeps the claimant under the conflict rule, so the minute still counts', async () => {
    const task = withCosts(handTask([5], [1], [-1]), { ...NO_COSTS, conflict: true });
    const { env, played } = await idledPlay(task, 3, [
      [A_IDLE, A_IDLE, claim(0)],
      [work(0), work(0), work(0)],
    ]);
    expect(played[1]).toEqual([A_IDLE, A_IDLE, work(0)]);
    expect(env.metric(0, 'useful')).toBe(1);
    expect(env.metric(0, 'conflicts')).toBe(0);
  });

  it('idles again an agent whose minute the booked effort now pays for', async () => {
    // Two agent-minutes booked: once agent 1 idles, agent 2 has one to draw and would pile on too.
    const booked = withCosts(handTask([5], [1], [-1]), { ...NO_COSTS, effort: 2 / 5 });
    const { env, turned, played } = await idledPlay(booked, 3, [[work(0), work(0), work(0)]]);
    expect(played[0]).toEqual([work(0), A_IDLE, A_IDLE]);
    expect(turned).toBe(2);
    expect(env.metric(0, 'duplicate')).toBe(0);
  });

  it('leaves no pile in whole episodes, and a team that never piles plays exactly as before', async () => {
    const tasks = tasksWithCosts(evaluationTasks('long-planned', 4), { interrupt: true, conflict: false, broadcast: true, merge: false });
    const turned = { minutes: 0 };
    const plain = await runEpisodes(randomPolicy(5), tasks, 8, 3, 72);
    const idled = await runEpisodes(pilesIdled(randomPolicy(5), turned), tasks, 8, 3, 72);
    expect(plain.stats.some((s) => s.metrics.duplicate > 0)).toBe(true);
    expect(idled.stats.every((s) => s.metrics.duplicate === 0)).toBe(true);
    expect(turned.minutes).toBeGreaterThan(0);
    const org = await runEpisodes(scriptedOrganisation, tasks, 8, 3, 72);
    const orgIdled = await runEpisodes(pilesIdled(scriptedOrganisation, { minutes: 0 }), tasks, 8, 3, 72);
    expect(orgIdled.stats).toEqual(org.stats);
  });

  it('refuses a team under a structure', async () => {
    const s = createStructure({ structure: 'ceo', budget: 120, islands: 2 }, 4);
    const env = s.createEnv(1);
    env.reset(s.cellTasks(evaluationTasks('long-coupled', 1)), 0, 20, s.cellStreams(undefined, 1));
    await expect(pilesIdled(scripted([]), { minutes: 0 }).act(env, new Int32Array(env.B * env.N))).rejects.toThrow(/flat teams only/);
  });
});
