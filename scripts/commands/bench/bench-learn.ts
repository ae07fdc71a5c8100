/**
 * Time to coordination: `npm run bench:learn [-- --family long-planned] [--agents 8] [--seed 1 | --seeds 1,2,3]
 * [--set 'lr=0.006&updates=150'] [--budget 900] [--every 1] [--eval-tasks 16] [--threads auto] [--json <file>]`.
 *
 * Trains the default swarm (the app's default config, or another task family with its calibrated
 * deadline schedule) on the wasm backend and, every `--every` seconds of training, plays it on fresh
 * evaluation tasks at the final deadline. It prints the training seconds (evaluations not counted)
 * and updates until the swarm first meets the definition of coordination (src/sim/coordination.ts:
 * a return within 0.02 of the scripted organisation's on the same tasks, duplicates at most 15% of
 * useful work, at least half the deliveries needed), or says that it never did within the budget or
 * the run's updates. The figure the
 * project's performance goal is written in (docs/RESULTS.md). It prints numbers; it asserts nothing.
 * With `--threads N` (default: one per core, at most one per task group) an update's task groups
 * train on N threads at once (scripts/lib/shardThreads.ts). With `--seeds` it trains each seed in
 * turn and ends with the median over them (scripts/lib/bench/seedTimes.ts): where the swarm ends
 * within a hundredth of the target, which evaluation first lands over it depends on the seed, so one
 * seed's time says little about a setting.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import * as tf from '@tensorflow/tfjs';
import { evaluatePolicy, referenceReturns } from '../../../src/rl/compare';
import { configToStrings, costsOf, defaultConfig, familyChange, type Config } from '../../../src/rl/config';
import { Trainer } from '../../../src/rl/trainer';
import { coordination, coordinationGaps, MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN } from '../../../src/sim/coordination';
import { FAMILIES } from '../../../src/sim/task';
import { useBackend } from '../../lib/backend';
import { choiceFlag, intFlag, intListFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import { settingsFlag } from '../../lib/settingsFlag';
import { requireOutput } from '../../lib/outputFolder';
import { startThreaded } from '../../lib/shardThreads';
import { autoThreads, threadsProblem } from '../../lib/threads';
import { describeSeedTimes, formatSeedTimes, summariseSeedTimes } from '../../lib/bench/seedTimes';

const USAGE = `usage: npm run bench:learn -- [--family long-planned] [--agents 8] [--seed 1 | --seeds 1,2,3] [--set <settings>] [--budget 900] [--every 1] [--eval-tasks 16] [--threads auto] [--json <file>]
  --family <name>     task family (${FAMILIES.join(', ')}); its calibrated deadline schedule comes with it
  --agents <n>        agents in the swarm, 1-16 (default 8)
  --seed <n>          training seed (default 1)
  --seeds <list>      several training seeds, one after another (e.g. 1,2,3), and the median time over them
                      (a seed that never coordinated counts as slower than any that did)
  --set <settings>    other settings, as the app's URL hash writes them (e.g. 'lr=0.006&updates=150'); applied last
  --budget <s>        seconds of training before giving up (default 900)
  --every <s>         seconds of training between evaluations (default 1: a coarser one overstates the time by up to its interval;
                      evaluations are not counted as training and take about a twentieth of a second each)
  --eval-tasks <n>    fresh evaluation tasks per evaluation, 1-256 (default 16)
  --threads <n|auto>  threads to train on, each with its share of an update's task groups (default auto:
                      one per core, at most one per task group and 4; 1 = this thread alone)
  --json <file>       also write every number to <file>
  --help              print this help`;

/** Seed of the evaluation episodes' work draws and sampling. */
const EVAL_SEED = 99;

