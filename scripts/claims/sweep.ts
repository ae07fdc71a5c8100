/**
 * The pieces of a sweep beyond one machine (issue 27) that need neither TF.js nor BullMQ: the queue's
 * address (read, redacted), the code version hash a job carries, the shape of a job and of a result
 * (both come from the network and are validated before use), and the deterministic `--shard I/N`
 * slices of a run list.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CONFIG_KEYS, SCHEMA } from '../../src/rl/config';
import type { ConditionRun } from './definitions';
import type { TrainJob } from './schedule';
import { UsageError } from '../lib/cli';
import { NODE_BACKENDS } from '../lib/nodeBackends';

/** A queue address that cannot be used, or a queue that cannot be reached: one line, exit code 2. */
export class QueueFault extends Error {
  override name = 'QueueFault';
}

/** Default BullMQ queue name of a sweep (`--queue-name` for several sweeps on one Redis). */
export const DEFAULT_QUEUE_NAME = 'swarm-sweep';

/** Default of `--redis-wait`: attempts, a second apart, to reach a Redis that went away before stopping with exit code 2. */
export const DEFAULT_REDIS_WAIT = 60;

/** A Redis address read from `--queue` or REDIS_URL. */
export interface QueueAddress {
  url: string;
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls: boolean;
  /** The address as logs show it: the password (and user) replaced by `***`. */
  shown: string;
}

/** `text` with the user and password of every URL in it (any scheme, e.g. a mistyped one) replaced by `***`. */
export function redact(text: string): string {
  return text.replace(/([a-z][\w+.-]*:\/\/)[^@\s/]*@/gi, '$1***@');
}

