/**
 * The claims' compute budgets (`--claim-scale`) and what follows from a scale alone: the cache
 * version, the checkpoints, the seeds, the default output folder, the command that reproduces a
 * run, and the conditions (with their full-size configs) a list of claims needs.
 */
import { join } from 'node:path';
import { defaultConfig, SCHEMA, type Config } from '../../src/rl/config';
import { ACTIVE_SUITE, CLAIMS, CONDITIONS, DEFAULT_SUITE } from './definitions';

/** Bumped whenever training or evaluation changes what a cached run would contain. */
export const CACHE_VERSION = 2;

/** Share of the RLCR updates after which a checkpoint is evaluated (0 = before RLCR, 1 = the end). */
export const CHECKPOINTS = [0, 0.1, 0.25, 0.5, 0.75, 1];

/** A compute budget for the claims. */
export interface Scale {
  name: ScaleName;
  /** Training seeds (also the evaluation seeds of the work draws). */
  seeds: number[];
  /** Fresh evaluation tasks per seed for the final evaluation. */
  evalTasks: number;
  /** Fresh evaluation tasks per seed at each checkpoint and for per-deadline references. */
  checkpointTasks: number;
  /** Maps a condition's full-size config to this budget's. */
  config(c: Config): Config;
}

export const SCALE_NAMES = ['smoke', 'full'] as const;
export type ScaleName = (typeof SCALE_NAMES)[number];

const smallDeadline = (t: number) => Math.max(3, Math.round(t / 4));

/**
 * The budgets. `full`: every condition as declared in `definitions/` (see docs/EXPERIMENTS.md for
 * the settings and their cost), 64 evaluation tasks. `smoke`: the same claims on a toy scale (2
 * agents, 2 updates, deadlines / 4, a tiny network): seconds, for tests of the machinery only.
 */
export const SCALES: Record<ScaleName, Scale> = {
  full: { name: 'full', seeds: [1, 2, 3], evalTasks: 64, checkpointTasks: 32, config: (c) => ({ ...c }) },
  smoke: {
    name: 'smoke',
    seeds: [1, 2, 3],
    evalTasks: 2,
    checkpointTasks: 2,
    config: (c) => ({
      ...c,
      agents: Math.min(c.agents, 2),
      updates: Math.min(c.updates, 2),
      prior: Math.min(c.prior, 1),
      tasksPerUpdate: 1,
      groupSize: 2,
      epochs: 1,
      hidden: 8,
      scorer: 4,
      tmaxStart: smallDeadline(c.tmaxStart),
      tmaxEnd: smallDeadline(c.tmaxEnd),
    }),
  },
};

/** The scale `name` with `seeds` instead of its default seeds (undefined: the defaults). */
export function scaleWithSeeds(name: ScaleName, seeds?: readonly number[]): Scale {
  const scale = SCALES[name];
  return seeds ? { ...scale, seeds: [...seeds] } : scale;
}

/** Whether `scale` runs exactly its budget's default seeds, in their order. */
export function hasDefaultSeeds(scale: Scale): boolean {
  const d = SCALES[scale.name].seeds;
  return scale.seeds.length === d.length && scale.seeds.every((s, i) => s === d[i]);
}

/**
 * Default output folder of a claims run: `results/claims` (full) or `results/claims-smoke`, with
 * `-seeds-7-8-9` appended when the seeds are not the budget's defaults, so that a run on other seeds
 * never overwrites the committed reports.
 */
export function defaultOut(scale: Scale): string {
  const suite = ACTIVE_SUITE.name === DEFAULT_SUITE.name ? '' : `-${ACTIVE_SUITE.name}`;
  const base = scale.name === 'full' ? `claims${suite}` : `claims${suite}-${scale.name}`;
  return join('results', hasDefaultSeeds(scale) ? base : `${base}-seeds-${scale.seeds.join('-')}`);
}

/** The command line that reproduces a claims run of `claims` (e.g. `C1` or `<id>`) at `scale`, `--seeds` included when not the defaults. */
export function claimCommand(claims: string, scale: Scale): string {
  const suite = ACTIVE_SUITE.name === DEFAULT_SUITE.name ? '' : ` --claim-suite ${ACTIVE_SUITE.name}`;
  return `npm run experiment -- --claim ${claims} --claim-scale ${scale.name}${suite}${hasDefaultSeeds(scale) ? '' : ` --seeds ${scale.seeds.join(',')}`}`;
}

/** A condition's config at full size: the defaults (or its parent's config) with its overrides. */
export function fullConfig(id: string): Config {
  const cond = CONDITIONS[id];
  if (!cond) throw new Error(`unknown condition ${id}`);
  const base = cond.from ? { ...fullConfig(cond.from), prior: 0 } : defaultConfig();
  return { ...base, ...cond.overrides };
}

/** Conditions needed by `claims`, parents before children. */
export function conditionsFor(claimIds: readonly string[]): string[] {
  const out: string[] = [];
  const add = (id: string) => {
    if (out.includes(id)) return;
    const from = CONDITIONS[id].from;
    if (from) add(from);
    out.push(id);
  };
  for (const c of CLAIMS.filter((c) => claimIds.includes(c.id))) for (const id of c.conditions) add(id);
  return out;
}

/**
 * Reads a seed list: comma-separated decimal integers from 0 to the config's largest seed, no
 * duplicates. Returns the seeds, or the reason the text is not such a list.
 */
export function parseSeeds(text: string): number[] | string {
  const max = SCHEMA.seed.kind === 'int' ? SCHEMA.seed.max : 2147483647;
  const parts = text.split(',');
  const bad = parts.find((p) => !/^[0-9]+$/.test(p) || Number(p) > max);
  if (bad !== undefined)
    return `"${text}" is not a comma-separated list of seeds (integers from 0 to ${max}, decimal digits only, e.g. 7,8,9)${bad === '' ? ': an empty entry' : `: "${bad}"`}`;
  const seeds = parts.map(Number);
  const twice = seeds.find((s, i) => seeds.indexOf(s) !== i);
  if (twice !== undefined) return `"${text}" lists seed ${twice} twice`;
  return seeds;
}
