import { singleChain } from './baselines';
import { METRICS, NUM_METRICS, SprintEnv, type Metric } from './env';
import type { EpisodeStats } from './episodeStats';
import type { SimEvent } from './events';
import type { ActionSource } from './actionSource';
import { createStructure } from './presets';
import type { StructureSettings } from './structure';
import type { Task } from './task';

export interface EpisodeRun {
  stats: EpisodeStats[];
  /** Event log of `logRollout`, if one was chosen. */
  events: SimEvent[];
  /** Structure-specific numbers per rollout (head count, islands, critical steps); absent when flat. */
  structure?: Record<string, number>[];
}

/** Reads the per-rollout results of a finished episode out of `env`. */
export function collectStats(env: SprintEnv): EpisodeStats[] {
  const H = env.tmax + 1;
  const out: EpisodeStats[] = [];
  for (let b = 0; b < env.B; b++) {
    const metrics = {} as Record<Metric, number>;
    METRICS.forEach((m, j) => (metrics[m] = env.metrics[b * NUM_METRICS + j]));
    const curve = Array.from(env.history.subarray(b * H, b * H + H));
    for (let t = env.t + 1; t < H; t++) curve[t] = curve[env.t];
    out.push({ ret: env.finalReturn(b), t90: env.t90[b] >= 0 ? env.t90[b] : null, tEnd: env.tEnd[b], metrics, curve });
  }
  return out;
}

/**
 * Plays one episode of `source` on every task (one rollout each) up to the deadline `tmax`, under
 * the organisation `structure` if one is given (flat otherwise). Under islands the source acts in
 * the environment of the islands (one rollout per island) and each task's result is its best island.
 */
export async function runEpisodes(
  source: ActionSource,
  tasks: readonly Task[],
  agents: number,
  seed: number,
  tmax: number,
  logRollout = -1,
  structure?: StructureSettings,
): Promise<EpisodeRun> {
  if (structure && structure.structure !== 'flat') {
    const s = createStructure(structure, agents);
    const env = s.createEnv(tasks.length);
    env.reset(s.cellTasks(tasks), seed, tmax, s.cellStreams(undefined, tasks.length));
    env.logRollout = logRollout < 0 ? -1 : logRollout * s.cells;
    env.logCount = s.cells;
    await playOut(source, env);
    return { stats: s.teamStats(collectStats(env)), events: env.events.slice(), structure: s.summaries(env) };
  }
  const env = new SprintEnv(tasks.length, agents);
  env.reset(tasks, seed, tmax);
  env.logRollout = logRollout;
  await playOut(source, env);
  return { stats: collectStats(env), events: env.events.slice() };
}

/** Lets `source` play a freshly reset environment to the end of the episode. */
async function playOut(source: ActionSource, env: SprintEnv): Promise<void> {
  source.reset?.(env);
  const actions = new Int32Array(env.B * env.N);
  while (!env.isOver()) {
    await source.act(env, actions);
    env.step(actions);
  }
}

/**
 * Best-of-N: N independent complete attempts per task, each a single agent working alone with its
 * own draw of the work; the best attempt at each minute is selected, so the anytime curve is the
 * maximum over attempts and the counters add up over attempts.
 */
export async function bestOfN(tasks: readonly Task[], attempts: number, seed: number, tmax: number): Promise<EpisodeStats[]> {
  const expanded: Task[] = [];
  for (const task of tasks) for (let a = 0; a < attempts; a++) expanded.push(task);
  const { stats } = await runEpisodes(singleChain, expanded, 1, seed, tmax);
  return tasks.map((_, ti) => {
    const group = stats.slice(ti * attempts, (ti + 1) * attempts);
    const curve = group[0].curve.map((_, t) => Math.max(...group.map((s) => s.curve[t])));
    const metrics = {} as Record<Metric, number>;
    for (const m of METRICS) metrics[m] = group.reduce((s, g) => s + g.metrics[m], 0);
    const t90s = group.map((g) => g.t90).filter((x): x is number => x !== null);
    const ret = Math.max(...group.map((g) => g.ret));
    return {
      ret,
      t90: t90s.length ? Math.min(...t90s) : null,
      tEnd: ret >= 1 ? Math.min(...group.filter((g) => g.ret >= 1).map((g) => g.tEnd)) : tmax,
      metrics,
      curve,
    };
  });
}

