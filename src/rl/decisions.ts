import { A_CLAIM, A_DM, A_POST, NUM_ACTIONS } from '../sim/actions';
import { popcount } from '../sim/env';
import { AGENT_DIM, AGENTS_OFFSET, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from '../sim/observe';
import {
  F_SOLE,
  MEAN_OF_ONES,
  O_BLOCKED,
  O_CLAIMED_DEPS,
  O_CLAIMS,
  O_FLAGS,
  O_KNOWN,
  O_LAST,
  OWN_GLOBAL,
  OWN_INTS,
  ownGlobal,
  R_ACTIVE,
  R_ALL,
  R_CLAIMED,
  R_IDLE,
  R_NEEDED,
  R_WORKED,
  ROLLOUT_INTS,
  SHARED_MEAN,
  SHARED_WIDTH,
  type SharedObservations,
} from '../sim/observeShared';
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';

/** Features of the trunk's input: the global block, the mean module row and the summed agent rows / MAX_AGENTS. */
export const TRUNK_DIM = GLOBAL_DIM + MODULE_DIM + AGENT_DIM;
/** Width of a packed trunk row: TRUNK_DIM features and a constant 1 that carries the biases. */
export const TRUNK_WIDTH = TRUNK_DIM + 1;
/** Number of action kinds (work, claim, dm, post, read, idle). */
export const KINDS = 6;
/** Added to the score of an illegal choice: its probability is exp(-1e9), zero in float32. */
export const ILLEGAL = -1e9;

/**
 * A set of decision rows laid out the way the policy's heads read them: the observation split
 * into its blocks (no column slicing on the backend), the legal-action mask as additive biases per
 * head, and, when the choices are known, one-hot rows of them per head. All of it depends only on
 * the data, never on the weights, so it is built once in JavaScript per batch (or per minute when
 * acting) instead of being sliced out of the flat observation on every forward and backward pass.
 *
 * `M` modules and `A` agents are scored per row: `M` is the largest task of the batch (missing
 * modules are illegal), `A` the team size.
 */
export interface DecisionRows {
  rows: number;
  M: number;
  A: number;
  /** [rows x TRUNK_WIDTH]: global block, mean of all MAX_MODULES module rows, sum of agent rows / MAX_AGENTS, 1. */
  trunk: Float32Array;
  /** [rows * M x MODULE_DIM]: the first M module rows of each observation. */
  modules: Float32Array;
  /** [rows * A x AGENT_DIM]: the first A agent rows of each observation. */
  agents: Float32Array;
  /** [rows x KINDS]: 0 where the kind has a legal action, ILLEGAL where it has none. */
  kindBias: Float32Array;
  /** [rows x 2 x M]: work (0) and claim (1) of each module, 0 if legal, else ILLEGAL. */
  argBias: Float32Array;
  /** [rows x A]: DM to each agent, 0 if legal, else ILLEGAL. */
  dmBias: Float32Array;
}

/** The chosen actions of a set of decision rows, one-hot per head of the policy. */
export interface ChoiceRows {
  /** [rows x KINDS]. */
  kind: Float32Array;
  /** [rows x 2 x M]: the module of a work or claim choice; zero rows for the other kinds. */
  arg: Float32Array;
  /** [rows x A]: the recipient of a DM; zero rows for the other kinds. */
  dm: Float32Array;
}

/** Whether mask row r offers two or more legal actions: a decision of the policy (the rest are forced moves). */
export function isDecision(mask: Float32Array, r: number): boolean {
  let choices = 0;
  for (let a = 0; a < NUM_ACTIONS && choices < 2; a++) if (mask[r * NUM_ACTIONS + a] > 0) choices++;
  return choices > 1;
}

/** Kind index of each flat action, and the head slot of its argument (-1 for the one-action kinds). */
const KIND_OF = new Int8Array(NUM_ACTIONS);
for (let a = 0; a < NUM_ACTIONS; a++) KIND_OF[a] = a < A_CLAIM ? 0 : a < A_DM ? 1 : a < A_POST ? 2 : 3 + (a - A_POST);

/** `n` floats set to `fill`: a view of `store`'s array named `slot` if there is a store, else an array of their own. */
function packArray(store: PackStore | undefined, slot: string, n: number, fill = 0): Float32Array {
  return store ? store.view(slot, n, fill) : new Float32Array(n).fill(fill);
}

/** Zeroed decision rows for `count` decisions, every action illegal; throws on a size the policy cannot score. */
function emptyRows(count: number, M: number, A: number, store?: PackStore): Omit<DecisionRows, 'rows' | 'M' | 'A'> {
  if (M < 1 || M > MAX_MODULES || A < 1 || A > MAX_AGENTS) throw new RangeError(`cannot score ${M} modules and ${A} agents`);
  return {
    trunk: packArray(store, 'trunk', count * TRUNK_WIDTH),
    modules: packArray(store, 'modules', count * M * MODULE_DIM),
    agents: packArray(store, 'agents', count * A * AGENT_DIM),
    kindBias: packArray(store, 'kindBias', count * KINDS, ILLEGAL),
    argBias: packArray(store, 'argBias', count * 2 * M, ILLEGAL),
    dmBias: packArray(store, 'dmBias', count * A, ILLEGAL),
  };
}

/**
 * Storage that packing reuses from one call to the next (an actor packs every minute, a trainer
 * every update): what a pack into a store returns are views of its arrays, valid until the store's
 * next pack. Each array grows to the largest pack asked of it and never shrinks. Without a store,
 * every pack allocates arrays of its own; a minute's rows are over 100 kB and an update's choices
 * several MB, which a browser's allocator hands back to the system and takes again many times a
 * second (docs/ENGINE.md, "Speed notes": "Packing into reused storage").
 */
export class PackStore {
  private arrays = new Map<string, Float32Array>();

  /** `n` floats of the array named `slot`, each set to `fill`. */
  view(slot: string, n: number, fill = 0): Float32Array {
    let a = this.arrays.get(slot);
    if (!a || a.length < n) {
      a = new Float32Array(Math.max(n, 2 * (a?.length ?? 0)));
      this.arrays.set(slot, a);
    }
    return a.subarray(0, n).fill(fill);
  }
}

/**
 * Packs `count` decision rows out of flat observations [* x OBS_DIM] and masks [* x NUM_ACTIONS]:
 * row l is source row `pick[l]` (or l itself when `pick` is null). With a `store` the rows are views
 * of its arrays (valid until its next pack); without, arrays of their own.
 */
export function packDecisions(
  obs: Float32Array,
  mask: Float32Array,
  count: number,
  M: number,
  A: number,
  pick: ArrayLike<number> | null = null,
  store?: PackStore,
): DecisionRows {
  const { trunk, modules, agents, kindBias, argBias, dmBias } = emptyRows(count, M, A, store);
  for (let l = 0; l < count; l++) {
    const r = pick ? pick[l] : l;
    const o = r * OBS_DIM;
    const t = l * TRUNK_WIDTH;
    trunk[t + TRUNK_DIM] = 1;
    trunk.set(obs.subarray(o, o + GLOBAL_DIM), t);
    for (let k = 0; k < MAX_MODULES; k++) {
      const mo = o + MODULES_OFFSET + k * MODULE_DIM;
      for (let f = 0; f < MODULE_DIM; f++) trunk[t + GLOBAL_DIM + f] += obs[mo + f] / MAX_MODULES;
    }
    for (let j = 0; j < A; j++) {
      const ao = o + AGENTS_OFFSET + j * AGENT_DIM;
      for (let f = 0; f < AGENT_DIM; f++) trunk[t + GLOBAL_DIM + MODULE_DIM + f] += obs[ao + f] / MAX_AGENTS;
    }
    modules.set(obs.subarray(o + MODULES_OFFSET, o + MODULES_OFFSET + M * MODULE_DIM), l * M * MODULE_DIM);
    agents.set(obs.subarray(o + AGENTS_OFFSET, o + AGENTS_OFFSET + A * AGENT_DIM), l * A * AGENT_DIM);
    packMask(mask, r, l, M, A, kindBias, argBias, dmBias);
  }
  return { rows: count, M, A, trunk, modules, agents, kindBias, argBias, dmBias };
}

/**
 * The legal actions of mask row r as the biases of decision row l (the bias arrays start ILLEGAL):
 * a kind is legal if any of its actions is, an argument if its action is and it is scored.
 */
function packMask(mask: Float32Array, r: number, l: number, M: number, A: number, kindBias: Float32Array, argBias: Float32Array, dmBias: Float32Array): void {
  const mb = r * NUM_ACTIONS;
  const kb = l * KINDS;
  const wb = l * 2 * M;
  const db = l * A;
  let work = false;
  let claim = false;
  for (let k = 0; k < M; k++) {
    if (mask[mb + k] !== 0) {
      argBias[wb + k] = 0;
      work = true;
    }
    if (mask[mb + A_CLAIM + k] !== 0) {
      argBias[wb + M + k] = 0;
      claim = true;
    }
  }
  for (let k = M; k < MAX_MODULES; k++) {
    if (mask[mb + k] !== 0) work = true;
    if (mask[mb + A_CLAIM + k] !== 0) claim = true;
  }
  let dm = false;
  for (let j = 0; j < A; j++) {
    if (mask[mb + A_DM + j] !== 0) {
      dmBias[db + j] = 0;
      dm = true;
    }
  }
  for (let j = A; j < MAX_AGENTS; j++) if (mask[mb + A_DM + j] !== 0) dm = true;
  if (work) kindBias[kb] = 0;
  if (claim) kindBias[kb + 1] = 0;
  if (dm) kindBias[kb + 2] = 0;
  for (let x = 0; x < 3; x++) if (mask[mb + A_POST + x] !== 0) kindBias[kb + 3 + x] = 0;
}

/** Module features every agent of a rollout sees alike (the others are its own: 4-8, 12). */
const SHARED_MODULE_FEATURES = [0, 1, 2, 3, 9, 10, 11];

/** Index of the lowest set bit of a non-zero 32-bit mask. */
const lowBit = (x: number): number => 31 - Math.clz32(x & -x);

/**
 * `packDecisions` straight from the shared-block form (sim/observeShared.ts): the same rows, float
 * for float, as packing the expanded dense observations, without writing them. Row r of `obs`
 * (agent r % N of slot floor(r / N)) goes with mask row r. Per row: the global block from the
 * template and the agent's own features; the mean module row from the rollout's precomputed sum,
 * with the agent's own 0/1 features (blocked, known, claimed by me / by another, worked on last
 * minute, another worked on it) from counts of its bitmasks; the module and agent rows copied from
 * the template, then its own bits set.
 */
export function packSharedDecisions(
  obs: SharedObservations,
  mask: Float32Array,
  count: number,
  M: number,
  A: number,
  pick: ArrayLike<number> | null = null,
  store?: PackStore,
): DecisionRows {
  const { trunk, modules, agents, kindBias, argBias, dmBias } = emptyRows(count, M, A, store);
  const { N, shared: S, rollout, bits } = obs;
  const scored = (1 << M) - 1;
  const MD = M * MODULE_DIM;
  const AD = A * AGENT_DIM;
  const firstAgents = A >= 32 ? -1 : (1 << A) - 1;
  const TM = GLOBAL_DIM;
  const TA = GLOBAL_DIM + MODULE_DIM;
  for (let l = 0; l < count; l++) {
    const r = pick ? pick[l] : l;
    const s = (r / N) | 0;
    const i = r - s * N;
    const T = s * SHARED_WIDTH;
    const rb = s * ROLLOUT_INTS;
    const ib = r * OWN_INTS;
    const t = l * TRUNK_WIDTH;
    const blocked = bits[ib + O_BLOCKED];
    const known = bits[ib + O_KNOWN] & rollout[rb + R_ALL];
    const claims = bits[ib + O_CLAIMS];
    const last = bits[ib + O_LAST];
    const sole = (bits[ib + O_FLAGS] & F_SOLE) >>> 2;
    // Trunk: global block (id, what the rollout shares, own), mean module row, summed agent rows (below), 1.
    trunk[t + i] = 1;
    for (let f = MAX_AGENTS; f < OWN_GLOBAL; f++) trunk[t + f] = S[T + f];
    ownGlobal(obs, r, trunk, t + OWN_GLOBAL);
    for (const f of SHARED_MODULE_FEATURES) trunk[t + TM + f] = S[T + SHARED_MEAN + f];
    const nClaims = popcount(claims);
    trunk[t + TM + 4] = MEAN_OF_ONES[popcount(blocked)];
    trunk[t + TM + 5] = MEAN_OF_ONES[popcount(known)];
    trunk[t + TM + 6] = MEAN_OF_ONES[nClaims];
    trunk[t + TM + 7] = MEAN_OF_ONES[popcount(rollout[rb + R_CLAIMED]) - nClaims];
    trunk[t + TM + 8] = MEAN_OF_ONES[last >= 0 ? 1 : 0];
    trunk[t + TM + 12] = MEAN_OF_ONES[popcount(rollout[rb + R_WORKED]) - sole];
    trunk[t + TRUNK_DIM] = 1;
    // The first M module rows.
    const mo = l * MD;
    modules.set(S.subarray(T + MODULES_OFFSET, T + MODULES_OFFSET + MD), mo);
    for (let x = blocked & scored; x !== 0; x &= x - 1) modules[mo + lowBit(x) * MODULE_DIM + 4] = 1;
    for (let x = known & scored; x !== 0; x &= x - 1) modules[mo + lowBit(x) * MODULE_DIM + 5] = 1;
    for (let x = claims & scored; x !== 0; x &= x - 1) {
      const mb = mo + lowBit(x) * MODULE_DIM;
      modules[mb + 6] = 1;
      modules[mb + 7] = 0;
    }
    if (last >= 0 && last < M) {
      modules[mo + last * MODULE_DIM + 8] = 1;
      if (sole) modules[mo + last * MODULE_DIM + 12] = 0;
    }
    // The first A agent rows: the other active agents (idle or not), what I could hand each of them.
    const ao = l * AD;
    const others = rollout[rb + R_ACTIVE] & ~(1 << i) & firstAgents;
    const idle = rollout[rb + R_IDLE] & others;
    for (let x = idle; x !== 0; x &= x - 1) agents[ao + lowBit(x) * AGENT_DIM + 3] = 1;
    const mine = bits[ib + O_KNOWN] & rollout[rb + R_NEEDED];
    let quarters = 0;
    let unblocks = 0;
    for (let x = others; x !== 0; x &= x - 1) {
      const j = lowBit(x);
      const a = ao + j * AGENT_DIM;
      agents[a] = 1;
      if (mine === 0) continue;
      const jb = (s * N + j) * OWN_INTS;
      const gives = mine & ~bits[jb + O_KNOWN];
      if (gives === 0) continue;
      const n = popcount(gives);
      agents[a + 1] = n / 4;
      quarters += n;
      if ((gives & bits[jb + O_CLAIMED_DEPS]) !== 0) {
        agents[a + 2] = 1;
        unblocks++;
      }
    }
    // Their sum / MAX_AGENTS: multiples of 1/64 below 4, exact in float32 in any order, so from counts.
    trunk[t + TA] = popcount(others) / MAX_AGENTS;
    trunk[t + TA + 1] = quarters / 4 / MAX_AGENTS;
    trunk[t + TA + 2] = unblocks / MAX_AGENTS;
    trunk[t + TA + 3] = popcount(idle) / MAX_AGENTS;
    packMask(mask, r, l, M, A, kindBias, argBias, dmBias);
  }
  return { rows: count, M, A, trunk, modules, agents, kindBias, argBias, dmBias };
}

/** Decision rows from either form of the observations: dense rows [* x OBS_DIM] or shared blocks. */
export function packObservations(
  obs: Float32Array | SharedObservations,
  mask: Float32Array,
  count: number,
  M: number,
  A: number,
  pick: ArrayLike<number> | null = null,
  store?: PackStore,
): DecisionRows {
  return obs instanceof Float32Array ? packDecisions(obs, mask, count, M, A, pick, store) : packSharedDecisions(obs, mask, count, M, A, pick, store);
}

/** One-hot rows of the chosen flat actions for the policy's heads (see `packDecisions` for `pick` and `store`). */
export function packChoices(
  actions: ArrayLike<number>,
  count: number,
  M: number,
  A: number,
  pick: ArrayLike<number> | null = null,
  store?: PackStore,
): ChoiceRows {
  const kind = packArray(store, 'kind', count * KINDS);
  const arg = packArray(store, 'arg', count * 2 * M);
  const dm = packArray(store, 'dm', count * A);
  for (let l = 0; l < count; l++) {
    const a = actions[pick ? pick[l] : l];
    if (!(a >= 0 && a < NUM_ACTIONS)) throw new RangeError(`action ${a} is not an action`);
    const k = KIND_OF[a];
    kind[l * KINDS + k] = 1;
    if (k === 0 || k === 1) {
      const m = k === 0 ? a : a - A_CLAIM;
      if (m >= M) throw new RangeError(`action ${a} names module ${m}, but only ${M} are scored`);
      arg[(l * 2 + k) * M + m] = 1;
    } else if (k === 2) {
      if (a - A_DM >= A) throw new RangeError(`action ${a} names agent ${a - A_DM}, but only ${A} are scored`);
      dm[l * A + a - A_DM] = 1;
    }
  }
  return { kind, arg, dm };
}

/** Scratch for one row's softmax (the largest head: MAX_MODULES modules). */
const lanes = new Float64Array(Math.max(MAX_MODULES, MAX_AGENTS, KINDS));

/**
 * Softmax of `count` scores plus their mask biases, in float64: writes the probabilities into
 * `lanes` (an illegal lane, bias ILLEGAL, gets exactly 0 unless every lane is illegal).
 */
function softmax(scores: Float32Array, first: number, stride: number, bias: Float32Array, biasFirst: number, count: number): void {
  let max = -Infinity;
  for (let i = 0; i < count; i++) {
    const z = scores[first + i * stride] + bias[biasFirst + i];
    lanes[i] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const e = Math.exp(lanes[i] - max);
    lanes[i] = e;
    sum += e;
  }
  for (let i = 0; i < count; i++) lanes[i] /= sum;
}

/**
 * Flat action probabilities [rows x NUM_ACTIONS], p(kind) x p(argument | kind), from the raw scores
 * of a forward pass as `flatScores` lays them out (kinds [rows x KINDS], then work and claim per
 * module [rows x M x 2], then DMs [rows x A]) and the mask biases of the packed rows. Writes into `out`.
 */
export function actionProbabilities(scores: Float32Array, d: DecisionRows, out: Float32Array): void {
  const { rows, M, A } = d;
  const moduleScores = rows * KINDS;
  const dmScores = moduleScores + rows * M * 2;
  const kind = new Float64Array(KINDS);
  for (let r = 0; r < rows; r++) {
    const o = r * NUM_ACTIONS;
    out.fill(0, o, o + NUM_ACTIONS);
    softmax(scores, r * KINDS, 1, d.kindBias, r * KINDS, KINDS);
    kind.set(lanes.subarray(0, KINDS));
    for (let g = 0; g < 2; g++) {
      if (kind[g] === 0) continue;
      softmax(scores, moduleScores + r * M * 2 + g, 2, d.argBias, (r * 2 + g) * M, M);
      const at = o + (g === 0 ? 0 : A_CLAIM);
      for (let k = 0; k < M; k++) out[at + k] = kind[g] * lanes[k];
    }
    if (kind[2] !== 0) {
      softmax(scores, dmScores + r * A, 1, d.dmBias, r * A, A);
      for (let j = 0; j < A; j++) out[o + A_DM + j] = kind[2] * lanes[j];
    }
    for (let s = 0; s < 3; s++) out[o + A_POST + s] = kind[3 + s];
  }
}
