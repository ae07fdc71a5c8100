/** `npm run sweep-status`: every job on a queue by sweep, read from Redis alone (no coordinator needed). */
import { Queue } from 'bullmq';
import { z } from 'zod';
import { redact, type QueueAddress } from './sweep';
import { JobProgress } from './sweepStatus';
import { checkRedis, connection, errorLog, isoOf, printable, withTimeout } from './queueBase';

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
