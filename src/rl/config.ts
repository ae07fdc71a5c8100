import { CHANNEL_SETTINGS, channelPolicyOf, SIDE_BOARD_MODES, type ChannelSetting, type SideBoardMode } from '../sim/channels';
import type { SprintCosts } from '../sim/costs';
import { STRUCTURES, WORKER_POLICIES, type StructureKind, type WorkerPolicy } from '../sim/structure';
import { calibratedSchedule, FAMILIES, MAX_AGENTS, type Family } from '../sim/task';
import { ADVANTAGES, type AdvantageForm } from './advantages';
import { readNumber } from './readNumber';
import { SCHEDULE_SHAPES, type DeadlineSchedule, type ScheduleShape } from './schedule';

/** Everything that defines a training run. One schema serves the CLI flags and the app's URL. */
export interface Config {
  family: Family;
  agents: number;
  seed: number;
  updates: number;
  tasksPerUpdate: number;
  groupSize: number;
  advantage: AdvantageForm;
  lr: number;
  lrEnd: number;
  entropy: number;
  entropyEnd: number;
  epochs: number;
  clip: number;
  gradClip: number;
  tmaxStart: number;
  tmaxEnd: number;
  tmaxShape: ScheduleShape;
  tmaxWarmup: number;
  tmaxSteps: number;
  latencyPenalty: number;
  critic: boolean;
  gamma: number;
  lambda: number;
  rewards: 'collective' | 'individual';
  prior: number;
  hidden: number;
  scorer: number;
  /** Organisation preset: flat, ceo, islands or orchestrator (see sim/structure.ts). */
  structure: StructureKind;
  /** CEO: compute budget in agent-minutes. */
  budget: number;
  /** Islands: number of groups. */
  islands: number;
  /** Orchestrator: what the workers run. */
  workerPolicy: WorkerPolicy;
  /** Orchestrator with snapshot workers: the update at which the workers' weights are frozen. */
  snapshotAt: number;
  /** Orchestrator: weight of the shaping reward (parallel work, finished assignments). */
  shaping: number;
  /** Orchestrator: updates over which the shaping weight anneals to zero (0 = the whole run). */
  shapingAnneal: number;
  /** Optional cost: a DM interrupts a working receiver, whose module loses the minute (sim/costs.ts). */
  interruptions: boolean;
  /** Optional cost: two or more agents on one module in one minute conflict; only the claimant's minute counts (sim/costs.ts). */
  conflicts: boolean;
  /** Optional cost: a post interrupts every other agent working on a module that minute (sim/costs.ts). */
  broadcasts: boolean;
  /** Optional cost: two or more agents on one module in one minute owe it a merge minute (sim/costs.ts). */
  merges: boolean;
  mergeRamp: number;
  /** Merges: the RLCR update from which a merge costs anything (before it: nothing); the ramp starts there. */
  mergeFrom: number;
  /** Optional cost: the team's booked effort as a multiple of the task's nominal work (0 = unlimited; sim/costs.ts). */
  effort: number;
  /** Booked effort in training at the first RLCR update (a multiple of the nominal work), falling linearly to `effort` at the last; 0: `effort` throughout. */
  effortStart: number;
  /** The team schedule (flat structure): agents active in the training rollouts of the first RLCR update, one more at a time up to the whole team at `teamRamp` (teamAt); 0: the whole team throughout. */
  teamStart: number;
  /** The team schedule: the RLCR update from which the whole team plays. */
  teamRamp: number;
  /** Who may talk where (sim/channels.ts): the structure's own policy (`preset`) or one for any structure. */
  channels: ChannelSetting;
  /** The unofficial board (sim/channels.ts): off, open (nobody watches) or monitored. */
  sideBoard: SideBoardMode;
  /** Monitored unofficial board: the chance that a post is caught. */
  catchRate: number;
  /** Monitored unofficial board: the return a caught post costs the team at the deadline. */
  catchCost: number;
}

/**
 * `absent`: the value a run file or saved config without the field was trained with, when that is
 * not today's default (a default that changed: an old file keeps meaning what it meant).
 */
type NumField = { kind: 'int' | 'float'; min: number; max: number; default: number; absent?: number; help: string };
type EnumField = { kind: 'enum'; values: readonly string[]; default: string; absent?: string; help: string };
type BoolField = { kind: 'bool'; default: boolean; absent?: boolean; help: string };
export type Field = NumField | EnumField | BoolField;

