/**
 * The meaning checks of a run file, beyond its shape: every index within the team and the task,
 * every time within its episode, every number the views draw within the range the rules allow
 * (METRIC_RANGES, STRUCTURE_RANGES, TALK_RANGES), every size within the limits
 * the views and the trainer can hold. A file that passes them can be replayed without a view
 * sizing an array from a hostile number. Diagnostics that may be NaN in an honest run (the loss of
 * a diverged policy, its weights, a talk measurement) stay readable: a run that diverged is still
 * the user's data; "train on" refuses such weights (`trainableCheckpoint`). Pure TypeScript.
 */
import { SCHEMA, type Config } from '../rl/config';
import type { StructureMetric, UpdateMetrics } from '../rl/metrics';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';
import type { Checkpoint, RunFile, ShowcaseEpisode, TalkRecord } from './runFormat';

/** The longest deadline any run can have (the schema's bound), in minutes. */
export const MAX_TMAX = (SCHEMA.tmaxEnd as { max: number }).max;
/** Most events one showcase episode can hold: each agent acts once a minute (twice counted for a CEO hire or an assignment), plus one completion per module. */
export function maxEvents(agents: number, tmax: number, modules: number): number {
  return 2 * agents * (tmax + 1) + modules;
}

/** What bounds the numbers of one metrics row: the team and the deadline of the sprint it measured. */
export interface Sprint {
  /** Agents of the swarm (`config.agents`; a structural setting, the same for the whole run). */
  agents: number;
  /** The deadline the update's rollouts were cut at (`metrics[i].tmax`), or the talk evaluation's. */
  tmax: number;
  /** The organisation structure (structural too). */
  structure: Config['structure'];
  /** The most return the unofficial board's monitor can charge an episode (0 without it; sim/env `finalReturn`). */
  charge?: number;
}

/** The most return the monitor can charge one episode of `c` at deadline `tmax`: a caught post a minute by every agent. */
export function maxCharge(c: Pick<Config, 'sideBoard' | 'catchCost' | 'agents'>, tmax: number): number {
  return c.sideBoard === 'monitored' ? c.catchCost * c.agents * tmax : 0;
}

/**
 * The range a drawn number must lie in, in the sprint it measured, and why (said in the refusal).
 * `nan`: the number may be NaN (written as null), which the format allows for diagnostics only.
 */
export interface Range {
  min: number | ((s: Sprint) => number);
  max: (s: Sprint) => number;
  why: (s: Sprint) => string;
  nan?: true;
}

/** The anytime return: the share of the task's tests passing (sim/env `returnOf`). */
const RETURN: Range = { min: 0, max: () => 1, why: () => 'a return is the share of tests passing, 0 to 1' };
/** The return at the deadline a swarm is trained on (sim/env `finalReturn`): the share of tests passing, less the monitor's charges. */
const CHARGED_RETURN: Range = {
  min: (s) => -(s.charge ?? 0),
  max: () => 1,
  why: (s) =>
    s.charge ? `the share of tests passing, 0 to 1, less at most ${s.charge} charged by the monitor` : 'a return is the share of tests passing, 0 to 1',
};
/** A share of something (0 when there was nothing to share). */
const SHARE: Range = { min: 0, max: () => 1, why: () => 'a share, 0 to 1' };
/**
 * A count per episode of things each agent does at most once a minute (sim/env `step`: every active
 * agent takes one action a minute; a module worked counts once however many work it, duplicates once
 * per extra worker, a handoff once per DM or read). Under islands the counts add up over the islands,
 * whose agents together are the swarm's, so the bound holds too.
 */
const AGENT_MINUTES: Range = { min: 0, max: (s) => s.agents * s.tmax, why: (s) => `${s.agents} agents x ${s.tmax} minutes, one action an agent a minute` };
/** A count of what agent 0 (the CEO, the orchestrator) does at most once a minute. */
const LEAD_MINUTES: Range = { min: 0, max: (s) => s.tmax, why: (s) => `agent 0 acts once a minute for ${s.tmax} minutes` };
/** A learning diagnostic (loss, entropy, gradient norm, timings): not drawn as a curve, NaN when the policy diverged. */
const DIAGNOSTIC: Range = { min: -Infinity, max: () => Infinity, why: () => 'any number', nan: true };

