import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { MAX_TMAX, checkpointShapeIssue, maxEvents, meaningIssues, trainableCheckpoint } from './runChecks';
import { decodeRunFile, type DecodeResult } from './runFile';
import type { RunFile } from './runFormat';
import { fakeRun, fakeWeights } from './testing';

/** The fake run as plain JSON data, for corrupting one field. */
const plain = (): Record<string, any> => JSON.parse(JSON.stringify(fakeRun(6)));
const decode = (v: unknown): DecodeResult => decodeRunFile(strToU8(JSON.stringify(v)));

function refusal(v: unknown): string {
  const r = decode(v);
  if (r.ok) throw new Error('expected the file to be refused');
  expect(r.code).toBe('invalid');
  return r.error;
}

describe('meaning checks of a run file', () => {
  it('accepts an honest run', () => {
    const run = fakeRun(6);
    expect(meaningIssues(run)).toEqual([]);
    expect(decode(run).ok).toBe(true);
  });

  it('reads a return below 0 only where the monitor can charge it, and no lower than all it can charge', () => {
    const run = fakeRun(6);
    run.metrics[1].ret = -0.5;
    expect(meaningIssues(run).map((i) => i.message)).toEqual(['-0.5 is outside 0 to 1 (a return is the share of tests passing, 0 to 1)']);
    run.config = { ...run.config, sideBoard: 'monitored', catchCost: 0.05 };
    expect(meaningIssues(run)).toEqual([]);
    run.metrics[1].ret = -1000;
    expect(meaningIssues(run)[0].message).toMatch(
      /^-1000 is outside -[\d.]+ to 1 \(the share of tests passing, 0 to 1, less at most [\d.]+ charged by the monitor\)$/,
    );
  });

  it('refuses a deadline beyond the longest one (every metrics[i].tmax = 2147483647)', () => {
    const f = plain();
    for (const m of f.metrics) m.tmax = 2147483647;
    expect(refusal(f)).toContain(`metrics[0].tmax: 2147483647 minutes is beyond the longest deadline (${MAX_TMAX})`);
  });

  it('refuses an agent outside the team (agent 100000)', () => {
    const f = plain();
    f.episodes.items[2].events[1].agent = 100000;
    expect(refusal(f)).toContain('episodes.items[2].events[1].agent: agent 100000 is not in the team (agents 0 to 1)');
  });

  it('refuses a DM to an agent outside the team and a module outside the task', () => {
    const f = plain();
    f.episodes.items[0].events[0] = { t: 0, agent: 0, kind: 'dm', module: -1, target: 1000000, useful: false };
    expect(refusal(f)).toContain('target: agent 1000000 is not in the team');
    const g = plain();
    g.episodes.items[0].events[0].module = 2;
    expect(refusal(g)).toContain('module 2 is not in the task (modules 0 to 1)');
  });

  it('refuses an event after its episode deadline', () => {
    const f = plain();
    f.episodes.items[0].events[0].t = f.episodes.items[0].tmax + 1;
    expect(refusal(f)).toContain('is after the deadline');
  });

  it('refuses more events than the team can make, before looking at each', () => {
    const f = plain();
    const e = f.episodes.items[0];
    const limit = maxEvents(2, e.tmax, e.modules.length);
    e.events = Array.from({ length: limit + 1 }, () => ({ t: 0, agent: 0, kind: 'idle', module: -1, target: -1, useful: false }));
    expect(refusal(f)).toContain(`${limit + 1} events, at most ${limit}`);
  });

  it('refuses a NaN return (readouts would show "swarm NaN") and NaN references', () => {
    const f = plain();
    f.metrics[3].ret = null;
    expect(refusal(f)).toContain('metrics[3].ret: expected a finite number');
    const g = plain();
    g.episodes.items[1].references.chain = null;
    expect(refusal(g)).toContain('episodes.items[1].references.chain: expected a finite number, got NaN or null');
  });

  // The probe of issue 26: extreme but finite numbers that broke the charts.
  it('refuses counts beyond what the team can do in the deadline, a negative count and a null one, each by its path', () => {
    const f = plain();
    for (const m of f.metrics) Object.assign(m, { useful: 1e308, messages: 1e308, duplicate: -1e308, idle: null });
    const error = refusal(f);
    // metrics[0]: 2 agents, deadline 4 (fakeUpdate), so at most 8 agent-minutes of anything.
    expect(error).toContain('metrics[0].messages: 1e+308 is outside 0 to 8 (2 agents x 4 minutes, one action an agent a minute)');
    expect(error).toContain('metrics[0].useful: 1e+308 is outside 0 to 8');
    expect(error).toContain('metrics[0].duplicate: -1e+308 is outside 0 to 8');
    expect(error).toContain('metrics[0].idle: expected a finite number, got NaN or null');
    expect(error).toContain('metrics[1].messages: 1e+308 is outside 0 to 10');
  });

  it('refuses returns and reference returns outside 0 to 1', () => {
    const f = plain();
    for (const m of f.metrics) m.ret = 1e308;
    for (const e of f.episodes.items) e.references = { chain: -1e308, bestOfN: 1e308, scripted: 1e308 };
    const error = refusal(f);
    expect(error).toContain('metrics[0].ret: 1e+308 is outside 0 to 1 (a return is the share of tests passing, 0 to 1)');
    const g = plain();
    g.episodes.items[2].references = { chain: -1e308, bestOfN: 1e308, scripted: 1.5 };
    const refs = refusal(g);
    expect(refs).toContain('episodes.items[2].references.chain: -1e+308 is outside 0 to 1');
    expect(refs).toContain('episodes.items[2].references.bestOfN: 1e+308 is outside 0 to 1');
    expect(refs).toContain('episodes.items[2].references.scripted: 1.5 is outside 0 to 1');
  });

  it('holds each bound exactly: the largest count the team allows passes, one more is refused', () => {
    // metrics[2] has deadline 6 (fakeUpdate): 2 x 6 = 12 agent-minutes.
    const at = (k: string, v: number) => {
      const f = plain();
      f.metrics[2][k] = v;
      return meaningIssues(f as RunFile).map((i) => i.path.join('.'));
    };
    for (const k of ['messages', 'handoffs', 'useful', 'duplicate', 'blocked', 'emptyReads', 'idle', 'claims']) {
      expect(at(k, 12)).toEqual([]);
      expect(at(k, 12.5)).toEqual([`metrics.2.${k}`]);
      expect(at(k, -0.5)).toEqual([`metrics.2.${k}`]);
    }
    expect(at('messageRate', 1)).toEqual([]);
    expect(at('messageRate', 1.01)).toEqual(['metrics.2.messageRate']);
    expect(at('neededShare', 1.01)).toEqual(['metrics.2.neededShare']);
    expect(at('retStd', -0.1)).toEqual(['metrics.2.retStd']);
    // Diagnostics may be NaN (a diverged policy) and are not drawn as curves.
    expect(at('loss', NaN)).toEqual([]);
    expect(at('gradNorm', 1e308)).toEqual([]);
  });

  it("holds a structure's numbers to the team, the deadline and the settings", () => {
    const at = (structure: Record<string, number>, kind: 'ceo' | 'islands' | 'orchestrator' = 'ceo') => {
      const f = plain() as RunFile;
      f.config.structure = kind;
      f.metrics[0].structure = structure; // deadline 4, 2 agents
      return meaningIssues(f).map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(at({ headCount: 2, budgetSpent: 8, hires: 4, fires: 4 })).toEqual([]);
    expect(at({ headCount: 3 })).toEqual(["metrics.0.structure.headCount: 3 is outside 0 to 2 (at most the swarm's 2 agents are active)"]);
    expect(at({ budgetSpent: 9 })[0]).toContain('metrics.0.structure.budgetSpent: 9 is outside 0 to 8');
    expect(at({ hires: 5 })[0]).toContain('agent 0 acts once a minute for 4 minutes');
    expect(at({ islandBest: 1, islandMean: 1.2 }, 'islands')).toEqual([
      'metrics.0.structure.islandMean: 1.2 is outside 0 to 1 (a return is the share of tests passing, 0 to 1)',
    ]);
    expect(at({ criticalSteps: 8, assigns: 4, parallelShare: 1, finishShare: 0, shapingWeight: 10 }, 'orchestrator')).toEqual([]);
    expect(at({ criticalSteps: 9, assigns: 5, shapingWeight: 11 }, 'orchestrator').map((l) => l.split(':')[0])).toEqual([
      'metrics.0.structure.criticalSteps',
      'metrics.0.structure.assigns',
      'metrics.0.structure.shapingWeight',
    ]);
    expect(at({ headCount: NaN })[0]).toContain('expected a finite number, got NaN or null');
  });

  it('lets islands send more messages than their first finisher played minutes, and holds talk measurements to their ranges', () => {
    const f = plain() as RunFile;
    f.config.structure = 'islands';
    f.metrics[0].messageRate = 4; // deadline 4
    expect(meaningIssues(f)).toEqual([]);
    f.metrics[0].messageRate = 4.5;
    expect(meaningIssues(f).map((i) => i.path.join('.'))).toEqual(['metrics.0.messageRate']);
    const g = plain() as RunFile;
    g.talk = [{ updates: 0, tmax: 24, tasks: 2, ret: NaN, muted: 0.5, neededShare: NaN, messages: 48 }];
    expect(meaningIssues(g)).toEqual([]);
    g.talk[0] = { ...g.talk[0], ret: 2, messages: 49 };
    expect(meaningIssues(g).map((i) => i.path.join('.'))).toEqual(['talk.0.ret', 'talk.0.messages']);
  });

  it('refuses a module that depends on itself or on a module the task lacks, and work that is not positive', () => {
    const f = plain();
    f.episodes.items[0].modules[1].dep = 1;
    expect(refusal(f)).toContain('modules[1].dep: 1 is not another module');
    const g = plain();
    g.episodes.items[0].modules[0].work = 0;
    expect(refusal(g)).toContain('modules[0].work: 0 is not a positive number');
  });

  it('refuses structure data that does not fit the team', () => {
    const f = plain();
    f.episodes.items[0].structure = { kind: 'islands', islandOf: [0, 1, 0, 1, 0] };
    expect(refusal(f)).toContain('islandOf');
  });

  it('refuses a "__proto__" key in the settings or the weights, and unknown Object.prototype names', () => {
    const text = JSON.stringify(fakeRun(3));
    const refused = (t: string) => {
      const r = decodeRunFile(strToU8(t));
      return r.ok ? 'accepted' : r.error;
    };
    expect(refused(text.replace('"config":{', '"config":{"__proto__":{"agents":99},'))).toContain('config: a field named "__proto__" is not allowed');
    expect(refused(text.replace('"config":{', '"config":{"constructor":1,'))).toContain('unknown setting "constructor"');
    expect(refused(text.replace('"weights":{"g1"', '"weights":{"__proto__":{},"g1"'))).toContain(
      'checkpoints.items[0].weights.weights: a field named "__proto__"',
    );
  });

  it('stops collecting problems at 20 however many there are', () => {
    const f = plain() as RunFile;
    for (const m of f.metrics) m.tmax = 1e6;
    f.metrics = Array.from({ length: 200 }, (_, i) => ({ ...f.metrics[0], update: i }));
    expect(meaningIssues(f)).toHaveLength(20);
  });
});

describe('trainableCheckpoint', () => {
  /** A run whose checkpoint fits this build and a policy of hidden 2 / scorer 2. */
  const fitting = (): RunFile => {
    const run = fakeRun(3);
    run.config = { ...run.config, hidden: 2, scorer: 2, prior: 5 };
    for (const c of run.checkpoints.items) c.weights = { ...fakeWeights(), obsDim: OBS_DIM, actions: NUM_ACTIONS };
    return run;
  };

  it('gives the last checkpoint and the settings without the prior', () => {
    const r = trainableCheckpoint(fitting());
    expect(r.ok && r.config.prior).toBe(0);
    expect(r.ok && r.checkpoint.updates).toBe(3);
  });

  it('refuses NaN weights, weights of another width, another build, or none, saying nothing was changed', () => {
    const nan = fitting();
    nan.checkpoints.items.at(-1)!.weights.weights.b1.data[0] = NaN;
    const wide = fitting();
    wide.config.hidden = 64;
    const other = fitting();
    other.checkpoints.items.at(-1)!.weights.obsDim = 3;
    const none = fitting();
    none.checkpoints.items = [];
    const error = (run: RunFile) => {
      const r = trainableCheckpoint(run);
      return r.ok ? '' : r.error;
    };
    expect(error(nan)).toContain('weight "b1" holds NaN');
    expect(error(nan)).toContain('Nothing was changed');
    expect(error(wide)).toContain('hidden 2 / scorer 2, but its settings say 64 / 2');
    expect(error(other)).toContain(`made for 3 inputs / ${NUM_ACTIONS} actions, this build has ${OBS_DIM}`);
    expect(error(none)).toContain('holds no policy weights');
  });

  it('checkpointShapeIssue names both widths', () => {
    expect(checkpointShapeIssue({ hidden: 64, scorer: 32 }, { hidden: 64, scorer: 32 })).toBeNull();
    expect(checkpointShapeIssue({ hidden: 64, scorer: 32 }, { hidden: 8, scorer: 32 })).toContain('hidden 8 / scorer 32');
  });
});
