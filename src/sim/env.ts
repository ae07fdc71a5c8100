import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, A_WORK } from './actions';
import type { SimEvent } from './events';
import { mixSeed, nextFloat } from './rng';
import type { StructureKind } from './structure';
import { MAX_AGENTS, MAX_MODULES, totalWork, type Task } from './task';
import { effortOf, mergeCostOf } from './costs';
import { channelIndex, mayDm, mayPost, SIDE_MONITORED, SIDE_OFF, sideIndex } from './channels';

/** Per-rollout counters, in agent-minutes unless noted. */
export const METRICS = [
  'useful', // minutes of work that advanced a module
  'duplicate', // minutes lost to two agents working on one module in one minute
  'blocked', // minutes spent on a module whose prerequisite interface was missing
  'wasted', // minutes on finished or missing modules, claims that lost
  'claims',
  'dms',
  'posts',
  'reads',
  'emptyReads', // reads that brought nothing new
  'selfDms', // messages to oneself or to nobody
  'idle',
  'handoffs', // dms and reads that handed over an interface unblocking an unfinished module
  'interrupted', // working agents a DM (rule `interrupt`) or a teammate's post (rule `broadcast`) landed on: their module's minute is lost
  'conflicts', // module-minutes lost to a merge conflict (costs rule `conflict`: claimant absent)
  'wastedMessages', // DMs that brought the receiver no interface it lacked, posts that added nothing to the board
  'attempts', // DMs and posts the channel policy does not allow (sim/channels.ts): the minute is lost, nothing is delivered
  'sidePosts', // posts on the unofficial board (sim/channels.ts)
  'caught', // unofficial posts the monitor caught
] as const;
export type Metric = (typeof METRICS)[number];
export const NUM_METRICS = METRICS.length;
export const M_INDEX = Object.fromEntries(METRICS.map((m, i) => [m, i])) as Record<Metric, number>;

const MM = MAX_MODULES;

/** `SprintEnv.costFlags` bits. */
export const COST_INTERRUPT = 1;
export const COST_CONFLICT = 2;
export const COST_BROADCAST = 4;
export const COST_MERGE = 8;

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Index of the lowest set bit of a non-zero 32-bit mask. */
export function lowBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/**
 * Rules a structure installs on an environment (`env.rules`). The environment calls them at fixed
 * points of an episode; a flat environment has none, so its behaviour is untouched.
 */
export interface StructureRules {
  readonly kind: StructureKind;
  /** Called at the end of `env.reset`: (re)allocates per-rollout state, sets who is active. */
  reset(env: SprintEnv): void;
  /**
   * An active agent's action, before the environment applies it. Returns true if the rules took
   * the action (it used the agent's minute and the environment does nothing more with it).
   */
  act?(env: SprintEnv, b: number, i: number, a: number, logging: boolean): boolean;
  /**
   * A DM from i to j of rollout b is being delivered. Returns the module whose claim it hands over
   * with it (an assignment, logged as `assign`), or -1 for a plain DM.
   */
  assignWith?(env: SprintEnv, b: number, i: number, j: number): number;
  /** Called once after every rollout played a minute (`env.t` already counts it). */
  afterStep?(env: SprintEnv): void;
  /** Adjusts the legal-action mask of active agent i of running rollout b, written at `out[base..]`. */
  mask?(env: SprintEnv, b: number, i: number, out: Float32Array, base: number): void;
  /** Adjusts the observations written by `encodeObservations` (same layout and offset). */
  observe?(env: SprintEnv, out: Float32Array, offset: number): void;
  /**
   * The same adjustment on the shared blocks of `encodeSharedObservations` (observeShared.ts):
   * rollout b's block, the dense layout's global block and module rows as every agent sees them,
   * starts at `out[offset + b * stride]`. Rules with `observe` must have it, and may change there
   * only what every agent of a rollout shares.
   */
  observeShared?(env: SprintEnv, out: Float32Array, offset: number, stride: number): void;
  /** Structure-specific numbers of rollout b after its episode (e.g. head count, critical steps). */
  summary?(env: SprintEnv, b: number): Record<string, number>;
  /** Per-minute head count of the logged rollout, if the structure changes it. */
  headCurve?(env: SprintEnv): number[];
}

