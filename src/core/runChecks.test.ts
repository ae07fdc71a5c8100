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
    expect(refusal(g)).toContain('episodes.items[1].references: expected finite returns');
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