/**
 * The default run's budget before it became 450 updates of 2 tasks x 16 rollouts: what a run file
 * without these fields, an older link (`LINK_V3_DEFAULTS`), the claims and the shipped swarms of the
 * long families other than the default were trained with.
 */
export const FORMER_BUDGET = { updates: 300, tasksPerUpdate: 4, groupSize: 8 } as const;

/** The schema: type, range, default and a one-line help per field. */
export const SCHEMA: { [K in keyof Config]: Field } = {
  family: {
    kind: 'enum',
    values: FAMILIES,
    default: 'long-planned',
    help: "task family: long-planned (a coupled sprint planned to the team's capacity), long-coupled, long-parallel, long-search, long-mixed (long horizon, interfaces travel by hand), or the short parallel, coupled, search, mixed (the first ones, 24 minutes)",
  },
  agents: { kind: 'int', min: 1, max: MAX_AGENTS, default: 8, help: 'agents in the swarm' },
  seed: { kind: 'int', min: 0, max: 2147483647, default: 1, help: 'seed of weights, tasks and sampling' },
  updates: { kind: 'int', min: 1, max: 1000000, default: 450, absent: FORMER_BUDGET.updates, help: 'policy updates' },
  tasksPerUpdate: { kind: 'int', min: 1, max: 64, default: 2, absent: FORMER_BUDGET.tasksPerUpdate, help: 'different tasks (groups) per update' },
  groupSize: {
    kind: 'int',
    min: 2,
    max: 64,
    default: 16,
    absent: FORMER_BUDGET.groupSize,
    help: 'rollouts per task (K); advantages are relative within a group',
  },
  advantage: { kind: 'enum', values: ADVANTAGES, default: 'dr-grpo', help: 'dr-grpo (R - mean), grpo (/ std) or rloo (leave-one-out)' },
  lr: { kind: 'float', min: 1e-6, max: 0.1, default: 0.005, absent: 0.003, help: 'Adam learning rate' },
  lrEnd: {
    kind: 'float',
    min: 0,
    max: 1,
    default: 1,
    help: 'learning rate at the last RLCR update as a share of --lr, linear from the first (1 = constant; the prior keeps --lr)',
  },
  entropy: {
    kind: 'float',
    min: 0,
    max: 1,
    default: 0.0002,
    help: "entropy bonus (scale it to the advantages: 0.001 suited the short families' 24-minute episodes)",
  },
  entropyEnd: {
    kind: 'float',
    min: 0,
    max: 1,
    default: 0.25,
    absent: 1,
    help: 'entropy bonus at the last RLCR update as a share of --entropy, linear from the first (1 = constant)',
  },
  epochs: { kind: 'int', min: 1, max: 16, default: 2, help: 'passes over each batch; above 1 the PPO clip applies' },
  clip: { kind: 'float', min: 0.01, max: 1, default: 0.2, help: 'PPO ratio clip' },
  gradClip: { kind: 'float', min: 0, max: 100, default: 1, help: 'global gradient-norm clip (0 = off)' },
  tmaxStart: { kind: 'int', min: 1, max: 200, default: 20, help: 'deadline (minutes) at the start of training' },
  tmaxEnd: { kind: 'int', min: 1, max: 200, default: 72, help: 'deadline at the end of training (the evaluation deadline)' },
  tmaxShape: { kind: 'enum', values: SCHEDULE_SHAPES, default: 'linear', help: 'growth of the deadline: linear, exponential or step' },
  tmaxWarmup: { kind: 'int', min: 0, max: 1000000, default: 0, help: 'updates held at the start deadline' },
  tmaxSteps: { kind: 'int', min: 1, max: 50, default: 4, help: 'stairs of the step shape' },
  latencyPenalty: { kind: 'float', min: 0, max: 10, default: 0, help: 'c in R - c * s * t_end / Tmax (0 = deadline only)' },
  critic: { kind: 'bool', default: false, help: 'ablation: value head + GAE instead of the flat Monte-Carlo advantage' },
  gamma: { kind: 'float', min: 0, max: 1, default: 1, help: 'GAE discount (critic ablation)' },
  lambda: { kind: 'float', min: 0, max: 1, default: 1, help: 'GAE lambda (critic ablation)' },
  rewards: {
    kind: 'enum',
    values: ['collective', 'individual'],
    default: 'collective',
    help: 'collective: one team return; individual: each agent gets the tests of its own work',
  },
  prior: { kind: 'int', min: 0, max: 100000, default: 0, help: 'imitation updates on the scripted organisation before RLCR (0 = off)' },
  hidden: { kind: 'int', min: 8, max: 512, default: 64, help: 'policy trunk width' },
  scorer: { kind: 'int', min: 4, max: 256, default: 32, help: 'width of the per-module and per-recipient scorers' },
  structure: {
    kind: 'enum',
    values: STRUCTURES,
    default: 'flat',
    help: 'organisation: flat (all talk to all), ceo (agent 0 hires and fires), islands (groups on task variants, best counts), orchestrator (agent 0 assigns, frozen workers)',
  },
  budget: { kind: 'int', min: 1, max: 100000, default: 120, help: 'ceo: compute budget in agent-minutes; each active agent spends one per minute' },
  islands: { kind: 'int', min: 1, max: MAX_AGENTS, default: 2, help: 'islands: number of groups, each on its own variant of the task (at most one per agent)' },
  workerPolicy: {
    kind: 'enum',
    values: WORKER_POLICIES,
    default: 'scripted',
    help: 'orchestrator: workers run the scripted worker or a frozen snapshot of the policy',
  },
  snapshotAt: {
    kind: 'int',
    min: 0,
    max: 1000000,
    default: 0,
    help: 'orchestrator, snapshot workers: update at which the workers are frozen (until then all agents train)',
  },
  shaping: {
    kind: 'float',
    min: 0,
    max: 10,
    default: 0,
    help: 'orchestrator: weight of the shaping reward for parallel work and finished assignments (0 = off)',
  },
  shapingAnneal: { kind: 'int', min: 0, max: 1000000, default: 0, help: 'orchestrator: updates over which the shaping weight falls to 0 (0 = the whole run)' },
  interruptions: {
    kind: 'bool',
    default: true,
    absent: false,
    help: 'cost of talk: a DM to an agent working on a module loses that module its minute (off = DMs cost the receiver nothing)',
  },
  conflicts: {
    kind: 'bool',
    default: false,
    help: "cost of piling on: two or more agents on one module in one minute count only if its claimant is among them, and then only the claimant's minute",
  },
  broadcasts: {
    kind: 'bool',
    default: true,
    absent: false,
    help: 'cost of a post: it notifies the whole team and loses the minute of every other agent working on a module (off = posts cost only the poster)',
  },
  merges: {
    kind: 'bool',
    default: false,
    help: 'cost of piling on: two or more agents on one module in one minute land their edits, and the next minute on it goes into merging them (off = a second agent wastes only its own minute)',
  },
  mergeRamp: {
    kind: 'int',
    min: 0,
    max: 1000000,
    default: 0,
    help: 'merges: training updates over which a merge grows from nothing to a whole minute, as the deadline grows (0 = a whole minute from the start; evaluation always a whole minute)',
  },
  mergeFrom: {
    kind: 'int',
    min: 0,
    max: 1000000,
    default: 0,
    help: 'merges: the RLCR update from which a merge costs anything in training (before it: nothing, so the swarm first learns the sprint); the ramp starts there',
  },
  effort: {
    kind: 'float',
    min: 0,
    max: 10,
    default: 0,
    help: "cost of every minute: the team's booked agent-minutes as a multiple of the task's nominal work; each minute not idled draws one, and the sprint ends when they are spent (0 = unlimited)",
  },
  effortStart: {
    kind: 'float',
    min: 0,
    max: 10,
    default: 0,
    help: 'effort: the booking in training at the first RLCR update, falling linearly to the effort setting at the last, as the deadline grows (0 = that setting throughout; evaluation always plays it)',
  },
  teamStart: {
    kind: 'int',
    min: 0,
    max: MAX_AGENTS,
    default: 0,
    help: 'the team grows as the deadline does: agents playing the training rollouts of the first RLCR update, one more at a time up to the whole team at teamRamp (0 = the whole team throughout; flat structure; evaluation always plays the whole team)',
  },
  teamRamp: {
    kind: 'int',
    min: 1,
    max: 1000000,
    default: 150,
    help: 'teamStart: the RLCR update from which the whole team plays',
  },
  channels: {
    kind: 'enum',
    values: CHANNEL_SETTINGS,
    default: 'preset',
    absent: 'open',
    help: "who may talk where: preset (the structure's own: flat and islands open, ceo and orchestrator hub), open (everyone DMs everyone, posts and reads), hub (DMs only to or from agent 0), command (hub, and only agent 0 posts) or board (no DMs); a message outside it is an attempt: the minute is lost, nothing is delivered",
  },
  sideBoard: {
    kind: 'enum',
    values: SIDE_BOARD_MODES,
    default: 'off',
    help: 'an unofficial board no policy lists (an agent posts on it with a DM to itself; it reaches every teammate and interrupts nobody): off, open (nobody watches) or monitored (posts are caught at --catch-rate and each costs --catch-cost of the return)',
  },
  catchRate: { kind: 'float', min: 0, max: 1, default: 0.5, help: 'monitored unofficial board: the chance that a post is caught' },
  catchCost: {
    kind: 'float',
    min: 0,
    max: 1,
    default: 0.05,
    help: 'monitored unofficial board: the return each caught post costs the team at the deadline (the return it is trained on, which can fall below 0)',
  },
};

