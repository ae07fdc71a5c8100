/**
 * The claims' cache of trained runs (`<out>/cache/<key>.json`): a condition and seed trained and
 * evaluated once, in this process or in a `--jobs` child (`train-one`), and read back from then on.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PolicyActor } from '../../src/rl/actor';
import { evaluationTasks } from '../../src/sim/seeds';
import { CONFIG_KEYS, costsOf, type Config } from '../../src/rl/config';
import { tasksWithCosts } from '../../src/sim/costs';
import { MutedActor } from '../../src/rl/muted';
import { SwarmPolicy } from '../../src/rl/policy';
import { Trainer } from '../../src/rl/trainer';
import type { EpisodeStats } from '../../src/sim/episodeStats';
import { mean, runEpisodes, summariseWork } from '../../src/sim/evaluate';
import { raceHorizon, raceOrganisations, summariseTimes, timeToThreshold } from '../../src/sim/race';
import type { ActionSource } from '../../src/sim/actionSource';
import { cacheKey, writeAtomic } from '../lib/cache';
import { formatDuration, ProgressBar, type ProgressOut } from '../lib/progress';
import { reportProgress } from '../lib/childProgress';
import { CONDITIONS, type ConditionRun, type CurvePoint, type EvalNumbers } from './definitions';
import { CACHE_VERSION, CHECKPOINTS, fullConfig, type Scale } from './scale';

const round = (x: number) => (Number.isFinite(x) ? +x.toPrecision(5) : x);

function evalNumbers(stats: EpisodeStats[], agents: number): EvalNumbers {
  const work = summariseWork(stats, agents);
  const minutes = mean(stats.map((s) => s.tEnd));
  return {
    ...work,
    minutes,
    parallelism: work.useful / Math.max(1e-9, minutes),
    time90: summariseTimes(stats.map((s) => timeToThreshold(s.curve, 0.9))),
    curve: stats[0].curve.map((_, t) => round(mean(stats.map((s) => s.curve[t])))),
  };
}

async function evaluateSource(source: ActionSource, c: Config, tasks: number, seed: number): Promise<EvalNumbers> {
  // The swarm is evaluated under its condition's costs of talk, as it trained.
  const run = await runEpisodes(source, tasksWithCosts(evaluationTasks(c.family, tasks), costsOf(c)), c.agents, seed, c.tmaxEnd);
  return evalNumbers(run.stats, c.agents);
}

/** Options of a ConditionStore. */
export interface StoreOptions {
  /** No progress bars. */
  quiet?: boolean;
  /** Where a line per trained run goes (default stderr). */
  log?: (line: string) => void;
  /** Progress bars print a line per 10% instead of redrawing in place (for processes sharing a terminal). */
  lineBars?: boolean;
}

export const toStderr = (line: string) => process.stderr.write(line + '\n');

/** Trains (or loads from the cache) the runs of conditions and evaluates them. */
export class ConditionStore {
  private readonly runs = new Map<string, ConditionRun[]>();
  /** `<out>/cache`. */
  readonly cacheDir: string;
  private readonly quiet: boolean;
  private readonly log: (line: string) => void;
  private readonly barOut: ProgressOut;

  constructor(
    readonly scale: Scale,
    out: string,
    opts: StoreOptions = {},
  ) {
    this.quiet = opts.quiet ?? false;
    this.log = opts.log ?? toStderr;
    this.barOut = opts.lineBars ? { write: (t: string) => process.stderr.write(t) } : process.stderr;
    this.cacheDir = join(out, 'cache');
    mkdirSync(this.cacheDir, { recursive: true });
  }

  /** The scaled config of a condition. */
  config(id: string): Config {
    return this.scale.config(fullConfig(id));
  }

  /**
   * Cache key of a condition and seed: a hash of everything that determines the run. The config
   * enters whole (every field, in schema order), so a change of the defaults can never make a run
   * trained under the old defaults pass for one under the new (version 1 hashed the differences from
   * the defaults, and a changed default entropy did exactly that). Adding a config field changes
   * every key.
   */
  key(id: string, seed: number): string {
    const parent = CONDITIONS[id].from ? this.key(CONDITIONS[id].from!, seed) : null;
    const config = { ...this.config(id), seed };
    const what = {
      v: CACHE_VERSION,
      config: Object.fromEntries(CONFIG_KEYS.map((k) => [k, config[k]])),
      parent,
      evalTasks: this.scale.evalTasks,
      checkpointTasks: this.scale.checkpointTasks,
      checkpoints: CHECKPOINTS,
    };
    return cacheKey(what);
  }

  /** Whether the run of a condition and seed is cached. */
  cached(id: string, seed: number): boolean {
    return existsSync(join(this.cacheDir, `${this.key(id, seed)}.json`));
  }

  /** The cache key of the run a condition's run for `seed` continues, or null. */
  parentKey(id: string, seed: number): string | null {
    const from = CONDITIONS[id].from;
    return from ? this.key(from, seed) : null;
  }

