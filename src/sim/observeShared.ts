import { A_IDLE } from './actions';
import { lowBit, popcount, type SprintEnv } from './env';
import { AGENT_DIM, AGENTS_OFFSET, G_MINUTES_LEFT, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from './observe';
import { MAX_AGENTS, MAX_MODULES } from './task';

/**
 * The observations of one minute in shared-block form: what the agents of a rollout share is kept
 * once per rollout, and per agent only what is its own. Expanded, it is exactly the dense
 * `encodeObservations` row of every agent (`expandObservations`); the policy's decision rows are
 * packed from it directly (rl/decisions.ts `packSharedDecisions`), so no dense row is written.
 *
 * Per rollout ("slot"), SHARED_WIDTH floats and ROLLOUT_INTS ints:
 * - the dense layout's global block and module rows (its first AGENTS_OFFSET floats) as every agent
 *   sees them: in the global block only what all share (team size, clock, minutes left, progress;
 *   the agent's id and own features stay 0), in the module rows feature 7 is 'claimed by anyone'
 *   and feature 12 'anyone worked on it', the agent's own features (4, 5, 6, 8) are 0;
 * - at SHARED_MEAN, the module rows summed / MAX_MODULES in module order, float32 step by step as
 *   `packDecisions` sums them: the trunk's mean module row for the features every agent shares
 *   (the agent's own, 4-8 and 12, are left 0);
 * - ints, as bitmasks: the active agents, the agents that idled or wasted their last minute (the
 *   shared parts of the agent rows: features 0 and 3), the claimed modules, the modules someone
 *   worked on last minute, the rollout's modules, the modules with an unfinished dependent, the
 *   interfaces on the board, the interfaces unfinished modules need; and the number of open modules.
 * Per agent (rollout-major, B * N rows), OWN_INTS ints: bitmasks of the modules blocked for it, the
 * interfaces it knows, the modules it claims, the interfaces its unfinished claims need; the module
 * it worked on last minute (-1 for none); flags: it got a new interface, it wasted its minute, it
 * was the only one working on its module. Its own global features (`ownGlobal`) and its
 * per-recipient agent features (1, 2) are made from these where its rows are expanded or packed.
 */
export const SHARED_MEAN = AGENTS_OFFSET;
export const SHARED_WIDTH = AGENTS_OFFSET + MODULE_DIM;
export const ROLLOUT_INTS = 9;
export const R_ACTIVE = 0;
export const R_IDLE = 1;
export const R_CLAIMED = 2;
export const R_WORKED = 3;
export const R_ALL = 4;
export const R_NEEDED = 5;
export const R_BOARD = 6;
export const R_DEPENDED = 7;
export const R_OPEN = 8;
export const OWN_INTS = 6;
export const O_BLOCKED = 0;
export const O_KNOWN = 1;
export const O_CLAIMS = 2;
export const O_CLAIMED_DEPS = 3;
export const O_LAST = 4;
export const O_FLAGS = 5;
export const F_GOT_NEW = 1;
export const F_WASTED = 2;
export const F_SOLE = 4;
/** The agent's own global features besides its id: got new interface, board unblocks me, share I can work on, wasted (20..23). */
export const OWN_GLOBAL = GLOBAL_DIM - 4;

const MM = MAX_MODULES;

/**
 * The trunk's mean-module feature of c module rows that hold 1 (the others 0), summed / MAX_MODULES
 * float32 step by step as `packDecisions` sums it: the same float, whatever the order of the ones.
 */
export const MEAN_OF_ONES = new Float32Array(MAX_MODULES + 1);
for (let c = 1; c <= MAX_MODULES; c++) MEAN_OF_ONES[c] = MEAN_OF_ONES[c - 1] + 1 / MAX_MODULES;

/** One step of that sum: float32 `acc` plus the float32 feature `x` / MAX_MODULES, rounded to float32. */
const addMean = (acc: number, x: number): number => Math.fround(acc + Math.fround(x) / MAX_MODULES);

/** Storage for `slots` rollouts' shared blocks and their N agents' own features. */
export class SharedObservations {
  readonly shared: Float32Array;
  readonly rollout: Int32Array;
  readonly bits: Int32Array;

  constructor(
    readonly slots: number,
    readonly N: number,
    arrays?: { shared: Float32Array; rollout: Int32Array; bits: Int32Array },
  ) {
    if (!(N >= 1 && N <= MAX_AGENTS)) throw new RangeError(`agents must be 1..${MAX_AGENTS}`);
    this.shared = arrays?.shared ?? new Float32Array(slots * SHARED_WIDTH);
    this.rollout = arrays?.rollout ?? new Int32Array(slots * ROLLOUT_INTS);
    this.bits = arrays?.bits ?? new Int32Array(slots * N * OWN_INTS);
  }

  /** Agent rows held (slots x N): row r is agent r % N of slot floor(r / N). */
  get rows(): number {
    return this.slots * this.N;
  }

  /** The `count` slots from `first` on, on the same storage (no copy). */
  view(first: number, count: number): SharedObservations {
    if (first < 0 || first + count > this.slots) throw new RangeError(`slots ${first}..${first + count} are not all held (${this.slots})`);
    const a = first * this.N;
    const z = (first + count) * this.N;
    return new SharedObservations(count, this.N, {
      shared: this.shared.subarray(first * SHARED_WIDTH, (first + count) * SHARED_WIDTH),
      rollout: this.rollout.subarray(first * ROLLOUT_INTS, (first + count) * ROLLOUT_INTS),
      bits: this.bits.subarray(a * OWN_INTS, z * OWN_INTS),
    });
  }
}

/**
 * What the encoder keeps of one env between minutes, per rollout: what stays fixed for an episode,
 * and what changes only when a module is finished. Made at the first minute an episode is encoded,
 * made again after the env's next reset (`SprintEnv.episode`).
 *
 * Fixed for an episode, per module: 'tests/5' as the block stores it (float32), and 'work left/10'
 * split so that one formula serves both kinds of module, `left / 10 * plain + lucky` (plain 1 and
 * lucky 0 for a module of fixed work, plain 0 and lucky the float32 1 / luck / 10 for a luck module);
 * per rollout the trunk's means of 'tests/5' and 'luck' (float32 sums in module order, as `addMean`
 * makes them).
 *
 * Fixed while the finished modules are (`doneAt`, the `done` bitmask they were made for): per
 * interface the bitmask of the unfinished modules that need it and their count / 4; per rollout the
 * interfaces with such a module, all those modules, and the trunk's mean of the counts / 4.
 */
interface EncoderCache {
  episode: number;
  readonly testsFifth: Float32Array;
  readonly plain: Float32Array;
  readonly lucky: Float32Array;
  readonly testsMean: Float32Array;
  readonly luckMean: Float32Array;
  readonly doneAt: Int32Array;
  readonly dependents: Int32Array;
  readonly dependentsQuarter: Float32Array;
  readonly depended: Int32Array;
  readonly dependentAll: Int32Array;
  readonly dependentsMean: Float32Array;
}

const caches = new WeakMap<SprintEnv, EncoderCache>();

/** The encoder's cache of the env, its episode's part made again after a reset. */
function cacheOf(env: SprintEnv): EncoderCache {
  const { B } = env;
  let c = caches.get(env);
  if (c === undefined) {
    c = {
      episode: -1,
      testsFifth: new Float32Array(B * MM),
      plain: new Float32Array(B * MM),
      lucky: new Float32Array(B * MM),
      testsMean: new Float32Array(B),
      luckMean: new Float32Array(B),
      doneAt: new Int32Array(B),
      dependents: new Int32Array(B * MM),
      dependentsQuarter: new Float32Array(B * MM),
      depended: new Int32Array(B),
      dependentAll: new Int32Array(B),
      dependentsMean: new Float32Array(B),
    };
    caches.set(env, c);
  }
  if (c.episode === env.episode) return c;
  c.episode = env.episode;
  const { tests, luck } = env;
  for (let b = 0; b < B; b++) {
    let testsMean = 0;
    let luckMean = 0;
    for (let k = 0, ok = b * MM; k < env.M[b]; k++, ok++) {
      c.testsFifth[ok] = tests[ok] / 5;
      c.plain[ok] = luck[ok] > 0 ? 0 : 1;
      c.lucky[ok] = luck[ok] > 0 ? 1 / luck[ok] / 10 : 0;
      testsMean = addMean(testsMean, tests[ok] / 5);
      luckMean = addMean(luckMean, luck[ok]);
    }
    c.testsMean[b] = testsMean;
    c.luckMean[b] = luckMean;
    // No done bitmask is -1 (M <= 12): the dependents are made at the first minute.
    c.doneAt[b] = -1;
  }
  return c;
}

/** Makes the cache's dependents of rollout b for its finished modules now. */
function cacheDependents(c: EncoderCache, env: SprintEnv, b: number): void {
  const o = b * MM;
  const M = env.M[b];
  const done = env.done[b];
  const { dependents } = c;
  dependents.fill(0, o, o + MM);
  for (let k = 0; k < M; k++) {
    const d = env.dep[o + k];
    if (d >= 0 && d < MM && ((done >>> k) & 1) === 0) dependents[o + d] |= 1 << k;
  }
  // Unfinished dependents / 4 (a count of quarters, exact), and its mean in module order.
  let depended = 0;
  let all = 0;
  let mean = 0;
  for (let d = 0; d < M; d++) {
    const n = popcount(dependents[o + d]);
    c.dependentsQuarter[o + d] = n / 4;
    if (n === 0) continue;
    depended |= 1 << d;
    all |= dependents[o + d];
    mean = addMean(mean, n / 4);
  }
  c.depended[b] = depended;
  c.dependentAll[b] = all;
  c.dependentsMean[b] = mean;
  c.doneAt[b] = done;
}

/*
 * Scratch of one rollout, indexed by agent + 1, so that "no claimant" (-1) lands in element 0,
 * which nobody reads: the encoder ORs into them without a branch.
 */
const claimedDepsScratch = new Int32Array(MAX_AGENTS + 1);
const claimsScratch = new Int32Array(MAX_AGENTS + 1);

/**
 * Writes the minute's observations of all B rollouts into slots `slot`.. of `out` (whose N must be
 * the env's): per rollout the shared block once, per agent its own features, O(B * (M + N)) work.
 * Every float of a slot that can be non-zero is written, so nothing is cleared first (the rest stay
 * 0 from the allocation). A structure's rules adjust the shared blocks through `observeShared` (the
 * CEO's 'minutes left'); rules that adjust only dense rows cannot be applied here, and the encoder
 * refuses them.
 *
 * Written for speed (npm run bench, section 1): what an episode or the finished modules fix comes
 * from the env's cache (`cacheOf`); the loops over agents and modules branch on no feature (a
 * mispredicted branch costs as much as a dozen stores): conditions become 0/1 numbers and bitmasks
 * (`x >> 31` is -1 for a negative x, 0 otherwise), and a mean's term is 0 where the feature is
 * absent (adding 0 leaves a float32 sum as it is). Module-level arrays are read through locals: the
 * optimiser reloads a module binding (and checks that it is initialised) at every use.
 */
export function encodeSharedObservations(env: SprintEnv, out: SharedObservations, slot = 0): void {
  const { B, N } = env;
  if (out.N !== N) throw new RangeError(`storage for ${out.N} agents, the env has ${N}`);
  if (slot < 0 || slot + B > out.slots) throw new RangeError(`slots ${slot}..${slot + B} are not all held (${out.slots})`);
  if (env.rules?.observe && !env.rules.observeShared) throw new Error(`the ${env.rules.kind} rules adjust dense observations only`);
  const tmax = env.tmax;
  const t = env.t;
  const { shared: S, rollout, bits } = out;
  const {
    M: modulesOf,
    done: doneOf,
    needed: neededOf,
    board: boardOf,
    luck: lucks,
    dep: deps,
    claim: claims,
    left: lefts,
    work: works,
    lastAction,
    lastWasted,
    active: activeOf,
    known: knownOf,
    gotNew,
  } = env;
  const c = cacheOf(env);
  const claimedDeps = claimedDepsScratch;
  const claimsOf = claimsScratch;
  const meanOfOnes = MEAN_OF_ONES;
  const { testsFifth, plain, lucky, testsMean, luckMean, doneAt, dependents, dependentsQuarter } = c;
  for (let b = 0; b < B; b++) {
    const o = b * MM;
    const ao = b * N;
    const s = slot + b;
    const T = s * SHARED_WIDTH;
    const M = modulesOf[b];
    const done = doneOf[b];
    const all = M >= 32 ? -1 : (1 << M) - 1;
    if (doneAt[b] !== done) cacheDependents(c, env, b);
    // Who worked on what last minute (once), on which module two or more did (twice); the agent rows' shared parts.
    let once = 0;
    let twice = 0;
    let active = 0;
    let idle = 0;
    for (let i = 0; i < N; i++) {
      const ai = ao + i;
      const last = lastAction[ai];
      const onModule = (1 << last) & ((last - MM) >> 31);
      twice |= once & onModule;
      once |= onModule;
      const on = +(activeOf[ai] !== 0);
      const idled = ((last ^ A_IDLE) - 1) >>> 31;
      active |= on << i;
      idle |= (on & (idled | +(lastWasted[ai] !== 0))) << i;
      claimedDeps[i + 1] = 0;
      claimsOf[i + 1] = 0;
    }
    S[T + 16] = N / 16;
    S[T + 17] = t / tmax;
    S[T + G_MINUTES_LEFT] = env.minutesLeft(b) / 30;
    S[T + 19] = env.returnOf(b);
    const worked = once & all;
    let claimed = 0;
    let inProgress = 0;
    // The trunk's mean of 'work left/10', summed in module order (a finished module's term is 0).
    let leftMean = 0;
    for (let k = 0, ok = o, mb = T + MODULES_OFFSET; k < M; k++, ok++, mb += MODULE_DIM) {
      const open = ((done >>> k) & 1) ^ 1;
      const d = deps[ok];
      const claimer = claims[ok];
      // A finished module's 0 is x * 0 + 0: the +0 turns the -0 of a negative x into +0.
      const left = ((lefts[ok] / 10) * plain[ok] + lucky[ok]) * open + 0;
      const started = +(lefts[ok] < works[ok]) & open;
      leftMean = Math.fround(leftMean + Math.fround(left) / MAX_MODULES);
      inProgress += started;
      S[mb] = 1;
      S[mb + 1] = open ^ 1;
      S[mb + 2] = left;
      S[mb + 3] = started;
      S[mb + 7] = ~claimer >>> 31;
      S[mb + 9] = dependentsQuarter[ok];
      S[mb + 10] = testsFifth[ok];
      S[mb + 11] = lucks[ok];
      S[mb + 12] = (worked >>> k) & 1;
      // Claims, and the interfaces unfinished claims need; -1 (none) lands in element 0.
      const bit = 1 << k;
      claimed |= bit & (~claimer >> 31);
      claimsOf[claimer + 1] |= bit;
      claimedDeps[claimer + 1] |= (1 << d) & (~d >> 31) & -open;
    }
    // Rows of missing modules are 0: clear those a larger task wrote into this slot before.
    const rb = s * ROLLOUT_INTS;
    const before = 32 - Math.clz32(rollout[rb + R_ALL]);
    if (before > M) S.fill(0, T + MODULES_OFFSET + M * MODULE_DIM, T + MODULES_OFFSET + before * MODULE_DIM);
    // Rows of missing modules add nothing to the mean; the 0/1 features' sums depend only on their counts.
    const mean = T + SHARED_MEAN;
    const depended = c.depended[b];
    const dependentAll = c.dependentAll[b];
    S[mean] = meanOfOnes[M];
    S[mean + 1] = meanOfOnes[popcount(done & all)];
    S[mean + 2] = leftMean;
    S[mean + 3] = meanOfOnes[inProgress];
    S[mean + 9] = c.dependentsMean[b];
    S[mean + 10] = testsMean[b];
    S[mean + 11] = luckMean[b];
    rollout[rb + R_ACTIVE] = active;
    rollout[rb + R_IDLE] = idle;
    rollout[rb + R_CLAIMED] = claimed;
    rollout[rb + R_WORKED] = worked;
    rollout[rb + R_ALL] = all;
    rollout[rb + R_NEEDED] = neededOf[b];
    rollout[rb + R_BOARD] = boardOf[b];
    rollout[rb + R_DEPENDED] = depended;
    rollout[rb + R_OPEN] = popcount(all & ~done);
    for (let i = 0, ai = ao, ib = s * N * OWN_INTS; i < N; i++, ai++, ib += OWN_INTS) {
      const known = knownOf[ai];
      const last = lastAction[ai];
      // Unfinished modules whose interface I lack are blocked for me: all that need one, less those
      // that need one I know (a module needs one interface). Agents lack most, so walk what they know.
      let unblocked = 0;
      for (let x = depended & known; x !== 0; x &= x - 1) unblocked |= dependents[o + lowBit(x)];
      const onModule = (last - M) >> 31;
      bits[ib + O_BLOCKED] = dependentAll & ~unblocked;
      bits[ib + O_KNOWN] = known;
      bits[ib + O_CLAIMS] = claimsOf[i + 1];
      bits[ib + O_CLAIMED_DEPS] = claimedDeps[i + 1];
      bits[ib + O_LAST] = (last & onModule) | ~onModule;
      bits[ib + O_FLAGS] = gotNew[ai] | (lastWasted[ai] << 1) | (F_SOLE & -((~twice >>> last) & onModule & 1));
    }
  }
  env.rules?.observeShared?.(env, S, slot * SHARED_WIDTH, SHARED_WIDTH);
}

/**
 * Writes the dense observation rows (`encodeObservations`' layout, OBS_DIM floats each) of all
 * `obs.rows` agents into `out` from `offset`: the template copied, the agent's own features set.
 * For whoever needs dense rows (tests, inspection); training packs from the shared form directly.
 */
export function expandObservations(obs: SharedObservations, out: Float32Array, offset = 0): void {
  const { N, shared: S, rollout, bits } = obs;
  for (let s = 0; s < obs.slots; s++) {
    const T = s * SHARED_WIDTH;
    const rb = s * ROLLOUT_INTS;
    const active = rollout[rb + R_ACTIVE];
    const idle = rollout[rb + R_IDLE];
    const all = rollout[rb + R_ALL];
    for (let i = 0; i < N; i++) {
      const r = s * N + i;
      const base = offset + r * OBS_DIM;
      const ib = r * OWN_INTS;
      out.set(S.subarray(T, T + AGENTS_OFFSET), base);
      out.fill(0, base + AGENTS_OFFSET, base + OBS_DIM);
      out[base + i] = 1;
      ownGlobal(obs, r, out, base + OWN_GLOBAL);
      const mods = base + MODULES_OFFSET;
      for (let x = bits[ib + O_BLOCKED]; x !== 0; x &= x - 1) out[mods + lowBit(x) * MODULE_DIM + 4] = 1;
      for (let x = bits[ib + O_KNOWN] & all; x !== 0; x &= x - 1) out[mods + lowBit(x) * MODULE_DIM + 5] = 1;
      for (let x = bits[ib + O_CLAIMS]; x !== 0; x &= x - 1) {
        const mb = mods + lowBit(x) * MODULE_DIM;
        out[mb + 6] = 1;
        out[mb + 7] = 0;
      }
      const last = bits[ib + O_LAST];
      if (last >= 0) {
        out[mods + last * MODULE_DIM + 8] = 1;
        if (bits[ib + O_FLAGS] & F_SOLE) out[mods + last * MODULE_DIM + 12] = 0;
      }
      const mine = bits[ib + O_KNOWN] & rollout[rb + R_NEEDED];
      for (let j = 0, jb = base + AGENTS_OFFSET; j < N; j++, jb += AGENT_DIM) {
        if (j === i || ((active >>> j) & 1) === 0) continue;
        out[jb] = 1;
        out[jb + 3] = (idle >>> j) & 1;
        const jb2 = (s * N + j) * OWN_INTS;
        const gives = mine & ~bits[jb2 + O_KNOWN];
        if (gives === 0) continue;
        out[jb + 1] = popcount(gives) / 4;
        if ((gives & bits[jb2 + O_CLAIMED_DEPS]) !== 0) out[jb + 2] = 1;
      }
    }
  }
}

/**
 * Writes the own global features (OWN_GLOBAL..: got a new interface, the board holds an interface
 * that unblocks it, the share of modules it can work on, it wasted its minute) of agent row r of
 * `obs` into out[at..at + 3].
 */
export function ownGlobal(obs: SharedObservations, r: number, out: Float32Array, at: number): void {
  const ib = r * OWN_INTS;
  const rb = ((r / obs.N) | 0) * ROLLOUT_INTS;
  const { bits, rollout } = obs;
  const known = bits[ib + O_KNOWN];
  const flags = bits[ib + O_FLAGS];
  const M = 32 - Math.clz32(rollout[rb + R_ALL]);
  out[at] = flags & F_GOT_NEW;
  out[at + 1] = (rollout[rb + R_BOARD] & ~known & rollout[rb + R_DEPENDED] & ~known) !== 0 ? 1 : 0;
  out[at + 2] = M > 0 ? (rollout[rb + R_OPEN] - popcount(bits[ib + O_BLOCKED])) / M : 0;
  out[at + 3] = (flags & F_WASTED) >>> 1;
}
