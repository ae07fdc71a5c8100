import { describe, expect, it } from 'vitest';
import { A_DM, A_IDLE, A_POST, A_READ, work } from './actions';
import { scriptedOrganisation } from './baselines';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import { evaluationTasks } from './seeds';
import { observedSource } from './actionSource';
import { emptyTalkCounts, TalkAudit } from './talkAudit';
import { handTask } from './testing';

describe('the talk audit', () => {
  it('splits deliveries into those built on, those never built on, and those that brought nothing', () => {
    // Module 0 (2 min) carries modules 1 and 2 (3 min each); four agents, the handoff rule.
    const env = new SprintEnv(1, 4);
    env.reset([handTask([2, 3, 3], [1, 1, 1], [-1, 0, 0], [], true)], 0, 20);
    const counts = emptyTalkCounts();
    const audit = new TalkAudit(counts);
    audit.begin(env);
    const minutes = [
      [work(0), A_IDLE, A_IDLE, A_IDLE],
      [work(0), A_IDLE, A_IDLE, A_IDLE], // module 0 finished: agent 0 knows its interface
      [A_DM + 1, A_DM + 2, A_IDLE, A_IDLE], // agent 0 hands it to agent 1; agent 1's DM brings nothing
      [A_POST, work(1), A_READ, A_IDLE], // agent 1 builds on it; agent 2 reads the board before the post lands
      [work(2), A_DM + 2, A_READ, A_IDLE], // agent 1 relays it mid-module; agent 2 reads it too
      [A_DM + 3, work(1), work(2), A_IDLE], // agent 2 builds on both; agent 0 tells agent 3, who never builds
      [work(2), work(1), work(2), A_IDLE],
    ];
    for (const m of minutes) {
      const actions = Int32Array.from(m);
      audit.minute(env, actions);
      env.step(actions);
    }
    audit.finish();
    expect(counts).toEqual({
      rollouts: 1,
      dms: 4,
      dmsNothingNew: 1,
      dmsUsed: 2, // to agent 1 (minute 2), to agent 2 (minute 4)
      dmsMidModule: 2, // agent 1 in minute 4, agent 0 in minute 5 (module 2 still open)
      reads: 2,
      readsNothingNew: 1,
      readsUsed: 1,
    });
  });

  it('leaves the play unchanged, and the scripted organisation builds on every DM it sends', async () => {
    const tasks = evaluationTasks('long-planned', 8);
    const plain = await runEpisodes(scriptedOrganisation, tasks, 8, 1, 72);
    const audit = new TalkAudit(emptyTalkCounts());
    const audited = await runEpisodes(observedSource(scriptedOrganisation, audit), tasks, 8, 1, 72);
    audit.finish();
    expect(audited.stats.map((s) => s.ret)).toEqual(plain.stats.map((s) => s.ret));
    const c = audit.counts;
    expect(c.rollouts).toBe(8);
    expect(c.dms).toBe(plain.stats.reduce((s, x) => s + x.metrics.dms, 0));
    expect(c.dms).toBeGreaterThan(0);
    expect(c.dmsUsed).toBe(c.dms);
  });
});
