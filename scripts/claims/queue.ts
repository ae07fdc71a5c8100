/**
 * The claims' training runs on a BullMQ queue in Redis (issue 27), loaded only when `--queue` (or
 * REDIS_URL) is given. The coordinator (`npm run experiment -- --claim ... --queue redis://...`) puts
 * every missing condition x seed run on the queue under its cache key (so a run is queued and trained
 * once, and a restarted coordinator picks up what the queue already holds), waits, checks every
 * result as it checks a `--jobs` child's, and writes it into its cache. A worker
 * (`npm run sweep-worker -- --queue redis://...`) checks each job against the config schema and its
 * own code version, then trains it with the `--jobs` child (`train-one.ts`) in a scratch folder and
 * sends back the two cache files.
 */
import { DelayedError, Queue, QueueEvents, UnrecoverableError, Worker, type ConnectionOptions, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromStrings, CONFIG_KEYS, type Config } from '../../src/rl/config';
import { writeAtomic } from '../lib/cache';
import { formatDuration, ProgressBar } from '../lib/progress';
import type { NodeBackend } from '../lib/nodeBackends';
import { CONDITIONS, SUITE_NAMES, useSuite, type SuiteName } from './definitions';
import { CACHE_VERSION, ConditionStore, SCALE_NAMES, SCALES, TRAIN_ONE_ENTRY, trainOneArgv, type ScaleName } from './runner';
import { runJobs, runTsxChild, type TrainJob } from './schedule';
import { checkPolicyText, checkRunRecord, codeVersion, DEFAULT_QUEUE_NAME, QueueFault, redact, SweepJobData, SweepResult, type QueueAddress } from './sweep';

/** How long a refused job (another code version) waits before a worker may take it again. */
const REFUSED_DELAY_MS = 2000;
/** How long the first connection may take before the address counts as unreachable. */
const CONNECT_TIMEOUT_MS = 3000;

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

/** BullMQ's connection options for `a` (BullMQ's workers need maxRetriesPerRequest null). */
export function connection(a: QueueAddress): ConnectionOptions {
  return { ...server(a), maxRetriesPerRequest: null };
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

/** The config of a run as text per key, in schema order (the job's form of it). */
function configText(c: Config): Record<string, string> {
  return Object.fromEntries(CONFIG_KEYS.map((k) => [k, String(c[k])]));
}

/** Text from the network as one printable line: control characters (terminal escapes) shown as `?`, at most `max` characters. */
export const printable = (text: string, max = 300) => text.replace(/[^\x20-\x7e]/g, '?').slice(0, max);

const sameConfig = (a: Config, b: Config) => CONFIG_KEYS.every((k) => a[k] === b[k]);

/** Options of the coordinator's queue. */
export interface QueueRunOptions {
  address: QueueAddress;
  queueName: string;
  scale: ScaleName;
  suite: string;
  /** Identity of this sweep (the same on a restart with the same command line). */
  sweep: string;
  quiet: boolean;
  log: (line: string) => void;
}

/** Every state of a job that is not finished. */
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

/**
 * Trains `todo` (missing runs, parents before children) on the queue: each run is added once under
 * its cache key when its parent's run is in the cache, its result is checked and written to the
 * cache. Throws a QueueFault before queueing anything when Redis cannot be used or the queue holds
 * unfinished runs of another sweep; a JobsFailedError naming the runs that failed.
 */
export async function trainOnQueue(store: ConditionStore, todo: readonly TrainJob[], o: QueueRunOptions): Promise<void> {
  await checkRedis(o.address);
  const code = codeVersion(CACHE_VERSION);
  const queue = new Queue(o.queueName, { connection: connection(o.address) });
  const events = new QueueEvents(o.queueName, { connection: connection(o.address) });
  let lastError = '';
  const onError = (e: Error) => {
    const m = redact(e.message);
    if (m !== lastError) o.log(`queue: ${m}`);
    lastError = m;
  };
  queue.on('error', onError);
  events.on('error', onError);
  try {
    await withTimeout(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), CONNECT_TIMEOUT_MS * 2, 'opening the queue');
    const foreign = (await queue.getJobs([...UNFINISHED], 0, 999)).find((j) => {
      const d = SweepJobData.safeParse(j?.data);
      return !d.success || d.data.sweep !== o.sweep;
    });
    if (foreign)
      throw new QueueFault(
        `the queue "${o.queueName}" on ${o.address.shown} holds unfinished runs of another sweep (job ${printable(String(foreign.id), 40)}): wait until it is done, or give this sweep its own --queue-name`,
      );
    const total = todo.length;
    let done = 0;
    const bar = o.quiet ? null : new ProgressBar(`queue ${o.queueName}`, total, { write: (t: string) => process.stderr.write(t) });
    const status = async () => {
      const c = await queue.getJobCounts('active', 'waiting', 'delayed', 'failed');
      return `${done}/${total} done, ${c.active} running, ${c.waiting + c.delayed} waiting, ${c.failed} failed on the queue`;
    };
    const names = new Map(todo.map((j) => [jobId(j.key), `${j.condition} seed ${j.seed}`]));
    events.on('progress', ({ jobId: id, data }) => {
      const p = z.object({ worker: z.string().max(200) }).safeParse(data);
      if (names.has(id) && p.success) o.log(`${names.get(id)}: training on ${printable(redact(p.data.worker))}`);
    });
    o.log(
      `queue ${o.queueName} on ${o.address.shown}: ${total} run(s) to queue (code version ${code}); start workers with npm run sweep-worker -- --queue <this URL>${o.queueName === DEFAULT_QUEUE_NAME ? '' : ` --queue-name ${o.queueName}`}`,
    );
    await runJobs(
      todo,
      Math.max(1, total),
      async (job) => {
        const config: Config = { ...store.config(job.condition), seed: job.seed };
        const parentPolicy = job.parentKey ? readFileSync(join(store.cacheDir, `${job.parentKey}.policy.json`), 'utf8') : null;
        const data: SweepJobData = {
          sweep: o.sweep,
          code,
          suite: o.suite,
          scale: o.scale,
          condition: job.condition,
          seed: job.seed,
          key: job.key,
          parentKey: job.parentKey,
          config: configText(config),
          parentPolicy,
        };
        const added = await queue.add(`${job.condition} seed ${job.seed}`, data, { jobId: jobId(job.key), removeOnComplete: false, removeOnFail: false });
        // A job of that id was there already (a restarted coordinator): a failed one is tried again.
        if ((await added.getState()) === 'failed') await added.retry('failed');
        let value: unknown;
        try {
          value = await added.waitUntilFinished(events);
        } catch (e) {
          throw new Error(`it failed on the queue: ${printable(redact(e instanceof Error ? e.message : String(e)))}`);
        }
        const res = SweepResult.safeParse(value);
        if (!res.success) throw new Error('its worker sent back something that is not a result');
        const record = checkRunRecord(res.data.record, { ...job, version: CACHE_VERSION });
        const worker = printable(redact(res.data.worker));
        if (!sameConfig(record.config, config)) throw new Error(`its result was trained with another config (from ${worker})`);
        checkPolicyText(res.data.policy);
        writeAtomic(join(store.cacheDir, `${job.key}.policy.json`), res.data.policy);
        writeAtomic(join(store.cacheDir, `${job.key}.json`), res.data.record);
        done++;
        o.log(
          `${job.condition} seed ${job.seed}: trained on ${worker} in ${formatDuration(record.trainSeconds)}, return ${(record.final.ret ?? NaN).toFixed(3)}`,
        );
        bar?.update(done, await status());
      },
      o.log,
    );
  } finally {
    await Promise.allSettled([events.close(), queue.close()]);
  }
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
  log: (line: string) => void;
}