export const CONFIG_KEYS = Object.keys(SCHEMA) as (keyof Config)[];

/**
 * The settings whose default changed, at their former values (each field's `absent`): the rules
 * the short families, their pretrained swarms and the first claim suite (`--claim-suite short`) were made under.
 */
export const FORMER_DEFAULTS: Partial<Config> = Object.fromEntries(
  CONFIG_KEYS.filter((k) => SCHEMA[k].absent !== undefined).map((k) => [k, SCHEMA[k].absent]),
) as Partial<Config>;

/**
 * The defaults that a link written before links carried their format (`v=2`, store/urlConfig.ts)
 * was read over, where they differ from today's: the default sprint was long-coupled at 20 -> 80
 * minutes. An old link keeps opening the run it opened.
 */
export const LINK_V1_DEFAULTS: Partial<Config> = { family: 'long-coupled', tmaxEnd: 80 };

/**
 * The defaults that a `v=2` link (and a link without a format) is read over, where they differ from
 * today's: there were no channel policies, so every structure talked openly. Today's default,
 * `preset`, would give a CEO or orchestrator run of such a link the hub policy.
 */
export const LINK_V2_DEFAULTS: Partial<Config> = { channels: 'open' };

/**
 * The defaults that a `v=3` link (and every older one) is read over, where they differ from today's:
 * the default run was 300 updates of 4 tasks x 8 rollouts, where today it is 450 updates of 2 tasks x
 * 16 rollouts (the same rollouts per update, one and a half times the updates).
 */
