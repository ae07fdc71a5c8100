/**
 * The meaning checks of a run file, beyond its shape: every index within the team and the task,
 * every time within its episode, every number the views draw finite, every size within the limits
 * the views and the trainer can hold. A file that passes them can be replayed without a view
 * sizing an array from a hostile number. Diagnostics that may be NaN in an honest run (the loss of
 * a diverged policy, its weights, a talk measurement) stay readable: a run that diverged is still
 * the user's data; "train on" refuses such weights (`trainableCheckpoint`). Pure TypeScript.
 */
import { SCHEMA, type Config } from '../rl/config';
import { NUM_ACTIONS } from '../sim/actions';
import { OBS_DIM } from '../sim/observe';
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';
import type { Checkpoint, RunFile, ShowcaseEpisode } from './runFormat';

/** The longest deadline any run can have (the schema's bound), in minutes. */
export const MAX_TMAX = (SCHEMA.tmaxEnd as { max: number }).max;
/** Most events one showcase episode can hold: each agent acts once a minute (twice counted for a CEO hire or an assignment), plus one completion per module. */
export function maxEvents(agents: number, tmax: number, modules: number): number {
  return 2 * agents * (tmax + 1) + modules;
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
export function meaningIssues(run: Pick<RunFile, 'config' | 'metrics' | 'episodes'>): MeaningIssue[] {
  const issues: MeaningIssue[] = [];
  const add = (path: (string | number)[], message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
  };
  const agents = run.config.agents;
  run.metrics.forEach((m, i) => {
    if (issues.length >= MAX_ISSUES) return;
    if (m.tmax > MAX_TMAX) add(['metrics', i, 'tmax'], `${m.tmax} minutes is beyond the longest deadline (${MAX_TMAX})`);
    if (!Number.isFinite(m.ret)) add(['metrics', i, 'ret'], 'expected a finite number, got NaN or null');
  });
  run.episodes.items.forEach((e, i) => {
    if (issues.length < MAX_ISSUES) episodeIssues(e, agents, ['episodes', 'items', i], add);
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
  if (!Number.isFinite(e.references.chain) || !Number.isFinite(e.references.bestOfN) || !Number.isFinite(e.references.scripted))
    add([...at, 'references'], 'expected finite returns, got NaN or null');
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