/** True if rollout b played the minute that just ended (it was running when the minute began). */
export function playedLastMinute(env: SprintEnv, b: number): boolean {
  return env.finished[b] === 0 || env.tEnd[b] === env.t;
}

/**
 * B rollouts x N agents of the sprint, stepped together over typed arrays. All agents act at once
 * each simulated minute; a rollout freezes when every test passes. Knowledge of interfaces, the
 * public board and the finished modules are bitmasks over modules.
 */
export class SprintEnv {
  readonly B: number;
  readonly N: number;
  /** Minutes elapsed in the current episode. */
  t = 0;
  /** Deadline of the current episode: the rollout is cut here and its return counts. */
  tmax = 0;
  /** Episodes started (`reset` calls): what is cached for an episode is stale once this moves. */
  episode = 0;
  /**
   * Agents that play the episodes `reset` starts: the first `teamSize` of every rollout are active,
   * the others sit out (they only idle, take no DM and are not learnt from), as a training team that
   * grows over training has it (rl/config.ts `teamAt`). 0, or N and more: the whole team.
   */
  teamSize = 0;

  // Task, per rollout (module arrays are [B * MAX_MODULES]).
  readonly M: Int32Array;
  readonly work: Float32Array; // real work of this attempt
  readonly left: Float32Array; // remaining work
  readonly tests: Float32Array;
  readonly passK: Float32Array; // tests passing per module
  readonly dep: Int32Array;
  readonly luck: Float32Array;
  readonly totalTests: Float32Array;
  /** 1 where the rollout's task follows the handoff rule (Task.handoff). */
  readonly handoff: Uint8Array;
  /** The rollout's optional costs (Task.costs, sim/costs.ts): COST_INTERRUPT | COST_CONFLICT | COST_BROADCAST | COST_MERGE, 0 for none. */
  readonly costFlags: Uint8Array;
  /** Share of a minute a merge takes in each rollout (costs rule `merge`, sim/costs.ts `mergeCostOf`). */
  readonly mergeCost: Float32Array;
  /** Agent-minutes of booked effort each rollout has left (costs rule `effort`, sim/costs.ts); Infinity: unlimited. */
  readonly effortLeft: Float64Array;
  /** The rollout's channel policy, an index into CHANNEL_POLICIES (sim/channels.ts; 0: open). */
  readonly channel: Uint8Array;
  /** The rollout's unofficial board: SIDE_OFF, SIDE_OPEN or SIDE_MONITORED (sim/channels.ts). */
  readonly side: Uint8Array;
  /** Monitored unofficial board: the chance a post is caught, and the return each caught post costs. */
  readonly catchRate: Float32Array;
  readonly catchCost: Float32Array;
  /** Return the rollout has lost to the monitor so far (paid at the deadline: `finalReturn`). */
  readonly penalty: Float32Array;
  /** The monitor's own draws, per rollout, so that no other draw moves when it is on. */
  readonly sideRng: Uint32Array;

  // Shared state, per rollout.
  readonly done: Int32Array; // bitmask of finished modules
  readonly board: Int32Array; // bitmask of interfaces on the public board
  readonly needed: Int32Array; // bitmask of modules with an unfinished dependent
  readonly claim: Int32Array; // [B * MM] claiming agent or -1
  readonly mergeOwed: Float32Array; // [B * MM] share of the module's next worked minute that goes into merging (costs rule `merge`; 1: all of it)
  readonly passing: Float32Array;
  readonly finished: Uint8Array;
  readonly tEnd: Float32Array; // minute all tests passed, else the cut
  readonly t90: Float32Array; // first minute with >= 90% of tests passing, -1 if never
  readonly metrics: Float32Array; // [B * NUM_METRICS]
  readonly rng: Uint32Array;