interface Options {
  config: Config;
  /** Training seeds, one run each (the config's seed unless --seeds). */
  seeds: number[];
  budget: number;
  every: number;
  evalTasks: number;
  threads: number;
  json?: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    family: { type: 'string' },
    agents: { type: 'string', default: '8' },
    seed: { type: 'string' },
    seeds: { type: 'string' },
    set: { type: 'string' },
    budget: { type: 'string', default: '900' },
    every: { type: 'string', default: '1' },
    'eval-tasks': { type: 'string', default: '16' },
    threads: { type: 'string', default: 'auto' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  if (v.seed !== undefined && v.seeds !== undefined) throw new UsageError('--seed and --seeds: give one (--seeds 1,2,3 trains each in turn)');
  let config: Config = { ...defaultConfig(), agents: intFlag('agents', v.agents, 1, 16), seed: intFlag('seed', v.seed ?? '1', 0, 2 ** 31 - 1) };
  if (v.family !== undefined) config = { ...config, ...familyChange(config, choiceFlag('family', v.family, FAMILIES)) };
  if (v.set !== undefined) config = settingsFlag(v.set, config);
  const seeds = v.seeds === undefined ? [config.seed] : intListFlag('seeds', v.seeds, 0, 2 ** 31 - 1);
  const threads = v.threads === 'auto' ? autoThreads(config) : intFlag('threads', v.threads, 1, 16);
  const problem = threadsProblem(config, threads);
  if (problem) throw new UsageError(problem);
  return {
    threads,
    config,
    seeds,
    budget: intFlag('budget', v.budget, 1, 86_400),
    every: intFlag('every', v.every, 1, 3_600),
    evalTasks: intFlag('eval-tasks', v['eval-tasks'], 1, 256),
    json: v.json === undefined ? undefined : pathFlag('json', v.json),
  };
}

/** One evaluation of the swarm during training. */
interface Evaluation {
  /** Seconds of training so far (evaluations excluded). */
  seconds: number;
  updates: number;
  /** Deadline the last update trained at. */
  tmax: number;
  /** Mean return on the evaluation tasks at the final deadline. */
  ret: number;
  /** Duplicate agent-minutes as a share of the useful ones. */
  duplicateShare: number;
  /** Share of the deliveries that brought an interface the receiver needed. */
  neededShare: number;
  /** Messages (DMs + posts) per episode. */
  messages: number;
  /** Whether the evaluation meets all three conditions of coordination (src/sim/coordination.ts). */
  coordinated: boolean;
}

/** One seed's run: its evaluations, and the first that met the definition (null: never). */
interface SeedRun {
  config: Config;
  reached: Evaluation | null;
  trainedSeconds: number;
  evaluationSeconds: number;
  evaluations: Evaluation[];
}

/** Trains `c` and evaluates it every `o.every` seconds of training until it coordinates, its budget runs out or its updates end. */
async function timeToCoordination(c: Config, o: Options, scripted: number): Promise<SeedRun> {
  const target = scripted - RETURN_MARGIN;
  console.log('  training s  updates  deadline  return  duplicates  needed  messages');
  const trainer = o.threads === 1 ? new Trainer(c) : await startThreaded(c, o.threads);
  const evals: Evaluation[] = [];
  let trained = 0;
  let evaluating = 0;
  let nextEval = 0;
  let reached: Evaluation | null = null;
  const evaluate = async () => {
    const t0 = performance.now();
    const r = await evaluatePolicy(trainer.policy, 'trained swarm', {
      family: c.family,
      agents: c.agents,
      tmax: c.tmaxEnd,
      tasks: o.evalTasks,
      seed: EVAL_SEED,
      ...trainer.evaluationSetup(),
    });
    const k = coordination(r, scripted);
    const e: Evaluation = {
      seconds: trained / 1000,
      updates: trainer.update,
      tmax: trainer.tmaxAt(Math.max(0, trainer.update - 1)),
      ret: r.ret,
      duplicateShare: k.duplicateShare,
      neededShare: r.neededShare,
      messages: r.messages,
      coordinated: k.met,
    };
    evals.push(e);
    evaluating += performance.now() - t0;
    const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : 'all');
    console.log(
      `  ${e.seconds.toFixed(1).padStart(10)}  ${String(e.updates).padStart(7)}  ${String(e.tmax).padStart(8)}  ${e.ret.toFixed(3)}  ${pct(e.duplicateShare).padStart(10)}  ${pct(e.neededShare).padStart(6)}  ${e.messages.toFixed(1).padStart(8)}  ${k.met ? '<- coordinated' : coordinationGaps(k)}`,
    );
    if (k.met && !reached) reached = e;
  };
  try {
    while (!reached && trained < o.budget * 1000 && !trainer.finished) {
      if (trained >= nextEval) {
        await evaluate();
        nextEval += o.every * 1000;
        if (reached) break;
      }
      const t0 = performance.now();
      await trainer.step();
      trained += performance.now() - t0;
    }
    if (!reached) await evaluate();
  } finally {
    await trainer.dispose();
  }
  const done = reached as Evaluation | null;
  const why = trainer.finished ? `the run's ${trainer.totalUpdates} updates` : `the budget of ${o.budget} s`;
  console.log(
    done
      ? `\ncoordinated after ${done.seconds.toFixed(1)} s of training (${done.updates} updates): return ${done.ret.toFixed(3)} >= ${target.toFixed(3)}, duplicates ${(done.duplicateShare * 100).toFixed(0)}% of useful work, ${(done.neededShare * 100).toFixed(0)}% of deliveries needed`
      : `\nnever coordinated within ${why}: best return ${Math.max(...evals.map((e) => e.ret)).toFixed(3)} (target ${target.toFixed(3)}) after ${(trained / 1000).toFixed(1)} s (${trainer.update} updates)`,
  );
  console.log(`${evals.length} evaluations took ${(evaluating / 1000).toFixed(1)} s, not counted as training`);
  return { config: c, reached: done, trainedSeconds: trained / 1000, evaluationSeconds: evaluating / 1000, evaluations: evals };
}

