import { A_IDLE } from './actions';
import { popcount, type SprintEnv } from './env';
import { AGENT_DIM, AGENTS_OFFSET, G_MINUTES_LEFT, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from './observe';
import { MAX_AGENTS, MAX_MODULES } from './task';

/**
 * The observations of one minute in shared-block form: what the agents of a rollout share is kept
 * once per rollout, and per agent only what is its own. Expanded, it is exactly the dense
 * `encodeObservations` row of every agent (`expandObservations`); the policy's decision rows are
 * packed from it directly (rl/decisions.ts `packSharedDecisions`), so no dense row is written.
 *
 * Per rollout ("slot"), SHARED_WIDTH floats and ROLLOUT_INTS ints:
 * - the template row in the dense layout (OBS_DIM): the global block without the agent's own
 *   features (id, 'got new interface', 'board unblocks me', 'share I can work on', 'wasted'), the
 *   module rows as every agent sees them (feature 7 is 'claimed by anyone', feature 12 'anyone
 *   worked on it'), the agent rows of the active agents (features 0 and 3);
 * - at SHARED_MEAN, the template's module rows summed / MAX_MODULES in module order, float32 step by
 *   step as `packDecisions` sums them: the trunk's mean module row for the features every agent
 *   shares;
 * - ints: the active agents, the claimed modules, the modules someone worked on last minute, and
 *   the rollout's modules, as bitmasks.
 * Per agent (rollout-major, B * N rows), OWN_FLOATS floats and OWN_INTS ints:
 * - its four own global features (GLOBAL_DIM - OWN_FLOATS on);
 * - bitmasks of the modules blocked for it, the interfaces it knows, the modules it claims, the
 *   module it worked on last minute (-1 for none), the interfaces it knows that others need, the
 *   interfaces its unfinished claims need, and whether it was the only one working on that module.
 */
export const SHARED_MEAN = OBS_DIM;
export const SHARED_WIDTH = OBS_DIM + MODULE_DIM;
export const ROLLOUT_INTS = 4;
export const R_ACTIVE = 0;
export const R_CLAIMED = 1;
export const R_WORKED = 2;
export const R_ALL = 3;
export const OWN_FLOATS = 4;
/** First global feature that is the agent's own besides its id (20..23). */
export const OWN_GLOBAL = GLOBAL_DIM - OWN_FLOATS;
export const OWN_INTS = 7;
export const O_BLOCKED = 0;
export const O_KNOWN = 1;
export const O_CLAIMS = 2;
export const O_LAST = 3;
export const O_MINE = 4;
export const O_CLAIMED_DEPS = 5;
export const O_SOLE = 6;

const MM = MAX_MODULES;

/** Storage for `slots` rollouts' shared blocks and their N agents' own features. */
export class SharedObservations {
  readonly shared: Float32Array;
  readonly rollout: Int32Array;
  readonly own: Float32Array;
  readonly bits: Int32Array;

  constructor(
    readonly slots: number,
    readonly N: number,
    arrays?: { shared: Float32Array; rollout: Int32Array; own: Float32Array; bits: Int32Array },
  ) {
    if (!(N >= 1 && N <= MAX_AGENTS)) throw new RangeError(`agents must be 1..${MAX_AGENTS}`);
    this.shared = arrays?.shared ?? new Float32Array(slots * SHARED_WIDTH);
    this.rollout = arrays?.rollout ?? new Int32Array(slots * ROLLOUT_INTS);
    this.own = arrays?.own ?? new Float32Array(slots * N * OWN_FLOATS);
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
      own: this.own.subarray(a * OWN_FLOATS, z * OWN_FLOATS),
      bits: this.bits.subarray(a * OWN_INTS, z * OWN_INTS),
    });
  }
}

const workersLast = new Int32Array(MM);
const claimedDeps = new Int32Array(MAX_AGENTS);
const claimsOf = new Int32Array(MAX_AGENTS);
/** Per interface d: bitmask of the unfinished modules that need it. */
const dependents = new Int32Array(MM);

/** Index of the lowest set bit of a non-zero 32-bit mask. */
const lowBit = (x: number): number => 31 - Math.clz32(x & -x);

/**
 * Writes the minute's observations of all B rollouts into slots `slot`.. of `out` (whose N must be
 * the env's): per rollout the shared block once, per agent its own features, O(B * (M + N)) work.
 * A structure's rules adjust the shared blocks through `observeShared` (the CEO's 'minutes left');
 * rules that adjust only dense rows cannot be applied here, and the encoder refuses them.
 */