  // Per agent ([B * N]).
  readonly known: Int32Array; // bitmask of interfaces the agent knows
  readonly contributed: Int32Array; // bitmask of modules the agent has worked on
  readonly lastAction: Int32Array;
  readonly lastWasted: Uint8Array; // last minute was blocked, collided or wasted
  readonly gotNew: Uint8Array; // received a new interface last minute
  /** 1 if the agent takes part; an inactive agent does nothing and cannot receive DMs (set by structures). */
  readonly active: Uint8Array;
  readonly credit: Float32Array; // tests credited to the agent's own work (individual-reward ablation)

  /** Anytime return of every rollout after each minute: [B * (tmax + 1)]. */
  history: Float32Array = new Float32Array(0);
  /** Rollout whose events are logged, -1 for none. */
  logRollout = -1;
  /** Number of consecutive rollouts logged from `logRollout` on (the islands of one swarm rollout). */
  logCount = 1;
  readonly events: SimEvent[] = [];
  /**
   * Per rollout, added to agent ids in logged events (islands number their agents swarm-wide);
   * null when ids are the rollout's own.
   */
  agentBase: Int32Array | null = null;
  /** Rules of an organisation structure (CEO, islands, orchestrator); null for the flat default. */
  rules: StructureRules | null = null;

  private readonly workers = new Int32Array(MM);
  private readonly workedOn: Int32Array;
  private readonly knownSnap: Int32Array;
  private readonly dmFrom: Int32Array;
  private readonly dmTo: Int32Array;

  constructor(rollouts: number, agents: number) {
    if (agents < 1 || agents > MAX_AGENTS) throw new RangeError(`agents must be 1..${MAX_AGENTS}`);
    if (rollouts < 1) throw new RangeError('rollouts must be >= 1');
    const B = (this.B = rollouts);
    const N = (this.N = agents);
    this.M = new Int32Array(B);
    this.work = new Float32Array(B * MM);
    this.left = new Float32Array(B * MM);
    this.tests = new Float32Array(B * MM);
    this.passK = new Float32Array(B * MM);
    this.dep = new Int32Array(B * MM);
    this.luck = new Float32Array(B * MM);
    this.totalTests = new Float32Array(B);
    this.handoff = new Uint8Array(B);
    this.costFlags = new Uint8Array(B);
    this.done = new Int32Array(B);
    this.board = new Int32Array(B);
    this.needed = new Int32Array(B);
    this.claim = new Int32Array(B * MM);
    this.mergeOwed = new Float32Array(B * MM);
    this.mergeCost = new Float32Array(B);
    this.effortLeft = new Float64Array(B);
    this.channel = new Uint8Array(B);
    this.side = new Uint8Array(B);
    this.catchRate = new Float32Array(B);
    this.catchCost = new Float32Array(B);
    this.penalty = new Float32Array(B);
    this.sideRng = new Uint32Array(B);
    this.passing = new Float32Array(B);
    this.finished = new Uint8Array(B);
    this.tEnd = new Float32Array(B);
    this.t90 = new Float32Array(B);
    this.metrics = new Float32Array(B * NUM_METRICS);
    this.rng = new Uint32Array(B);
    this.known = new Int32Array(B * N);
    this.contributed = new Int32Array(B * N);
    this.lastAction = new Int32Array(B * N);
    this.lastWasted = new Uint8Array(B * N);
    this.gotNew = new Uint8Array(B * N);
    this.active = new Uint8Array(B * N);
    this.credit = new Float32Array(B * N);
    this.knownSnap = new Int32Array(N);
    this.workedOn = new Int32Array(N);
    this.dmFrom = new Int32Array(N);
    this.dmTo = new Int32Array(N);
  }

