/**
 * Training runs on a BullMQ queue in Redis (issue 27), loaded only when `--queue` (or REDIS_URL) is
 * given. The coordinator (`npm run experiment -- --claim ... --queue redis://...`, or a plain
 * `npm run experiment -- --seeds 1,2,3 --queue redis://...`) puts every missing run on the queue
 * under its cache key (so a run is queued and trained once, and a restarted coordinator picks up what
 * the queue already holds), follows the workers' progress reports, checks every result as it checks
 * a `--jobs` child's, and writes it into its cache or folder. A worker
 * (`npm run sweep-worker -- --queue redis://...`) checks each job against the config schema and its
 * own code version, then trains it in a child process in a scratch folder (a claim's run with the
 * `--jobs` child `train-one.ts`, an experiment's seed with `scripts/commands/experiments/experiment.ts` itself) and sends
 * back the files. Both sides stop with one line and exit code 2 when Redis stays away longer than
 * `--redis-wait` seconds.
 */
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromStrings, CONFIG_KEYS, type Config } from '../../src/rl/config';
import { writeAtomic } from '../lib/cache';
import { formatDuration } from '../lib/progress';
import type { NodeBackend } from '../lib/nodeBackends';
import { CONDITIONS, SUITE_NAMES, useSuite, type SuiteName } from './definitions';
import { BadJob, checkExperimentJob, configText, experimentArgv, seedFiles, type StartWeights } from './experimentJobs';
import { CACHE_VERSION, SCALE_NAMES, SCALES, type ScaleName } from './scale';
import { ConditionStore } from './conditionStore';
import { TRAIN_ONE_ENTRY, trainOneArgv } from './trainOne';
import { runJobs, type TrainJob } from './schedule';
import {
  checkPolicyText,
  checkRunRecord,
  codeVersion,
  DEFAULT_QUEUE_NAME,
  DEFAULT_REDIS_WAIT,
  ExperimentResult,
  QueueFault,
  redact,
  SweepJobData,
  SweepResult,
  type ExperimentJobData,
  type QueueAddress,
} from './sweep';
import { ChildProgress, JobProgress, SweepTracker } from './sweepStatus';

/** How long a refused job (another code version) waits before a worker may take it again. */
const REFUSED_DELAY_MS = 2000;
/** How long the first connection may take before the address counts as unreachable. */
const CONNECT_TIMEOUT_MS = 3000;
/** Between two attempts to reach a Redis that went away. */
const RETRY_MS = 1000;
/** How often at most a worker sends a run's progress (and always its last update). */
const PROGRESS_EVERY_MS = 1000;

/** The job id of a run: its cache key (BullMQ refuses ids that are plain integers, hence the prefix). */
export const jobId = (key: string) => `run-${key}`;

/** Where and as whom to connect to `a`, shared by BullMQ's connections and the first check. */
function server(a: QueueAddress) {
  return {
    host: a.host,
    port: a.port,
    db: a.db,
    ...(a.username ? { username: a.username } : {}),
    ...(a.password ? { password: a.password } : {}),
    ...(a.tls ? { tls: {} } : {}),
    connectTimeout: CONNECT_TIMEOUT_MS,
  };
}

/**
 * BullMQ's connection options for `a` (BullMQ's workers need maxRetriesPerRequest null). A lost
 * connection is tried again once a second (ioredis's retryStrategy); after `wait` attempts in a row
 * fail, `lost` is called (it stops the process), so a Redis that went away is never waited for
 * without end: about `wait` seconds when its port refuses, up to four times that when the host
 * stopped answering (each attempt then takes the connect timeout).
 */
export function connection(a: QueueAddress, wait = DEFAULT_REDIS_WAIT, lost?: () => void): ConnectionOptions {
  return {
    ...server(a),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => {
      if (times <= wait || !lost) return RETRY_MS;
      lost();
      return null;
    },
  };
}

/** Remembers the last connection error of BullMQ's connections and prints each new one once. */
function errorLog(log: (line: string) => void) {
  let last = '';
  return {
    get last() {
      return last;
    },
    on: (e: Error) => {
      const m = redact(e.message);
      if (m !== last) log(`queue: ${m}${/ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Connection is closed/.test(m) ? ' (trying again)' : ''}`);
      last = m;
    },
  };
}

