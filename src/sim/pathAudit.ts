import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ } from './actions';
import type { MinuteObserver } from './actionSource';
import type { SprintEnv } from './env';
import { MAX_MODULES as MM } from './task';

/**
 * Where a team's minutes to 90% of the tests go, summed over the rollouts it audits. Each module
 * becomes *ready* when it could first move: at minute 0 if it needs no interface, else when its
 * prerequisite is finished. From then on a team can lose minutes on it twice: before its first
 * minute of progress (a late start) and between that minute and its completion (a stall). A stall is
 * put down to what the agent that last moved the module did with that minute instead. Luck modules
 * are left out (their progress is a draw, not a minute).
 */
export interface PathCounts {
  /** Rollouts audited. */
  rollouts: number;
  /** Work modules that moved at least once, and the minutes from ready to their first progress. */
  started: number;
  startDelay: number;
  /** Work modules that were ready but never moved before the episode ended. */
  neverStarted: number;
  /** Stalled minutes of started, unfinished work modules, by what their last mover did instead. */
  stallLost: number; // it worked the module, and the minute was lost (an interruption, a merge, a conflict)
  stallDm: number;
  stallPost: number;
  stallRead: number;
  stallClaim: number;
  stallOther: number; // it worked another module (useful, duplicate or blocked)
  stallIdle: number; // it idled, or was not in the team that minute
  /** Rollouts that reached 90% of the tests, their minutes to 90%, and the bound on those rollouts. */
  reached: number;
  t90: number;
  bound90: number;
}

export function emptyPathCounts(): PathCounts {
  return {
    rollouts: 0,
    started: 0,
    startDelay: 0,
    neverStarted: 0,
    stallLost: 0,
    stallDm: 0,
    stallPost: 0,
    stallRead: 0,
    stallClaim: 0,
    stallOther: 0,
    stallIdle: 0,
    reached: 0,
    t90: 0,
    bound90: 0,
  };
}

/** The minute at which 90% of a rollout's tests pass when module k starts at `start[k]` and never stalls. */
function minutesTo90(env: SprintEnv, b: number, start: readonly number[]): number {
  const o = b * MM;
  const M = env.M[b];
  let total = 0;
  let last = 0;
  for (let k = 0; k < M; k++) {
    total += env.tests[o + k];
    last = Math.max(last, start[k] + Math.ceil(env.work[o + k]));
  }
  for (let t = 1; t <= last; t++) {
    let pass = 0;
    for (let k = 0; k < M; k++) {
      const w = env.work[o + k];
      const done = Math.min(w, Math.max(0, t - start[k]));
      pass += done >= w ? env.tests[o + k] : Math.floor((env.tests[o + k] * done) / w);
    }
    if (pass >= 0.9 * total) return t;
  }
  return last;
}

/** Assignments of "who goes first" tried before the bound falls back to the looser one. */
const BOUND_CHOICES = 4096;

/**
 * A lower bound on rollout b's minutes to 90% of the tests, from the work drawn at reset: every module
 * starts the minute it is ready and never stalls, with as many agents as it takes. Under the handoff
 * rule only the finisher of a module knows its interface at once, so one dependent can start the
 * minute it is finished and every other one a minute later at the soonest (a DM); the bound takes the
 * best choice of that one dependent for every module. Past BOUND_CHOICES choices (or without the
 * handoff rule) every dependent starts at once, which is looser and still a bound. Null when the
 * rollout has a luck module, whose finish is a draw.
 */
export function boundTo90(env: SprintEnv, b: number): number | null {
  const o = b * MM;
  const M = env.M[b];
  for (let k = 0; k < M; k++) if (env.luck[o + k] > 0) return null;
  const dependents: number[][] = Array.from({ length: M }, () => []);
  for (let k = 0; k < M; k++) if (env.dep[o + k] >= 0) dependents[env.dep[o + k]].push(k);
  const forks = env.handoff[b] ? dependents.flatMap((d, k) => (d.length > 1 ? [k] : [])) : [];
  let choices = 1;
  for (const k of forks) choices *= dependents[k].length;
  if (choices > BOUND_CHOICES) forks.length = 0;
  // Prerequisites come first in a topological order (a module's prerequisite may have a higher index).
  const order: number[] = [];
  const placed = new Uint8Array(M);
  while (order.length < M) {
    const before = order.length;
    for (let k = 0; k < M; k++) {
      const d = env.dep[o + k];
      if (placed[k] || (d >= 0 && !placed[d])) continue;
      placed[k] = 1;
      order.push(k);
    }
    if (order.length === before) throw new Error(`rollout ${b}'s prerequisites form a cycle`);
  }
  const first = new Int32Array(M).fill(-1); // per fork, the dependent that starts at once
  const start = new Array<number>(M).fill(0);
  let best = Infinity;
  const tryAll = (f: number): void => {
    if (f < forks.length) {
      for (const k of dependents[forks[f]]) {
        first[forks[f]] = k;
        tryAll(f + 1);
      }
      return;
    }
    for (const k of order) {
      const d = env.dep[o + k];
      if (d < 0) start[k] = 0;
      else {
        const ready = start[d] + Math.ceil(env.work[o + d]);
        start[k] = first[d] < 0 || first[d] === k ? ready : ready + 1;
      }
    }
    best = Math.min(best, minutesTo90(env, b, start));
  };
  tryAll(0);
  return best;
}

