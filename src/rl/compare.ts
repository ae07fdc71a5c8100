import { randomPolicy, scriptedOrganisation, singleChain } from '../sim/baselines';
import { scriptedCeo } from '../sim/ceo';
import type { EpisodeStats } from '../sim/episodeStats';
import { bestOfN, mean, runEpisodes, summariseWork, type WorkSummary } from '../sim/evaluate';
import { orchestrated, scriptedOrchestrator, scriptedWorkers } from '../sim/orchestrator';
import type { ActionSource } from '../sim/actionSource';
import { pilesIdled } from '../sim/pileAudit';
import { tasksWithCosts, type SprintCosts } from '../sim/costs';
import type { StructureSettings } from '../sim/structure';
import { evaluationTasks } from '../sim/seeds';
import type { Family } from '../sim/task';
import { PolicyActor } from './actor';
import { MutedActor } from './muted';
import type { SwarmPolicy } from './policy';
import { workerSource, type WorkerSpec } from './frozenWorkers';

/**
 * The organisations of the comparison. The references (random to scripted organisation) are flat;
 * `scripted structure` is the scripted organisation under the run's structure (CEO, islands or
 * orchestrator; absent when flat), and the trained swarm plays under the run's structure.
 */
export const ORGANISATIONS = [
  'random',
  'single chain',
  'best-of-N',
  'scripted organisation',
  'scripted structure',
  'imitation prior',
  'trained swarm',
  'trained swarm, muted',
  'trained swarm, piles idled',
] as const;
export type Organisation = (typeof ORGANISATIONS)[number];

/** Aggregates of one organisation over a set of evaluation episodes. */
export interface OrgSummary extends WorkSummary {
  org: Organisation;
  /** Mean minutes to 90% of tests over the episodes that got there (null if none did). */
  t90: number | null;
  /** Share of episodes that reached 90% of tests by the deadline. */
  reached90: number;
  /** Mean anytime curve: share of tests passing after each minute. */
  curve: number[];
  /** Minutes to 90% of tests on each evaluation task, in the tasks' order (null: not reached); absent in records written before it was kept. */
  t90s?: (number | null)[];
}

export function summarise(org: Organisation, stats: EpisodeStats[], agents: number): OrgSummary {
  const reached = stats.filter((s) => s.t90 !== null).map((s) => s.t90 as number);
  return {
    org,
    ...summariseWork(stats, agents),
    t90: reached.length ? mean(reached) : null,
    reached90: reached.length / Math.max(1, stats.length),
    curve: stats[0].curve.map((_, t) => mean(stats.map((s) => s.curve[t]))),
    t90s: stats.map((s) => s.t90),
  };
}

/**
 * How the trained swarm is organised in an evaluation: the structure (flat when absent) and, for
 * the orchestrator, what its workers play (the live policy plays them when absent).
 */
export interface EvaluationSetup {
  structure?: StructureSettings;
  workers?: WorkerSpec;
  /** The run's optional costs of talk and piling on (sim/costs.ts); every organisation plays under them. */
  costs?: SprintCosts;
}

/** The scripted organisation under a structure: the scripted CEO, the scripted orchestrator with scripted workers, or the scripted organisation on every island. */
export function scriptedStructure(structure: StructureSettings): ActionSource {
  if (structure.structure === 'ceo') return scriptedCeo;
  if (structure.structure === 'orchestrator') return orchestrated(scriptedOrchestrator, scriptedWorkers);
  return scriptedOrganisation;
}

/** What an evaluation plays: `tasks` fresh tasks of `family` at deadline `tmax`, environment seed `seed`, sampling unless `greedy`. */
export type EvaluationOptions = { family: Family; agents: number; tmax: number; tasks: number; seed: number; greedy?: boolean } & EvaluationSetup;

/**
 * Plays the reference organisations (and the trained swarm, if a policy is given) on the same
 * evaluation tasks at deadline `tmax`, with environment seed `seed`. With a structure other than
 * flat, the scripted organisation also plays under it ('scripted structure') and the trained swarm
 * plays under it.
 */
export async function compareOrganisations(opts: EvaluationOptions & { policy?: SwarmPolicy }): Promise<OrgSummary[]> {
  const tasks = tasksWithCosts(evaluationTasks(opts.family, opts.tasks), opts.costs);
  const { agents, seed, tmax } = opts;
  const rows: OrgSummary[] = [];
  const play = async (org: Organisation, src: Parameters<typeof runEpisodes>[0]) =>
    rows.push(summarise(org, (await runEpisodes(src, tasks, agents, seed, tmax)).stats, agents));
  await play('random', randomPolicy(seed));
  await play('single chain', singleChain);
  rows.push(summarise('best-of-N', await bestOfN(tasks, agents, seed, tmax), agents));
  await play('scripted organisation', scriptedOrganisation);
  if (opts.structure && opts.structure.structure !== 'flat') {
    rows.push(
      summarise('scripted structure', (await runEpisodes(scriptedStructure(opts.structure), tasks, agents, seed, tmax, -1, opts.structure)).stats, agents),
    );
  }
  if (opts.policy) {
    rows.push(await evaluatePolicy(opts.policy, 'trained swarm', opts));
    rows.push(await evaluatePolicy(opts.policy, 'trained swarm, muted', { ...opts, muted: true }));
  }
  return rows;
}

