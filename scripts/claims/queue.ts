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
import { Queue, QueueEvents } from 'bullmq';
import { z } from 'zod';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config } from '../../src/rl/config';
import { writeAtomic } from '../lib/cache';
import { formatDuration } from '../lib/progress';
import { configText } from './experimentJobs';
import { CACHE_VERSION, type ScaleName } from './scale';
import { ConditionStore } from './conditionStore';
import { runJobs, type TrainJob } from './schedule';
import { checkPolicyText, checkRunRecord, codeVersion, DEFAULT_QUEUE_NAME, QueueFault, redact, SweepJobData, SweepResult, type QueueAddress } from './sweep';
import { JobProgress, SweepTracker } from './sweepStatus';
import { checkRedis, CONNECT_TIMEOUT_MS, connection, errorLog, giveUp, isoOf, jobId, printable, sameConfig, withTimeout } from './queueBase';

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
