/**
 * The claims runner behind `npm run experiment -- --claim C1|...|C9|all [--claim-scale smoke|full]
 * [--seeds 1,2,3] [--jobs N]`. It trains every condition the chosen claims need once per seed (a
 * condition shared by several claims is trained once; each run is cached as `<out>/cache/<key>.json`,
 * so a re-run resumes), in this process or in N child processes at once (`train-one.ts`), evaluates
 * the claims, and writes one folder per claim (README.md with the tables and the verdict, SVG plots)
 * plus a summary `<out>/README.md`.
 */
import * as tf from '@tensorflow/tfjs';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_BACKENDS, type NodeBackend } from '../lib/backend';
import { cacheKey } from '../lib/cache';
import { formatTable } from '../lib/table';
import { ACTIVE_SUITE, CLAIMS, evaluateClaim, type ClaimReport, type ConditionRun } from './definitions';
import { Context, renderReport, VERDICT_MARK, writeSummary, type VerdictFile } from './report';
import { CACHE_VERSION, conditionsFor, scaleWithSeeds, type Scale, type ScaleName } from './scale';
import { runJobs, runTsxChild, type TrainJob } from './schedule';
import { ConditionStore, toStderr } from './conditionStore';
import { checkRunRecord, codeVersion, DEFAULT_QUEUE_NAME, DEFAULT_REDIS_WAIT, shardRuns, type QueueAddress, type Shard } from './sweep';
import { TRAIN_ONE_ENTRY, trainOneArgv } from './trainOne';

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
