import { defaultConfig, type Config } from '../rl/config';
import type { PolicyJSON } from '../rl/policy';
import type { SimEvent } from '../sim/events';
import { RunRecorder, type RecordedUpdate, type RecorderOptions } from './recorder';
import type { RunFile, TalkRecord } from './runFormat';

/** A small config for run-file tests. */
export function testConfig(over: Partial<Config> = {}): Config {
  return { ...defaultConfig(), family: 'coupled', tmaxStart: 8, tmaxEnd: 24, agents: 2, updates: 10, ...over };
}

/**
 * A made-up update `u` of a 2-agent, 2-module run (no TF.js): both agents work module 0, then
 * module 1, which completes at minute 3 on even updates and is unfinished on odd ones.
 */
export function fakeUpdate(u: number, total = 10): RecordedUpdate {
  const events: SimEvent[] = [];
  const ev = (t: number, agent: number, kind: SimEvent['kind'], module: number): SimEvent => ({ t, agent, kind, module, target: -1, useful: false });
  events.push(ev(0, 0, 'work', 0), ev(0, 1, 'collide', 0), ev(0, 0, 'complete', 0));
  events.push(ev(1, 0, 'work', 1), ev(1, 1, 'dm', -1), ev(2, 0, 'work', 1), ev(2, 1, 'idle', -1));
  if (u % 2 === 0) events.push(ev(2, 0, 'complete', 1));
  else events.push(ev(3, 0, 'work', 1), ev(3, 1, 'idle', -1));
  return {
    metrics: {
      update: u,
      phase: 'rlcr',
      tmax: 4 + (u % 3),
      ret: 0.25 + (u % 75) / 100,
      retStd: 0.1,
      messages: 1,
      messageRate: 0.125,
      handoffs: 0,
      neededShare: 0,
      useful: 3,
      duplicate: 1,
      blocked: 0,
      emptyReads: 0,
      idle: 1,
      claims: 0,
      entropy: 1.5,
      loss: 0.05 - 0.01 * u,
      gradNorm: 0.3,
      collectMs: 12.5,
      learnMs: 30.25,
    },
    events,
    modules: [
      { tests: 3, dep: -1, work: 1, luck: false },
      { tests: 2, dep: 0, work: 2, luck: false },
    ],
    total,
    references: { chain: 0.5, bestOfN: 0.6, scripted: 0.9 },
  };
}

/** Made-up policy weights (the `SwarmPolicy.toJSON` layout, tiny shapes). */
export function fakeWeights(scale = 1): PolicyJSON {
  return {
    format: 'swarm-policy',
    version: 1,
    shape: { hidden: 2, scorer: 2 },
    obsDim: 3,
    actions: 2,
    weights: {
      g1: { shape: [3, 2], data: [0.1, -0.2, 0.3, -0.4, 0.5, -0.6].map((x) => x * scale) },
      b1: { shape: [2], data: [0, 1 / 3] },
    },
  };
}

/** A recorded run of `updates` fake updates with a checkpoint whenever wanted and at the end. */
export function fakeRun(updates = 10, options: RecorderOptions = {}): RunFile {
  const config = testConfig({ updates });
  const rec = new RunRecorder(config, { name: 'test run', created: new Date(Date.UTC(2024, 4, 1, 12)), ...options });
  for (let u = 0; u < updates; u++) {
    rec.push(fakeUpdate(u, updates));
    if (rec.wantsCheckpoint(u + 1)) rec.addCheckpoint(u + 1, fakeWeights(u + 1));
  }
  rec.addCheckpoint(updates, fakeWeights(updates));
  return rec.snapshot();
}

/**
 * A talk measurement after `updates` updates that coordination can judge: 400 useful agent-minutes,
 * `duplicate` of them duplicated, against a scripted organisation at 0.95 (the return's target 0.93).
 */
export function measuredTalk(updates: number, ret: number, duplicate: number, neededShare: number, tmax = 24): TalkRecord {
  return { updates, tmax, tasks: 8, ret, muted: 0.5, neededShare, messages: 10, useful: 400, duplicate, scripted: 0.95 };
}