/** How a set of episodes worked and talked, per episode unless noted. */
export interface WorkSummary {
  /** Mean anytime return at the cut. */
  ret: number;
  /** DMs + posts, and posts on the unofficial board (sim/channels.ts). */
  messages: number;
  /** Messages per agent-minute played. */
  messageRate: number;
  /** DMs and reads that delivered an interface an unfinished module needed. */
  handoffs: number;
  /**
   * Share of the deliveries (DMs, board reads and unofficial posts) that brought the receiver an
   * interface it lacked and an unfinished module needed: handoffs / (DMs + reads + unofficial
   * posts); 0 when nothing was delivered.
   */
  neededShare: number;
  useful: number;
  duplicate: number;
  blocked: number;
  emptyReads: number;
  idle: number;
  claims: number;
  /**
   * Messages that delivered nothing: DMs that brought the receiver no interface it lacked and posts
   * that put nothing new on the board (a part of `messages`). Absent in runs recorded before it.
   */
  wastedMessages?: number;
  /** Working agents a DM interrupted (the `interruptions` cost; 0 when off). Absent in runs recorded before it. */
  interrupted?: number;
  /** Module-minutes lost to merge conflicts (the `conflicts` cost; 0 when off). Absent in runs recorded before it. */
  conflicts?: number;
  /** Posts on the unofficial board (a part of `messages`; 0 when it is off). Absent in runs recorded before it. */
  sidePosts?: number;
  /** Share of `messages` sent on the unofficial board (0 without messages). Absent in runs recorded before it. */
  sideShare?: number;
  /** Unofficial posts the monitor caught. Absent in runs recorded before it. */
  caught?: number;
  /** DMs and posts the channel policy does not allow: minutes lost, nothing delivered. Absent in runs recorded before it. */
  attempts?: number;
}

/** Averages the counters of `stats` (episodes of `agents` agents). */
export function summariseWork(stats: readonly EpisodeStats[], agents: number): WorkSummary {
  const n = Math.max(1, stats.length);
  const per = (k: Metric) => stats.reduce((a, s) => a + s.metrics[k], 0) / n;
  const minutes = stats.reduce((a, s) => a + s.tEnd * agents, 0);
  // Counters added later read 0 in episodes recorded before them.
  const sum = (k: Metric) => stats.reduce((a, s) => a + (s.metrics[k] ?? 0), 0);
  const sidePosts = sum('sidePosts');
  const messages = sum('dms') + sum('posts') + sidePosts;
  const deliveries = sum('dms') + sum('reads') + sidePosts;
  return {
    ret: stats.reduce((a, s) => a + s.ret, 0) / n,
    messages: messages / n,
    messageRate: messages / Math.max(1, minutes),
    handoffs: per('handoffs'),
    neededShare: deliveries > 0 ? stats.reduce((a, s) => a + s.metrics.handoffs, 0) / deliveries : 0,
    useful: per('useful'),
    duplicate: per('duplicate'),
    blocked: per('blocked'),
    emptyReads: per('emptyReads'),
    idle: per('idle'),
    claims: per('claims'),
    wastedMessages: per('wastedMessages'),
    interrupted: per('interrupted'),
    conflicts: per('conflicts'),
    sidePosts: sidePosts / n,
    sideShare: messages > 0 ? sidePosts / messages : 0,
    caught: sum('caught') / n,
    attempts: sum('attempts') / n,
  };
}

/** Mean of a list (0 for an empty one). */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** Sample standard deviation (0 for fewer than two values). */
export function std(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / (xs.length - 1));
}
