/**
 * The `--claim` mode of `npm run experiment`: its flags, help and checks, and the run they start
 * (`runClaims`), with the exit codes of a command.
 */
import { join } from 'node:path';
import { choiceFlag, collect, intFlag, readFlags } from '../lib/cli';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../lib/backend';
import { requireOutput } from '../lib/outputFolder';
import { formatDuration } from '../lib/progress';
import { CLAIM_IDS, DEFAULT_SUITE, SUITE_NAMES, useSuite, type ClaimReport } from './definitions';
import { VERDICT_MARK, writeSummary } from './report';
import { runClaims } from './runner';
import { defaultOut, parseSeeds, SCALE_NAMES, scaleWithSeeds, type ScaleName } from './scale';
import { DEFAULT_QUEUE_NAME, DEFAULT_REDIS_WAIT, parseShard, QueueFault, queueAddress, queueNameProblem, type QueueAddress, type Shard } from './sweep';

/** Most `--jobs`. */
export const MAX_JOBS = 16;

const CLAIM_FLAGS: Record<string, string> = {
  claim: `claim(s) to run: ${CLAIM_IDS.join(', ')}, a comma-separated list, or all`,
  'claim-scale': `compute budget: ${SCALE_NAMES.join(' or ')} (default full)`,
  'claim-suite': `setting: planned (the default sprint, long-planned at 20 -> 72, with the long parallel and search families, at the default run's budget of 450 updates of 2 x 16; default), planned-300 (the same at the former budget, 300 updates of 4 x 8; output results/claims-planned-300), long (long-coupled at 20 -> 80, the default sprint before; output results/claims-long), second-round (the same families without the costs of talk, a constant entropy bonus: the default before the costs of talk; output results/claims-second-round) or short (the short families and their deadlines; results/claims-short)`,
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