  /**
   * Starts an episode: rollout b plays `tasks[b]` up to the deadline `tmax` (minutes). Its real
   * work and luck are drawn from `seed` and its stream, `streams[b]` (default b): rollouts that
   * share a stream and act alike see the same draws.
   */
  reset(tasks: readonly Task[], seed: number, tmax: number, streams?: ArrayLike<number>): void {
    const B = this.B;
    if (tasks.length !== B) throw new RangeError(`need ${B} tasks, got ${tasks.length}`);
    if (!(tmax >= 1)) throw new RangeError('tmax must be >= 1');
    this.t = 0;
    this.tmax = Math.floor(tmax);
    this.episode++;
    this.history = new Float32Array(B * (this.tmax + 1));
    this.events.length = 0;
    this.metrics.fill(0);
    this.claim.fill(-1);
    this.mergeOwed.fill(0);
    this.known.fill(0);
    this.contributed.fill(0);
    this.lastAction.fill(A_IDLE);
    this.lastWasted.fill(0);
    this.gotNew.fill(0);
    this.active.fill(1);
    if (this.teamSize > 0 && this.teamSize < this.N) for (let b = 0; b < B; b++) this.active.fill(0, b * this.N + this.teamSize, (b + 1) * this.N);
    this.credit.fill(0);
    for (let b = 0; b < B; b++) {
      const task = tasks[b];
      const o = b * MM;
      this.rng[b] = mixSeed(seed, (streams ? streams[b] : b) + 1);
      this.M[b] = task.modules;
      this.handoff[b] = task.handoff ? 1 : 0;
      const c = task.costs;
      this.costFlags[b] =
        c === undefined
          ? 0
          : (c.interrupt ? COST_INTERRUPT : 0) | (c.conflict ? COST_CONFLICT : 0) | (c.broadcast ? COST_BROADCAST : 0) | (c.merge ? COST_MERGE : 0);
      this.mergeCost[b] = mergeCostOf(c);
      const effort = effortOf(c);
      this.effortLeft[b] = effort > 0 ? Math.ceil(effort * totalWork(task)) : Infinity;
      this.channel[b] = channelIndex(c?.channels);
      this.side[b] = sideIndex(c?.side);
      this.catchRate[b] = c?.side?.catchRate ?? 0;
      this.catchCost[b] = c?.side?.catchCost ?? 0;
      this.penalty[b] = 0;
      this.sideRng[b] = mixSeed(mixSeed(seed, 0x51de), (streams ? streams[b] : b) + 1);
      let total = 0;
      for (let k = 0; k < MM; k++) {
        const real = k < task.modules;
        let w = 0;
        if (real) {
          const u = nextFloat(this.rng, b);
          w = task.luck[k] > 0 ? 1 : Math.max(1, Math.round(task.work[k] * (1 + task.spread * (2 * u - 1))));
        }
        this.work[o + k] = w;
        this.left[o + k] = w;
        this.tests[o + k] = real ? task.tests[k] : 0;
        this.passK[o + k] = 0;
        this.dep[o + k] = real ? task.dep[k] : -1;
        this.luck[o + k] = real ? task.luck[k] : 0;
        total += this.tests[o + k];
      }
      this.totalTests[b] = total;
      this.done[b] = 0;
      this.board[b] = 0;
      this.passing[b] = 0;
      this.finished[b] = 0;
      this.tEnd[b] = this.tmax;
      this.t90[b] = -1;
      this.needed[b] = this.computeNeeded(b);
    }
    this.rules?.reset(this);
  }

  /** True once the deadline is reached or every rollout has passed all its tests. */
  isOver(): boolean {
    if (this.t >= this.tmax) return true;
    for (let b = 0; b < this.B; b++) if (!this.finished[b]) return false;
    return true;
  }

