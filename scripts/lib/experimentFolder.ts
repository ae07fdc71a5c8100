import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_KEYS, type Config } from '../../src/rl/config';
import { cacheKey, writeAtomic } from './cache';
import { kebab } from './cli';

/**
 * An experiment's output folder as a record of finished seeds, so an interrupted experiment resumes.
 * The folder holds the settings it was trained with (`experiment.json`, written before the first
 * seed) and, for each finished seed, a result record (`result-seed<N>.json`, written atomically after
 * the seed's curve, policy and run file): a re-run with the same settings takes those seeds from the
 * folder, one with other settings is refused with the setting that differs. The keys and atomic
 * writes are the claims cache's (`cache.ts`).
 */

/** Bumped whenever training, evaluation or the record changes what a kept seed would contain. */
export const RESUME_VERSION = 1;

/** Everything besides the seed that decides a seed's result. */
export interface ExperimentSettings {
  /** The config without its seed, every key in schema order. */
  config: Partial<Config>;
  evalTasks: number;
  greedy: boolean;
  backend: string;
  /** The starting weights' files, as a hash of their bytes (null when not given). */
  loadPolicy: string | null;
  initFrom: string | null;
}

/** The settings of `config` and the runner's options, in the form the folder keeps. */
export function experimentSettings(config: Config, o: Omit<ExperimentSettings, 'config'>): ExperimentSettings {
  return {
    config: Object.fromEntries(CONFIG_KEYS.filter((k) => k !== 'seed').map((k) => [k, config[k]])) as Partial<Config>,
    evalTasks: o.evalTasks,
    greedy: o.greedy,
    backend: o.backend,
    loadPolicy: o.loadPolicy,
    initFrom: o.initFrom,
  };
}

/** The key of `seed`'s result under `settings`: a finished seed's record carries it (and a queued seed's job is named by it). */
export function seedKey(settings: ExperimentSettings, seed: number): string {
  return cacheKey({ v: RESUME_VERSION, settings, seed });
}

const SETTINGS_FILE = 'experiment.json';
const FORMAT = 'swarm-experiment';
/** The files an experiment writes: in a folder without its settings file they are an older run's. */
const EXPERIMENT_FILE = /^(summary\.(json|csv)|training-seed\d+\.csv|policy-seed\d+\.json|run-seed\d+\.swarmrun\.json\.gz|result-seed\d+\.json)$/;

const RUNNER_FLAGS: Record<Exclude<keyof ExperimentSettings, 'config'>, string> = {
  evalTasks: '--eval-tasks',
  greedy: '--eval-greedy',
  backend: '--backend',
  loadPolicy: '--load-policy',
  initFrom: '--init-from',
};

const shown = (k: string, v: unknown) =>
  k === 'loadPolicy' || k === 'initFrom' ? (v === null ? 'none' : `a file with hash ${String(v).slice(0, 8)}`) : String(v);

/** The settings that differ between `kept` (the folder's) and `asked` (this run's), e.g. `--updates (100 in the folder, 1 in this run)`; empty when none. */
export function settingsDifferences(kept: ExperimentSettings, asked: ExperimentSettings): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(kept.config ?? {}), ...Object.keys(asked.config)]);
  for (const k of keys) {
    const a = (kept.config as Record<string, unknown>)?.[k];
    const b = (asked.config as Record<string, unknown>)[k];
    if (a !== b) out.push(`--${kebab(k)} (${a === undefined ? 'not set' : String(a)} in the folder, ${b === undefined ? 'not set' : String(b)} in this run)`);
  }
  for (const [k, flag] of Object.entries(RUNNER_FLAGS) as [keyof typeof RUNNER_FLAGS, string][])
    if (kept[k] !== asked[k]) out.push(`${flag} (${shown(k, kept[k])} in the folder, ${shown(k, asked[k])} in this run)`);
  return out;
}

const RESULT_FILE = /^result-seed\d+\.json$/;

function writeSettings(file: string, settings: ExperimentSettings): void {
  writeAtomic(file, JSON.stringify({ format: FORMAT, version: RESUME_VERSION, settings }, null, 1) + '\n');
}

/** A seed's record in the folder. */
interface SeedRecord<R> {
  key: string;
  seed: number;
  result: R;
}

/** The finished seeds of one experiment's settings in one folder. */
export class ExperimentFolder<R> {
  private constructor(
    readonly dir: string,
    private readonly settings: ExperimentSettings,
  ) {}

  /**
   * Opens `dir` (which exists) for `settings`: a folder with no experiment in it gets the settings
   * file, and so does one whose settings kept no seed yet; one holding the same settings is
   * reopened. Returns the reason in one line when the folder holds seeds of other settings (naming
   * each setting that differs) or experiment files without a settings file (written before seeds
   * were kept).
   */
  static open<R>(dir: string, settings: ExperimentSettings): ExperimentFolder<R> | { refused: string } {
    const file = join(dir, SETTINGS_FILE);
    const resume = 'use the same settings to resume it, or another --out';
    if (existsSync(file)) {
      let kept: { format?: unknown; version?: unknown; settings?: ExperimentSettings };
      try {
        kept = JSON.parse(readFileSync(file, 'utf8')) as typeof kept;
      } catch (e) {
        return { refused: `${file} is not a readable settings file (${(e as Error).message}): use another --out` };
      }
      if (kept.format !== FORMAT || typeof kept.settings !== 'object' || kept.settings === null)
        return { refused: `${file} is not an experiment's settings file: use another --out` };
      if (kept.version !== RESUME_VERSION)
        return {
          refused: `${dir} holds seeds kept by another version of the experiment (${String(kept.version)}, this one ${RESUME_VERSION}): use another --out`,
        };
      const diff = settingsDifferences(kept.settings, settings);
      const seeds = readdirSync(dir).filter((f) => RESULT_FILE.test(f));
      if (diff.length && seeds.length) return { refused: `${dir} holds seeds trained with other settings: ${diff.join(', ')}; ${resume}` };
      // Settings that kept no seed (a run stopped before its first seed ended) hold nothing to mix with: this run's replace them.
      if (diff.length) writeSettings(file, settings);
      return new ExperimentFolder<R>(dir, settings);
    }
    const old = readdirSync(dir).filter((f) => EXPERIMENT_FILE.test(f));
    if (old.length)
      return {
        refused: `${dir} holds an experiment's files (${old.slice(0, 3).join(', ')}${old.length > 3 ? ', ...' : ''}) but not its settings (${SETTINGS_FILE}), so they cannot be resumed: use another --out`,
      };
    writeSettings(file, settings);
    return new ExperimentFolder<R>(dir, settings);
  }

  /** The key of `seed`'s record in this folder (`seedKey`). */
  key(seed: number): string {
    return seedKey(this.settings, seed);
  }

  private path(seed: number): string {
    return join(this.dir, `result-seed${seed}.json`);
  }

  /** The kept result of `seed`, or undefined when it is not there (or is not this experiment's). */
  finished(seed: number): R | undefined {
    const file = this.path(seed);
    if (!existsSync(file)) return undefined;
    try {
      const record = JSON.parse(readFileSync(file, 'utf8')) as SeedRecord<R>;
      return record.key === this.key(seed) && record.seed === seed ? record.result : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `seed`'s result (call after its other files are written: the record says they are whole). */
  keep(seed: number, result: R): void {
    writeAtomic(this.path(seed), JSON.stringify({ key: this.key(seed), seed, result } satisfies SeedRecord<R>));
  }
}