/** Reads `redis://[user][:password@]host[:port][/db]` or `rediss://...` (TLS); throws a QueueFault naming what is wrong. */
export function parseQueueUrl(text: string): QueueAddress {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new QueueFault(`--queue: "${redact(text)}" is not a URL like redis://host:6379 or rediss://:password@host:6380`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new QueueFault(`--queue: ${redact(text)} is not a redis:// or rediss:// URL`);
  if (!u.hostname) throw new QueueFault(`--queue: ${redact(text)} names no host`);
  const port = u.port ? Number(u.port) : 6379;
  const dbText = u.pathname.replace(/^\//, '');
  if (dbText && !/^\d{1,2}$/.test(dbText)) throw new QueueFault(`--queue: ${redact(text)}: the path must be a database number, e.g. /0`);
  const shown = `${u.protocol}//${u.username || u.password ? '***@' : ''}${u.host}${dbText ? '/' + dbText : ''}`;
  return {
    url: text,
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db: dbText ? Number(dbText) : 0,
    tls: u.protocol === 'rediss:',
    shown,
  };
}

/** Why a `--queue-name` is refused, or null for a good one (1 to 64 letters, digits, _ . or -). */
export function queueNameProblem(name: string): string | null {
  return /^[\w.-]{1,64}$/.test(name) ? null : `--queue-name: "${name}" is not 1 to 64 letters, digits, _ . or -`;
}

/**
 * The queue of a command that cannot run without one (`npm run sweep-worker`, `npm run
 * sweep-status`): `--queue` or REDIS_URL, and `--queue-name`; what is wrong is thrown as one line,
 * a UsageError (the commands print it with their usage and exit 2).
 */
export function requiredQueue(flag: string | undefined, name: string): { address: QueueAddress; queueName: string } {
  let address: QueueAddress | null;
  try {
    address = queueAddress(flag);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (!address) throw new UsageError('--queue is required (or REDIS_URL): the redis:// address of the sweep');
  const problem = queueNameProblem(name);
  if (problem) throw new UsageError(problem);
  return { address, queueName: name };
}

/** The queue address of `--queue` (its text) or else REDIS_URL; null when neither is set. */
export function queueAddress(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): QueueAddress | null {
  const text = flag ?? env.REDIS_URL;
  return text === undefined || text === '' ? null : parseQueueUrl(text);
}

/**
 * The version of the jobs' and results' shapes (2: plain experiments' jobs, progress with updates).
 * It enters the code version, so a worker of an older shape leaves the jobs to a matching one.
 */
export const QUEUE_PROTOCOL = 2;

/**
 * The code version a job carries: the package version, the cache version, the queue protocol and the
 * config schema's keys, kinds, ranges and defaults. A worker whose hash differs would train another
 * run under the same name, so it refuses the job.
 */
export function codeVersion(cacheVersion: number): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  const schema = CONFIG_KEYS.map((k) => {
    const f = SCHEMA[k] as unknown as Record<string, unknown>;
    return [k, f.kind, f.min ?? null, f.max ?? null, f.values ?? null, f.default];
  });
  return createHash('sha256')
    .update(JSON.stringify({ version: pkg.version ?? null, cacheVersion, protocol: QUEUE_PROTOCOL, schema }))
    .digest('hex')
    .slice(0, 12);
}

const KEY = z.string().regex(/^[0-9a-f]{16}$/, 'a 16-hex-digit cache key');

/** The data of one queued training run. Every field is checked by the worker before it trains. */
export const SweepJobData = z.strictObject({
  /** Identity of the sweep that queued the run (a queue holding unfinished jobs of another sweep is refused). */
  sweep: z.string().min(1).max(64),
  /** `codeVersion` of the coordinator. */
  code: z.string().min(1).max(64),
  suite: z.string().min(1).max(32),
  scale: z.string().min(1).max(32),
  condition: z.string().min(1).max(64),
  seed: z.number().int().min(0),
  key: KEY,
  parentKey: KEY.nullable(),
  /** The run's full config as text per key, read back with the config schema (configFromStrings, strict). */
  config: z.record(z.string().max(64), z.string().max(256)),
  /** The parent run's policy (its `<key>.policy.json` text) for a continuation. */
  parentPolicy: z
    .string()
    .max(64 * 1024 * 1024)
    .nullable(),
});
export type SweepJobData = z.infer<typeof SweepJobData>;

/** What a worker sends back: the cache files of the run, as text. */
export const SweepResult = z.strictObject({
  record: z.string().max(64 * 1024 * 1024),
  policy: z.string().max(64 * 1024 * 1024),
  worker: z.string().max(200),
  /** Wall-clock of the worker's training child, start to exit (the rest of a job's time is the queue's). */
  childSeconds: z.number().min(0).optional(),
});
export type SweepResult = z.infer<typeof SweepResult>;

/** The data of one seed of a plain multi-seed experiment (`npm run experiment -- --seeds 1,2,3 --queue ...`). */
export const ExperimentJobData = z.strictObject({
  kind: z.literal('experiment'),
  sweep: z.string().min(1).max(64),
  code: z.string().min(1).max(64),
  seed: z.number().int().min(0),
  /** The seed's key in the experiment's folder (`seedKey` of its settings): the job id is `run-<key>`. */
  key: KEY,
  /** The full config as text per key (its seed is `seed`), read back with the config schema. */
  config: z.record(z.string().max(64), z.string().max(256)),
  evalTasks: z.number().int().min(1).max(10000),
  greedy: z.boolean(),
  backend: z.enum(NODE_BACKENDS),
  /** The starting weights' file of `--load-policy` or `--init-from` (its bytes, base64), or null. */
  start: z
    .strictObject({
      flag: z.enum(['load-policy', 'init-from']),
      base64: z
        .string()
        .max(96 * 1024 * 1024)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
    })
    .nullable(),
});
export type ExperimentJobData = z.infer<typeof ExperimentJobData>;

/** What a worker sends back for an experiment's seed: that seed's files from the experiment's folder. */
export const ExperimentResult = z.strictObject({
  kind: z.literal('experiment'),
  /** `result-seed<N>.json`. */
  record: z.string().max(64 * 1024 * 1024),
  /** `policy-seed<N>.json`. */
  policy: z.string().max(64 * 1024 * 1024),
  /** `training-seed<N>.csv`. */
  curve: z.string().max(64 * 1024 * 1024),
  /** `run-seed<N>.swarmrun.json.gz`, base64. */
  runFile: z
    .string()
    .max(96 * 1024 * 1024)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64'),
  worker: z.string().max(200),
  childSeconds: z.number().min(0).optional(),
});
export type ExperimentResult = z.infer<typeof ExperimentResult>;

/** A number as cached: JSON writes a non-finite number as null. */
const num = z.number().nullable();
const timeSummary = z.looseObject({ median: num, q25: num, q75: num, meanReached: num });
const evalNumbers = z.looseObject({
  ret: num,
  messages: num,
  messageRate: num,
  handoffs: num,
  useful: num,
  minutes: num,
  parallelism: num,
  time90: timeSummary,
  curve: z.array(num),
});
const conditionRun = z.looseObject({
  version: z.number().int(),
  key: KEY,
  condition: z.string(),
  seed: z.number().int(),
  config: z.looseObject({}),
  parentKey: KEY.nullable(),
  trainSeconds: z.number(),
  curve: z.array(z.looseObject({ update: z.number().int(), phase: z.string(), tmax: z.number(), ret: num })),
  checkpoints: z.array(z.strictObject({ update: z.number().int(), eval: evalNumbers })),
  final: evalNumbers,
  muted: evalNumbers,
  race: z.strictObject({ time: timeSummary, curve: z.array(num) }),
});

/**
 * Checks a run record (a cache file's text, from a `--jobs` child or a queue worker) before it enters
 * the cache: its shape, and that it is the run asked for (version, key, condition, seed, parent).
 * Returns the record, or throws naming what is wrong.
 */
export function checkRunRecord(text: string, want: TrainJob & { version: number }): ConditionRun {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('its result is not JSON');
  }
  const r = conditionRun.safeParse(json);
  if (!r.success) throw new Error(`its result is not a run record: ${z.prettifyError(r.error).split('\n').slice(0, 3).join('; ')}`);
  const got = r.data;
  const wrong: string[] = [];
  if (got.version !== want.version) wrong.push(`version ${got.version}, not ${want.version}`);
  if (got.key !== want.key) wrong.push(`key ${got.key}, not ${want.key}`);
  if (got.condition !== want.condition) wrong.push(`condition ${got.condition}, not ${want.condition}`);
  if (got.seed !== want.seed) wrong.push(`seed ${got.seed}, not ${want.seed}`);
  if (got.parentKey !== want.parentKey) wrong.push(`parent ${String(got.parentKey)}, not ${String(want.parentKey)}`);
  if (wrong.length) throw new Error(`its result is another run (${wrong.join(', ')})`);
  return json as ConditionRun;
}

/** Checks a policy file's text: a JSON object (SwarmPolicy.fromJSON reads it when a continuation starts). */
export function checkPolicyText(text: string): void {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('its policy is not JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('its policy is not a JSON object');
}

/** `--shard I/N` read: I from 1 to N. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `I/N` (1 <= I <= N <= 10000); returns the shard or the reason it is not one. */
export function parseShard(text: string): Shard | string {
  const m = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
  if (!m) return `"${text}" is not I/N, e.g. 2/8`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 10000 || index < 1 || index > count) return `"${text}": I must be from 1 to N, and N from 1 to 10000`;
  return { index, count };
}

/**
 * The runs of shard `index` of `count`: a run and the runs that continue it (same seed) stay in one
 * shard, since a continuation starts from its parent's weights in the same cache. Chains are dealt
 * round-robin in the list's order, so every run is in exactly one shard and the slices are the same
 * on every machine.
 */
export function shardRuns(all: readonly TrainJob[], shard: Shard): TrainJob[] {
  const root = new Map<string, string>();
  const chains: string[] = [];
  for (const j of all) {
    const r = j.parentKey !== null && root.has(j.parentKey) ? root.get(j.parentKey)! : j.key;
    root.set(j.key, r);
    if (r === j.key && !chains.includes(r)) chains.push(r);
  }
  return all.filter((j) => chains.indexOf(root.get(j.key)!) % shard.count === shard.index - 1);
}
