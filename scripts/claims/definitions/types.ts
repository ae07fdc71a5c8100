/** The shapes of the claims: conditions, cached runs, the context a claim evaluates in, its report. */
import type { OrgSummary } from '../../../src/rl/compare';
import type { Config } from '../../../src/rl/config';
import type { UpdateMetrics } from '../../../src/rl/metrics';
import type { SprintCosts } from '../../../src/sim/costs';
import type { WorkSummary } from '../../../src/sim/evaluate';
import type { RaceResult, TimeSummary } from '../../../src/sim/race';
import type { Family } from '../../../src/sim/task';
import type { Part, Verdict } from '../rules';

/** A training condition: config overrides over the defaults, optionally continuing another condition's final weights. */
export interface Condition {
  id: string;
  /** One line: what differs from the default run. */
  label: string;
  overrides: Partial<Config>;
  /** Condition whose trained weights (same seed) this one starts from; its config is the base. */
  from?: string;
}

/** How a policy (or an organisation) did on the evaluation tasks at one deadline. */
export interface EvalNumbers extends WorkSummary {
  /** Mean minutes played per episode (all tests passing, or the deadline). */
  minutes: number;
  /** Useful agent-minutes per minute played: agents doing useful work at once. */
  parallelism: number;
  /** Minutes to 90% of the tests over the evaluation tasks (median etc.). */
  time90: TimeSummary;
  /** Mean anytime curve (share of tests passing after each minute). */
  curve: number[];
}

/** One update of the training curve, as cached. */
export type CurvePoint = Pick<
  UpdateMetrics,
  'update' | 'phase' | 'tmax' | 'ret' | 'messages' | 'messageRate' | 'handoffs' | 'useful' | 'duplicate' | 'claims' | 'entropy'
>;

/** Everything measured for one condition and seed: the cache record. */
export interface ConditionRun {
  version: number;
  key: string;
  condition: string;
  seed: number;
  config: Config;
  /** Cache key of the run this one continued, if any. */
  parentKey: string | null;
  trainSeconds: number;
  curve: CurvePoint[];
  /** Evaluations during training at the final deadline; `update` counts RLCR updates done (0 = before RLCR, after any prior). */
  checkpoints: { update: number; eval: EvalNumbers }[];
  /** The trained swarm at the final deadline. */
  final: EvalNumbers;
  /** The same policy with messages (DMs, posts, reads) masked out. */
  muted: EvalNumbers;
  /** Minutes to 90% with a horizon of 3 x the final deadline (the policy sees that horizon as its deadline). */
  race: { time: TimeSummary; curve: number[] };
}

/** The reference organisations for one condition's setting and seed. */
export interface Baseline {
  /** random, single chain, best-of-N, scripted organisation at the condition's final deadline. */
  orgs: OrgSummary[];
  /** single chain, best-of-N, scripted organisation: minutes to 90% at equal compute, horizon 3 x deadline. */
  race: RaceResult[];
}

/** What a claim's evaluation can read. */
export interface ClaimContext {
  seeds: number[];
  scale: { name: string; evalTasks: number; checkpointTasks: number };
  /** The (scaled) config of a condition. */
  config(id: string): Config;
  /** The condition's runs, one per seed, in seed order. */
  runs(id: string): ConditionRun[];
  /** Reference organisations at the condition's family, agents and final deadline, one per seed. */
  baselines(id: string): Promise<Baseline[]>;
  /** Single chain and scripted organisation at any deadline on the checkpoint tasks (for per-update references). */
  /** The single chain and the scripted organisation on the checkpoint tasks, under `costs` (the condition's costs of talk). */
  reference(family: Family, agents: number, tmax: number, seed: number, costs?: SprintCosts): Promise<{ chain: WorkSummary; scripted: WorkSummary }>;
}

/** A plot of a report: file name (in the claim's folder) and SVG text. */
export interface Plot {
  file: string;
  caption: string;
  svg: string;
}

/** A titled table of a report. */
export interface Table {
  caption: string;
  header: string[];
  rows: string[][];
}

/** A claim's measured outcome. */
export interface ClaimReport {
  id: string;
  title: string;
  statement: string;
  conditions: string[];
  tables: Table[];
  parts: Part[];
  verdict: Verdict;
  plots: Plot[];
  notes: string[];
}

/** A claim: statement, conditions and evaluation. */
export interface Claim {
  id: string;
  title: string;
  statement: string;
  conditions: string[];
  evaluate(ctx: ClaimContext): Promise<Omit<ClaimReport, 'id' | 'title' | 'statement' | 'conditions' | 'verdict'>>;
}
