/**
 * The claims runner behind `npm run experiment -- --claim C1|...|C9|all [--claim-scale smoke|full]
 * [--seeds 1,2,3] [--jobs N]`. It trains every condition the chosen claims need once per seed (a
 * condition shared by several claims is trained once; each run is cached as `<out>/cache/<key>.json`,
 * so a re-run resumes), in this process or in N child processes at once (`train-one.ts`), evaluates
 * the claims, and writes one folder per claim (README.md with the tables and the verdict, SVG plots)
 * plus a summary `<out>/README.md`.
 */
import * as tf from '@tensorflow/tfjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PolicyActor } from '../../src/rl/actor';
import { compareOrganisations } from '../../src/rl/compare';
import { evaluationTasks } from '../../src/sim/seeds';
import { CONFIG_KEYS, costsOf, defaultConfig, SCHEMA, type Config } from '../../src/rl/config';
import { tasksWithCosts, type SprintCosts } from '../../src/sim/costs';
import { MutedActor } from '../../src/rl/muted';
import { SwarmPolicy } from '../../src/rl/policy';
import { Trainer } from '../../src/rl/trainer';
import { scriptedOrganisation, singleChain } from '../../src/sim/baselines';
import type { EpisodeStats } from '../../src/sim/episodeStats';
import { mean, runEpisodes, summariseWork, type WorkSummary } from '../../src/sim/evaluate';
import { raceHorizon, raceOrganisations, summariseTimes, timeToThreshold } from '../../src/sim/race';
import type { ActionSource } from '../../src/sim/actionSource';
import type { Family } from '../../src/sim/task';
import { choiceFlag, collect, intFlag, parseFlags, readFlags, UsageError } from '../lib/cli';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../lib/backend';
import { cacheKey, writeAtomic } from '../lib/cache';
import { requireOutput } from '../lib/outputFolder';
import { formatDuration, ProgressBar, type ProgressOut } from '../lib/progress';
import { reportProgress } from '../lib/childProgress';
import { formatTable } from '../lib/table';
import {
  ACTIVE_SUITE,
  CLAIM_IDS,
  CLAIMS,
  CONDITIONS,
  DEFAULT_SUITE,
  evaluateClaim,
  SUITE_NAMES,
  useSuite,
  type SuiteName,
  type Baseline,
  type ClaimContext,
  type ClaimReport,
  type ConditionRun,
  type CurvePoint,
  type EvalNumbers,
} from './definitions';
import { RULES_TEXT, type Verdict } from './rules';
import { runJobs, runTsxChild, type TrainJob } from './schedule';
import {
  checkRunRecord,
  codeVersion,
  DEFAULT_QUEUE_NAME,
  DEFAULT_REDIS_WAIT,
  parseShard,
  QueueFault,
  queueAddress,
  queueNameProblem,
  shardRuns,
  type QueueAddress,
  type Shard,
} from './sweep';

/** Bumped whenever training or evaluation changes what a cached run would contain. */
export const CACHE_VERSION = 2;

/** Share of the RLCR updates after which a checkpoint is evaluated (0 = before RLCR, 1 = the end). */
export const CHECKPOINTS = [0, 0.1, 0.25, 0.5, 0.75, 1];

/** A compute budget for the claims. */
export interface Scale {
  name: ScaleName;
  /** Training seeds (also the evaluation seeds of the work draws). */
  seeds: number[];
  /** Fresh evaluation tasks per seed for the final evaluation. */
  evalTasks: number;
  /** Fresh evaluation tasks per seed at each checkpoint and for per-deadline references. */
  checkpointTasks: number;
  /** Maps a condition's full-size config to this budget's. */
  config(c: Config): Config;
}

export const SCALE_NAMES = ['smoke', 'full'] as const;
export type ScaleName = (typeof SCALE_NAMES)[number];

const smallDeadline = (t: number) => Math.max(3, Math.round(t / 4));

/**
 * The budgets. `full`: every condition as declared in `definitions.ts` (see docs/EXPERIMENTS.md for
 * the settings and their cost), 64 evaluation tasks. `smoke`: the same claims on a toy scale (2
 * agents, 2 updates, deadlines / 4, a tiny network): seconds, for tests of the machinery only.
 */
export const SCALES: Record<ScaleName, Scale> = {
  full: { name: 'full', seeds: [1, 2, 3], evalTasks: 64, checkpointTasks: 32, config: (c) => ({ ...c }) },
  smoke: {
    name: 'smoke',
    seeds: [1, 2, 3],
    evalTasks: 2,
    checkpointTasks: 2,
    config: (c) => ({
      ...c,
      agents: Math.min(c.agents, 2),
      updates: Math.min(c.updates, 2),
      prior: Math.min(c.prior, 1),
      tasksPerUpdate: 1,
      groupSize: 2,
      epochs: 1,
      hidden: 8,
      scorer: 4,
      tmaxStart: smallDeadline(c.tmaxStart),
      tmaxEnd: smallDeadline(c.tmaxEnd),
    }),
  },
};

