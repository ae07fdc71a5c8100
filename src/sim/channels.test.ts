import { describe, expect, it } from 'vitest';
import { A_IDLE, A_POST, A_READ, dm, NUM_ACTIONS, work } from './actions';
import { scriptedOrganisation } from './baselines';
import { scriptedCeo } from './ceo';
import { CHANNEL_POLICIES, channelIndex, channelPolicyOf, mayDm, mayPost, PRESET_CHANNELS, type ChannelPolicy, type SideBoardRules } from './channels';
import { NO_COSTS, tasksWithCosts, withCosts, type SprintCosts } from './costs';
import { SprintEnv } from './env';
import { runEpisodes } from './evaluate';
import { encodeMasks } from './observe';
import { orchestrated, scriptedOrchestrator, scriptedWorkers } from './orchestrator';
import { evaluationTasks } from './seeds';
import { STRUCTURES, type StructureKind } from './structure';
import { handTask } from './testing';
import type { Task } from './task';

const step = (env: SprintEnv, actions: number[]) => env.step(Int32Array.from(actions));
const rules = (channels: ChannelPolicy, side?: SideBoardRules): SprintCosts => ({ ...NO_COSTS, channels, side });
const OPEN_SIDE: SideBoardRules = { mode: 'open', catchRate: 0, catchCost: 0 };

function envOn(task: Task, agents: number, costs: SprintCosts, seed = 0): SprintEnv {
  const env = new SprintEnv(1, agents);
  env.reset([withCosts(task, costs)], seed, 20);
  env.logRollout = 0;
  return env;
}

describe('channel policies', () => {
  it('each preset brings its policy, and the setting overrides it', () => {
    expect(Object.keys(PRESET_CHANNELS)).toEqual([...STRUCTURES]);
    expect(STRUCTURES.map((s) => channelPolicyOf('preset', s))).toEqual(['open', 'hub', 'open', 'hub']);
    expect(channelPolicyOf('board', 'ceo')).toBe('board');
    expect(channelPolicyOf('open', 'orchestrator')).toBe('open');
  });

  it('says who may DM and post: allowed and blocked under each policy', () => {
    const table = CHANNEL_POLICIES.map((p) => {
      const x = channelIndex(p);
      return [p, mayDm(x, 1, 2), mayDm(x, 1, 0), mayDm(x, 0, 3), mayPost(x, 0), mayPost(x, 2)];
    });
    expect(table).toEqual([
      ['open', true, true, true, true, true],
      ['hub', false, true, true, true, true],
      ['command', false, true, true, true, false],
      ['board', false, false, false, true, true],
    ]);
  });
});

describe('an attempt', () => {
  it('costs its sender the minute, delivers nothing, and is counted and logged', () => {
    // Agent 1 finishes module 0; then it DMs agent 2 (blocked under hub) and agent 0 (allowed).
    const task = handTask([1, 3], [1, 1], [-1, 0], [], true);
    const env = envOn(task, 3, rules('hub'));
    step(env, [A_IDLE, work(0), A_IDLE]);
    step(env, [A_IDLE, dm(2), A_IDLE]);
    expect(env.known[2]).toBe(0);
    expect(env.metric(0, 'attempts')).toBe(1);
    expect(env.metric(0, 'dms')).toBe(0);
    expect(env.lastWasted[1]).toBe(1);
    expect(env.events.find((e) => e.kind === 'attempt')).toMatchObject({ t: 1, agent: 1, target: 2, useful: false, carried: 1 });
    step(env, [A_IDLE, dm(0), A_IDLE]);
    expect(env.known[0]).toBe(1);
    expect(env.metric(0, 'dms')).toBe(1);
    expect(env.metric(0, 'attempts')).toBe(1);
  });

  it('a post outside the policy puts nothing on the board', () => {
    const task = handTask([1, 3], [1, 1], [-1, 0], [], true);
    const env = envOn(task, 3, rules('command'));
    step(env, [A_IDLE, work(0), A_IDLE]);
    step(env, [A_IDLE, A_POST, A_IDLE]);
    expect(env.board[0]).toBe(0);
    expect(env.metric(0, 'attempts')).toBe(1);
    expect(env.events.find((e) => e.kind === 'attempt')).toMatchObject({ t: 1, agent: 1, target: -1 });
  });

  it('the policy masks nothing: a blocked DM stays a legal action', () => {
    const env = envOn(handTask([3], [1], [-1]), 3, rules('board'));
    const mask = new Float32Array(3 * NUM_ACTIONS);
    encodeMasks(env, mask);
    expect(mask[NUM_ACTIONS + dm(2)]).toBe(1);
    expect(mask[NUM_ACTIONS + dm(1)]).toBe(0); // to oneself: still masked without the unofficial board
  });
});

