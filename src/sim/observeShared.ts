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

const claimedDeps = new Int32Array(MAX_AGENTS);
const claimsOf = new Int32Array(MAX_AGENTS);
/** Per interface d: bitmask of the unfinished modules that need it. */
const dependents = new Int32Array(MM);

/**
 * Writes the minute's observations of all B rollouts into slots `slot`.. of `out` (whose N must be
 * the env's): per rollout the shared block once, per agent its own features, O(B * (M + N)) work.
 * Every float of a slot that can be non-zero is written, so nothing is cleared first (the rest stay
 * 0 from the allocation). A structure's rules adjust the shared blocks through `observeShared` (the
 * CEO's 'minutes left'); rules that adjust only dense rows cannot be applied here, and the encoder
 * refuses them.
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
    luck: lucks,
    dep: deps,
    claim: claims,
    left: lefts,
    work: works,
    tests: testsOf,
    lastAction,
    lastWasted,
    active: activeOf,
    known: knownOf,
    gotNew,
  } = env;
  for (let b = 0; b < B; b++) {
    const o = b * MM;
    const ao = b * N;
    const s = slot + b;
    const T = s * SHARED_WIDTH;
    const M = env.M[b];
    const done = env.done[b];
    const needed = env.needed[b];
    const board = env.board[b];
    const all = M >= 32 ? -1 : (1 << M) - 1;
    // Who worked on what last minute (once), on which module two or more did (twice); the agent rows' shared parts.
    let once = 0;
    let twice = 0;
    let active = 0;
    let idle = 0;
    for (let i = 0; i < N; i++) {
      const last = lastAction[ao + i];
      if (last < MM) {
        twice |= once & (1 << last);
        once |= 1 << last;
      }
      claimedDeps[i] = 0;
      claimsOf[i] = 0;
      if (activeOf[ao + i]) {
        active |= 1 << i;
        if (last === A_IDLE || lastWasted[ao + i]) idle |= 1 << i;
      }
    }
    S[T + 16] = N / 16;
    S[T + 17] = t / tmax;
    S[T + G_MINUTES_LEFT] = env.minutesLeft(b) / 30;
    S[T + 19] = env.returnOf(b);
    const worked = once & all;
    let claimed = 0;
    let inProgress = 0;
    // The trunk's mean module row of the features every agent shares, summed in module order.
    let leftMean = 0;
    let testsMean = 0;
    let luckMean = 0;
    for (let k = 0, mb = T + MODULES_OFFSET; k < M; k++, mb += MODULE_DIM) {
      const ok = o + k;
      const isDone = (done >>> k) & 1;
      const luck = lucks[ok];
      const d = deps[ok];
      const claimer = claims[ok];
      let left = 0;
      let started = 0;
      if (!isDone) {
        left = luck > 0 ? 1 / luck / 10 : lefts[ok] / 10;
        leftMean = addMean(leftMean, left);
        if (lefts[ok] < works[ok]) {
          started = 1;
          inProgress++;
        }
      }
      S[mb] = 1;
      S[mb + 1] = isDone;
      S[mb + 2] = left;
      S[mb + 3] = started;
      S[mb + 7] = claimer >= 0 ? 1 : 0;
      S[mb + 10] = testsOf[ok] / 5;
      testsMean = addMean(testsMean, testsOf[ok] / 5);
      S[mb + 11] = luck;
      luckMean = addMean(luckMean, luck);
      S[mb + 12] = (worked >>> k) & 1;
      dependents[k] = 0;
      if (claimer >= 0) {
        claimed |= 1 << k;
        claimsOf[claimer] |= 1 << k;
        if (d >= 0 && !isDone) claimedDeps[claimer] |= 1 << d;
      }
    }
    for (let k = 0; k < M; k++) {
      const d = deps[o + k];
      if (d >= 0 && ((done >>> k) & 1) === 0) dependents[d] |= 1 << k;
    }
    // Unfinished dependents / 4 (a count of quarters, exact), and its mean in module order.
    let hasDependents = 0;
    let dependentsMean = 0;
    for (let d = 0, mb = T + MODULES_OFFSET + 9; d < M; d++, mb += MODULE_DIM) {
      const n = popcount(dependents[d]);
      S[mb] = n / 4;
      if (n === 0) continue;
      hasDependents |= 1 << d;
      dependentsMean = addMean(dependentsMean, n / 4);
    }
    // Rows of missing modules are 0: clear those a larger task wrote into this slot before.
    const rb = s * ROLLOUT_INTS;
    const before = 32 - Math.clz32(rollout[rb + R_ALL]);
    if (before > M) S.fill(0, T + MODULES_OFFSET + M * MODULE_DIM, T + MODULES_OFFSET + before * MODULE_DIM);
    // Rows of missing modules add nothing to the mean; the 0/1 features' sums depend only on their counts.
    const mean = T + SHARED_MEAN;
    S[mean] = MEAN_OF_ONES[M];
    S[mean + 1] = MEAN_OF_ONES[popcount(done & all)];
    S[mean + 2] = leftMean;
    S[mean + 3] = MEAN_OF_ONES[inProgress];
    S[mean + 9] = dependentsMean;
    S[mean + 10] = testsMean;
    S[mean + 11] = luckMean;
    rollout[rb + R_ACTIVE] = active;
    rollout[rb + R_IDLE] = idle;
    rollout[rb + R_CLAIMED] = claimed;
    rollout[rb + R_WORKED] = worked;
    rollout[rb + R_ALL] = all;
    rollout[rb + R_NEEDED] = needed;
    rollout[rb + R_BOARD] = board;
    rollout[rb + R_DEPENDED] = hasDependents;
    rollout[rb + R_OPEN] = popcount(all & ~done);
    for (let i = 0, r = s * N; i < N; i++, r++) {
      const ai = ao + i;
      const known = knownOf[ai];
      const last = lastAction[ai];
      // Interfaces I lack that unfinished modules need: those modules are blocked for me.
      let blocked = 0;
      for (let x = hasDependents & ~known; x !== 0; x &= x - 1) blocked |= dependents[lowBit(x)];
      const ib = r * OWN_INTS;
      const onModule = last < M;
      bits[ib + O_BLOCKED] = blocked;
      bits[ib + O_KNOWN] = known;
      bits[ib + O_CLAIMS] = claimsOf[i];
      bits[ib + O_CLAIMED_DEPS] = claimedDeps[i];
      bits[ib + O_LAST] = onModule ? last : -1;
      bits[ib + O_FLAGS] = gotNew[ai] | (lastWasted[ai] << 1) | (onModule && ((twice >>> last) & 1) === 0 ? F_SOLE : 0);
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