  /** The runs of a condition, one per seed (training what is not cached). */
  async get(id: string): Promise<ConditionRun[]> {
    const have = this.runs.get(id);
    if (have) return have;
    const runs: ConditionRun[] = [];
    for (const seed of this.scale.seeds) runs.push(await this.run(id, seed));
    this.runs.set(id, runs);
    return runs;
  }

  /** One run from the cache, or trained here (its parent condition's runs first). */
  private async run(id: string, seed: number): Promise<ConditionRun> {
    const file = join(this.cacheDir, `${this.key(id, seed)}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ConditionRun;
    const from = CONDITIONS[id].from;
    if (from) await this.get(from);
    return this.train(id, seed);
  }

  /**
   * Trains one condition and seed and evaluates it, writes `<key>.policy.json` and then `<key>.json`
   * to the cache (each atomically) and returns the record. A condition with a parent starts from the
   * parent's cached weights for the same seed, which must be there. The one training path of both
   * the in-process runner and the `--jobs` child processes (`train-one.ts`).
   */
  async train(id: string, seed: number): Promise<ConditionRun> {
    const key = this.key(id, seed);
    const file = join(this.cacheDir, `${key}.json`);
    const config: Config = { ...this.config(id), seed };
    const parentKey = this.parentKey(id, seed);
    let start: SwarmPolicy | undefined;
    if (parentKey) {
      const parentFile = join(this.cacheDir, `${parentKey}.policy.json`);
      if (!existsSync(parentFile))
        throw new Error(`${id} seed ${seed} continues ${CONDITIONS[id].from} seed ${seed}, which is not in the cache (${parentFile})`);
      start = SwarmPolicy.fromJSON(JSON.parse(readFileSync(parentFile, 'utf8')));
    }
    const trainer = new Trainer(config, start);
    const bar = this.quiet ? null : new ProgressBar(`${id} seed ${seed}`, trainer.totalUpdates, this.barOut, { work: config });
    const marks = [...new Set(CHECKPOINTS.map((f) => Math.round(f * config.updates)))];
    const checkpoints: ConditionRun['checkpoints'] = [];
    const curve: CurvePoint[] = [];
    let evalMs = 0;
    const checkpoint = async () => {
      const done = trainer.update - config.prior;
      if (done < 0 || !marks.includes(done) || checkpoints.some((c) => c.update === done)) return;
      const e0 = performance.now();
      checkpoints.push({ update: done, eval: await evaluateSource(new PolicyActor(trainer.policy, seed), config, this.scale.checkpointTasks, seed) });
      evalMs += performance.now() - e0;
    };
    const t0 = performance.now();
    while (!trainer.finished) {
      await checkpoint();
      const { metrics: m } = await trainer.step();
      curve.push({
        update: m.update,
        phase: m.phase,
        tmax: m.tmax,
        ret: round(m.ret),
        messages: round(m.messages),
        messageRate: round(m.messageRate),
        handoffs: round(m.handoffs),
        useful: round(m.useful),
        duplicate: round(m.duplicate),
        claims: round(m.claims),
        entropy: round(m.entropy),
      });
      reportProgress(trainer.update, trainer.totalUpdates);
      bar?.update(trainer.update, `${m.phase} Tmax ${m.tmax}  return ${m.ret.toFixed(2)}  msgs ${m.messages.toFixed(1)}  handoffs ${m.handoffs.toFixed(1)}`);
    }
    await checkpoint();
    const trainSeconds = (performance.now() - t0 - evalMs) / 1000;
    const final = await evaluateSource(new PolicyActor(trainer.policy, seed), config, this.scale.evalTasks, seed);
    const muted = await evaluateSource(new MutedActor(trainer.policy, seed), config, this.scale.evalTasks, seed);
    const [race] = await raceOrganisations({
      tasks: evaluationTasks(config.family, this.scale.evalTasks),
      agents: config.agents,
      horizon: raceHorizon(config.tmaxEnd),
      seed,
      swarm: new PolicyActor(trainer.policy, seed),
      only: ['trained swarm'],
    });
    const record: ConditionRun = {
      version: CACHE_VERSION,
      key,
      condition: id,
      seed,
      config,
      parentKey,
      trainSeconds,
      curve,
      checkpoints,
      final,
      muted,
      race: { time: race.time, curve: race.curve.mean.map(round) },
    };
    writeAtomic(join(this.cacheDir, `${key}.policy.json`), JSON.stringify(trainer.policy.toJSON()));
    writeAtomic(file, JSON.stringify(record));
    trainer.dispose();
    this.log(
      `${id} seed ${seed}: trained in ${formatDuration(trainSeconds)}, return ${final.ret.toFixed(3)}, handoffs ${final.handoffs.toFixed(1)}, msgs ${final.messages.toFixed(1)}`,
    );
    return record;
  }
}
