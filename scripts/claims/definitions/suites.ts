/** The settings the claims run on (`--claim-suite`) and the training conditions each one gives. */
import { type Config, FORMER_BUDGET, FORMER_DEFAULTS } from '../../../src/rl/config';
import type { Family } from '../../../src/sim/task';
import type { Condition } from './types';

/**
 * A setting the nine claims run on: the task families, deadlines and budgets. `planned` (the
 * default) runs them on the default sprint, long-planned at 20 -> 72 minutes, with the long
 * parallel and search families beside it, under today's rules and at the default run's budget;
 * `planned-300` on the same sprint at the budget before it (300 updates of 4 tasks x 8 rollouts);
 * `long` on long-coupled at 20 -> 80 (the default sprint until 2026-12-06); `second-round` on the
 * same families under the rules before the costs of talk (no cost, a constant bonus: the verdicts
 * of 2026-11-30); `short` is the short families' setting, the first claim suite. The older ones
 * are kept so their results stay reproducible (`--claim-suite`).
 */
export interface Suite {
  name: SuiteName;
  /** The families playing the coupled, parallel and search roles. */
  coupled: Family;
  parallel: Family;
  search: Family;
  /** The deadline schedule of the default run: start -> end (the evaluation deadline). */
  start: number;
  end: number;
  /** RLCR updates of the default run (and of the conditions compared with it). */
  updates: number;
  /** Updates of the parallel and search swarms. */
  sideUpdates: number;
  /** Imitation updates of the prior condition. */
  prior: number;
  /** C4: agents, updates and the two fixed deadlines. */
  latency: { agents: number; updates: number; short: number; long: number };
  /** C5: updates of the critic continuations. */
  continueUpdates: number;
  /** The entropy bonus of every condition. */
  entropy: number;
  /** Settings every condition pins beyond these (the former rules, FORMER_DEFAULTS, for `second-round` and `short`). */
  rules: Partial<Config>;
}