/** The scale `name` with `seeds` instead of its default seeds (undefined: the defaults). */
export function scaleWithSeeds(name: ScaleName, seeds?: readonly number[]): Scale {
  const scale = SCALES[name];
  return seeds ? { ...scale, seeds: [...seeds] } : scale;
}

/** Whether `scale` runs exactly its budget's default seeds, in their order. */
export function hasDefaultSeeds(scale: Scale): boolean {
  const d = SCALES[scale.name].seeds;
  return scale.seeds.length === d.length && scale.seeds.every((s, i) => s === d[i]);
}

/**
 * Default output folder of a claims run: `results/claims` (full) or `results/claims-smoke`, with
 * `-seeds-7-8-9` appended when the seeds are not the budget's defaults, so that a run on other seeds
 * never overwrites the committed reports.
 */
export function defaultOut(scale: Scale): string {
  const suite = ACTIVE_SUITE.name === DEFAULT_SUITE.name ? '' : `-${ACTIVE_SUITE.name}`;
  const base = scale.name === 'full' ? `claims${suite}` : `claims${suite}-${scale.name}`;
  return join('results', hasDefaultSeeds(scale) ? base : `${base}-seeds-${scale.seeds.join('-')}`);
}

/** The command line that reproduces a claims run of `claims` (e.g. `C1` or `<id>`) at `scale`, `--seeds` included when not the defaults. */
export function claimCommand(claims: string, scale: Scale): string {
  const suite = ACTIVE_SUITE.name === DEFAULT_SUITE.name ? '' : ` --claim-suite ${ACTIVE_SUITE.name}`;
  return `npm run experiment -- --claim ${claims} --claim-scale ${scale.name}${suite}${hasDefaultSeeds(scale) ? '' : ` --seeds ${scale.seeds.join(',')}`}`;
}

/** A condition's config at full size: the defaults (or its parent's config) with its overrides. */
export function fullConfig(id: string): Config {
  const cond = CONDITIONS[id];
  if (!cond) throw new Error(`unknown condition ${id}`);
  const base = cond.from ? { ...fullConfig(cond.from), prior: 0 } : defaultConfig();
  return { ...base, ...cond.overrides };
}

/** Conditions needed by `claims`, parents before children. */
export function conditionsFor(claimIds: readonly string[]): string[] {
  const out: string[] = [];
  const add = (id: string) => {
    if (out.includes(id)) return;
    const from = CONDITIONS[id].from;
    if (from) add(from);
    out.push(id);
  };
  for (const c of CLAIMS.filter((c) => claimIds.includes(c.id))) for (const id of c.conditions) add(id);
  return out;
}

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

/** Options of a claims run. */
export interface ClaimsOptions {
  claims: string[];
  scale: ScaleName;
  /** Training (and evaluation) seeds; default the scale's (1, 2, 3). */
  seeds?: number[];
  /** Output folder: one sub-folder per claim, `cache/`, and README.md. */
  out: string;
  /** Runs to train at once, each in its own child process; 1 (the default) trains in this process. */
  jobs?: number;
  /** TF.js backend of the child processes (default: the backend this process uses). */
  backend?: NodeBackend;
  quiet?: boolean;
  /** Where progress and the plan go (default stderr). */
  log?: (line: string) => void;
  /** Train the missing runs on this BullMQ queue (`npm run sweep-worker` trains them) instead of here. */
  queue?: QueueAddress;
  /** The queue's name (default swarm-sweep). */
  queueName?: string;
  /** With `queue`: write the sweep's status to this file as it changes. */
  statusJson?: string;
  /** With `queue`: attempts (about seconds) to reach a Redis that went away before stopping (default 60). */
  redisWait?: number;
  /** Train only this slice of the run list into the cache, and write no reports. */
  shard?: Shard;
  /** Train nothing: report from the cache, or name the runs that are not there. */
  reportOnly?: boolean;
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

const toStderr = (line: string) => process.stderr.write(line + '\n');

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

/** The context claims evaluate in: cached runs plus memoised reference organisations. */
class Context implements ClaimContext {
  readonly seeds: number[];
  readonly scale: ClaimContext['scale'];
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: ConditionStore,
    private readonly loaded: Map<string, ConditionRun[]>,
  ) {
    this.seeds = store.scale.seeds;
    this.scale = { name: store.scale.name, evalTasks: store.scale.evalTasks, checkpointTasks: store.scale.checkpointTasks };
  }

