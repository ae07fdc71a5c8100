/**
 * The command line of `npm run experiment` (without --claim): its flags, help and checks, and the
 * command that repeats it. TF-free, so a bad command line or output folder is answered before
 * TF.js loads.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_KEYS, SCHEMA, configFromStrings, type Config } from '../../../src/rl/config';
import { checkSettings } from '../../../src/rl/settingsCheck';
import { NODE_BACKENDS, type NodeBackend } from '../nodeBackends';
import { choiceFlag, collect, intFlag, intListFlag, kebab, pathFlag, readFlags, type FlagOptions } from '../cli';
import { DEFAULT_QUEUE_NAME, DEFAULT_REDIS_WAIT, queueAddress, type QueueAddress } from '../../claims/sweep';
import { threadsProblem } from '../threads';

const RUNNER_FLAGS: Record<string, string> = {
  seeds: 'comma-separated training seeds, e.g. 1,2,3 (default: --seed)',
  'eval-tasks': 'fresh evaluation tasks per seed, 1..10000 (default 64)',
  'eval-greedy': 'evaluate the trained swarm with its most likely action instead of sampling',
  backend: `TF.js backend: ${NODE_BACKENDS.join(' or ')} (default wasm)`,
  out: 'output folder (default results/<family>-<agents>a-<time>)',
  'load-policy': 'start from the weights in this JSON file (written by an earlier run)',
  'init-from': 'start from the last checkpoint of this run file (run-seed*.swarmrun.json.gz)',
  quiet: 'no progress bar',
  threads:
    "train each seed on this many threads at once, each with its share of an update's task groups (flat structure; 1 to --tasks-per-update; default 1). The same training up to float rounding, not bit for bit",
  queue: 'train the seeds on the BullMQ queue at redis://[:PASSWORD@]HOST:PORT (rediss:// for TLS; default REDIS_URL when set), served by npm run sweep-worker',
  'queue-name': `with --queue: the queue's name, for several sweeps on one Redis (default ${DEFAULT_QUEUE_NAME})`,
  'status-json':
    "with --queue: write the sweep's status (seeds done, running on which worker at which update, waiting, failed, ETA) to this JSON file as it changes",
  'redis-wait': `with --queue: attempts a second apart to reach a Redis that went away before stopping with exit code 2, 1..86400 (default ${DEFAULT_REDIS_WAIT})`,
  claim: 'run a claim instead: C1..C9, a comma-separated list, or all (see docs/EXPERIMENTS.md)',
  'claim-scale': 'budget of --claim: smoke (seconds) or full (the reproduction, default)',
  help: 'show this help',
};

export function usage(): string {
  const lines = ['Usage: npm run experiment -- [flags]', '', 'Training settings (the shared config schema):'];
  for (const k of CONFIG_KEYS) {
    const f = SCHEMA[k];
    const range = f.kind === 'enum' ? f.values.join('|') : f.kind === 'bool' ? `flag, --no-${kebab(k)} for off` : `${f.min}..${f.max}`;
    lines.push(`  --${kebab(k).padEnd(17)} ${f.help} [${range}, default ${String(f.default)}]`);
  }
  lines.push('', 'Runner:');
  for (const [k, h] of Object.entries(RUNNER_FLAGS)) lines.push(`  --${k.padEnd(17)} ${h}`);
  lines.push('', 'Example: npm run experiment -- --family coupled --agents 8 --seeds 1,2,3');
  return lines.join('\n');
}

export function fail(messages: string[]): never {
  for (const m of messages) process.stderr.write(`error: ${m}\n`);
  process.stderr.write('Run with --help to see every flag and its range.\n');
  process.exit(2);
}

export interface Options {
  config: Config;
  seeds: number[];
  evalTasks: number;
  greedy: boolean;
  backend: NodeBackend;
  out: string;
  /** Whether --out was given (a resume command must name the default folder, whose name has the time in it). */
  outGiven: boolean;
  loadPolicy: string | null;
  initFrom: string | null;
  quiet: boolean;
  /** Threads each seed trains on (scripts/lib/shardThreads.ts; 1: this thread alone). */
  threads: number;
  /** Train the seeds on this queue (`npm run sweep-worker` trains them) instead of here. */
  queue: QueueAddress | null;
  queueName: string;
  statusJson: string | null;
  redisWait: number;
}

/** The runner's flags that take no value. */
const RUNNER_SWITCHES = new Set(['eval-greedy', 'quiet', 'help']);

