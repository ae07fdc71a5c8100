import { scriptedOrganisation, singleChain } from './baselines';
import type { EpisodeStats } from './episodeStats';
import { bestOfN, mean, runEpisodes, std, summariseWork, type WorkSummary } from './evaluate';
import type { ActionSource } from './actionSource';
import { evaluationTasks } from './seeds';
import { calibratedSchedule, MAX_AGENTS, type Family, type Task } from './task';

/**
 * The three organisations of the article compared by the time they need to reach an acceptable
 * result ("100 / 28 / 46 minutes"), at similar compute, with their anytime curves; and how that
 * time scales with the number of agents. Simulation only (no TF.js): a trained policy comes in as
 * an `ActionSource` (e.g. `new PolicyActor(policy, seed)` from `rl/actor`).
 */

/** The organisations of the comparison, in display order. */
export const RACE_ORGANISATIONS = ['single chain', 'best-of-N', 'scripted organisation', 'trained swarm'] as const;
export type RaceOrganisation = (typeof RACE_ORGANISATIONS)[number];

/** First minute at which `curve` (share of tests passing after each minute) reaches `threshold`; null if it never does. */
export function timeToThreshold(curve: ArrayLike<number>, threshold: number): number | null {
  for (let t = 0; t < curve.length; t++) if (curve[t] >= threshold - 1e-9) return t;
  return null;
}