  config(id: string): Config {
    return this.store.config(id);
  }

  runs(id: string): ConditionRun[] {
    const r = this.loaded.get(id);
    if (!r) throw new Error(`condition ${id} was not run`);
    return r;
  }

  private once<T>(key: string, f: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, f());
    return this.memo.get(key) as Promise<T>;
  }

  baselines(id: string): Promise<Baseline[]> {
    const c = this.config(id);
    // The reference organisations play under the condition's costs of talk, as its swarm does.
    const costs = costsOf(c);
    return this.once(`base:${c.family}:${c.agents}:${c.tmaxEnd}:${JSON.stringify(costs)}`, async () => {
      const out: Baseline[] = [];
      for (const seed of this.seeds) {
        const orgs = await compareOrganisations({ family: c.family, agents: c.agents, tmax: c.tmaxEnd, tasks: this.scale.evalTasks, seed, costs });
        const race = await raceOrganisations({
          tasks: tasksWithCosts(evaluationTasks(c.family, this.scale.evalTasks), costs),
          agents: c.agents,
          horizon: raceHorizon(c.tmaxEnd),
          seed,
        });
        out.push({ orgs, race });
      }
      return out;
    });
  }

  reference(family: Family, agents: number, tmax: number, seed: number, costs?: SprintCosts): Promise<{ chain: WorkSummary; scripted: WorkSummary }> {
    return this.once(`ref:${family}:${agents}:${tmax}:${seed}:${JSON.stringify(costs ?? null)}`, async () => {
      const tasks = tasksWithCosts(evaluationTasks(family, this.scale.checkpointTasks), costs);
      const chain = summariseWork((await runEpisodes(singleChain, tasks, agents, seed, tmax)).stats, agents);
      const scripted = summariseWork((await runEpisodes(scriptedOrganisation, tasks, agents, seed, tmax)).stats, agents);
      return { chain, scripted };
    });
  }
}