/**
 * Audits every minute a team plays (call `minute` at the start of each, with the actions about to be
 * stepped, and `finish` once the episode is over; `observedSource` of actionSource.ts does the first two for
 * a source). Flat teams only, as the pile audit.
 */
export class PathAudit implements MinuteObserver {
  private env: SprintEnv | null = null;
  private episode = -1; // env.episode of the episode being audited
  private left = new Float32Array(0);
  private done = new Int32Array(0); // completion bits at the start of the minute
  private known = new Int32Array(0); // what each agent knew at the start of the minute
  private over = new Uint8Array(0); // rollouts already over at the start of the minute
  private actions = new Int32Array(0);
  private ready = new Int32Array(0); // minute each module became ready (-1: not yet)
  private firstMove = new Int32Array(0); // minute of its first progress (-1: none yet)
  private mover = new Int32Array(0); // the agent that last moved it
  private minutes = 0;

  constructor(readonly counts: PathCounts) {}

  /** Starts auditing `env`, just reset. The episode audited before must have been finished. */
  begin(env: SprintEnv): void {
    if (this.env !== null) throw new Error('finish() the episode being audited before beginning another');
    if (env.rules !== null) throw new Error('the path audit counts flat teams only (a structure rewrites actions)');
    this.env = env;
    this.episode = env.episode;
    this.left = Float32Array.from(env.left);
    this.done = Int32Array.from(env.done);
    this.known = Int32Array.from(env.known);
    this.over = Uint8Array.from(env.finished);
    this.actions = new Int32Array(env.B * env.N);
    this.ready = new Int32Array(env.B * MM).fill(-1);
    this.firstMove = new Int32Array(env.B * MM).fill(-1);
    this.mover = new Int32Array(env.B * MM).fill(-1);
    this.minutes = 0;
    for (let b = 0; b < env.B; b++) for (let k = 0; k < env.M[b]; k++) if (env.dep[b * MM + k] < 0) this.ready[b * MM + k] = 0;
  }

  /** Called at the start of every minute with the actions the environment is about to step. */
  minute(env: SprintEnv, actions: Int32Array): void {
    if (env !== this.env || env.episode !== this.episode) this.begin(env);
    if (this.minutes > 0) this.settle();
    this.actions.set(actions);
    this.left.set(env.left);
    this.done.set(env.done);
    this.known.set(env.known);
    this.over.set(env.finished);
    this.minutes++;
  }

  /** Settles the last minute played and adds each rollout's totals to the counts. */
  finish(): void {
    const env = this.env;
    if (env === null) return;
    if (this.minutes > 0) this.settle();
    const c = this.counts;
    for (let b = 0; b < env.B; b++) {
      c.rollouts++;
      for (let k = 0; k < env.M[b]; k++) {
        const ok = b * MM + k;
        if (env.luck[ok] > 0) continue;
        if (this.firstMove[ok] >= 0) {
          c.started++;
          c.startDelay += this.firstMove[ok] - this.ready[ok];
        } else if (this.ready[ok] >= 0 && this.ready[ok] < env.t) c.neverStarted++;
      }
      const bound = boundTo90(env, b);
      if (env.t90[b] >= 0 && bound !== null) {
        c.reached++;
        c.t90 += env.t90[b];
        c.bound90 += bound;
      }
    }
    this.env = null;
  }

  /** What the minute just stepped did to every module: first moves, stalls, completions. */
  private settle(): void {
    const env = this.env as SprintEnv;
    const t = this.minutes - 1; // the minute just played
    const N = env.N;
    const c = this.counts;
    for (let b = 0; b < env.B; b++) {
      if (this.over[b]) continue;
      const o = b * MM;
      const finished = env.done[b] & ~this.done[b];
      for (let k = 0; k < env.M[b]; k++) {
        const ok = o + k;
        // Finished this minute: its dependents are ready from the next one.
        if ((finished >>> k) & 1) for (let m = 0; m < env.M[b]; m++) if (env.dep[o + m] === k) this.ready[o + m] = t + 1;
        if (env.luck[ok] > 0 || this.ready[ok] < 0 || this.ready[ok] > t || (this.done[b] >>> k) & 1) continue;
        if (env.left[ok] < this.left[ok]) {
          if (this.firstMove[ok] < 0) this.firstMove[ok] = t;
          const onIt = this.agentsOn(b, k);
          const claimant = env.claim[ok];
          this.mover[ok] = claimant >= 0 && onIt.includes(claimant) ? claimant : (onIt[0] ?? -1);
        } else if (this.firstMove[ok] >= 0 && this.mover[ok] >= 0) {
          const ai = b * N + this.mover[ok];
          const a = env.active[ai] ? this.actions[ai] : A_IDLE;
          if (a === k) c.stallLost++;
          else if (a < A_CLAIM) c.stallOther++;
          else if (a < A_DM) c.stallClaim++;
          else if (a < A_POST) c.stallDm++;
          else if (a === A_POST) c.stallPost++;
          else if (a === A_READ) c.stallRead++;
          else c.stallIdle++;
        }
      }
    }
  }

  /** The agents whose minute could have moved module k of rollout b: on it, and knowing what it needs. */
  private agentsOn(b: number, k: number): number[] {
    const env = this.env as SprintEnv;
    const N = env.N;
    const d = env.dep[b * MM + k];
    const on: number[] = [];
    for (let i = 0; i < N; i++) {
      const ai = b * N + i;
      if (this.actions[ai] === k && env.active[ai] && (d < 0 || ((this.known[ai] >>> d) & 1) === 1)) on.push(i);
    }
    return on;
  }
}