/** Linear-interpolated quantile `q` (0..1) of `xs`; NaN when empty. */
export function quantile(xs: readonly number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** Anytime curves of many tasks summarised per minute: index t = minutes elapsed. */
export interface AnytimeBand {
  mean: number[];
  /** Sample sd over tasks. */
  sd: number[];
  /** Lower and upper quartile over tasks (monotone, like every single curve). */
  q25: number[];
  q75: number[];
}

/** Per-minute mean, sd and quartiles of equally long anytime curves (one per task). */
export function anytimeBand(curves: readonly (readonly number[])[]): AnytimeBand {
  const H = curves.length ? Math.max(...curves.map((c) => c.length)) : 0;
  const band: AnytimeBand = { mean: [], sd: [], q25: [], q75: [] };
  for (let t = 0; t < H; t++) {
    const col = curves.map((c) => c[Math.min(t, c.length - 1)]);
    band.mean.push(mean(col));
    band.sd.push(std(col));
    band.q25.push(quantile(col, 0.25));
    band.q75.push(quantile(col, 0.75));
  }
  return band;
}

/** Minutes to the acceptable result over a set of tasks. Unreached tasks count as slower than any reached one. */
export interface TimeSummary {
  /** Median over tasks of the minutes to the threshold; null when fewer than half of the tasks reach it. */
  median: number | null;
  /** Quartiles of the same (null where the quartile lies among unreached tasks). */
  q25: number | null;
  q75: number | null;
  /** Mean over the tasks that reached the threshold (null if none did). */
  meanReached: number | null;
  /** Share of tasks that reached the threshold within the horizon. */
  reached: number;
}

/** Median, quartiles and share reached of per-task times (null = not reached). */
export function summariseTimes(times: readonly (number | null)[]): TimeSummary {
  const n = times.length;
  const reached = times.filter((x): x is number => x !== null).sort((a, b) => a - b);
  const at = (q: number): number | null => {
    if (!n) return null;
    const pos = (n - 1) * q;
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    if (hi >= reached.length) return null;
    return reached[lo] + (reached[hi] - reached[lo]) * (pos - lo);
  };
  return { median: at(0.5), q25: at(0.25), q75: at(0.75), meanReached: reached.length ? mean(reached) : null, reached: n ? reached.length / n : 0 };
}

/** One organisation's race to the acceptable result on a set of tasks. */
export interface RaceResult {
  org: RaceOrganisation;
  /** Agents working at the same time (1 for the single chain, N for the others). */
  parallel: number;
  /** Minutes it was allowed to run (the single chain gets N times the others' horizon: the same agent-minutes). */
  horizon: number;
  threshold: number;
  /** Minutes to the threshold, per task (null: not within the horizon). */
  perTask: (number | null)[];
  time: TimeSummary;
  /** Agent-minutes spent up to the median time: median minutes x agents working at once. */
  compute: number | null;
  /** Share of tests passing against minutes (index = minute), over tasks. */
  curve: AnytimeBand;
  /** Counters per episode, over the whole horizon. */
  work: WorkSummary;
}

/** Options of `raceOrganisations`. */
export interface RaceOptions {
  /** A task family (fresh evaluation tasks are generated) or an explicit task list (e.g. a mix). */
  tasks: Family | readonly Task[];
  /** Agents of the parallel organisations (best-of-N attempts, organisation size), 1..16. */
  agents: number;
  /** Share of tests that counts as an acceptable result (default 0.9). */
  threshold?: number;
  /** Minutes the N-agent organisations may run (default `raceHorizon` of the family's calibrated final deadline, of 24 for a task list); the single chain gets agents x horizon. */
  horizon?: number;
  /** Number of generated tasks when `tasks` is a family (default 32). */
  count?: number;
  /** Seed of the work draws (default 1). */
  seed?: number;
  /** The trained policy as an action source, played as a fourth organisation with `agents` agents. */
  swarm?: ActionSource;
  /** Which organisations to play (default all that are available). */
  only?: readonly RaceOrganisation[];
}

/**
 * The minutes the N-agent organisations of a race may run: three times a final deadline. Its base is
 * the final deadline of the swarm that races (its run's `tmaxEnd`: the app, the claims) or, when no
 * run is given, the family's calibrated one (`calibratedSchedule(family).end`: the race CLI, the
 * default here); the two agree for a run trained on its family's calibrated schedule.
 */
export function raceHorizon(finalDeadline: number): number {
  return 3 * finalDeadline;
}

/** A task list's final deadline when a race is given no horizon: the short families' calibrated one. */
const TASK_LIST_DEADLINE = 24;

function result(org: RaceOrganisation, stats: EpisodeStats[], parallel: number, horizon: number, threshold: number): RaceResult {
  const perTask = stats.map((s) => timeToThreshold(s.curve, threshold));
  const time = summariseTimes(perTask);
  return {
    org,
    parallel,
    horizon,
    threshold,
    perTask,
    time,
    compute: time.median === null ? null : time.median * parallel,
    curve: anytimeBand(stats.map((s) => s.curve)),
    work: summariseWork(stats, parallel),
  };
}

/**
 * Plays the single chain, best-of-N, the scripted (communicating) organisation and, if given, the
 * trained swarm on the same tasks with the same compute budget, `agents x horizon` agent-minutes:
 * the N-agent organisations run for `horizon` minutes, the single chain for `agents x horizon`.
 * Returns, per organisation, the minutes to `threshold` of the tests (median over tasks) and the
 * anytime curve. Default family, 8 agents, 32 tasks, no policy: about 50 ms in Node here.
 */
export async function raceOrganisations(opts: RaceOptions): Promise<RaceResult[]> {
  const agents = opts.agents;
  if (!(agents >= 1 && agents <= MAX_AGENTS)) throw new RangeError(`agents must be 1..${MAX_AGENTS}`);
  const threshold = opts.threshold ?? 0.9;
  const horizon = opts.horizon ?? raceHorizon(typeof opts.tasks === 'string' ? calibratedSchedule(opts.tasks).end : TASK_LIST_DEADLINE);
  const seed = opts.seed ?? 1;
  const tasks = typeof opts.tasks === 'string' ? evaluationTasks(opts.tasks, opts.count ?? 32) : opts.tasks;
  const want = (o: RaceOrganisation) => !opts.only || opts.only.includes(o);
  const out: RaceResult[] = [];
  if (want('single chain'))
    out.push(result('single chain', (await runEpisodes(singleChain, tasks, 1, seed, agents * horizon)).stats, 1, agents * horizon, threshold));
  if (want('best-of-N')) out.push(result('best-of-N', await bestOfN(tasks, agents, seed, horizon), agents, horizon, threshold));
  if (want('scripted organisation'))
    out.push(result('scripted organisation', (await runEpisodes(scriptedOrganisation, tasks, agents, seed, horizon)).stats, agents, horizon, threshold));
  if (opts.swarm && want('trained swarm'))
    out.push(result('trained swarm', (await runEpisodes(opts.swarm, tasks, agents, seed, horizon)).stats, agents, horizon, threshold));
  return out;
}

/** Minutes to the acceptable result of one organisation at one swarm size. */
export interface ScalingPoint {
  org: RaceOrganisation;
  agents: number;
  time: TimeSummary;
  compute: number | null;
}

/**
 * Minutes to the acceptable result against the number of agents (default 1, 2, 4, 8, 16) for each
 * organisation, at the same budget rule as `raceOrganisations` (the single chain's time does not
 * depend on N; only its budget grows). `swarm(agents)` supplies the trained policy at a size, if any.
 */
export async function scaleOrganisations(
  opts: Omit<RaceOptions, 'agents' | 'swarm'> & { agentCounts?: readonly number[]; swarm?: (agents: number) => ActionSource },
): Promise<ScalingPoint[]> {
  const counts = opts.agentCounts ?? [1, 2, 4, 8, 16];
  const tasks = typeof opts.tasks === 'string' ? evaluationTasks(opts.tasks, opts.count ?? 32) : opts.tasks;
  const out: ScalingPoint[] = [];
  for (const agents of counts) {
    const rows = await raceOrganisations({ ...opts, tasks, agents, swarm: opts.swarm?.(agents) });
    for (const r of rows) out.push({ org: r.org, agents, time: r.time, compute: r.compute });
  }
  return out;
}

/** The per-update numbers `inferenceScaling` reads (a subset of the trainer's update metrics). */
export interface UpdatePoint {
  update: number;
  tmax: number;
  ret: number;
  useful: number;
  messages: number;
  handoffs: number;
}

/** Collective inference-time scaling at one point of training: rolling means over `window` updates. */
export interface InferencePoint {
  update: number;
  tmax: number;
  ret: number;
  /** Useful agent-minutes per episode (minutes that advanced a module). */
  useful: number;
  /** Useful agent-minutes per minute of deadline: how many agents did useful work at once. */
  parallelism: number;
  messages: number;
  handoffs: number;
}

/**
 * Useful parallel work, messages and handoffs per episode against training updates, as rolling
 * means over `window` updates (one point every `stride` updates; the last update is always included).
 */
export function inferenceScaling(metrics: readonly UpdatePoint[], window = 25, stride = 1): InferencePoint[] {
  const out: InferencePoint[] = [];
  const w = Math.max(1, Math.floor(window));
  for (let i = 0; i < metrics.length; i++) {
    if (i % Math.max(1, stride) !== 0 && i !== metrics.length - 1) continue;
    const part = metrics.slice(Math.max(0, i - w + 1), i + 1);
    const avg = (f: (m: UpdatePoint) => number) => mean(part.map(f));
    out.push({
      update: metrics[i].update,
      tmax: metrics[i].tmax,
      ret: avg((m) => m.ret),
      useful: avg((m) => m.useful),
      parallelism: avg((m) => m.useful / m.tmax),
      messages: avg((m) => m.messages),
      handoffs: avg((m) => m.handoffs),
    });
  }
  return out;
}