/**
 * The range of every number of a metrics row (rl/metrics `UpdateMetrics`, sim/evaluate
 * `summariseWork`: per-episode means over the update's rollouts, so each bound on one rollout bounds
 * the mean). A field added to UpdateMetrics fails to compile until it is listed here. The latency
 * penalty (rl/advantages `latencyPenalised`: R - c * s * tEnd / Tmax, at least -c) shapes only the
 * advantages; `ret` is recorded before it, so it is a plain return. The unofficial board's monitor
 * (sim/env `finalReturn`) takes its charges out of `ret`, which can then fall below 0.
 */
export const METRIC_RANGES: Record<Exclude<keyof UpdateMetrics, 'update' | 'phase' | 'tmax' | 'structure'>, Range> = {
  ret: CHARGED_RETURN,
  // The sample sd of returns in [0, 1] is at most sqrt(1/2) (two rollouts at 0 and 1).
  retStd: { min: 0, max: () => 1, why: () => 'the spread of returns that lie in 0 to 1' },
  messages: AGENT_MINUTES,
  // Messages per agent-minute played: at most 1, except under islands, where the minutes played end
  // with the first island to finish while every island's messages count (at most Tmax per agent-minute).
  messageRate: {
    min: 0,
    max: (s) => (s.structure === 'islands' ? s.tmax : 1),
    why: (s) =>
      s.structure === 'islands' ? `at most ${s.tmax} per agent-minute of the first island to finish` : 'an agent sends at most one message a minute',
  },
  handoffs: AGENT_MINUTES,
  neededShare: SHARE,
  useful: AGENT_MINUTES,
  duplicate: AGENT_MINUTES,
  blocked: AGENT_MINUTES,
  emptyReads: AGENT_MINUTES,
  idle: AGENT_MINUTES,
  claims: AGENT_MINUTES,
  // The optional costs (sim/costs): a wasted message is one of the messages; an interruption lands on
  // a working agent, at most once a minute; a conflict needs two agents on one module in a minute.
  wastedMessages: AGENT_MINUTES,
  interrupted: AGENT_MINUTES,
  conflicts: AGENT_MINUTES,
  // The channels (sim/channels): an unofficial post and an attempt each take their sender's minute;
  // a caught post is one of the unofficial posts.
  sidePosts: AGENT_MINUTES,
  sideShare: SHARE,
  caught: AGENT_MINUTES,
  attempts: AGENT_MINUTES,
  entropy: DIAGNOSTIC,
  loss: DIAGNOSTIC,
  gradNorm: DIAGNOSTIC,
  collectMs: DIAGNOSTIC,
  learnMs: DIAGNOSTIC,
};

/** The range of every structure metric (rl/metrics `STRUCTURE_METRICS`, means over the rollouts); the compiler checks each is listed. */
export const STRUCTURE_RANGES: Record<StructureMetric, Range> = {
  // CEO (sim/ceo): active agents per minute, of the swarm's.
  headCount: { min: 0, max: (s) => s.agents, why: (s) => `at most the swarm's ${s.agents} agents are active` },
  // Each active agent spends one agent-minute of the budget a minute played.
  budgetSpent: AGENT_MINUTES,
  // A hire or a fire takes the CEO's minute.
  hires: LEAD_MINUTES,
  fires: LEAD_MINUTES,
  islandBest: RETURN,
  islandMean: RETURN,
  // Orchestrator (sim/orchestrator `criticalSteps`): its own steps (at most one a minute) plus, per
  // stage, the slowest worker's (stages do not overlap, so at most one a minute in all).
  criticalSteps: { min: 0, max: (s) => 2 * s.tmax, why: (s) => `the orchestrator's ${s.tmax} minutes plus the slowest workers' ${s.tmax}` },
  // An assignment rides on the orchestrator's DM, one a minute.
  assigns: LEAD_MINUTES,
  parallelShare: SHARE,
  finishShare: SHARE,
  shapingWeight: { min: 0, max: () => SHAPING_MAX, why: () => `the shaping setting's range, 0 to ${SHAPING_MAX}` },
};
const SHAPING_MAX = (SCHEMA.shaping as { max: number }).max;

/** The range of a talk measurement's numbers (rl/muted `talkValue`); the format allows NaN for each (not measured). */
export const TALK_RANGES: Record<'ret' | 'muted' | 'neededShare' | 'messages' | 'useful' | 'duplicate' | 'scripted', Range> = {
  ret: { ...CHARGED_RETURN, nan: true },
  muted: { ...RETURN, nan: true },
  neededShare: { ...SHARE, nan: true },
  messages: { ...AGENT_MINUTES, nan: true },
  useful: { ...AGENT_MINUTES, nan: true },
  duplicate: { ...AGENT_MINUTES, nan: true },
  scripted: { ...RETURN, nan: true },
};

