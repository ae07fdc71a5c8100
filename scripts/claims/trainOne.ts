/**
 * One claims run in a child process (`--jobs`): the command line of `train-one`
 * (scripts/commands/experiments/train-one.ts), written by the runner and read back by the child.
 */
import { fileURLToPath } from 'node:url';
import { parseFlags, readFlags, UsageError } from '../lib/cli';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../lib/backend';
import { ACTIVE_SUITE, CONDITIONS, DEFAULT_SUITE, SUITE_NAMES, useSuite, type SuiteName } from './definitions';
import { parseSeeds, SCALE_NAMES, SCALES, type ScaleName } from './scale';
import { ConditionStore, toStderr } from './conditionStore';

/** Flags of `train-one.ts`: one (condition, seed) run of a claims scale into `<out>/cache`. */
export interface TrainOneOptions {
  scale: ScaleName;
  out: string;
  condition: string;
  seed: number;
  backend: NodeBackend;
  quiet: boolean;
  /**
   * The cache key the caller computed for this run. When given, the child refuses to train under
   * another key (the definitions or the code changed since the caller started, or a setting was not
   * passed on), instead of filling the cache with a run nobody reads.
   */
  key?: string;
}

/** The child-process entry point of `--jobs`, beside this file. */
export const TRAIN_ONE_ENTRY = fileURLToPath(new URL('../commands/experiments/train-one.ts', import.meta.url));

/** The command-line arguments of `train-one.ts` for `o` (read back by `parseTrainOneArgs`). */
export function trainOneArgv(o: TrainOneOptions): string[] {
  return [
    '--suite',
    ACTIVE_SUITE.name,
    '--scale',
    o.scale,
    '--out',
    o.out,
    '--condition',
    o.condition,
    '--seed',
    String(o.seed),
    '--backend',
    o.backend,
    ...(o.key ? ['--key', o.key] : []),
    ...(o.quiet ? ['--quiet'] : []),
  ];
}

/** Reads the flags of `train-one.ts`; throws a UsageError for a bad command line. */
export function parseTrainOneArgs(argv: string[]): TrainOneOptions {
  const v = parseFlags(argv, {
    suite: { type: 'string' },
    scale: { type: 'string' },
    out: { type: 'string' },
    condition: { type: 'string' },
    seed: { type: 'string' },
    backend: { type: 'string' },
    key: { type: 'string' },
    quiet: { type: 'boolean' },
  });
  const errors: string[] = [];
  for (const k of ['scale', 'out', 'condition', 'seed', 'backend'] as const) if (v[k] === undefined) errors.push(`--${k} is required`);
  if (v.scale !== undefined && !SCALE_NAMES.includes(v.scale as ScaleName)) errors.push(`--scale: "${v.scale}" is not one of ${SCALE_NAMES.join(', ')}`);
  if (v.suite !== undefined && !SUITE_NAMES.includes(v.suite as SuiteName)) errors.push(`--suite: "${v.suite}" is not one of ${SUITE_NAMES.join(', ')}`);
  else useSuite((v.suite ?? DEFAULT_SUITE.name) as SuiteName);
  if (v.condition !== undefined && !Object.hasOwn(CONDITIONS, v.condition)) errors.push(`--condition: unknown condition "${v.condition}"`);
  if (v.backend !== undefined && !NODE_BACKENDS.includes(v.backend as NodeBackend))
    errors.push(`--backend: "${v.backend}" is not one of ${NODE_BACKENDS.join(', ')}`);
  let seed = NaN;
  if (v.seed !== undefined) {
    const seeds = parseSeeds(v.seed);
    if (typeof seeds === 'string' || seeds.length !== 1) errors.push(`--seed: "${v.seed}" is not one seed`);
    else seed = seeds[0];
  }
  if (errors.length) throw new UsageError(errors.join('\n'));
  return {
    scale: v.scale as ScaleName,
    out: v.out!,
    condition: v.condition!,
    seed,
    backend: v.backend as NodeBackend,
    quiet: v.quiet ?? false,
    ...(v.key !== undefined ? { key: v.key } : {}),
  };
}

/** The help of `train-one`. */
export const TRAIN_ONE_USAGE = `usage: npm run swarm -- train-one --scale ${SCALE_NAMES.join('|')} --out <folder> --condition <id> --seed <n> --backend ${NODE_BACKENDS.join('|')} [--suite ${SUITE_NAMES.join('|')}] [--key <cache key>] [--quiet]
  trains one condition and seed of a claims run into <out>/cache; started by npm run experiment -- --claim ... --jobs N`;

/**
 * `train-one.ts`: trains one condition and seed into `<out>/cache` with `ConditionStore.train` (its
 * parent must be cached) unless it is cached already. Returns the exit code: 0 done, 1 failed, 2 bad
 * command line; the message goes to stderr.
 */
export async function trainOneFromArgs(argv: string[]): Promise<number> {
  if (readFlags(argv, { help: { type: 'boolean' } }).values.help) {
    process.stdout.write(TRAIN_ONE_USAGE + '\n');
    return 0;
  }
  let o: TrainOneOptions;
  try {
    o = parseTrainOneArgs(argv);
  } catch (e) {
    process.stderr.write(`train-one: ${(e as Error).message.split('\n').join('\ntrain-one: ')}\n`);
    return 2;
  }
  try {
    const store = new ConditionStore(SCALES[o.scale], o.out, { quiet: o.quiet, lineBars: true });
    const key = store.key(o.condition, o.seed);
    if (o.key !== undefined && o.key !== key)
      throw new Error(
        `its cache key here is ${key}, the runner expected ${o.key}: the claim definitions or the code changed since the runner started (or a setting was not passed on); start the run again`,
      );
    await useBackend(o.backend);
    if (store.cached(o.condition, o.seed)) toStderr(`${o.condition} seed ${o.seed}: already in the cache`);
    else await store.train(o.condition, o.seed);
    return 0;
  } catch (e) {
    process.stderr.write(`error: training ${o.condition} seed ${o.seed} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}