export const SUITE_NAMES = ['planned', 'planned-300', 'long', 'second-round', 'short'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

/** Long-coupled at 20 -> 80 under today's rules. */
const LONG: Suite = {
  name: 'long',
  coupled: 'long-coupled',
  parallel: 'long-parallel',
  search: 'long-search',
  start: 20,
  end: 80,
  updates: 300,
  sideUpdates: 200,
  prior: 100,
  latency: { agents: 4, updates: 200, short: 80, long: 160 },
  continueUpdates: 50,
  entropy: 0.0002,
  // The batch the claims were measured with: 4 tasks x 8 rollouts an update (the default run's before it became 2 x 16).
  rules: { tasksPerUpdate: FORMER_BUDGET.tasksPerUpdate, groupSize: FORMER_BUDGET.groupSize },
};

/**
 * The default sprint (long-planned, 8 agents, 20 -> 72) under today's rules, at the former default
 * budget (300 updates of 4 tasks x 8 rollouts). C4's latency runs use the default swarm of 8 at the
 * sprint's own deadline and twice it: 4 agents (the long suite's) cannot finish a sprint planned
 * for 8 by either deadline.
 */
const PLANNED_300: Suite = {
  ...LONG,
  name: 'planned-300',
  coupled: 'long-planned',
  end: 72,
  latency: { agents: 8, updates: 200, short: 72, long: 144 },
};

/**
 * The default sprint at the default run's budget: 450 updates of 2 tasks x 16 rollouts (today's
 * defaults, so no batch is pinned), and every other budget of `planned-300` one and a half times
 * as many updates of the same rollouts an update (the parallel and search swarms, the imitation
 * prior, the latency runs, the critic continuations), so each condition sees the rollouts it saw
 * there in relation to the default run.
 */
const PLANNED: Suite = {
  ...PLANNED_300,
  name: 'planned',
  updates: 450,
  sideUpdates: 300,
  prior: 150,
  latency: { ...PLANNED_300.latency, updates: 300 },
  continueUpdates: 75,
  rules: {},
};

export const SUITES: Record<SuiteName, Suite> = {
  planned: PLANNED,
  'planned-300': PLANNED_300,
  long: LONG,
  // The same families under the rules before the costs of talk became the default.
  'second-round': { ...LONG, name: 'second-round', rules: FORMER_DEFAULTS },
  short: {
    name: 'short',
    coupled: 'coupled',
    parallel: 'parallel',
    search: 'search',
    start: 8,
    end: 24,
    updates: 600,
    sideUpdates: 300,
    prior: 150,
    latency: { agents: 4, updates: 250, short: 40, long: 80 },
    continueUpdates: 100,
    entropy: 0.001,
    rules: FORMER_DEFAULTS,
  },
};

/** Every training condition the claims of `suite` use, by id. Every condition pins its family, schedule and updates, so a change of the defaults leaves it alone. */
export function conditionsOf(S: Suite): Record<string, Condition> {
  const base: Partial<Config> = { ...S.rules, family: S.coupled, agents: 8, updates: S.updates, tmaxStart: S.start, tmaxEnd: S.end, entropy: S.entropy };
  const fixed = { tmaxStart: S.end, tmaxEnd: S.end };
  const L = S.latency;
  const latency = { ...S.rules, family: S.coupled, agents: L.agents, updates: L.updates, entropy: S.entropy };
  const cont = { ...fixed, updates: S.continueUpdates, critic: true };
  return {
    coupled: { id: 'coupled', label: `default: ${S.coupled}, 8 agents, ${S.updates} updates, deadline ${S.start} -> ${S.end}`, overrides: base },
    'coupled-fixed': { id: 'coupled-fixed', label: `fixed deadline ${S.end} from the start`, overrides: { ...base, ...fixed } },
    'coupled-individual': {
      id: 'coupled-individual',
      label: 'individual rewards (each agent: the tests its own work passed)',
      overrides: { ...base, rewards: 'individual' },
    },
    'coupled-prior': {
      id: 'coupled-prior',
      label: `${S.prior} imitation updates, then the default ${S.updates} RLCR updates`,
      overrides: { ...base, prior: S.prior },
    },
    parallel: {
      id: 'parallel',
      label: `${S.parallel} tasks, ${S.sideUpdates} updates, deadline ${S.start} -> ${S.end}`,
      overrides: { ...base, family: S.parallel, updates: S.sideUpdates },
    },
    search: {
      id: 'search',
      label: `${S.search} tasks, ${S.sideUpdates} updates, deadline ${S.start} -> ${S.end}`,
      overrides: { ...base, family: S.search, updates: S.sideUpdates },
    },
    [`deadline-${L.short}`]: {
      id: `deadline-${L.short}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.short}, no penalty`,
      overrides: { ...latency, tmaxStart: L.short, tmaxEnd: L.short },
    },
    [`penalty-${L.short}`]: {
      id: `penalty-${L.short}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.short}, latency penalty c = 1`,
      overrides: { ...latency, tmaxStart: L.short, tmaxEnd: L.short, latencyPenalty: 1 },
    },
    [`penalty-${L.long}`]: {
      id: `penalty-${L.long}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.long}, latency penalty c = 1`,
      overrides: { ...latency, tmaxStart: L.long, tmaxEnd: L.long, latencyPenalty: 1 },
    },
    'critic-1-1': {
      id: 'critic-1-1',
      label: `continues \`coupled\` for ${S.continueUpdates} updates at deadline ${S.end} with critic + GAE, gamma = lambda = 1`,
      from: 'coupled',
      overrides: { ...cont, gamma: 1, lambda: 1 },
    },
    'critic-lambda': { id: 'critic-lambda', label: 'as critic-1-1 with lambda = 0.95', from: 'coupled', overrides: { ...cont, gamma: 1, lambda: 0.95 } },
    'critic-gamma': { id: 'critic-gamma', label: 'as critic-1-1 with gamma = 0.95', from: 'coupled', overrides: { ...cont, gamma: 0.95, lambda: 1 } },
  };
}