/** Stops the process with one line and exit code 2 (after `cleanup`), once. */
let stopping = false;
function giveUp(line: string, cleanup: () => void = () => {}): void {
  if (stopping) return;
  stopping = true;
  try {
    cleanup();
  } finally {
    process.stderr.write(line + '\n');
    process.exit(2);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
/**
 * Connects once, without retries or an offline queue, and pings: an unreachable address, a refused
 * password or a server that is not Redis becomes one QueueFault line (the URL redacted), never a hang.
 */
export async function checkRedis(a: QueueAddress): Promise<void> {
  const r = new Redis({
    ...server(a),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let last = '';
  r.on('error', (e: Error) => {
    last = e.message;
  });
  try {
    await withTimeout(r.connect(), CONNECT_TIMEOUT_MS + 1000, 'connecting');
    await withTimeout(r.ping(), CONNECT_TIMEOUT_MS, 'a ping');
  } catch (e) {
    const msg = redact(`${(e as Error).message} ${last}`);
    if (/NOAUTH|WRONGPASS|invalid (username-)?password|Authentication required/i.test(msg))
      throw new QueueFault(`Redis at ${a.shown} refused the credentials: give the password as redis://:PASSWORD@host:port or in REDIS_URL`);
    if (/ECONNREFUSED/.test(msg)) throw new QueueFault(`cannot reach Redis at ${a.shown}: connection refused (is redis-server running there, on that port?)`);
    if (/Protocol error/i.test(msg)) throw new QueueFault(`cannot use ${a.shown}: the server there does not speak Redis`);
    if (/ENOTFOUND|EAI_AGAIN/.test(msg)) throw new QueueFault(`cannot reach Redis at ${a.shown}: unknown host`);
    throw new QueueFault(`cannot reach Redis at ${a.shown}: ${msg.trim().split('\n')[0]}`);
  } finally {
    r.disconnect();
  }
}

/** Text from the network as one printable line: control characters (terminal escapes) shown as `?`, at most `max` characters. */
export const printable = (text: string, max = 300) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, max);

const sameConfig = (a: Config, b: Config) => CONFIG_KEYS.every((k) => a[k] === b[k]);

/** Options of the coordinator's queue. */
export interface QueueRunOptions {
  address: QueueAddress;
  queueName: string;
  /** Identity of this sweep (the same on a restart with the same command line). */
  sweep: string;
  quiet: boolean;
  log: (line: string) => void;
  /** Write the sweep's status here as it changes (`--status-json`), or null. */
  statusFile: string | null;
  /** Attempts (about seconds) to reach a Redis that went away before stopping with exit code 2 (`--redis-wait`). */
  redisWait: number;
  /** What the one line says is kept when Redis is lost (e.g. `the runs in results/claims/cache`). */
  kept: string;
}

/** One run for the coordinator to queue: its name and size, its job's data, and what to do with its result. */
export interface QueueTask extends TrainJob {
  /** e.g. `coupled seed 2` or `seed 3`. */
  name: string;
  /** Its updates (imitation and RLCR), for the progress across the lab. */
  updates: number;
  /** The job's data, made when the run is queued (a continuation's parent is in the cache by then). */
  data: () => object;
  /** Checks the worker's result and stores it (or throws saying what is wrong); returns its training seconds and a word on it. */
  accept: (value: unknown, worker: string) => { trainSeconds: number; note: string };
}

/** Every state of a job that is not finished. */
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

/** The worker a result names (any result shape), as one printable line. */
const resultWorker = (value: unknown) => {
  const w = z.object({ worker: z.string().max(200) }).safeParse(value);
  return w.success ? printable(redact(w.data.worker)) : 'an unknown worker';
};

/** A time of a job as Redis holds it (ms since 1970; checked, it comes from the network) as ISO text, or null. */
const when = z.number().int().min(1).max(8.64e15);
const isoOf = (ms: unknown) => {
  const t = when.safeParse(ms);
  return t.success ? new Date(t.data).toISOString() : null;
};

/**
 * Trains `tasks` (missing runs, parents before children) on the queue: each run is added once under
 * its key when its parent's run is in the cache, its result is checked and stored by the task. Shows
 * the sweep's progress as the workers report it. Throws a QueueFault before queueing anything when
 * Redis cannot be used or the queue holds unfinished runs of another sweep; a JobsFailedError naming
 * the runs that failed. Stops the process (one line, exit code 2) when Redis is lost for longer than
 * `redisWait`.
 */
export async function coordinate(tasks: readonly QueueTask[], opts: QueueRunOptions): Promise<void> {
  await checkRedis(opts.address);
  const code = codeVersion(CACHE_VERSION);
  // On a terminal a line first clears the bar, which is drawn again at the next report.
  const tty = !opts.quiet && process.stderr.isTTY === true;
  const o: QueueRunOptions = {
    ...opts,
    log: (line) => {
      if (tty) process.stderr.write('\r\x1b[2K');
      opts.log(line);
    },
  };
  const errors = errorLog(o.log);
  const lost = () =>
    giveUp(
      `error: lost Redis at ${o.address.shown}: no connection for ${o.redisWait} attempt(s) a second apart (${errors.last || 'connection closed'}); ${o.kept} are kept: start Redis again and run the same command, which picks the sweep up`,
    );
  const conn = connection(o.address, o.redisWait, lost);
  const queue = new Queue(o.queueName, { connection: conn });
  const events = new QueueEvents(o.queueName, { connection: conn });
  queue.on('error', errors.on);
  events.on('error', errors.on);
  const tracker = new SweepTracker({
    queue: o.queueName,
    redis: o.address.shown,
    sweep: o.sweep,
    runs: tasks.map((t) => ({ job: jobId(t.key), run: t.name, updates: t.updates })),
    out: o.quiet ? null : { write: (t: string) => process.stderr.write(t), isTTY: process.stderr.isTTY, columns: process.stderr.columns },
    statusFile: o.statusFile,
  });
  try {
    await withTimeout(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), CONNECT_TIMEOUT_MS * 2, 'opening the queue');
    const foreign = (await queue.getJobs([...UNFINISHED], 0, 999)).find((j) => {
      const d = z.object({ sweep: z.string() }).safeParse(j?.data);
      return !d.success || d.data.sweep !== o.sweep;
    });
    if (foreign)
      throw new QueueFault(
        `the queue "${o.queueName}" on ${o.address.shown} holds unfinished runs of another sweep (job ${printable(String(foreign.id), 40)}): wait until it is done, or give this sweep its own --queue-name`,
      );
    const names = new Map(tasks.map((t) => [jobId(t.key), t.name]));
    // The jobs queued and not finished yet, with their data: a Redis that comes back empty (no
    // persistence) within --redis-wait has lost them, and they are queued again under the same ids
    // (the waits for them go on; nothing finished is lost: it is in the cache).
    const pending = new Map<string, { name: string; data: object }>();
    const requeue = async () => {
      for (const [id, p] of pending) {
        if (await queue.getJob(id)) continue;
        o.log(`${p.name}: not on the queue any more (Redis came back without its data): queued again`);
        await queue.add(p.name, p.data, { jobId: id, removeOnComplete: false, removeOnFail: false });
      }
    };
    // The queue's connection is ready now: a later 'ready' is a reconnection.
    (await queue.client).on('ready', () => void requeue().catch(errors.on));
    events.on('progress', ({ jobId: id, data }) => {
      const p = JobProgress.safeParse(data);
      if (!names.has(id) || !p.success) return;
      const worker = printable(redact(p.data.worker));
      if (tracker.progress(id, { ...p.data, worker })) o.log(`${names.get(id)}: training on ${worker}`);
    });
    o.log(
      `queue ${o.queueName} on ${o.address.shown}: ${tasks.length} run(s) to queue (code version ${code}); start workers with npm run sweep-worker -- --queue <this URL>${o.queueName === DEFAULT_QUEUE_NAME ? '' : ` --queue-name ${o.queueName}`}`,
    );
    await runJobs(
      tasks,
      Math.max(1, tasks.length),
      async (job) => {
        const task = job as QueueTask;
        const id = jobId(task.key);
        tracker.queued(id);
        const data = task.data();
        pending.set(id, { name: task.name, data });
        const added = await queue.add(task.name, data, { jobId: id, removeOnComplete: false, removeOnFail: false });
        // A job of that id was there already (a restarted coordinator): a failed one is tried again.
        if ((await added.getState()) === 'failed') await added.retry('failed');
        let value: unknown;
        try {
          value = await added.waitUntilFinished(events);
          pending.delete(id);
        } catch (e) {
          pending.delete(id);
          const why = printable(redact(e instanceof Error ? e.message : String(e)));
          tracker.failed(id, why);
          throw new Error(`it failed on the queue: ${why}`);
        }
        const worker = resultWorker(value);
        let accepted: { trainSeconds: number; note: string };
        try {
          accepted = task.accept(value, worker);
        } catch (e) {
          tracker.failed(id, (e as Error).message);
          throw e;
        }
        const finished = await queue.getJob(id);
        tracker.done(id, worker, accepted.trainSeconds, {
          processedAt: isoOf(finished?.processedOn),
          finishedAt: isoOf(finished?.finishedOn),
          childSeconds: z.object({ childSeconds: z.number().min(0) }).safeParse(value).data?.childSeconds ?? null,
        });
        o.log(`${task.name}: trained on ${worker} in ${formatDuration(accepted.trainSeconds)}, ${accepted.note}`);
      },
      o.log,
    );
  } finally {
    tracker.finish();
    await Promise.allSettled([events.close(), queue.close()]);
  }
}

/** The claims' part of a coordinator's options. */
export interface ClaimsQueueOptions extends Omit<QueueRunOptions, 'kept'> {
  scale: ScaleName;
  suite: string;
}

/** Trains the claims' missing runs `todo` on the queue into `store`'s cache (see `coordinate`). */
export async function trainOnQueue(store: ConditionStore, todo: readonly TrainJob[], o: ClaimsQueueOptions): Promise<void> {
  const code = codeVersion(CACHE_VERSION);
  const tasks: QueueTask[] = todo.map((job) => {
    const config: Config = { ...store.config(job.condition), seed: job.seed };
    return {
      ...job,
      name: `${job.condition} seed ${job.seed}`,
      updates: config.prior + config.updates,
      data: (): SweepJobData => ({
        sweep: o.sweep,
        code,
        suite: o.suite,
        scale: o.scale,
        condition: job.condition,
        seed: job.seed,
        key: job.key,
        parentKey: job.parentKey,
        config: configText(config),
        parentPolicy: job.parentKey ? readFileSync(join(store.cacheDir, `${job.parentKey}.policy.json`), 'utf8') : null,
      }),
      accept: (value, worker) => {
        const res = SweepResult.safeParse(value);
        if (!res.success) throw new Error('its worker sent back something that is not a result');
        const record = checkRunRecord(res.data.record, { ...job, version: CACHE_VERSION });
        if (!sameConfig(record.config, config)) throw new Error(`its result was trained with another config (from ${worker})`);
        checkPolicyText(res.data.policy);
        writeAtomic(join(store.cacheDir, `${job.key}.policy.json`), res.data.policy);
        writeAtomic(join(store.cacheDir, `${job.key}.json`), res.data.record);
        return { trainSeconds: record.trainSeconds, note: `return ${(record.final.ret ?? NaN).toFixed(3)}` };
      },
    };
  });
  await coordinate(tasks, { ...o, kept: `the runs in ${store.cacheDir}` });
}

/** Options of `npm run sweep-worker`. */
export interface WorkerOptions {
  address: QueueAddress;
  queueName: string;
  concurrency: number;
  backend: NodeBackend;
  /**
   * Seconds a worker's lock on a run lasts without renewal (it is renewed while the run trains): a
   * worker that dies leaves its run to another after about twice this (BullMQ's stalled-job check).
   */
  lockSeconds: number;
  /** Attempts (about seconds) to reach a Redis that went away before stopping with exit code 2. */
  redisWait: number;
  log: (line: string) => void;
}

/** A claims job checked: its data. */
type Checked = { kind: 'claim'; data: SweepJobData } | { kind: 'experiment'; data: ExperimentJobData; config: Config; start: StartWeights | null };

/**
 * Checks a job and returns its data, or throws an UnrecoverableError with the reason (the job fails
 * at once, without retries). Another code version is not this function's business (see `serve`).
 */
export function checkJob(job: Job, code: string): Checked | 'other-code' {
  // The version first: a job of other code may have another shape, and is left for its workers.
  const raw: unknown = job.data;
  const obj = raw !== null && typeof raw === 'object' ? (raw as { code?: unknown; kind?: unknown }) : null;
  if (obj && typeof obj.code === 'string' && obj.code !== code) return 'other-code';
  if (obj?.kind === 'experiment') {
    try {
      return { kind: 'experiment', ...checkExperimentJob(job.id, raw, jobId) };
    } catch (e) {
      if (e instanceof BadJob) throw new UnrecoverableError(`malformed job: ${redact(e.message)}`);
      throw e;
    }
  }
  const parsed = SweepJobData.safeParse(job.data);
  if (!parsed.success)
    throw new UnrecoverableError(`malformed job: ${redact(parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; '))}`);
  const d = parsed.data;
  const bad = (why: string) => new UnrecoverableError(`malformed job: ${why}`);
  if (job.id !== jobId(d.key)) throw bad(`its id is not the run's cache key`);
  if (!SUITE_NAMES.includes(d.suite as SuiteName)) throw bad(`unknown suite "${d.suite}"`);
  if (!SCALE_NAMES.includes(d.scale as ScaleName)) throw bad(`unknown scale "${d.scale}"`);
  useSuite(d.suite as SuiteName);
  if (!Object.hasOwn(CONDITIONS, d.condition)) throw bad(`unknown condition "${d.condition}"`);
  const missing = CONFIG_KEYS.filter((k) => !Object.hasOwn(d.config, k));
  if (missing.length) throw bad(`its config lacks ${missing.join(', ')}`);
  const { config, issues } = configFromStrings(d.config, 'strict');
  if (issues.length) throw bad(`its config: ${issues.map((i) => `${i.key}: ${i.message}`).join('; ')}`);
  if (d.seed !== config.seed) throw bad(`its seed ${d.seed} is not its config's ${config.seed}`);
  return { kind: 'claim', data: d };
}

/** The plain experiment's entry, started by a worker for an experiment's seed. */
const EXPERIMENT_ENTRY = fileURLToPath(new URL('../commands/experiments/experiment.ts', import.meta.url));

/** The worker's training children, stopped when the worker gives up on Redis. */
const children = new Set<ChildProcess>();

/**
 * Runs `node --import tsx <entry> ...args` with an IPC channel for its progress reports (`onProgress`
 * per update); its stderr (and stdout unless `quietStdout`) go to this process's stderr. Resolves
 * with its wall-clock seconds when it exits with code 0.
 */
function runTrainingChild(
  entry: string,
  args: readonly string[],
  onProgress: (update: number, updates: number) => void,
  quietStdout: boolean,
): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      stdio: ['ignore', quietStdout ? 'ignore' : 2, 2, 'ipc'],
      env: { ...process.env, SWEEP_PROGRESS_IPC: '1' },
    });
    children.add(child);
    child.on('message', (m) => {
      const p = ChildProgress.safeParse(m);
      if (p.success) onProgress(p.data.update, p.data.updates);
    });
    child.once('error', (e) => reject(new Error(`cannot start the child process: ${e.message}`)));
    child.once('close', (code, signal) => {
      children.delete(child);
      if (code === 0) resolve((performance.now() - t0) / 1000);
      else reject(new Error(signal ? `its child process was killed by ${signal}` : `its child process exited with code ${code} (its error is above)`));
    });
  });
}