  /**
   * Minutes rollout b has left: to the deadline, or, under booked effort (costs rule `effort`), the
   * minutes its rest pays the whole team for, whichever is fewer (the observation's 'minutes left').
   */
  minutesLeft(b: number): number {
    return Math.min(this.tmax - this.t, this.effortLeft[b] / this.N);
  }

  /** Anytime return of rollout b: the share of its tests passing now. */
  returnOf(b: number): number {
    return this.totalTests[b] > 0 ? this.passing[b] / this.totalTests[b] : 0;
  }

  /**
   * Return of rollout b at the deadline, the one the swarm is trained on: the share of its tests
   * passing, less what the unofficial board's monitor charged (sim/channels.ts; 0 without it). It
   * can fall below 0: a swarm that keeps posting under the monitor keeps losing, so it keeps a
   * reason to stop.
   */
  finalReturn(b: number): number {
    return this.returnOf(b) - this.penalty[b];
  }

  metric(b: number, m: Metric): number {
    return this.metrics[b * NUM_METRICS + M_INDEX[m]];
  }

  /** Whether module k of rollout b is unfinished and needs an interface agent i lacks. */
  blockedFor(b: number, i: number, k: number): boolean {
    const d = this.dep[b * MM + k];
    return d >= 0 && ((this.known[b * this.N + i] >>> d) & 1) === 0;
  }

  private computeNeeded(b: number): number {
    let needed = 0;
    const o = b * MM;
    const done = this.done[b];
    for (let k = 0; k < this.M[b]; k++) {
      const d = this.dep[o + k];
      if (d >= 0 && ((done >>> k) & 1) === 0) needed |= 1 << d;
    }
    return needed;
  }

  /** Whether rollout b's events are logged. */
  isLogged(b: number): boolean {
    return b >= this.logRollout && b < this.logRollout + this.logCount;
  }

  /**
   * Appends an event of rollout b to the log (call only for a logged rollout). With `agentBase`,
   * agent ids are shifted by the rollout's base, and a target outside the rollout becomes -1.
   */
  log(b: number, t: number, agent: number, kind: SimEvent['kind'], module: number, target: number, useful: boolean): SimEvent {
    const base = this.agentBase;
    const e: SimEvent =
      base === null
        ? { t, agent, kind, module, target, useful }
        : { t, agent: agent + base[b], kind, module, target: target < 0 ? target : target < this.N ? target + base[b] : -1, useful };
    this.events.push(e);
    return e;
  }

  /**
   * Whether the optional costs (sim/costs.ts) take away module k's minute in rollout b, worked by
   * `w` agents of which `interrupted` (a bitmask) received a DM. Collisions resolve first, then DMs:
   * the module's minute is lost to a merge conflict when two or more agents are on it without its
   * claimant, and to an interruption when any agent on it was interrupted (so a second agent on the
   * module never insures against a DM). A lost minute still draws its luck, so no other draw moves.
   */
  private costsSpoil(b: number, k: number, w: number, interrupted: number, logging: boolean): boolean {
    const costs = this.costFlags[b];
    const ok = b * MM + k;
    let onIt = 0;
    for (let i = 0; i < this.N; i++) if (this.workedOn[i] === k) onIt |= 1 << i;
    const claimant = this.claim[ok];
    const spoilt = (onIt & interrupted) !== 0;
    // A minute owed to merging goes into the merge (unless an interruption spoils it first: then it is still owed).
    const merging = (costs & COST_MERGE) !== 0 && this.mergeOwed[ok] >= 1 && !spoilt;
    const conflict = merging || ((costs & COST_CONFLICT) !== 0 && w > 1 && (claimant < 0 || ((onIt >>> claimant) & 1) === 0));
    if (!conflict && !spoilt) return false;
    if (merging) this.mergeOwed[ok] = 0;
    if (conflict) this.metrics[b * NUM_METRICS + 13]++;
    if (this.luck[ok] > 0) nextFloat(this.rng, b);
    for (let i = 0; i < this.N; i++) {
      if (((onIt >>> i) & 1) === 0) continue;
      this.lastWasted[b * this.N + i] = 1;
      if (logging) this.log(b, this.t, i, conflict ? 'collide' : 'wasted', k, -1, false);
    }
    return true;
  }