function mdTable(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

const VERDICT_MARK: Record<Verdict, string> = { reproduced: 'reproduced', partly: 'partly reproduced', 'not reproduced': 'not reproduced' };

/** The markdown page of one claim. */
export function renderReport(r: ClaimReport, scale: Scale, store: ConditionStore, runs: Map<string, ConditionRun[]>): string {
  const lines = [
    `# ${r.id}: ${r.title}`,
    '',
    `**Claim.** ${r.statement}`,
    '',
    `**Verdict: ${VERDICT_MARK[r.verdict]}** (scale \`${scale.name}\`, seeds ${scale.seeds.join(', ')}).`,
    '',
  ];
  lines.push('```sh', claimCommand(r.id, scale), '```', '');
  if (r.conditions.length) {
    lines.push('## Training conditions', '');
    const rows = r.conditions.map((id) => {
      const c = store.config(id);
      const secs = (runs.get(id) ?? []).map((x) => x.trainSeconds);
      return [
        `\`${id}\``,
        CONDITIONS[id].label,
        c.family,
        String(c.agents),
        String(c.prior ? `${c.prior} + ${c.updates}` : c.updates),
        `${c.tmaxStart} -> ${c.tmaxEnd}`,
        secs.length ? formatDuration(mean(secs)) : '-',
      ];
    });
    lines.push(mdTable(['condition', 'what', 'family', 'agents', 'updates', 'deadline', 'training time per seed'], rows), '');
  }
  lines.push('## Results', '');
  for (const t of r.tables) lines.push(t.caption, '', mdTable(t.header, t.rows), '');
  lines.push(
    '## Verdict by part',
    '',
    mdTable(
      ['part', 'rule', 'measured (mean ± sd over seeds; per seed)', 'outcome'],
      r.parts.map((p) => [p.name, p.rule, p.numbers, p.outcome]),
    ),
    '',
    RULES_TEXT,
    '',
  );
  if (r.plots.length) {
    lines.push('## Plots', '');
    for (const p of r.plots) lines.push(`![${p.caption}](${p.file})`, '', `*${p.caption}*`, '');
  }
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** What `verdict.json` holds for one claim. */
interface VerdictFile {
  id: string;
  verdict: Verdict;
  parts: { outcome: string }[];
  /** Scale and seeds of the run that wrote it (absent in files written before `--seeds`). */
  scale?: ScaleName;
  seeds?: number[];
}

/**
 * Rewrites `<out>/README.md` from the verdicts of every claim folder present. It names the scale, the
 * seeds and the command; a claim whose verdict was measured on other seeds than `scale`'s says so.
 */
export function writeSummary(out: string, scale: Scale): string {
  const rows: string[][] = [];
  for (const id of CLAIM_IDS) {
    const f = join(out, id, 'verdict.json');
    if (!existsSync(f)) {
      rows.push([id, CLAIMS.find((c) => c.id === id)!.title, 'pending (not run into this folder)', '']);
      continue;
    }
    const v = JSON.parse(readFileSync(f, 'utf8')) as VerdictFile;
    const other = v.seeds && v.seeds.join(',') !== scale.seeds.join(',') ? ` (seeds ${v.seeds.join(', ')})` : '';
    rows.push([`[${id}](${id}/README.md)`, CLAIMS.find((c) => c.id === id)!.title, VERDICT_MARK[v.verdict] + other, v.parts.map((p) => p.outcome).join(', ')]);
  }
  const text = [
    `# Claims (scale \`${scale.name}\`, seeds ${scale.seeds.join(', ')})`,
    '',
    'Each claim is run with `' + claimCommand('<id>', scale) + '`; see docs/EXPERIMENTS.md.',
    '',
    mdTable(['claim', 'statement', 'verdict', 'parts'], rows),
    '',
    RULES_TEXT,
    '',
  ].join('\n');
  writeFileSync(join(out, 'README.md'), text);
  return text;
}

/** Flags of `train-one.ts`: one (condition, seed) run of a claims scale into `<out>/cache`. */
export interface TrainOneOptions {
  scale: ScaleName;
  out: string;
  condition: string;
  seed: number;
  backend: NodeBackend;
  quiet: boolean;
  /**
   * The cache key the caller computed for this run. When given, the child refuses to train under
   * another key (the definitions or the code changed since the caller started, or a setting was not
   * passed on), instead of filling the cache with a run nobody reads.
   */
  key?: string;
}

/** The child-process entry point of `--jobs`, beside this file. */
export const TRAIN_ONE_ENTRY = fileURLToPath(new URL('../commands/experiments/train-one.ts', import.meta.url));

/** The command-line arguments of `train-one.ts` for `o` (read back by `parseTrainOneArgs`). */
export function trainOneArgv(o: TrainOneOptions): string[] {
  return [
    '--suite',
    ACTIVE_SUITE.name,
    '--scale',
    o.scale,
    '--out',
    o.out,
    '--condition',
    o.condition,
    '--seed',
    String(o.seed),
    '--backend',
    o.backend,
    ...(o.key ? ['--key', o.key] : []),
    ...(o.quiet ? ['--quiet'] : []),
  ];
}

/** Reads the flags of `train-one.ts`; throws a UsageError for a bad command line. */
export function parseTrainOneArgs(argv: string[]): TrainOneOptions {
  const v = parseFlags(argv, {
    suite: { type: 'string' },
    scale: { type: 'string' },
    out: { type: 'string' },
    condition: { type: 'string' },
    seed: { type: 'string' },
    backend: { type: 'string' },
    key: { type: 'string' },
    quiet: { type: 'boolean' },
  });
  const errors: string[] = [];
  for (const k of ['scale', 'out', 'condition', 'seed', 'backend'] as const) if (v[k] === undefined) errors.push(`--${k} is required`);
  if (v.scale !== undefined && !SCALE_NAMES.includes(v.scale as ScaleName)) errors.push(`--scale: "${v.scale}" is not one of ${SCALE_NAMES.join(', ')}`);
  if (v.suite !== undefined && !SUITE_NAMES.includes(v.suite as SuiteName)) errors.push(`--suite: "${v.suite}" is not one of ${SUITE_NAMES.join(', ')}`);
  else useSuite((v.suite ?? DEFAULT_SUITE.name) as SuiteName);
  if (v.condition !== undefined && !Object.hasOwn(CONDITIONS, v.condition)) errors.push(`--condition: unknown condition "${v.condition}"`);
  if (v.backend !== undefined && !NODE_BACKENDS.includes(v.backend as NodeBackend))
    errors.push(`--backend: "${v.backend}" is not one of ${NODE_BACKENDS.join(', ')}`);
  let seed = NaN;
  if (v.seed !== undefined) {
    const seeds = parseSeeds(v.seed);
    if (typeof seeds === 'string' || seeds.length !== 1) errors.push(`--seed: "${v.seed}" is not one seed`);
    else seed = seeds[0];
  }
  if (errors.length) throw new UsageError(errors.join('\n'));
  return {
    scale: v.scale as ScaleName,
    out: v.out!,
    condition: v.condition!,
    seed,
    backend: v.backend as NodeBackend,
    quiet: v.quiet ?? false,
    ...(v.key !== undefined ? { key: v.key } : {}),
  };
}

/**
 * `train-one.ts`: trains one condition and seed into `<out>/cache` with `ConditionStore.train` (its
 * parent must be cached) unless it is cached already. Returns the exit code: 0 done, 1 failed, 2 bad
 * command line; the message goes to stderr.
 */
export async function trainOneFromArgs(argv: string[]): Promise<number> {
  let o: TrainOneOptions;
  try {
    o = parseTrainOneArgs(argv);
  } catch (e) {
    process.stderr.write(`train-one: ${(e as Error).message.split('\n').join('\ntrain-one: ')}\n`);
    return 2;
  }
  try {
    const store = new ConditionStore(SCALES[o.scale], o.out, { quiet: o.quiet, lineBars: true });
    const key = store.key(o.condition, o.seed);
    if (o.key !== undefined && o.key !== key)
      throw new Error(
        `its cache key here is ${key}, the runner expected ${o.key}: the claim definitions or the code changed since the runner started (or a setting was not passed on); start the run again`,
      );
    await useBackend(o.backend);
    if (store.cached(o.condition, o.seed)) toStderr(`${o.condition} seed ${o.seed}: already in the cache`);
    else await store.train(o.condition, o.seed);
    return 0;
  } catch (e) {
    process.stderr.write(`error: training ${o.condition} seed ${o.seed} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}

/** The backend this process's TF.js runs on, when it is one the child processes can use. */
function currentBackend(): NodeBackend {
  const name = tf.getBackend();
  if (!NODE_BACKENDS.includes(name as NodeBackend))
    throw new Error(`--jobs: the child processes cannot use this process's TF.js backend "${name}" (one of ${NODE_BACKENDS.join(', ')})`);
  return name as NodeBackend;
}

/**
 * Trains the missing runs of `needed` (parents before children) in up to `jobs` child processes at
 * once; a continuation starts once its parent's run for the same seed is cached. Throws, naming the
 * condition and seed, when a child fails (no further child starts after that).
 */
async function trainInChildren(
  store: ConditionStore,
  needed: readonly string[],
  opts: { scale: ScaleName; out: string; jobs: number; backend: NodeBackend; quiet: boolean },
  log: (line: string) => void,
  only?: readonly TrainJob[],
): Promise<void> {
  const todo: TrainJob[] =
    only?.slice() ??
    needed.flatMap((condition) =>
      store.scale.seeds
        .filter((seed) => !store.cached(condition, seed))
        .map((seed) => ({ condition, seed, key: store.key(condition, seed), parentKey: store.parentKey(condition, seed) })),
    );
  await runJobs(
    todo,
    opts.jobs,
    async (job) => {
      await runTsxChild(
        TRAIN_ONE_ENTRY,
        trainOneArgv({ scale: opts.scale, out: opts.out, condition: job.condition, seed: job.seed, backend: opts.backend, quiet: opts.quiet, key: job.key }),
      );
      if (!store.cached(job.condition, job.seed)) throw new Error('its child process exited without writing the run to the cache');
      // The same check as a queue worker's result gets before it enters the cache.
      checkRunRecord(readFileSync(join(store.cacheDir, `${job.key}.json`), 'utf8'), { ...job, version: CACHE_VERSION });
    },
    log,
  );
}

/** Every run the claims need, cached or not, parents before children: the list `--shard` slices. */
export function runList(store: ConditionStore, claims: readonly string[]): TrainJob[] {
  return conditionsFor(claims).flatMap((condition) =>
    store.scale.seeds.map((seed) => ({ condition, seed, key: store.key(condition, seed), parentKey: store.parentKey(condition, seed) })),
  );
}

/**
 * Identity of a sweep on a queue: its code version, setting, budget, seeds and claims (the same on a
 * restart; after a change of the code, the old code's unfinished runs count as another sweep).
 */
export function sweepId(claims: readonly string[], scale: Scale): string {
  return cacheKey({ code: codeVersion(CACHE_VERSION), suite: ACTIVE_SUITE.name, scale: scale.name, seeds: scale.seeds, claims });
}

/**
 * Runs the claims: trains what is missing (here, in `jobs` child processes at once, or on a queue),
 * evaluates them from the cache, writes the reports; returns them. With `shard` it trains only that
 * slice and returns no reports; with `reportOnly` it trains nothing and fails naming missing runs.
 */
export async function runClaims(opts: ClaimsOptions): Promise<ClaimReport[]> {
  const scale = scaleWithSeeds(opts.scale, opts.seeds);
  const jobs = opts.jobs ?? 1;
  const log = opts.log ?? toStderr;
  const store = new ConditionStore(scale, opts.out, { quiet: opts.quiet, log });
  const needed = conditionsFor(opts.claims);
  const all = runList(store, opts.claims);
  const list = opts.shard ? shardRuns(all, opts.shard) : all;
  const todo = list.filter((j) => !store.cached(j.condition, j.seed));
  const missing = todo.map((j) => `${j.condition}/${j.seed}`);
  if (opts.reportOnly && todo.length)
    throw new Error(
      `--report-only: ${todo.length} of the ${all.length} run(s) are not in ${store.cacheDir}: ${todo.map((j) => `${j.condition} seed ${j.seed} (${j.key})`).join(', ')}; copy in the caches of the shards that trained them, or run without --report-only to train them here`,
    );
  const how = !missing.length ? '' : opts.queue ? ` on the queue` : jobs > 1 ? `, ${Math.min(jobs, missing.length)} at a time in child processes` : '';
  const slice = opts.shard ? `, shard ${opts.shard.index}/${opts.shard.count}: ${list.length} of the ${all.length} runs` : '';
  log(
    `claims ${opts.claims.join(', ')} at scale ${scale.name}: ${needed.length} condition(s) x ${scale.seeds.length} seed${scale.seeds.length === 1 ? '' : 's'} (${scale.seeds.join(', ')})${slice}, ${missing.length} run(s) to train${missing.length ? `: ${missing.join(' ')}` : ''}${how}`,
  );
  if (missing.length && opts.queue)
    await (
      await import('./queue')
    ).trainOnQueue(store, todo, {
      address: opts.queue,
      queueName: opts.queueName ?? DEFAULT_QUEUE_NAME,
      scale: opts.scale,
      suite: ACTIVE_SUITE.name,
      sweep: sweepId(opts.claims, scale),
      quiet: opts.quiet ?? false,
      log,
      statusFile: opts.statusJson ?? null,
      redisWait: opts.redisWait ?? DEFAULT_REDIS_WAIT,
    });
  else if (missing.length && jobs > 1)
    await trainInChildren(
      store,
      opts.shard ? todo.map((j) => j.condition).filter((c, i, a) => a.indexOf(c) === i) : needed,
      { scale: opts.scale, out: opts.out, jobs, backend: opts.backend ?? currentBackend(), quiet: opts.quiet ?? false },
      log,
      opts.shard ? todo : undefined,
    );
  else if (opts.shard) for (const j of todo) await store.train(j.condition, j.seed);
  if (opts.shard) return [];
  const reports: ClaimReport[] = [];
  const failed: string[] = [];
  for (const claim of CLAIMS.filter((c) => opts.claims.includes(c.id))) {
    const loaded = new Map<string, ConditionRun[]>();
    let report: ClaimReport;
    try {
      for (const id of claim.conditions) loaded.set(id, await store.get(id));
      report = await evaluateClaim(claim, new Context(store, loaded));
    } catch (e) {
      log(`${claim.id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      failed.push(claim.id);
      continue;
    }
    const dir = join(opts.out, claim.id);
    mkdirSync(dir, { recursive: true });
    for (const p of report.plots) writeFileSync(join(dir, p.file), p.svg);
    writeFileSync(join(dir, 'README.md'), renderReport(report, scale, store, loaded));
    const verdict: VerdictFile = { id: report.id, verdict: report.verdict, parts: report.parts, scale: scale.name, seeds: scale.seeds };
    writeFileSync(join(dir, 'verdict.json'), JSON.stringify(verdict, null, 1));
    writeSummary(opts.out, scale);
    reports.push(report);
    const lines = [`${report.id}: ${report.title}`, `verdict: ${VERDICT_MARK[report.verdict]}`];
    for (const t of report.tables.slice(0, 1)) lines.push(formatTable(t.header, t.rows));
    for (const p of report.parts) lines.push(`  [${p.outcome}] ${p.name}: ${p.numbers}`);
    process.stdout.write(lines.join('\n') + '\n\n');
  }
  if (failed.length) throw new Error(`claim(s) ${failed.join(', ')} failed (see above); the others were written`);
  return reports;
}

/** Most `--jobs`. */
export const MAX_JOBS = 16;

const CLAIM_FLAGS: Record<string, string> = {
  claim: `claim(s) to run: ${CLAIM_IDS.join(', ')}, a comma-separated list, or all`,
  'claim-scale': `compute budget: ${SCALE_NAMES.join(' or ')} (default full)`,
  'claim-suite': `setting: long (the long-horizon families under today's defaults, default), second-round (the same families without the costs of talk, a constant entropy bonus: the second and third rounds' default; output results/claims-second-round) or short (the first round's families and deadlines; results/claims-short)`,
  seeds: 'comma-separated training seeds, e.g. 7,8,9 (default 1,2,3)',
  jobs: `runs to train at once, each in its own child process, 1..${MAX_JOBS} (default 1: in this process)`,
  out: 'output folder (default results/claims, or results/claims-smoke for the smoke scale; with other seeds, -seeds-7-8-9 appended)',
  backend: `TF.js backend: ${NODE_BACKENDS.join(' or ')} (default wasm)`,
  quiet: 'no progress bars',
  queue: 'train on the BullMQ queue at redis://[:PASSWORD@]HOST:PORT (or rediss:// for TLS; default REDIS_URL when set), served by npm run sweep-worker',
  'queue-name': `the queue's name, for several sweeps on one Redis (default ${DEFAULT_QUEUE_NAME})`,
  'status-json':
    "with --queue: write the sweep's status (runs done, running on which worker at which update, waiting, failed, ETA) to this JSON file as it changes",
  'redis-wait': `with --queue: attempts a second apart to reach a Redis that went away before stopping with exit code 2, 1..86400 (default ${DEFAULT_REDIS_WAIT})`,
  shard: 'train only the I-th of N deterministic slices of the runs into <out>/cache (e.g. 3/8, for Slurm arrays and Kubernetes Indexed Jobs); no reports',
  'report-only': "train nothing: write the reports from <out>/cache (e.g. the shards' caches copied together), or name the runs missing",
};

/** Help text of the claims mode. */
export function claimsUsage(): string {
  return [
    'Usage: npm run experiment -- --claim <C1..C9|all> [--claim-scale smoke|full] [--seeds 1,2,3] [--jobs N] [flags]',
    '',
    ...Object.entries(CLAIM_FLAGS).map(([k, h]) => `  --${k.padEnd(17)} ${h}`),
  ].join('\n');
}

/**
 * Reads a seed list: comma-separated decimal integers from 0 to the config's largest seed, no
 * duplicates. Returns the seeds, or the reason the text is not such a list.
 */
export function parseSeeds(text: string): number[] | string {
  const max = SCHEMA.seed.kind === 'int' ? SCHEMA.seed.max : 2147483647;
  const parts = text.split(',');
  const bad = parts.find((p) => !/^[0-9]+$/.test(p) || Number(p) > max);
  if (bad !== undefined)
    return `"${text}" is not a comma-separated list of seeds (integers from 0 to ${max}, decimal digits only, e.g. 7,8,9)${bad === '' ? ': an empty entry' : `: "${bad}"`}`;
  const seeds = parts.map(Number);
  const twice = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (twice !== undefined) return `"${text}" lists seed ${twice} twice`;
  return seeds;
}

/** The command line of the claims mode, read. */
export interface ClaimArgs {
  claims: string[];
  scale: ScaleName;
  /** The seeds to run (the scale's defaults unless --seeds). */
  seeds: number[];
  jobs: number;
  out: string;
  backend: NodeBackend;
  quiet: boolean;
  queue?: QueueAddress;
  queueName: string;
  statusJson?: string;
  redisWait: number;
  shard?: Shard;
  reportOnly: boolean;
}

/** Reads the claims flags; throws an Error with a message for a bad command line. */
export function parseClaimArgs(argv: string[]): ClaimArgs {
  const { values, problems } = readFlags(argv, {
    claim: { type: 'string' },
    'claim-scale': { type: 'string', default: 'full' },
    'claim-suite': { type: 'string', default: DEFAULT_SUITE.name },
    seeds: { type: 'string' },
    jobs: { type: 'string', default: '1' },
    out: { type: 'string' },
    backend: { type: 'string', default: 'wasm' },
    quiet: { type: 'boolean', default: false },
    queue: { type: 'string' },
    'queue-name': { type: 'string', default: DEFAULT_QUEUE_NAME },
    'status-json': { type: 'string' },
    'redis-wait': { type: 'string', default: String(DEFAULT_REDIS_WAIT) },
    shard: { type: 'string' },
    'report-only': { type: 'boolean', default: false },
  });
  const errors = problems.map((p) => (p.kind === 'unknown' ? `${p.flag} cannot be combined with --claim (claims set their own training settings)` : p.message));
  const text = (values.claim ?? '').trim();
  const claims =
    text.toLowerCase() === 'all'
      ? [...CLAIM_IDS]
      : text
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean);
  if (!claims.length) errors.push(`--claim needs one of ${CLAIM_IDS.join(', ')} or all`);
  for (const c of claims) if (!CLAIM_IDS.includes(c)) errors.push(`--claim: unknown claim "${c}" (one of ${CLAIM_IDS.join(', ')} or all)`);
  const suite = collect(errors, () => choiceFlag('claim-suite', values['claim-suite'], SUITE_NAMES));
  if (suite) useSuite(suite);
  const scale = collect(errors, () => choiceFlag('claim-scale', values['claim-scale'], SCALE_NAMES));
  const backend = collect(errors, () => choiceFlag('backend', values.backend, NODE_BACKENDS));
  let seeds: number[] | undefined;
  if (values.seeds !== undefined) {
    const parsed = parseSeeds(values.seeds);
    if (typeof parsed === 'string') errors.push(`--seeds: ${parsed}`);
    else seeds = parsed;
  }
  const jobs = collect(errors, () => intFlag('jobs', values.jobs, 1, MAX_JOBS));
  let queue: QueueAddress | null = null;
  try {
    queue = values.shard !== undefined || values['report-only'] ? null : queueAddress(values.queue);
  } catch (e) {
    errors.push((e as Error).message);
  }
  if (values.queue !== undefined && values.shard !== undefined) errors.push('--queue and --shard are two ways to spread the runs: use one');
  if (values.queue !== undefined && values['report-only']) errors.push('--queue and --report-only: a report-only run trains nothing');
  if (values.shard !== undefined && values['report-only']) errors.push('--shard and --report-only: a shard trains, the report step reads the shards');
  if (queue && values.jobs !== '1')
    errors.push(`--jobs and --queue${values.queue === undefined ? ' (REDIS_URL is set)' : ''}: the workers' --concurrency sets how many runs train at once`);
  if (!queue && values['status-json'] !== undefined) errors.push('--status-json works with --queue (the status of the runs on the queue)');
  const redisWait = collect(errors, () => intFlag('redis-wait', values['redis-wait'], 1, 86400));
  const nameProblem = queueNameProblem(values['queue-name']);
  if (nameProblem) errors.push(nameProblem);
  let shard: Shard | undefined;
  if (values.shard !== undefined) {
    const s = parseShard(values.shard);
    if (typeof s === 'string') errors.push(`--shard: ${s}`);
    else shard = s;
  }
  if (errors.length || !scale || !backend || !jobs || !redisWait) throw new Error(errors.join('\n'));
  const scaled = scaleWithSeeds(scale, seeds);
  return {
    claims: CLAIM_IDS.filter((c) => claims.includes(c)),
    scale,
    seeds: scaled.seeds,
    jobs,
    out: values.out ?? defaultOut(scaled),
    backend,
    quiet: values.quiet,
    ...(queue ? { queue } : {}),
    queueName: values['queue-name'],
    ...(values['status-json'] !== undefined ? { statusJson: values['status-json'] } : {}),
    redisWait,
    ...(shard ? { shard } : {}),
    reportOnly: values['report-only'],
  };
}

/** The `--claim` mode of `scripts/commands/experiments/experiment.ts`: exits 2 on a bad command line. */
export async function runClaimsFromArgs(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(claimsUsage() + '\n');
    return;
  }
  let opts: ClaimArgs;
  try {
    opts = parseClaimArgs(argv);
  } catch (e) {
    for (const m of (e as Error).message.split('\n')) process.stderr.write(`error: ${m}\n`);
    process.stderr.write(claimsUsage() + '\n');
    process.exit(2);
  }
  requireOutput('error', 'out', opts.out, 'folder');
  if (opts.statusJson !== undefined) requireOutput('error', 'status-json', opts.statusJson, 'file');
  await useBackend(opts.backend);
  const t0 = performance.now();
  let reports: ClaimReport[];
  try {
    reports = await runClaims(opts);
  } catch (e) {
    if (!(e instanceof QueueFault)) throw e;
    process.stderr.write(`error: ${e.message}\n`);
    process.exit(2);
  }
  if (opts.shard) {
    process.stdout.write(
      `Shard ${opts.shard.index}/${opts.shard.count} trained into ${join(opts.out, 'cache')}/ in ${formatDuration((performance.now() - t0) / 1000)}. Copy the cache/ folders of all ${opts.shard.count} shards into one folder and run the same command with --out <that folder> --report-only instead of --shard.\n`,
    );
    return;
  }
  writeSummary(opts.out, scaleWithSeeds(opts.scale, opts.seeds));
  const cpu = process.cpuUsage();
  process.stdout.write(
    `${reports.map((r) => `${r.id}: ${VERDICT_MARK[r.verdict]}`).join('\n')}\n\nWritten to ${opts.out}/ in ${formatDuration((performance.now() - t0) / 1000)} (CPU time of this process ${formatDuration((cpu.user + cpu.system) / 1e6)}${opts.jobs > 1 ? ', not counting its child processes' : ''}).\n`,
  );
}