/**
 * Slack on each bound, relative to it: means are sums of v / n (rl/trainingStructure), which may
 * pass an exact bound by a rounding error.
 */
const SLACK = 1e-9;

/** Why `v` is outside `range` in `sprint`, or null when it is within. */
export function rangeIssue(v: number, range: Range, sprint: Sprint): string | null {
  if (Number.isNaN(v)) return range.nan ? null : 'expected a finite number, got NaN or null';
  const max = range.max(sprint);
  const min = typeof range.min === 'number' ? range.min : range.min(sprint);
  if (v < min - SLACK * Math.abs(min) || v > max + SLACK * Math.abs(max) || (!Number.isFinite(v) && !range.nan))
    return `${v} is outside ${min} to ${max} (${range.why(sprint)})`;
  return null;
}

/** One problem: where (as a path into the file) and what is wrong. */
export interface MeaningIssue {
  path: (string | number)[];
  message: string;
}

/** How many problems are collected before the check stops (a hostile file can hold millions). */
const MAX_ISSUES = 20;

/**
 * The problems of `run`'s meaning (at most MAX_ISSUES): an empty list means every index, time and
 * size is within what the run's own settings allow.
 */
export function meaningIssues(run: Pick<RunFile, 'config' | 'metrics' | 'episodes' | 'talk'>): MeaningIssue[] {
  const issues: MeaningIssue[] = [];
  const add = (path: (string | number)[], message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
  };
  const agents = run.config.agents;
  const structure = run.config.structure;
  const check = (at: (string | number)[], v: number | undefined, range: Range, sprint: Sprint) => {
    if (v === undefined) return;
    const why = rangeIssue(v, range, sprint);
    if (why) add(at, why);
  };
  run.metrics.forEach((m, i) => {
    if (issues.length >= MAX_ISSUES) return;
    if (m.tmax > MAX_TMAX) return add(['metrics', i, 'tmax'], `${m.tmax} minutes is beyond the longest deadline (${MAX_TMAX})`);
    const sprint: Sprint = { agents, tmax: m.tmax, structure, charge: maxCharge(run.config, m.tmax) };
    for (const [k, range] of Object.entries(METRIC_RANGES)) check(['metrics', i, k], m[k as keyof typeof METRIC_RANGES], range, sprint);
    if (m.structure)
      for (const [k, range] of Object.entries(STRUCTURE_RANGES)) check(['metrics', i, 'structure', k], m.structure[k as StructureMetric], range, sprint);
  });
  run.episodes.items.forEach((e, i) => {
    if (issues.length < MAX_ISSUES) episodeIssues(e, agents, ['episodes', 'items', i], add);
  });
  (run.talk ?? []).forEach((r: TalkRecord, i) => {
    if (issues.length >= MAX_ISSUES) return;
    if (r.tmax > MAX_TMAX) return add(['talk', i, 'tmax'], `${r.tmax} minutes is beyond the longest deadline (${MAX_TMAX})`);
    const sprint: Sprint = { agents, tmax: r.tmax, structure, charge: maxCharge(run.config, r.tmax) };
    for (const [k, range] of Object.entries(TALK_RANGES)) check(['talk', i, k], r[k as keyof typeof TALK_RANGES], range, sprint);
  });
  return issues;
}