/** The declared flags, the same as the help lists: one per config key (bare for a yes/no setting), then the runner's. */
const FLAGS: FlagOptions = Object.fromEntries([
  ...CONFIG_KEYS.map((k) => [kebab(k), { type: SCHEMA[k].kind === 'bool' ? 'boolean' : 'string' }] as const),
  ...Object.keys(RUNNER_FLAGS).map((f) => [f, { type: RUNNER_SWITCHES.has(f) ? 'boolean' : 'string' }] as const),
]);

export function readOptions(argv: string[]): Options {
  const { values, problems } = readFlags(argv, FLAGS);
  if (values.help === true) {
    process.stdout.write(usage() + '\n');
    process.exit(0);
  }
  const errors = problems.map((p) => p.message);
  const text = (flag: string) => values[flag] as string | undefined;
  const configText: Record<string, string> = {};
  for (const k of CONFIG_KEYS) {
    const v = values[kebab(k)];
    if (v !== undefined) configText[k] = v === true ? 'true' : String(v);
  }
  const { config, issues } = configFromStrings(configText, 'strict');
  for (const i of issues) errors.push(`--${kebab(i.key)}: ${i.message}`);
  const check = checkSettings(config, (k) => `--${kebab(k)}`);
  errors.push(...check.errors);
  for (const w of check.warnings) process.stderr.write(`warning: ${w}\n`);
  const seedsText = text('seeds');
  const seeds = (seedsText === undefined ? undefined : collect(errors, () => intListFlag('seeds', seedsText, 0, 2147483647))) ?? [config.seed];
  const evalTasks = collect(errors, () => intFlag('eval-tasks', text('eval-tasks') ?? '64', 1, 10000)) ?? 64;
  const backend = collect(errors, () => choiceFlag('backend', text('backend') ?? 'wasm', NODE_BACKENDS)) ?? 'wasm';
  const path = (flag: string) => {
    const v = text(flag);
    return v === undefined ? null : (collect(errors, () => pathFlag(flag, v, 'a path')) ?? null);
  };
  const out = path('out');
  const loadPolicy = path('load-policy');
  const initFrom = path('init-from');
  if (loadPolicy !== null && initFrom !== null) errors.push('--load-policy and --init-from both give starting weights: use one');
  let queue: QueueAddress | null = null;
  try {
    queue = queueAddress(text('queue'));
  } catch (e) {
    errors.push((e as Error).message);
  }
  for (const f of ['queue-name', 'status-json', 'redis-wait']) if (!queue && text(f) !== undefined) errors.push(`--${f} works with --queue`);
  const queueName = text('queue-name') ?? DEFAULT_QUEUE_NAME;
  if (!/^[\w.-]{1,64}$/.test(queueName)) errors.push(`--queue-name: "${queueName}" is not 1 to 64 letters, digits, _ . or -`);
  const threads = collect(errors, () => intFlag('threads', text('threads') ?? '1', 1, 16)) ?? 1;
  const threadsIssue = threadsProblem(config, threads);
  if (threadsIssue) errors.push(threadsIssue);
  if (threads > 1 && queue) errors.push("--threads trains here: the queue's workers train on one thread each");
  const statusJson = path('status-json');
  const redisWait = collect(errors, () => intFlag('redis-wait', text('redis-wait') ?? String(DEFAULT_REDIS_WAIT), 1, 86400)) ?? DEFAULT_REDIS_WAIT;
  if (errors.length) fail(errors);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return {
    config,
    seeds,
    evalTasks,
    greedy: values['eval-greedy'] === true,
    backend,
    out: out ?? join('results', `${config.family}-${config.agents}a-${stamp}`),
    outGiven: out !== null,
    loadPolicy,
    initFrom,
    quiet: values.quiet === true,
    threads,
    queue,
    queueName,
    statusJson,
    redisWait,
  };
}

/** The hash of a starting-weights file's bytes, so a resumed experiment is known to start from the same weights. */
export function fileHash(flag: string, path: string | null): string | null {
  if (path === null) return null;
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (e) {
    fail([`--${flag}: cannot read ${path}: ${(e as Error).message}`]);
  }
}

/** `text` as one word of a shell command line (quoted when it has to be). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command line that resumes this experiment: the same flags, with --out named when it was the default. */
export function resumeCommand(opts: Options): string {
  const args = [...process.argv.slice(2), ...(opts.outGiven ? [] : ['--out', opts.out])];
  return `npm run experiment -- ${args.map(shellWord).join(' ')}`;
}