export const LINK_V3_DEFAULTS: Partial<Config> = { ...FORMER_BUDGET };

/** The link format the app writes (`v=4`; src/store/urlConfig.ts reads and writes links). */
export const LINK_VERSION = 4;

/** What the defaults changed after each older link format, oldest first: after format 1 (a link without `v`), 2 and 3. */
const CHANGED_AFTER: readonly Partial<Config>[] = [LINK_V1_DEFAULTS, LINK_V2_DEFAULTS, LINK_V3_DEFAULTS];

/**
 * The link format a hash's `v` names: 1 for a link without one (written before links carried it),
 * 2 to `LINK_VERSION` as written, null for anything else (a format this build cannot read).
 */
export function linkFormat(v: string | null | undefined): number | null {
  if (v === null || v === undefined) return 1;
  const n = Number(v);
  return Number.isInteger(n) && n >= 2 && n <= LINK_VERSION && String(n) === v ? n : null;
}

/**
 * The defaults a link of `format` is read over where they differ from today's: every change made
 * since it was written (none for today's format), so an old link keeps opening the run it opened.
 */
export function linkDefaults(format: number): Partial<Config> {
  return Object.assign({}, ...CHANGED_AFTER.slice(Math.max(0, format - 1)).reverse()) as Partial<Config>;
}