function episodeIssues(e: ShowcaseEpisode, agents: number, at: (string | number)[], add: (path: (string | number)[], message: string) => void): void {
  const M = e.modules.length;
  if (e.tmax > MAX_TMAX) return add([...at, 'tmax'], `${e.tmax} minutes is beyond the longest deadline (${MAX_TMAX})`);
  if (M > MAX_MODULES) return add([...at, 'modules'], `${M} modules, at most ${MAX_MODULES} are possible`);
  e.modules.forEach((m, k) => {
    if (m.dep < -1 || m.dep >= M || m.dep === k) add([...at, 'modules', k, 'dep'], `${m.dep} is not another module of the task (0 to ${M - 1}, or -1)`);
    if (!Number.isFinite(m.work) || m.work <= 0 || m.work > MAX_TMAX * MAX_AGENTS)
      add([...at, 'modules', k, 'work'], `${m.work} is not a positive number of agent-minutes`);
  });
  // The reference organisations' mean returns at the deadline: returns, 0 to 1.
  for (const k of ['chain', 'bestOfN', 'scripted'] as const) {
    const why = rangeIssue(e.references[k], RETURN, { agents, tmax: e.tmax, structure: 'flat' });
    if (why) add([...at, 'references', k], why);
  }
  const limit = maxEvents(agents, e.tmax, M);
  if (e.events.length > limit) return add([...at, 'events'], `${e.events.length} events, at most ${limit} fit ${agents} agents over ${e.tmax} minutes`);
  for (let j = 0; j < e.events.length; j++) {
    const ev = e.events[j];
    const where = [...at, 'events', j];
    if (ev.agent >= agents) return add([...where, 'agent'], `agent ${ev.agent} is not in the team (agents 0 to ${agents - 1})`);
    if (ev.t > e.tmax) return add([...where, 't'], `minute ${ev.t} is after the deadline (${e.tmax})`);
    if (ev.module >= M) return add([...where, 'module'], `module ${ev.module} is not in the task (modules 0 to ${M - 1})`);
    if (ev.target >= agents) return add([...where, 'target'], `agent ${ev.target} is not in the team (agents 0 to ${agents - 1})`);
  }
  const s = e.structure;
  if (!s) return;
  if (s.islandOf && (s.islandOf.length > agents || s.islandOf.some((x) => x >= agents)))
    add([...at, 'structure', 'islandOf'], `needs at most one island per agent (${agents})`);
  if (s.headCount && (s.headCount.length > e.tmax + 1 || s.headCount.some((x) => x > agents)))
    add([...at, 'structure', 'headCount'], `needs at most ${agents} agents in each of at most ${e.tmax + 1} minutes`);
  if (s.assignment && (s.assignment.length > agents || s.assignment.some((x) => x >= M)))
    add([...at, 'structure', 'assignment'], `needs at most one module (0 to ${M - 1}) for each of ${agents} agents`);
  if (s.criticalSteps !== undefined && s.criticalSteps > 2 * e.tmax)
    add(
      [...at, 'structure', 'criticalSteps'],
      `${s.criticalSteps} is more than ${2 * e.tmax} (the orchestrator's ${e.tmax} minutes plus the slowest workers')`,
    );
}

/** The checkpoint a run can be trained on from, or why it cannot. */
export type TrainableCheckpoint = { ok: true; checkpoint: Checkpoint; config: Config } | { ok: false; error: string };

/**
 * Checks, before anything changes, that `run` can be trained on: it holds a checkpoint, the weights
 * fit this build (inputs, actions) and the run's settings (hidden and scorer widths), and every
 * weight is a finite number. `config` is the run's settings without the imitation prior (the
 * weights went through it already).
 */
export function trainableCheckpoint(run: Pick<RunFile, 'config' | 'checkpoints'>): TrainableCheckpoint {
  const cp = run.checkpoints.items.at(-1);
  if (!cp) return { ok: false, error: 'This run holds no policy weights, so it cannot be trained further.' };
  const w = cp.weights;
  const why = (text: string): TrainableCheckpoint => ({ ok: false, error: `This run cannot be trained on: ${text}. Nothing was changed.` });
  if (w.obsDim !== OBS_DIM || w.actions !== NUM_ACTIONS)
    return why(`its weights were made for ${w.obsDim} inputs / ${w.actions} actions, this build has ${OBS_DIM} / ${NUM_ACTIONS}`);
  if (w.shape.hidden !== run.config.hidden || w.shape.scorer !== run.config.scorer)
    return why(
      `its weights are for a policy of hidden ${w.shape.hidden} / scorer ${w.shape.scorer}, but its settings say ${run.config.hidden} / ${run.config.scorer}`,
    );
  for (const [name, t] of Object.entries(w.weights)) {
    if (t.data.length !== t.shape.reduce((a, b) => a * b, 1)) return why(`weight "${name}" does not match its shape`);
    if (!t.data.every(Number.isFinite)) return why(`weight "${name}" holds NaN or an infinite number (the policy had diverged)`);
  }
  return { ok: true, checkpoint: cp, config: { ...run.config, prior: 0 } };
}

/** Why weights of `shape` cannot serve a policy of `config`'s widths, or null when they fit. */
export function checkpointShapeIssue(config: Pick<Config, 'hidden' | 'scorer'>, shape: { hidden: number; scorer: number }): string | null {
  if (shape?.hidden === config.hidden && shape?.scorer === config.scorer) return null;
  return `the weights are for a policy of hidden ${shape?.hidden} / scorer ${shape?.scorer}, but the settings say ${config.hidden} / ${config.scorer}`;
}