/** Serves the queue until SIGINT or SIGTERM: one scratch folder and one training child per job. */
export async function runWorker(o: WorkerOptions): Promise<void> {
  await checkRedis(o.address);
  const code = codeVersion(CACHE_VERSION);
  const me = `${hostname()} pid ${process.pid}`;
  const refused = new Set<string>();
  const scratch = new Set<string>();
  const errors = errorLog(o.log);
  const lost = () =>
    giveUp(
      `sweep-worker: lost Redis at ${o.address.shown}: no connection for ${o.redisWait} attempt(s) a second apart (${errors.last || 'connection closed'}); stopped ${children.size} training run(s), which go back on the queue when Redis is back: start this worker again then`,
      () => {
        for (const c of children) c.kill('SIGKILL');
        for (const d of scratch) rmSync(d, { recursive: true, force: true });
      },
    );
  const worker = new Worker(
    o.queueName,
    async (job: Job, token?: string) => {
      const checked = checkJob(job, code);
      if (checked === 'other-code') {
        const other = printable(String((job.data as { code: string }).code), 64);
        if (!refused.has(String(job.id)))
          o.log(
            `refusing job ${printable(String(job.id), 40)}: it was queued by code version ${other}, this worker runs ${code} (start the worker from the coordinator's commit); leaving it for a matching worker`,
          );
        refused.add(String(job.id));
        await job.moveToDelayed(Date.now() + REFUSED_DELAY_MS, token);
        throw new DelayedError();
      }
      const dir = mkdtempSync(join(tmpdir(), 'sweep-run-'));
      scratch.add(dir);
      let last = -Infinity;
      const report = (update: number, updates: number) => {
        const t = Date.now();
        if (update < updates && t - last < PROGRESS_EVERY_MS) return;
        last = t;
        job.updateProgress({ worker: me, update, updates } satisfies JobProgress).catch(() => {});
      };
      try {
        if (checked.kind === 'experiment') return await trainExperimentSeed(job, checked, dir, report);
        const d = checked.data;
        useSuite(d.suite as SuiteName);
        const store = new ConditionStore(SCALES[d.scale as ScaleName], dir, { quiet: true });
        const config: Config = { ...store.config(d.condition), seed: d.seed };
        if (store.key(d.condition, d.seed) !== d.key || !sameConfig(configFromStrings(d.config, 'strict').config, config))
          throw new UnrecoverableError(`malformed job: its config or key is not this code's for ${d.condition} seed ${d.seed}`);
        if (store.parentKey(d.condition, d.seed) !== d.parentKey) throw new UnrecoverableError(`malformed job: its parent is not ${d.condition}'s`);
        if (d.parentKey) {
          if (d.parentPolicy === null) throw new UnrecoverableError(`malformed job: ${d.condition} continues a run but the job has no parent policy`);
          try {
            checkPolicyText(d.parentPolicy);
          } catch (e) {
            throw new UnrecoverableError(`malformed job: ${(e as Error).message.replace('its policy', 'its parent policy')}`);
          }
          mkdirSync(join(dir, 'cache'), { recursive: true });
          writeFileSync(join(dir, 'cache', `${d.parentKey}.policy.json`), d.parentPolicy);
        }
        // The progress first: once the line is printed, the coordinator is sure to hear who took the run.
        const updates = config.prior + config.updates;
        await job.updateProgress({ worker: me, update: 0, updates } satisfies JobProgress);
        o.log(`${d.condition} seed ${d.seed}: training (job ${job.id})`);
        const childSeconds = await runTrainingChild(
          TRAIN_ONE_ENTRY,
          trainOneArgv({ scale: d.scale as ScaleName, out: dir, condition: d.condition, seed: d.seed, backend: o.backend, quiet: true, key: d.key }),
          report,
          false,
        );
        const result: SweepResult = {
          record: readFileSync(join(dir, 'cache', `${d.key}.json`), 'utf8'),
          policy: readFileSync(join(dir, 'cache', `${d.key}.policy.json`), 'utf8'),
          worker: me,
          childSeconds,
        };
        o.log(`${d.condition} seed ${d.seed}: done`);
        return result;
      } finally {
        rmSync(dir, { recursive: true, force: true });
        scratch.delete(dir);
      }
    },
    {
      connection: connection(o.address, o.redisWait, lost),
      concurrency: o.concurrency,
      lockDuration: o.lockSeconds * 1000,
      stalledInterval: o.lockSeconds * 1000,
      maxStalledCount: 2,
      autorun: false,
    },
  );

  /** An experiment's seed: `scripts/commands/experiments/experiment.ts --seeds N` into `dir`, its four files sent back. */
  async function trainExperimentSeed(
    job: Job,
    { data: d, config, start }: { data: ExperimentJobData; config: Config; start: StartWeights | null },
    dir: string,
    report: (update: number, updates: number) => void,
  ): Promise<ExperimentResult> {
    const updates = config.prior + config.updates;
    // The starting weights beside the experiment's folder (whose file names are the experiment's own).
    const out = join(dir, 'out');
    const startFile = start ? join(dir, start.flag === 'load-policy' ? 'start.policy.json' : 'start.swarmrun.json.gz') : null;
    if (start && startFile) writeFileSync(startFile, start.bytes);
    await job.updateProgress({ worker: me, update: 0, updates } satisfies JobProgress);
    o.log(`experiment seed ${d.seed}: training (job ${job.id})`);
    const childSeconds = await runTrainingChild(EXPERIMENT_ENTRY, experimentArgv(d, config, out, startFile), report, true);
    const f = seedFiles(d.seed);
    const result: ExperimentResult = {
      kind: 'experiment',
      record: readFileSync(join(out, f.record), 'utf8'),
      policy: readFileSync(join(out, f.policy), 'utf8'),
      curve: readFileSync(join(out, f.curve), 'utf8'),
      runFile: readFileSync(join(out, f.runFile)).toString('base64'),
      worker: me,
      childSeconds,
    };
    o.log(`experiment seed ${d.seed}: done`);
    return result;
  }

  worker.on('error', errors.on);
  worker.on('stalled', (id) => o.log(`job ${printable(id, 40)} stalled (its worker stopped renewing its lock): back on the queue`));
  worker.on('failed', (job, e) => {
    if (job && !(e instanceof DelayedError)) o.log(`job ${printable(String(job.id), 40)} failed: ${printable(redact(e.message))}`);
  });
  const stop = () => {
    o.log('stopping: finishing the runs in hand (Ctrl-C again to quit at once)');
    process.once('SIGINT', () => process.exit(130));
    void worker.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  o.log(`sweep worker ${me}: serving queue ${o.queueName} on ${o.address.shown}, ${o.concurrency} run(s) at once, code version ${code}`);
  await worker.run();
}

/** Every state a job can be in, finished or not, as `npm run sweep-status` lists them. */
const STATES = ['active', 'waiting', 'delayed', 'prioritized', 'paused', 'waiting-children', 'completed', 'failed'] as const;

/** One job on the queue as `npm run sweep-status` shows it. */
export interface QueueJobStatus {
  job: string;
  run: string;
  state: 'done' | 'running' | 'waiting' | 'failed';
  worker: string | null;
  update: number | null;
  updates: number | null;
  processedAt: string | null;
  finishedAt: string | null;
  reason: string | null;
}

/** `npm run sweep-status -- --json`: every sweep on a queue, read from Redis alone (no coordinator needed). */
export interface QueueStatus {
  format: 'swarm-queue-status';
  version: 1;
  queue: string;
  redis: string;
  at: string;
  sweeps: { sweep: string; runs: { done: number; running: number; waiting: number; failed: number }; list: QueueJobStatus[] }[];
}

/** Reads the state of every job on the queue, grouped by sweep (jobs with no sweep of theirs under `?`). */
export async function queueStatus(address: QueueAddress, queueName: string): Promise<QueueStatus> {
  await checkRedis(address);
  const queue = new Queue(queueName, { connection: connection(address) });
  const errors = errorLog(() => {});
  queue.on('error', errors.on);
  try {
    const sweeps = new Map<string, QueueJobStatus[]>();
    for (const s of STATES) {
      const jobs = await withTimeout(queue.getJobs([s], 0, 99_999), 60_000, 'reading the queue');
      for (const j of jobs) {
        if (!j) continue;
        const sweep = z.object({ sweep: z.string().max(64) }).safeParse(j.data);
        const p = JobProgress.safeParse(j.progress);
        const state = s === 'completed' ? 'done' : s === 'failed' ? 'failed' : s === 'active' ? 'running' : 'waiting';
        const entry: QueueJobStatus = {
          job: printable(String(j.id), 64),
          run: printable(String(j.name), 100),
          state,
          worker: p.success ? printable(redact(p.data.worker)) : null,
          update: p.success ? (p.data.update ?? null) : null,
          updates: p.success ? (p.data.updates ?? null) : null,
          processedAt: isoOf(j.processedOn),
          finishedAt: isoOf(j.finishedOn),
          reason: state === 'failed' ? printable(redact(String(j.failedReason ?? ''))) : null,
        };
        const key = sweep.success ? printable(sweep.data.sweep, 64) : '?';
        sweeps.set(key, [...(sweeps.get(key) ?? []), entry]);
      }
    }
    return {
      format: 'swarm-queue-status',
      version: 1,
      queue: queueName,
      redis: address.shown,
      at: new Date().toISOString(),
      sweeps: [...sweeps].map(([sweep, list]) => {
        const n = (st: QueueJobStatus['state']) => list.filter((r) => r.state === st).length;
        return { sweep, runs: { done: n('done'), running: n('running'), waiting: n('waiting'), failed: n('failed') }, list };
      }),
    };
  } finally {
    await queue.close().catch(() => {});
  }
}
