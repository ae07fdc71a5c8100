import { describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, A_READ, dm, work } from './actions';
import { auditCounts, auditCsv, auditJsonl, auditLog } from './audit';
import { scriptedOrganisation } from './baselines';
import { NO_COSTS, tasksWithCosts, withCosts } from './costs';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import type { SimEvent } from './events';
import { evaluationTasks } from './seeds';
import { handTask } from './testing';

describe('the audit log', () => {
  it('holds every message and attempt of a hand-made episode, and nothing else', () => {
    // 4 agents under hub with a monitored unofficial board that catches every post.
    const task = withCosts(handTask([1, 3, 3, 3], [1, 1, 1, 1], [-1, 0, 0, -1], [], true), {
      ...NO_COSTS,
      channels: 'hub',
      side: { mode: 'monitored', catchRate: 1, catchCost: 0.01 },
    });
    const env = new SprintEnv(1, 4);
    env.reset([task], 0, 20);
    env.logRollout = 0;
    const play = (a: number[]) => env.step(Int32Array.from(a));
    play([work(0), A_IDLE, A_IDLE, work(3)]); // minute 0: no message
    play([dm(1), dm(2), dm(0), A_POST]); // 1: a DM 0 -> 1, an attempt 1 -> 2, a DM 2 -> 0, a post by 3
    play([dm(0), A_READ, dm(9), A_IDLE]); // 2: an unofficial post by 0 (caught), a read, a DM to nobody
    const rows = auditLog(env.events);
    expect(rows.map((r) => [r.t, r.from, r.to, r.kind, r.status])).toEqual([
      [1, 1, 2, 'attempt', 'blocked'],
      [1, 3, 'board', 'post', 'allowed'],
      [1, 0, 1, 'dm', 'allowed'],
      [1, 2, 0, 'dm', 'allowed'],
      [2, 0, 'side-board', 'side', 'caught'],
    ]);
    expect(rows[2]).toMatchObject({ carried: [0], useful: true });
    expect(rows[3]).toMatchObject({ carried: [], useful: false });
    expect(auditCounts(rows)).toEqual({ allowed: 3, unsanctioned: 0, caught: 1, blocked: 1 });
  });

  it('matches the counters of a whole scripted episode: one row per delivery and per attempt', async () => {
    const tasks = tasksWithCosts(evaluationTasks('long-planned', 1), { ...NO_COSTS, channels: 'hub' });
    const run = await runEpisodes(scriptedOrganisation, tasks, 8, 1, 72, 0);
    const m = run.stats[0].metrics;
    const rows = auditLog(run.events);
    expect(rows.length).toBe(m.dms + m.posts + m.sidePosts + m.attempts);
    expect(rows.filter((r) => r.kind === 'dm').length).toBe(m.dms);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('reads the events of files from before it (no carried interfaces) by their targets', () => {
    const old: SimEvent[] = [
      { t: 0, agent: 0, kind: 'dm', module: -1, target: 2, useful: true },
      { t: 0, agent: 1, kind: 'dm', module: -1, target: 1, useful: false },
      { t: 0, agent: 2, kind: 'post', module: -1, target: -1, useful: false },
      { t: 0, agent: 3, kind: 'read', module: -1, target: -1, useful: true },
    ];
    const rows = auditLog(old);
    expect(rows.map((r) => [r.from, r.to, r.carried])).toEqual([
      [0, 2, null],
      [2, 'board', null],
    ]);
  });

  it('exports CSV and JSON Lines that read back to the same rows', () => {
    const rows = auditLog([
      { t: 3, agent: 1, kind: 'side', module: -1, target: -1, useful: true, carried: 0b101, caught: true },
      { t: 4, agent: 2, kind: 'attempt', module: -1, target: 5, useful: false, carried: 0 },
    ]);
    expect(auditCsv(rows)).toBe('minute,from,to,kind,carried,useful,status\n3,1,side-board,side,0 2,true,caught\n4,2,5,attempt,,false,blocked\n');
    expect(
      auditJsonl(rows)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual(rows);
  });
});