/** What the swarm's talk is worth: the same policy played with and without its messages. */
export interface TalkValue {
  /** Return of the swarm as it is. */
  ret: number;
  /** Return with its DMs, posts and reads masked out (MutedActor). */
  muted: number;
  /** ret - muted: what talking adds (negative when the talk is overhead). */
  gain: number;
  /** Share of its deliveries (DMs and reads) that brought the receiver an interface it needed. */
  neededShare: number;
  /** Messages (DMs + posts) per episode. */
  messages: number;
  /** Useful agent-minutes per episode, talking. */
  useful: number;
  /** Duplicate agent-minutes per episode, talking. */
  duplicate: number;
  /** The scripted organisation's mean return on the same tasks, seed and deadline (what coordination is measured against). */
  scripted: number;
}

/**
 * Plays `policy` on `tasks` fresh evaluation tasks twice, talking and muted, with the same seed (so
 * the same work draws) and returns what its talk is worth, with the scripted organisation's return
 * on the same tasks beside it.
 */
export async function talkValue(
  policy: SwarmPolicy,
  opts: { family: Family; agents: number; tmax: number; tasks: number; seed: number } & EvaluationSetup,
): Promise<TalkValue> {
  const talking = await evaluatePolicy(policy, 'trained swarm', opts);
  const muted = await evaluatePolicy(policy, 'trained swarm, muted', { ...opts, muted: true });
  const tasks = tasksWithCosts(evaluationTasks(opts.family, opts.tasks), opts.costs);
  const scripted = mean((await runEpisodes(scriptedOrganisation, tasks, opts.agents, opts.seed, opts.tmax)).stats.map((s) => s.ret));
  return {
    ret: talking.ret,
    muted: muted.ret,
    gain: talking.ret - muted.ret,
    neededShare: talking.neededShare,
    messages: talking.messages,
    useful: talking.useful,
    duplicate: talking.duplicate,
    scripted,
  };
}

/**
 * Plays a policy alone on the evaluation tasks (sampling, unless `greedy`), under the setup's
 * structure; `muted` masks its DMs, posts and reads (MutedActor); `pilesIdled` plays every pile's
 * other agents as idle minutes (sim/pileAudit.ts, flat teams only).
 */
export async function evaluatePolicy(
  policy: SwarmPolicy,
  org: Organisation,
  opts: EvaluationOptions & { muted?: boolean; pilesIdled?: boolean },
): Promise<OrgSummary> {
  const actor = opts.muted ? new MutedActor(policy, opts.seed) : new PolicyActor(policy, opts.seed);
  actor.greedy = opts.greedy ?? false;
  const structure = opts.structure && opts.structure.structure !== 'flat' ? opts.structure : undefined;
  const played = opts.pilesIdled ? pilesIdled(actor, { minutes: 0 }) : actor;
  const source = structure?.structure === 'orchestrator' && opts.workers ? orchestrated(played, workerSource(opts.workers, opts.seed + 1)) : played;
  const run = await runEpisodes(source, tasksWithCosts(evaluationTasks(opts.family, opts.tasks), opts.costs), opts.agents, opts.seed, opts.tmax, -1, structure);
  return summarise(org, run.stats, opts.agents);
}

/** Mean returns of the reference organisations at one deadline: the lines the app draws under the curve. */
export interface References {
  chain: number;
  bestOfN: number;
  scripted: number;
}

/**
 * The reference organisations' mean return at deadline `tmax` on `tasks` evaluation tasks
 * (simulation only; a few milliseconds per deadline).
 */
export async function referenceReturns(family: Family, agents: number, tmax: number, tasks = 16, costs?: SprintCosts): Promise<References> {
  const list = tasksWithCosts(evaluationTasks(family, tasks), costs);
  const ret = async (src: Parameters<typeof runEpisodes>[0]) => mean((await runEpisodes(src, list, agents, 1, tmax)).stats.map((s) => s.ret));
  return {
    chain: await ret(singleChain),
    bestOfN: mean((await bestOfN(list, agents, 1, tmax)).map((s) => s.ret)),
    scripted: await ret(scriptedOrganisation),
  };
}