  /**
   * The unofficial board's posts of rollout b this minute (a bitmask of posters): each poster's
   * interfaces (as the minute began) reach every other active agent, interrupting nobody. Under the
   * monitor each post is caught with the rollout's `catchRate` (its own draw), and a caught post adds
   * `catchCost` to the return lost at the deadline.
   */
  private deliverSide(b: number, posters: number, needed: number, logging: boolean): void {
    const N = this.N;
    const ao = b * N;
    const mo = b * NUM_METRICS;
    const snap = this.knownSnap;
    for (let x = posters; x !== 0; x &= x - 1) {
      const i = lowBit(x);
      let gave = 0;
      for (let j = 0; j < N; j++) {
        if (j === i || !this.active[ao + j]) continue;
        const fresh = snap[i] & ~this.known[ao + j];
        if (fresh === 0) continue;
        this.known[ao + j] |= fresh;
        this.gotNew[ao + j] = 1;
        gave |= fresh;
      }
      const useful = (gave & needed) !== 0;
      if (useful) this.metrics[mo + 11]++;
      if (gave === 0) this.metrics[mo + 14]++;
      let caught = false;
      if (this.side[b] === SIDE_MONITORED && nextFloat(this.sideRng, b) < this.catchRate[b]) {
        caught = true;
        this.metrics[mo + 17]++;
        this.penalty[b] += this.catchCost[b];
      }
      if (logging) {
        const e = this.log(b, this.t, i, 'side', -1, -1, useful);
        e.carried = snap[i];
        if (caught) e.caught = true;
      }
    }
  }