/** Fields that change the task stream or the model: changing one needs a fresh trainer. */
export const STRUCTURAL_KEYS: readonly (keyof Config)[] = [
  'family',
  'agents',
  'seed',
  'tasksPerUpdate',
  'groupSize',
  'hidden',
  'scorer',
  'prior',
  'structure',
  'islands',
  'workerPolicy',
  'snapshotAt',
  'interruptions',
  'conflicts',
  'broadcasts',
  'merges',
  'effort',
  'channels',
  'sideBoard',
  'catchRate',
  'catchCost',
];

/** True when going from `before` to `after` changes a structural setting: the change needs a fresh trainer (a new run). */
export function rebuildsTrainer(before: Config, after: Config): boolean {
  return STRUCTURAL_KEYS.some((k) => before[k] !== after[k]);
}

export function defaultConfig(): Config {
  return Object.fromEntries(CONFIG_KEYS.map((k) => [k, SCHEMA[k].default])) as unknown as Config;
}

/** The run's optional costs of talk and piling on, as the environment takes them (Task.costs). */
export function costsOf(
  c: Pick<Config, 'interruptions' | 'conflicts' | 'broadcasts' | 'merges' | 'effort'> &
    Partial<Pick<Config, 'structure' | 'channels' | 'sideBoard' | 'catchRate' | 'catchCost'>>,
): SprintCosts {
  const costs: SprintCosts = { interrupt: c.interruptions, conflict: c.conflicts, broadcast: c.broadcasts, merge: c.merges };
  if (c.effort > 0) costs.effort = c.effort;
  const channels = channelPolicyOf(c.channels ?? 'open', c.structure ?? 'flat');
  if (channels !== 'open') costs.channels = channels;
  if (c.sideBoard !== undefined && c.sideBoard !== 'off') costs.side = { mode: c.sideBoard, catchRate: c.catchRate ?? 0, catchCost: c.catchCost ?? 0 };
  return costs;
}

/**
 * The costs the training rollouts of update `u` play under: the run's costs, with a merge taking
 * nothing before the `mergeFrom`-th RLCR update (imitation updates: nothing either), then `r / mergeRamp`
 * of a minute in the r-th update after it while it is ramped in (a whole minute at once without a ramp);
 * and the booked effort falling from `effortStart` to `effort` over the RLCR updates (annealedAt).
 */
export function costsAt(c: Config, u: number): SprintCosts {
  const costs = costsOf(c);
  if (c.effort > 0 && c.effortStart > 0) costs.effort = annealedAt(c.effortStart, c.effort / c.effortStart, c, u);
  if (!c.merges || (c.mergeRamp <= 0 && c.mergeFrom <= 0)) return costs;
  const r = u - c.prior - c.mergeFrom;
  if (r < 0) return { ...costs, mergeCost: 0 };
  if (c.mergeRamp <= 0) return costs;
  return { ...costs, mergeCost: Math.min(1, r / c.mergeRamp) };
}

/** `start` at the first RLCR update, `start x endShare` at the last, linear between; the prior and `endShare` 1 keep `start`. */
function annealedAt(start: number, endShare: number, c: Pick<Config, 'prior' | 'updates'>, u: number): number {
  if (endShare === 1) return start;
  const r = Math.min(1, Math.max(0, u - c.prior) / Math.max(1, c.updates - 1));
  return start * (1 + (endShare - 1) * r);
}

/** The learning rate of update `u`: `lr` annealed to `lr x lrEnd` over the RLCR updates (annealedAt). */
export function lrAt(c: Pick<Config, 'lr' | 'lrEnd' | 'prior' | 'updates'>, u: number): number {
  return annealedAt(c.lr, c.lrEnd, c, u);
}

/** The entropy bonus of update `u`: `entropy` annealed to `entropy x entropyEnd` over the RLCR updates (annealedAt; the prior has none). */
export function entropyAt(c: Pick<Config, 'entropy' | 'entropyEnd' | 'prior' | 'updates'>, u: number): number {
  return annealedAt(c.entropy, c.entropyEnd, c, u);
}

/**
 * Agents active in the training rollouts of update `u` under the team schedule (flat structure
 * only): `teamStart` at the first RLCR update, one more every `teamRamp / (agents - teamStart)`
 * updates, the whole team from the `teamRamp`-th on. The prior's updates, other structures and a
 * schedule that is off (`teamStart` 0, or at least the team) play the whole team.
 */
