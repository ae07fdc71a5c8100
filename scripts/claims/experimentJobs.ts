/**
 * A plain multi-seed experiment on the sweep queue (issue 27), free of TF.js and BullMQ: the job of one
 * seed (what the coordinator sends, what a worker checks before it trains), the command line a worker
 * trains it with (the experiment's own, `scripts/commands/experiments/experiment.ts --seeds N` into a scratch folder, so a
 * queued seed is trained by exactly the code of a local run), and the check of a worker's result
 * before its files enter the experiment's folder.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decodeRunFile } from '../../src/core/runFile';
import { CONFIG_KEYS, configFromStrings, SCHEMA, type Config } from '../../src/rl/config';
import { checkSettings } from '../../src/rl/settingsCheck';
import { kebab } from '../lib/cli';
import { experimentSettings, seedKey } from '../lib/experimentFolder';
import type { NodeBackend } from '../lib/nodeBackends';
import { checkPolicyText, ExperimentJobData, type ExperimentResult } from './sweep';

/** The config as text per key, in schema order (a job's form of it). */
export function configText(c: Config): Record<string, string> {
  return Object.fromEntries(CONFIG_KEYS.map((k) => [k, String(c[k])]));
}

/** What decides an experiment's seeds besides the config: the runner's settings of `npm run experiment`. */
export interface ExperimentRunSettings {
  evalTasks: number;
  greedy: boolean;
  backend: NodeBackend;
}

/** Starting weights of an experiment: which flag, and the file's bytes. */
export interface StartWeights {
  flag: 'load-policy' | 'init-from';
  bytes: Uint8Array;
}

/** The hash of a starting-weights file's bytes, as the experiment's folder keeps it (`fileHash`). */
export const bytesHash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The folder key of `seed` of an experiment with `config`, `s` and its starting weights, if any. */
export function experimentSeedKey(config: Config, s: ExperimentRunSettings, seed: number, start: StartWeights | null = null): string {
  const hash = start ? bytesHash(start.bytes) : null;
  return seedKey(
    experimentSettings(config, { ...s, loadPolicy: start?.flag === 'load-policy' ? hash : null, initFrom: start?.flag === 'init-from' ? hash : null }),
    seed,
  );
}

/** A reason a job cannot be trained (the worker fails it at once, without retries). */
export class BadJob extends Error {}

/** Checks an experiment job's data (its code version already matched); returns it with its config read, or throws a BadJob. */
export function checkExperimentJob(
  id: string | undefined,
  raw: unknown,
  jobIdOf: (key: string) => string,
): { data: ExperimentJobData; config: Config; start: StartWeights | null } {
  const parsed = ExperimentJobData.safeParse(raw);
  if (!parsed.success) throw new BadJob(parsed.error.issues.map((i) => `${i.path.join('.') || 'data'}: ${i.message}`).join('; '));
  const d = parsed.data;
  const missing = CONFIG_KEYS.filter((k) => !Object.hasOwn(d.config, k));
  if (missing.length) throw new BadJob(`its config lacks ${missing.join(', ')}`);
  const { config, issues } = configFromStrings(d.config, 'strict');
  if (issues.length) throw new BadJob(`its config: ${issues.map((i) => `${i.key}: ${i.message}`).join('; ')}`);
  const { errors } = checkSettings(config);
  if (errors.length) throw new BadJob(`its config: ${errors.join('; ')}`);
  if (d.seed !== config.seed) throw new BadJob(`its seed ${d.seed} is not its config's ${config.seed}`);
  const start = d.start ? { flag: d.start.flag, bytes: Buffer.from(d.start.base64, 'base64') } : null;
  if (d.key !== experimentSeedKey(config, d, d.seed, start)) throw new BadJob(`its key is not its settings' and seed's`);
  if (id !== jobIdOf(d.key)) throw new BadJob(`its id is not the seed's key`);
  return { data: d, config, start };
}

/** The command line of `scripts/commands/experiments/experiment.ts` that trains the job's seed into `out` (every config key spelled out), from `startFile` if given. */
export function experimentArgv(d: ExperimentJobData, config: Config, out: string, startFile: string | null = null): string[] {
  const flags = CONFIG_KEYS.map((k) => (SCHEMA[k].kind === 'bool' ? (config[k] ? `--${kebab(k)}` : `--no-${kebab(k)}`) : `--${kebab(k)}=${String(config[k])}`));
  return [
    ...flags,
    `--seeds=${d.seed}`,
    `--eval-tasks=${d.evalTasks}`,
    ...(d.greedy ? ['--eval-greedy'] : []),
    `--backend=${d.backend}`,
    ...(d.start && startFile ? [`--${d.start.flag}=${startFile}`] : []),
    `--out=${out}`,
    '--quiet',
  ];
}

/** The files of `seed` in an experiment's folder, by the names the experiment writes. */
export const seedFiles = (seed: number) => ({
  record: `result-seed${seed}.json`,
  policy: `policy-seed${seed}.json`,
  curve: `training-seed${seed}.csv`,
  runFile: `run-seed${seed}.swarmrun.json.gz`,
});

const num = z.number().nullable();
const orgSummary = z.looseObject({
  org: z.string().max(100),
  ret: num,
  t90: num,
  reached90: num,
  messages: num,
  messageRate: num,
  handoffs: num,
  neededShare: num,
  useful: num,
  duplicate: num,
  blocked: num,
});

/**
 * Checks an experiment seed's result from a worker against the seed asked for (its folder key,
 * seed, config and update count): the record's shape, the policy, the curve's header and the run
 * file (decoded as the app decodes it, with this config). Returns the record's result, or throws
 * naming what is wrong.
 */
export function checkExperimentResult(r: ExperimentResult, want: { key: string; seed: number; config: Config }): { result: unknown; runFile: Uint8Array } {
  let json: unknown;
  try {
    json = JSON.parse(r.record);
  } catch {
    throw new Error('its result is not JSON');
  }
  const updates = want.config.prior + want.config.updates;
  const shape = z.strictObject({
    key: z.literal(want.key),
    seed: z.literal(want.seed),
    result: z.looseObject({
      seed: z.literal(want.seed),
      trainSeconds: z.number(),
      updatesPerSecond: num,
      curve: z.array(z.looseObject({ update: z.number().int(), phase: z.string(), tmax: z.number(), ret: num })).length(updates),
      orgs: z.array(orgSummary).min(1).max(20),
    }),
  });
  const got = shape.safeParse(json);
  if (!got.success) throw new Error(`its result is not seed ${want.seed}'s record: ${z.prettifyError(got.error).split('\n').slice(0, 3).join('; ')}`);
  checkPolicyText(r.policy);
  if (!r.curve.startsWith('update,')) throw new Error('its training curve is not a training-seed CSV');
  const runFile = Buffer.from(r.runFile, 'base64');
  const decoded = decodeRunFile(runFile);
  if (!decoded.ok) throw new Error(`its run file: ${decoded.error}`);
  const rc = decoded.run.config as Partial<Config>;
  if (CONFIG_KEYS.some((k) => rc[k] !== want.config[k])) throw new Error('its run file was trained with another config');
  // The record as sent (zod's copy may order the keys otherwise), so the folder's files are a local run's byte for byte.
  return { result: (json as { result: unknown }).result, runFile };
}