  /** Every agent of every unfinished rollout takes its action `actions[b * N + i]` for one minute. */
  step(actions: Int32Array): void {
    const { B, N } = this;
    const t = this.t;
    const workers = this.workers;
    const snap = this.knownSnap;
    const rules = this.rules;
    for (let b = 0; b < B; b++) {
      if (this.finished[b]) continue;
      const o = b * MM;
      const ao = b * N;
      const mo = b * NUM_METRICS;
      const M = this.M[b];
      const logging = this.isLogged(b);
      const boardSnap = this.board[b];
      const needed = this.needed[b];
      let done = this.done[b];
      let dmCount = 0;
      const costs = this.costFlags[b];
      // Agents (bitmask) a DM landed on while they worked on an open module (the interruption rule).
      let interrupted = 0;
      // Agents (bitmask) who posted this minute (the broadcast rule: a post interrupts every other working agent).
      let posters = 0;
      // Agents (bitmask) who posted on the unofficial board this minute.
      let sidePosters = 0;
      const channel = this.channel[b];
      const side = this.side[b];
      for (let i = 0; i < N; i++) snap[i] = this.known[ao + i];
      // Only the rollout's modules (below M) are worked on, and read below.
      for (let k = 0; k < M; k++) workers[k] = 0;
      for (let i = 0; i < N; i++) {
        const ai = ao + i;
        let a = this.active[ai] ? actions[ai] : A_IDLE;
        // Booked effort: every minute that is not idled draws one agent-minute; without one left, the agent idles.
        if (a !== A_IDLE) {
          if (this.effortLeft[b] >= 1) this.effortLeft[b]--;
          else a = A_IDLE;
        }
        this.lastAction[ai] = a;
        this.lastWasted[ai] = 0;
        this.gotNew[ai] = 0;
        this.workedOn[i] = -1;
        if (!this.active[ai]) continue;
        if (rules !== null && rules.act !== undefined && rules.act(this, b, i, a, logging)) continue;
        if (a < A_CLAIM) {
          const k = a - A_WORK;
          if (k >= M || ((done >>> k) & 1) === 1) {
            this.metrics[mo + 3]++;
            this.lastWasted[ai] = 1;
            if (logging) this.log(b, t, i, 'wasted', k, -1, false);
          } else {
            const d = this.dep[o + k];
            if (d >= 0 && ((snap[i] >>> d) & 1) === 0) {
              this.metrics[mo + 2]++;
              this.lastWasted[ai] = 1;
              if (logging) this.log(b, t, i, 'blocked', k, -1, false);
            } else {
              workers[k]++;
              this.workedOn[i] = k;
              this.contributed[ai] |= 1 << k;
            }
          }
        } else if (a < A_DM) {
          const k = a - A_CLAIM;
          if (k < M && ((done >>> k) & 1) === 0 && this.claim[o + k] === -1) {
            this.claim[o + k] = i;
            this.metrics[mo + 4]++;
            if (logging) this.log(b, t, i, 'claim', k, -1, true);
          } else {
            this.metrics[mo + 3]++;
            this.lastWasted[ai] = 1;
            if (logging) this.log(b, t, i, 'wasted', k, -1, false);
          }
        } else if (a < A_POST) {
          const j = a - A_DM;
          if (j === i && side !== SIDE_OFF) {
            // A DM to oneself posts on the unofficial board; it reaches everyone at the minute's end.
            this.metrics[mo + 16]++;
            sidePosters |= 1 << i;
          } else if (j === i || j >= N || !this.active[ao + j]) {
            this.metrics[mo + 9]++;
            this.lastWasted[ai] = 1;
            if (logging) this.log(b, t, i, 'dm', -1, j, false);
          } else if (!mayDm(channel, i, j)) {
            this.metrics[mo + 15]++;
            this.lastWasted[ai] = 1;
            if (logging) this.log(b, t, i, 'attempt', -1, j, false).carried = snap[i];
          } else {
            this.metrics[mo + 5]++;
            this.dmFrom[dmCount] = i;
            this.dmTo[dmCount++] = j;
          }
        } else if (a === A_POST && !mayPost(channel, i)) {
          this.metrics[mo + 15]++;
          this.lastWasted[ai] = 1;
          if (logging) this.log(b, t, i, 'attempt', -1, -1, false).carried = snap[i];
        } else if (a === A_POST) {
          this.metrics[mo + 6]++;
          posters |= 1 << i;
          const fresh = snap[i] & ~this.board[b];
          this.board[b] |= snap[i];
          if (fresh === 0) this.metrics[mo + 14]++;
          if (logging) this.log(b, t, i, 'post', -1, -1, fresh !== 0).carried = snap[i];
        } else if (a === A_READ) {
          this.metrics[mo + 7]++;
          const fresh = boardSnap & ~this.known[ai];
          this.known[ai] |= boardSnap;
          if (fresh === 0) this.metrics[mo + 8]++;
          else this.gotNew[ai] = 1;
          const useful = (fresh & needed) !== 0;
          if (useful) this.metrics[mo + 11]++;
          if (logging) this.log(b, t, i, 'read', -1, -1, useful);
        } else {
          this.metrics[mo + 10]++;
          if (logging) this.log(b, t, i, 'idle', -1, -1, false);
        }
      }
      for (let m = 0; m < dmCount; m++) {
        const i = this.dmFrom[m];
        const j = this.dmTo[m];
        const fresh = snap[i] & ~this.known[ao + j];
        this.known[ao + j] |= snap[i];
        if (fresh !== 0) this.gotNew[ao + j] = 1;
        else this.metrics[mo + 14]++;
        if ((costs & COST_INTERRUPT) !== 0 && this.workedOn[j] >= 0 && ((interrupted >>> j) & 1) === 0) {
          interrupted |= 1 << j;
          this.metrics[mo + 12]++;
        }
        const useful = (fresh & needed) !== 0;
        if (useful) this.metrics[mo + 11]++;
        const assigned = rules !== null && rules.assignWith !== undefined ? rules.assignWith(this, b, i, j) : -1;
        if (logging) this.log(b, t, i, assigned >= 0 ? 'assign' : 'dm', assigned, j, useful).carried = snap[i];
      }
      if (sidePosters !== 0) this.deliverSide(b, sidePosters, needed, logging);
      if ((costs & COST_BROADCAST) !== 0 && posters !== 0) {
        for (let j = 0; j < N; j++) {
          if (this.workedOn[j] < 0 || ((interrupted >>> j) & 1) === 1 || (posters & ~(1 << j)) === 0) continue;
          interrupted |= 1 << j;
          this.metrics[mo + 12]++;
        }
      }
      let completed = false;
      for (let k = 0; k < M; k++) {
        const w = workers[k];
        if (w === 0) continue;
        const ok = o + k;
        this.metrics[mo + 1] += w - 1;
        if (costs !== 0 && this.costsSpoil(b, k, w, interrupted, logging)) continue;
        this.metrics[mo]++;
        // The share of a minute this minute moves the module: all of it, less a merge still owed in part.
        let step = 1;
        if ((costs & COST_MERGE) !== 0) {
          const owed = this.mergeOwed[ok];
          if (owed > 0) {
            step = 1 - owed;
            this.metrics[mo + 13] += owed;
          }
          // Two or more edits of one module in one minute all land, and its next worked minute merges them.
          this.mergeOwed[ok] = w > 1 ? this.mergeCost[b] : 0;
        }
        if (this.luck[ok] > 0) {
          if (nextFloat(this.rng, b) < this.luck[ok] * step) this.left[ok] = 0;
        } else {
          this.left[ok] -= step;
        }
        const finishedNow = this.left[ok] <= 0;
        const pass = finishedNow ? this.tests[ok] : Math.floor((this.tests[ok] * (this.work[ok] - this.left[ok])) / this.work[ok]);
        const delta = pass - this.passK[ok];
        this.passK[ok] = pass;
        this.passing[b] += delta;
        // Whose minute it was: the first agent on the module, or under the conflict rule its claimant.
        const owner = w > 1 && (costs & COST_CONFLICT) !== 0 ? this.claim[ok] : -1;
        let first = owner;
        for (let i = 0; i < N; i++) {
          if (this.workedOn[i] !== k) continue;
          const ai = ao + i;
          this.credit[ai] += delta / w;
          if (first < 0) first = i;
          else if (first !== i) this.lastWasted[ai] = 1;
          if (logging) this.log(b, t, i, first === i ? 'work' : 'collide', k, -1, false);
        }
        if (finishedNow) {
          done |= 1 << k;
          completed = true;
          // Under the handoff rule only the finisher knows the interface; otherwise every contributor does.
          if (this.handoff[b]) this.known[ao + first] |= 1 << k;
          else for (let i = 0; i < N; i++) if ((this.contributed[ao + i] >>> k) & 1) this.known[ao + i] |= 1 << k;
          if (logging) this.log(b, t, first, 'complete', k, -1, true);
        }
      }
      this.done[b] = done;
      if (completed) this.needed[b] = this.computeNeeded(b);
      const total = this.totalTests[b];
      if (this.t90[b] < 0 && this.passing[b] >= 0.9 * total) this.t90[b] = t + 1;
      // The sprint ends when all tests pass, or when the booked effort is spent (nobody can act any more).
      if (this.passing[b] >= total || this.effortLeft[b] < 1) {
        this.finished[b] = 1;
        this.tEnd[b] = t + 1;
      }
    }
    this.t = t + 1;
    if (rules !== null && rules.afterStep !== undefined) rules.afterStep(this);
    const H = this.tmax + 1;
    if (this.t < H) for (let b = 0; b < B; b++) this.history[b * H + this.t] = this.returnOf(b);
  }
}