export function encodeSharedObservations(env: SprintEnv, out: SharedObservations, slot = 0): void {
  const { B, N } = env;
  if (out.N !== N) throw new RangeError(`storage for ${out.N} agents, the env has ${N}`);
  if (slot < 0 || slot + B > out.slots) throw new RangeError(`slots ${slot}..${slot + B} are not all held (${out.slots})`);
  if (env.rules?.observe && !env.rules.observeShared) throw new Error(`the ${env.rules.kind} rules adjust dense observations only`);
  const tmax = env.tmax;
  const t = env.t;
  const S = out.shared;
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
    const open = all & ~done;
    S.fill(0, T, T + SHARED_WIDTH);
    workersLast.fill(0);
    claimedDeps.fill(0, 0, N);
    claimsOf.fill(0, 0, N);
    dependents.fill(0, 0, M);
    for (let i = 0; i < N; i++) {
      const last = env.lastAction[ao + i];
      if (last < MM) workersLast[last]++;
    }
    S[T + 16] = N / 16;
    S[T + 17] = t / tmax;
    S[T + G_MINUTES_LEFT] = (tmax - t) / 30;
    S[T + 19] = env.returnOf(b);
    let claimed = 0;
    let worked = 0;
    for (let k = 0, mb = T + MODULES_OFFSET; k < M; k++, mb += MODULE_DIM) {
      const ok = o + k;
      const isDone = (done >>> k) & 1;
      const luck = env.luck[ok];
      const d = env.dep[ok];
      const claimer = env.claim[ok];
      S[mb] = 1;
      S[mb + 1] = isDone;
      S[mb + 2] = isDone ? 0 : luck > 0 ? 1 / luck / 10 : env.left[ok] / 10;
      S[mb + 3] = !isDone && env.left[ok] < env.work[ok] ? 1 : 0;
      S[mb + 10] = env.tests[ok] / 5;
      S[mb + 11] = luck;
      if (workersLast[k] > 0) {
        S[mb + 12] = 1;
        worked |= 1 << k;
      }
      if (claimer >= 0) {
        S[mb + 7] = 1;
        claimed |= 1 << k;
        claimsOf[claimer] |= 1 << k;
        if (d >= 0 && !isDone) claimedDeps[claimer] |= 1 << d;
      }
      if (d >= 0 && !isDone) {
        S[T + MODULES_OFFSET + d * MODULE_DIM + 9] += 0.25;
        dependents[d] |= 1 << k;
      }
    }
    // The trunk's mean module row, summed as packDecisions sums it (rows of missing modules add nothing).
    const mean = T + SHARED_MEAN;
    for (let k = 0, mb = T + MODULES_OFFSET; k < M; k++, mb += MODULE_DIM) {
      for (let f = 0; f < MODULE_DIM; f++) S[mean + f] += S[mb + f] / MAX_MODULES;
    }
    let hasDependents = 0;
    for (let d = 0; d < M; d++) if (dependents[d] !== 0) hasDependents |= 1 << d;
    let active = 0;
    for (let j = 0, ab = T + AGENTS_OFFSET; j < N; j++, ab += AGENT_DIM) {
      if (!env.active[ao + j]) continue;
      active |= 1 << j;
      S[ab] = 1;
      S[ab + 3] = env.lastAction[ao + j] === A_IDLE || env.lastWasted[ao + j] ? 1 : 0;
    }
    const rb = s * ROLLOUT_INTS;
    out.rollout[rb + R_ACTIVE] = active;
    out.rollout[rb + R_CLAIMED] = claimed;
    out.rollout[rb + R_WORKED] = worked;
    out.rollout[rb + R_ALL] = all;
    for (let i = 0; i < N; i++) {
      const ai = ao + i;
      const r = slot * N + ai;
      const known = env.known[ai];
      const last = env.lastAction[ai];
      // Interfaces I lack that unfinished modules need: those modules are blocked for me.
      const lacking = hasDependents & ~known;
      let blocked = 0;
      for (let x = lacking; x !== 0; x &= x - 1) blocked |= dependents[lowBit(x)];
      const fb = r * OWN_FLOATS;
      out.own[fb] = env.gotNew[ai];
      out.own[fb + 1] = (board & ~known & lacking) !== 0 ? 1 : 0;
      out.own[fb + 2] = M > 0 ? (popcount(open) - popcount(blocked)) / M : 0;
      out.own[fb + 3] = env.lastWasted[ai];
      const ib = r * OWN_INTS;
      const bits = out.bits;
      bits[ib + O_BLOCKED] = blocked;
      bits[ib + O_KNOWN] = known;
      bits[ib + O_CLAIMS] = claimsOf[i] & claimed;
      bits[ib + O_LAST] = last < M ? last : -1;
      bits[ib + O_MINE] = known & needed;
      bits[ib + O_CLAIMED_DEPS] = claimedDeps[i];
      bits[ib + O_SOLE] = last < M && workersLast[last] === 1 ? 1 : 0;
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
  const { N, shared: S, bits, own } = obs;
  for (let s = 0; s < obs.slots; s++) {
    const T = s * SHARED_WIDTH;
    const active = obs.rollout[s * ROLLOUT_INTS + R_ACTIVE];
    const all = obs.rollout[s * ROLLOUT_INTS + R_ALL];
    for (let i = 0; i < N; i++) {
      const r = s * N + i;
      const base = offset + r * OBS_DIM;
      const ib = r * OWN_INTS;
      out.set(S.subarray(T, T + OBS_DIM), base);
      out[base + i] = 1;
      for (let f = 0; f < OWN_FLOATS; f++) out[base + OWN_GLOBAL + f] = own[r * OWN_FLOATS + f];
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
        if (bits[ib + O_SOLE]) out[mods + last * MODULE_DIM + 12] = 0;
      }
      const ab = base + AGENTS_OFFSET + i * AGENT_DIM;
      out[ab] = out[ab + 1] = out[ab + 2] = out[ab + 3] = 0;
      const mine = bits[ib + O_MINE];
      if (mine === 0) continue;
      for (let j = 0, jb = base + AGENTS_OFFSET; j < N; j++, jb += AGENT_DIM) {
        if (j === i || ((active >>> j) & 1) === 0) continue;
        const jb2 = (s * N + j) * OWN_INTS;
        const gives = mine & ~bits[jb2 + O_KNOWN];
        if (gives === 0) continue;
        out[jb + 1] = popcount(gives) / 4;
        if ((gives & bits[jb2 + O_CLAIMED_DEPS]) !== 0) out[jb + 2] = 1;
      }
    }
  }
}