/**
 * Checks a job and returns its data, or throws an UnrecoverableError with the reason (the job fails
 * at once, without retries). Another code version is not this function's business (see `serve`).
 */
export function checkJob(job: Job, code: string): SweepJobData | 'other-code' {
  // The version first: a job of other code may have another shape, and is left for its workers.
  const raw: unknown = job.data;
  if (raw !== null && typeof raw === 'object' && typeof (raw as { code?: unknown }).code === 'string' && (raw as { code: string }).code !== code)
    return 'other-code';
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
  return d;
}

/** Serves the queue until SIGINT or SIGTERM: one scratch folder and one `train-one.ts` child per job. */
export async function runWorker(o: WorkerOptions): Promise<void> {
  await checkRedis(o.address);
  const code = codeVersion(CACHE_VERSION);
  const me = `${hostname()} pid ${process.pid}`;
  const refused = new Set<string>();
  const worker = new Worker(
    o.queueName,
    async (job: Job, token?: string) => {
      const d = checkJob(job, code);
      if (d === 'other-code') {
        const other = printable(String((job.data as { code: string }).code), 64);
        if (!refused.has(String(job.id)))
          o.log(
            `refusing job ${printable(String(job.id), 40)}: it was queued by code version ${other}, this worker runs ${code} (start the worker from the coordinator's commit); leaving it for a matching worker`,
          );
        refused.add(String(job.id));
        await job.moveToDelayed(Date.now() + REFUSED_DELAY_MS, token);
        throw new DelayedError();
      }
      useSuite(d.suite as SuiteName);
      const dir = mkdtempSync(join(tmpdir(), 'sweep-run-'));
      try {
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
        o.log(`${d.condition} seed ${d.seed}: training (job ${job.id})`);
        await job.updateProgress({ worker: me });
        await runTsxChild(
          TRAIN_ONE_ENTRY,
          trainOneArgv({ scale: d.scale as ScaleName, out: dir, condition: d.condition, seed: d.seed, backend: o.backend, quiet: true, key: d.key }),
        );
        const result: SweepResult = {
          record: readFileSync(join(dir, 'cache', `${d.key}.json`), 'utf8'),
          policy: readFileSync(join(dir, 'cache', `${d.key}.policy.json`), 'utf8'),
          worker: me,
        };
        o.log(`${d.condition} seed ${d.seed}: done`);
        return result;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    {
      connection: connection(o.address),
      concurrency: o.concurrency,
      lockDuration: o.lockSeconds * 1000,
      stalledInterval: o.lockSeconds * 1000,
      maxStalledCount: 2,
      autorun: false,
    },
  );
  let lastError = '';
  worker.on('error', (e: Error) => {
    const m = redact(e.message);
    if (m !== lastError) o.log(`queue: ${m}`);
    lastError = m;
  });
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
