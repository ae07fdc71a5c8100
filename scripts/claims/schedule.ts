/**
 * The `--jobs` machinery of the claims runner, free of TF.js: a scheduler that runs training jobs N
 * at a time with each job starting only after its parent job has finished, and a launcher for one
 * child process.
 */
import { spawn } from 'node:child_process';

/** One training run to schedule: a condition and a seed, named by its cache key. */
export interface TrainJob {
  condition: string;
  seed: number;
  /** Cache key of the run; jobs with the same key are one run and are started once. */
  key: string;
  /**
   * Cache key of the run this one continues (same seed), or null. The job starts only after the job
   * with this key has succeeded; a parent that is not among the jobs counts as done (it is cached).
   */
  parentKey: string | null;
}

/** A job that failed, with what went wrong. */
export interface JobFailure {
  job: TrainJob;
  error: Error;
}

/** Thrown by `runJobs` when jobs failed: names every failed condition and seed. */
export class JobsFailedError extends Error {
  constructor(
    readonly failures: JobFailure[],
    /** Jobs never started because of the failures. */
    readonly notStarted: TrainJob[],
  ) {
    const what = failures.map((f) => `training ${f.job.condition} seed ${f.job.seed} failed: ${f.error.message}`);
    const skipped = notStarted.length ? [`not started: ${notStarted.map((j) => `${j.condition} seed ${j.seed}`).join(', ')}`] : [];
    super([...what, ...skipped].join('\n'));
    this.name = 'JobsFailedError';
  }
}

/**
 * Runs `start(job)` for every job, at most `jobs` at once, in the given order except that a job whose
 * parent (by `parentKey`) is still pending waits for it and later jobs may go first. After the first
 * failure no further job starts; the running ones are awaited (their runs still land in the cache),
 * and the promise rejects with a JobsFailedError. Duplicate keys run once.
 */
export function runJobs(
  all: readonly TrainJob[],
  jobs: number,
  start: (job: TrainJob) => Promise<void>,
  log: (line: string) => void = () => {},
): Promise<void> {
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`jobs must be a positive integer, not ${jobs}`);
  const queue: TrainJob[] = [];
  for (const j of all) if (!queue.some((q) => q.key === j.key)) queue.push(j);
  const unfinished = new Set(queue.map((j) => j.key));
  const running = new Set<string>();
  const failures: JobFailure[] = [];
  return new Promise((resolve, reject) => {
    const pump = () => {
      while (!failures.length && running.size < jobs) {
        const i = queue.findIndex((j) => j.parentKey === null || !unfinished.has(j.parentKey));
        if (i < 0) break;
        const [job] = queue.splice(i, 1);
        running.add(job.key);
        Promise.resolve()
          .then(() => start(job))
          .then(
            () => {
              unfinished.delete(job.key);
            },
            (e: unknown) => {
              if (!failures.length && (running.size > 1 || queue.length))
                log(
                  `${job.condition} seed ${job.seed} failed: starting no further runs${running.size > 1 ? `, waiting for the ${running.size - 1} running` : ''}`,
                );
              failures.push({ job, error: e instanceof Error ? e : new Error(String(e)) });
            },
          )
          .finally(() => {
            running.delete(job.key);
            pump();
          });
      }
      if (running.size) return;
      if (failures.length) reject(new JobsFailedError(failures, queue.splice(0)));
      else if (queue.length)
        reject(new Error(`cannot start ${queue.map((j) => `${j.condition} seed ${j.seed}`).join(', ')}: their parents never finish (a cycle)`));
      else resolve();
    };
    pump();
  });
}

/**
 * Runs `node --import tsx <entry> ...args` as a child process with the parent's working directory and
 * environment. The child's stdout and stderr both go to this process's stderr (stdout stays for the
 * reports). Resolves when it exits with code 0; rejects with its exit code or signal otherwise.
 */
export function runTsxChild(entry: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], { stdio: ['ignore', 2, 2] });
    child.once('error', (e) => reject(new Error(`cannot start the child process: ${e.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(signal ? `its child process was killed by ${signal}` : `its child process exited with code ${code} (its error is above)`));
    });
  });
}