async function main(): Promise<void> {
  const o = readCommandLine('bench:learn', USAGE, parseOptions);
  if (o.json) requireOutput('bench:learn', 'json', o.json, 'file');
  await useBackend('wasm');
  const c = o.config;
  const scripted = (await referenceReturns(c.family, c.agents, c.tmaxEnd, o.evalTasks, costsOf(c))).scripted;
  const target = scripted - RETURN_MARGIN;
  const seedText = o.seeds.length === 1 ? `seed ${o.seeds[0]}` : `seeds ${o.seeds.join(', ')} one after another`;
  const setup = `${c.family}, ${c.agents} agents, ${seedText}, deadline ${c.tmaxStart} -> ${c.tmaxEnd} over ${c.updates} updates${c.prior > 0 ? ` after ${c.prior} imitation updates` : ''}`;
  console.log(`time to coordination: ${setup}; wasm backend, ${o.threads === 1 ? 'one thread' : `${o.threads} threads (the task groups split between them)`}`);
  const changed = Object.entries(configToStrings({ ...c, seed: defaultConfig().seed })).map(([k, v]) => `${k}=${v}`);
  if (changed.length) console.log(`settings other than the default: ${changed.join('&')}`);
  console.log(
    `coordination, on ${o.evalTasks} fresh tasks at ${c.tmaxEnd} minutes: a return of at least the scripted organisation's (${scripted.toFixed(3)}) - ${RETURN_MARGIN} = ${target.toFixed(3)}, duplicates at most ${MAX_DUPLICATE_SHARE * 100}% of useful work, at least ${MIN_NEEDED_SHARE * 100}% of deliveries needed`,
  );
  console.log(`evaluating every ${o.every} s of training, budget ${o.budget} s`);
  const runs: SeedRun[] = [];
  for (const seed of o.seeds) {
    console.log(o.seeds.length === 1 ? '' : `\nseed ${seed}`);
    runs.push(await timeToCoordination({ ...c, seed }, o, scripted));
  }
  const rows = runs.map((r) => ({
    seed: r.config.seed,
    seconds: r.reached ? r.reached.seconds : null,
    updates: r.reached ? r.reached.updates : null,
    trainedSeconds: r.trainedSeconds,
    best: r.evaluations.length ? Math.max(...r.evaluations.map((e) => e.ret)) : null,
  }));
  const summary = summariseSeedTimes(rows);
  if (runs.length > 1) {
    console.log(`\n${formatSeedTimes(rows)}`);
    console.log(describeSeedTimes(summary));
  }
  if (o.json) {
    const cpus = os.cpus();
    const machine = {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      node: process.version,
      tfjs: tf.version.tfjs,
      backend: 'wasm',
      threads: o.threads,
    };
    const definition = { returnMargin: RETURN_MARGIN, maxDuplicateShare: MAX_DUPLICATE_SHARE, minNeededShare: MIN_NEEDED_SHARE };
    const report = (r: SeedRun) => ({
      machine,
      config: r.config,
      scripted,
      target,
      budgetSeconds: o.budget,
      definition,
      reached: r.reached
        ? {
            seconds: r.reached.seconds,
            updates: r.reached.updates,
            ret: r.reached.ret,
            duplicateShare: r.reached.duplicateShare,
            neededShare: r.reached.neededShare,
          }
        : null,
      trainedSeconds: r.trainedSeconds,
      evaluationSeconds: r.evaluationSeconds,
      evaluations: r.evaluations,
    });
    // One seed: that run's report, as always; several: each seed's report and the summary over them.
    const out = runs.length === 1 ? report(runs[0]) : { summary, seeds: runs.map(report) };
    writeFileSync(o.json, `${JSON.stringify(out, null, 2)}\n`);
    console.log(`wrote ${o.json}`);
  }
}

void main();
