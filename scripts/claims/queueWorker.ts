/**
 * `npm run sweep-worker`: serves the queue's jobs, each checked against the config schema and this
 * code's version, then trained in a child process in a scratch folder, its files sent back.
 */
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromStrings, CONFIG_KEYS, type Config } from '../../src/rl/config';
import type { NodeBackend } from '../lib/nodeBackends';
import { CONDITIONS, SUITE_NAMES, useSuite, type SuiteName } from './definitions';
import { BadJob, checkExperimentJob, experimentArgv, seedFiles, type StartWeights } from './experimentJobs';
import { CACHE_VERSION, SCALE_NAMES, SCALES, type ScaleName } from './scale';
import { ConditionStore } from './conditionStore';
import { TRAIN_ONE_ENTRY, trainOneArgv } from './trainOne';
import { checkPolicyText, codeVersion, ExperimentResult, redact, SweepJobData, SweepResult, type ExperimentJobData, type QueueAddress } from './sweep';
import { ChildProgress, JobProgress } from './sweepStatus';
import { checkRedis, connection, errorLog, giveUp, jobId, printable, sameConfig } from './queueBase';

/** How long a refused job (another code version) waits before a worker may take it again. */
const REFUSED_DELAY_MS = 2000;
/** How often at most a worker sends a run's progress (and always its last update). */
const PROGRESS_EVERY_MS = 1000;

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