export function teamAt(c: Pick<Config, 'agents' | 'structure' | 'teamStart' | 'teamRamp' | 'prior'>, u: number): number {
  const r = u - c.prior;
  if (c.teamStart <= 0 || c.teamStart >= c.agents || c.structure !== 'flat' || r < 0) return c.agents;
  return Math.min(c.agents, c.teamStart + Math.floor(((c.agents - c.teamStart) * r) / Math.max(1, c.teamRamp)));
}

export function scheduleOf(c: Config): DeadlineSchedule {
  return { start: c.tmaxStart, end: c.tmaxEnd, shape: c.tmaxShape, warmup: c.tmaxWarmup, steps: c.tmaxSteps };
}

/** A value that did not fit its field: what was given and why it was rejected or changed. */
export interface ConfigIssue {
  key: string;
  message: string;
}

function describe(f: Field): string {
  if (f.kind === 'enum') return `one of ${f.values.join(', ')}`;
  if (f.kind === 'bool') return 'true or false';
  return `${f.kind === 'int' ? 'an integer' : 'a number'} from ${f.min} to ${f.max}`;
}

/**
 * Reads one field from text (a CLI flag or URL value). In `clamp` mode an out-of-range number is
 * clamped into range; otherwise it is an error. Returns the value, or an issue and no value.
 */
export function parseField(key: keyof Config, raw: string, mode: 'strict' | 'clamp'): { value?: Config[keyof Config]; issue?: ConfigIssue } {
  const f = SCHEMA[key];
  const text = raw.trim();
  if (f.kind === 'enum') {
    return f.values.includes(text) ? { value: text as Config[keyof Config] } : { issue: { key, message: `"${text}" is not ${describe(f)}` } };
  }
  if (f.kind === 'bool') {
    if (['true', '1', 'yes', 'on', ''].includes(text)) return { value: true };
    if (['false', '0', 'no', 'off'].includes(text)) return { value: false };
    return { issue: { key, message: `"${text}" is not ${describe(f)}` } };
  }
  const r = readNumber(text, f);
  if (r.ok) return { value: r.value };
  if (r.reason === 'syntax' || mode === 'strict') return { issue: { key, message: r.message } };
  const c = Math.min(f.max, Math.max(f.min, Number(text)));
  return { value: c, issue: { key, message: `${text} was clamped to ${c} (${describe(f)})` } };
}

/**
 * Builds a full config from text values over the defaults. Unknown keys and bad values are reported;
 * in `clamp` mode bad values fall back to the default (or are clamped) so the result is always usable.
 */
export function configFromStrings(
  values: Record<string, string>,
  mode: 'strict' | 'clamp',
  base: Config = defaultConfig(),
): { config: Config; issues: ConfigIssue[] } {
  const config = { ...base } as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  for (const [key, raw] of Object.entries(values)) {
    if (!Object.hasOwn(SCHEMA, key)) {
      issues.push({ key, message: `unknown setting "${key.slice(0, 40)}"` });
      continue;
    }
    const { value, issue } = parseField(key as keyof Config, raw, mode);
    if (issue) issues.push(value === undefined && mode === 'clamp' ? { key, message: `${issue.message}; kept ${String(config[key])}` } : issue);
    if (value !== undefined) config[key] = value;
  }
  return { config: config as unknown as Config, issues };
}

/** The text form of every field that differs from the default (for URLs and file names). */
export function configToStrings(c: Config): Record<string, string> {
  const out: Record<string, string> = {};
  const d = defaultConfig();
  for (const k of CONFIG_KEYS) if (c[k] !== d[k]) out[k] = String(c[k]);
  return out;
}

/**
 * The settings a change of task family makes: the family, and its calibrated deadline schedule when
 * the run still has the old family's (a short family at 20 -> 80 minutes, or a long one at
 * 8 -> 24, would teach nothing); a schedule the user chose stays.
 */
export function familyChange(c: Pick<Config, 'family' | 'tmaxStart' | 'tmaxEnd'>, family: Family): Partial<Config> {
  const old = calibratedSchedule(c.family);
  const next = calibratedSchedule(family);
  if (c.tmaxStart !== old.start || c.tmaxEnd !== old.end) return { family };
  return { family, tmaxStart: next.start, tmaxEnd: next.end };
}