describe('the unofficial board', () => {
  it('a DM to oneself posts on it: everyone gets the interface at once, nobody is interrupted', () => {
    const task = handTask([1, 3, 3, 3], [1, 1, 1, 1], [-1, 0, 0, -1], [], true);
    const costs: SprintCosts = { ...NO_COSTS, interrupt: true, broadcast: true, side: OPEN_SIDE };
    const env = envOn(task, 4, costs);
    const mask = new Float32Array(4 * NUM_ACTIONS);
    encodeMasks(env, mask);
    expect(mask[dm(0)]).toBe(1);
    step(env, [work(0), A_IDLE, A_IDLE, work(3)]);
    step(env, [dm(0), A_IDLE, A_IDLE, work(3)]);
    expect([env.known[1] & 1, env.known[2] & 1, env.known[3] & 1]).toEqual([1, 1, 1]);
    expect(env.metric(0, 'sidePosts')).toBe(1);
    expect(env.metric(0, 'interrupted')).toBe(0);
    expect(env.left[3]).toBe(1);
    expect(env.metric(0, 'handoffs')).toBe(1);
    expect(env.board[0]).toBe(0); // the sanctioned board never sees it
    expect(env.events.find((e) => e.kind === 'side')).toMatchObject({ t: 1, agent: 0, target: -1, useful: true, carried: 1 });
  });

  it('without it a DM to oneself is a wasted minute, as before', () => {
    const env = envOn(handTask([1, 3], [1, 1], [-1, 0], [], true), 2, NO_COSTS);
    step(env, [work(0), A_IDLE]);
    step(env, [dm(0), A_IDLE]);
    expect(env.known[1]).toBe(0);
    expect(env.metric(0, 'selfDms')).toBe(1);
  });

  it('the monitor catches posts at its rate, over many seeded draws, and charges each at the deadline', () => {
    const rate = 0.3;
    const cost = 0.01;
    const side: SideBoardRules = { mode: 'monitored', catchRate: rate, catchCost: cost };
    const B = 200;
    const env = new SprintEnv(B, 2);
    const task = withCosts(handTask([40], [1], [-1]), { ...NO_COSTS, side });
    env.reset(
      Array.from({ length: B }, () => task),
      11,
      20,
    );
    for (let t = 0; t < 20; t++) env.step(new Int32Array(B * 2).map((_, r) => (r % 2 === 0 ? dm(0) : work(0))));
    let caught = 0;
    for (let b = 0; b < B; b++) {
      caught += env.metric(b, 'caught');
      expect(env.metric(b, 'sidePosts')).toBe(20);
      expect(env.penalty[b]).toBeCloseTo(env.metric(b, 'caught') * cost, 6);
      expect(env.finalReturn(b)).toBeCloseTo(env.returnOf(b) - env.metric(b, 'caught') * cost, 6);
    }
    const share = caught / (B * 20);
    // 4000 draws: the standard error of the share is about 0.007.
    expect(Math.abs(share - rate)).toBeLessThan(0.025);
  });

  it('the monitor can take more than the whole return, and its draws move no other draw', () => {
    const side: SideBoardRules = { mode: 'monitored', catchRate: 1, catchCost: 1 };
    const task = handTask([2, 3], [1, 1], [-1, -1], [0, 0.3]);
    const play = (costs: SprintCosts, a0: number) => {
      const env = envOn(task, 2, costs, 5);
      for (let t = 0; t < 6; t++) step(env, [t < 2 ? a0 : work(0), work(1)]);
      return env;
    };
    const on = play({ ...NO_COSTS, side }, dm(0));
    const off = play(NO_COSTS, A_READ);
    expect(on.finalReturn(0)).toBeCloseTo(on.returnOf(0) - 2, 6);
    expect(on.returnOf(0)).toBe(off.returnOf(0));
    expect(Array.from(on.left)).toEqual(Array.from(off.left));
  });
});

describe('the scripted organisations keep to their preset', () => {
  const structures: { structure: StructureKind; source: Parameters<typeof runEpisodes>[0] }[] = [
    { structure: 'flat', source: scriptedOrganisation },
    { structure: 'ceo', source: scriptedCeo },
    { structure: 'islands', source: scriptedOrganisation },
    { structure: 'orchestrator', source: orchestrated(scriptedOrchestrator, scriptedWorkers) },
  ];
  for (const { structure, source } of structures) {
    it(`${structure}: 0 attempts under ${PRESET_CHANNELS[structure]}, and under every other policy`, async () => {
      for (const policy of CHANNEL_POLICIES) {
        const tasks = tasksWithCosts(evaluationTasks('long-planned', 6), rules(policy));
        const run = await runEpisodes(source, tasks, 8, 1, 72, -1, { structure, budget: 400, islands: 2 });
        const attempts = run.stats.reduce((a, s) => a + s.metrics.attempts, 0);
        const messages = run.stats.reduce((a, s) => a + s.metrics.dms + s.metrics.posts, 0);
        expect(attempts).toBe(0);
        expect(messages).toBeGreaterThan(0);
      }
    });
  }

  it('under hub, the flat organisation talks only through agent 0 and the board', async () => {
    const tasks = tasksWithCosts(evaluationTasks('long-planned', 2), rules('hub'));
    const run = await runEpisodes(scriptedOrganisation, tasks, 8, 1, 72, 0);
    const dms = run.events.filter((e) => e.kind === 'dm' && e.carried !== undefined);
    expect(dms.length).toBeGreaterThan(0);
    for (const e of dms) expect(e.agent === 0 || e.target === 0).toBe(true);
  });
});
