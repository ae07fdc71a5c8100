import * as tf from '@tensorflow/tfjs';
import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, A_WORK, NUM_ACTIONS } from '../sim/actions';
import { AGENT_DIM, AGENTS_OFFSET, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';
import { type ChoiceRows, type DecisionRows, ILLEGAL, KINDS, packDecisions, TRUNK_WIDTH } from './decisions';
import { dense } from './dense';
import { addRelu } from './wasmKernels';

/** Sizes of the shared policy network. */
export interface PolicyShape {
  /** Width of the agent-level trunk. */
  hidden: number;
  /** Width of the per-module and per-recipient scorers. */
  scorer: number;
}

let instances = 0;

/** [first, end) of each action kind in the flat layout, in ACTION_KINDS order. */
export const KIND_SEGMENTS: [number, number][] = [
  [A_WORK, A_CLAIM],
  [A_CLAIM, A_DM],
  [A_DM, A_POST],
  [A_POST, A_READ],
  [A_READ, A_IDLE],
  [A_IDLE, NUM_ACTIONS],
];

export const DEFAULT_SHAPE: PolicyShape = { hidden: 64, scorer: 32 };

/** Plain-JSON weights: the format a policy saves to and loads from. */
export interface PolicyJSON {
  format: 'swarm-policy';
  version: 1;
  shape: PolicyShape;
  obsDim: number;
  actions: number;
  weights: Record<string, { shape: number[]; data: number[] }>;
}

export interface PolicyOutput {
  /**
   * Unmasked logits [R, NUM_ACTIONS] in the flat action layout of sim/actions, for choosing the
   * argument within a kind (which module, which recipient); zero for the one-action kinds.
   */
  logits: tf.Tensor2D;
  /** Unmasked logits [R, 6] over the action kinds (work, claim, dm, post, read, idle). */
  kinds: tf.Tensor2D;
  /** State value per row [R] (used only by the critic/GAE ablation). */
  value: tf.Tensor1D;
}

/**
 * The one policy every agent shares. It reads an agent's observation and scores actions with
 * weights shared across modules and across recipients, so what it learns about "a module I can
 * unblock" or "an agent waiting on what I know" transfers between them:
 * - trunk: h = MLP(global features, mean of module rows, mean of agent rows);
 * - `work k` / `claim k`: one small MLP over (module row k, h), the same for every k;
 * - `dm j`: one small MLP over (agent row j, h), the same for every j;
 * - the kind of action (work, claim, dm, post, read, idle) and the value: linear in h.
 * An action's probability is p(kind) * p(argument | kind): choosing whether to talk comes before
 * choosing whom, so "talk or not" is not biased by how many recipients there are.
 */
export class SwarmPolicy {
  readonly shape: PolicyShape;
  readonly vars: Record<string, tf.Variable>;
  /** The products' weights as `forward` and the backward pass use them, built from the variables and kept until they change. */
  private fused: { ids: unknown[]; w: FusedWeights } | null = null;

  private constructor(shape: PolicyShape, vars: Record<string, tf.Variable>) {
    this.shape = shape;
    this.vars = vars;
  }

  /** A freshly initialised policy; the same seed gives the same weights on every backend. */
  static create(shape: PolicyShape = DEFAULT_SHAPE, seed = 0): SwarmPolicy {
    const rng = new Rng(seed, 101);
    const H = shape.hidden;
    const S = shape.scorer;
    const glorot = (fanIn: number, fanOut: number, gain = 1): number[] => {
      const sd = gain * Math.sqrt(2 / (fanIn + fanOut));
      return Array.from({ length: fanIn * fanOut }, () => {
        const u = Math.max(1e-12, rng.next());
        return sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
      });
    };
    const zeros = (n: number) => new Array<number>(n).fill(0);
    const spec: Record<string, [number[], number[]]> = {
      g1: [[GLOBAL_DIM + MODULE_DIM + AGENT_DIM, H], glorot(GLOBAL_DIM + MODULE_DIM + AGENT_DIM, H)],
      b1: [[H], zeros(H)],
      g2: [[H, H], glorot(H, H)],
      b2: [[H], zeros(H)],
      mf: [[MODULE_DIM, S], glorot(MODULE_DIM, S)],
      mh: [[H, S], glorot(H, S)],
      mb: [[S], zeros(S)],
      mo: [[S, 2], glorot(S, 2, 0.1)],
      mob: [[2], zeros(2)],
      af: [[AGENT_DIM, S], glorot(AGENT_DIM, S)],
      ah: [[H, S], glorot(H, S)],
      ab: [[S], zeros(S)],
      ao: [[S, 1], glorot(S, 1, 0.1)],
      aob: [[1], zeros(1)],
      ko: [[H, 6], glorot(H, 6, 0.1)],
      kob: [[6], zeros(6)],
      vo: [[H, 1], glorot(H, 1, 0.1)],
      vob: [[1], zeros(1)],
    };
    const vars: Record<string, tf.Variable> = {};
    for (const [name, [s, data]] of Object.entries(spec)) {
      const init = tf.tensor(data, s);
      vars[name] = tf.variable(init, true, `policy${++instances}/${name}`);
      init.dispose();
    }
    return new SwarmPolicy(shape, vars);
  }

  /** Restores a policy saved with `toJSON`; throws a clear error on a malformed or mismatched file. */
  static fromJSON(json: unknown): SwarmPolicy {
    const j = json as Partial<PolicyJSON>;
    if (!j || j.format !== 'swarm-policy') throw new Error('not a swarm policy file (format field missing)');
    if (j.version !== 1) throw new Error(`unsupported policy version ${String(j.version)} (this build reads version 1)`);
    if (j.obsDim !== OBS_DIM || j.actions !== NUM_ACTIONS)
      throw new Error(`policy was made for ${j.obsDim} inputs / ${j.actions} actions, this build has ${OBS_DIM} / ${NUM_ACTIONS}`);
    const fresh = SwarmPolicy.create(j.shape as PolicyShape);
    for (const [name, v] of Object.entries(fresh.vars)) {
      const w = j.weights?.[name];
      if (!w || !Array.isArray(w.data) || w.shape.join() !== v.shape.join() || w.data.length !== v.size || !w.data.every(Number.isFinite)) {
        fresh.dispose();
        throw new Error(`policy weight "${name}" is missing or has the wrong shape`);
      }
      const t = tf.tensor(w.data, v.shape);
      v.assign(t);
      t.dispose();
    }
    return fresh;
  }

  /** Plain-JSON copy of the weights (reads them back from the backend). */
  toJSON(): PolicyJSON {
    const weights: PolicyJSON['weights'] = {};
    for (const [name, v] of Object.entries(this.vars)) weights[name] = { shape: v.shape.slice(), data: Array.from(v.dataSync()) };
    return { format: 'swarm-policy', version: 1, shape: { ...this.shape }, obsDim: OBS_DIM, actions: NUM_ACTIONS, weights };
  }

  /** Copies another policy's weights into this one (same shape). */
  copyFrom(other: SwarmPolicy): void {
    for (const [name, v] of Object.entries(this.vars)) v.assign(other.vars[name]);
  }

  /**
   * Forward pass over observations [R, OBS_DIM]. Only the first `agents` recipient rows are scored
   * (the rest are empty in a smaller swarm and masked anyway). Call inside tf.tidy.
   */
  apply(obs: tf.Tensor2D, agents: number = MAX_AGENTS): PolicyOutput {
    const v = this.vars;
    const R = obs.shape[0];
    const S = this.shape.scorer;
    const g = obs.slice([0, 0], [R, GLOBAL_DIM]);
    const mods = obs.slice([0, MODULES_OFFSET], [R, MAX_MODULES * MODULE_DIM]).reshape([R, MAX_MODULES, MODULE_DIM]);
    const ags = obs.slice([0, AGENTS_OFFSET], [R, agents * AGENT_DIM]).reshape([R, agents, AGENT_DIM]);
    const trunkIn = tf.concat([g, mods.mean(1), tf.mul(ags.sum(1), 1 / MAX_AGENTS)], 1);
    const h1 = tf.relu(tf.add(dense(trunkIn, v.g1), v.b1));
    const h = tf.relu(tf.add(dense(h1, v.g2), v.b2)) as tf.Tensor2D;

    const mIn = dense(mods.reshape([R * MAX_MODULES, MODULE_DIM]), v.mf).reshape([R, MAX_MODULES, S]);
    const mCtx = dense(h, v.mh).reshape([R, 1, S]);
    const mz = tf.relu(tf.add(tf.add(mIn, mCtx), v.mb)).reshape([R * MAX_MODULES, S]);
    const mOut = tf.add(dense(mz, v.mo), v.mob).reshape([R, MAX_MODULES, 2]);
    const workL = mOut.slice([0, 0, 0], [R, MAX_MODULES, 1]).reshape([R, MAX_MODULES]);
    const claimL = mOut.slice([0, 0, 1], [R, MAX_MODULES, 1]).reshape([R, MAX_MODULES]);

    const aIn = dense(ags.reshape([R * agents, AGENT_DIM]), v.af).reshape([R, agents, S]);
    const aCtx = dense(h, v.ah).reshape([R, 1, S]);
    const az = tf.relu(tf.add(tf.add(aIn, aCtx), v.ab)).reshape([R * agents, S]);
    const scored = tf.add(dense(az, v.ao), v.aob).reshape([R, agents]);
    const dmL = agents < MAX_AGENTS ? tf.concat([scored, tf.zeros([R, MAX_AGENTS - agents])], 1) : scored;

    const logits = tf.concat([workL, claimL, dmL, tf.zeros([R, 3])], 1) as tf.Tensor2D;
    const kinds = tf.add(dense(h, v.ko), v.kob) as tf.Tensor2D;
    const value = tf.add(dense(h, v.vo), v.vob).reshape([R]) as tf.Tensor1D;
    return { logits, kinds, value };
  }

  /**
   * Log-probabilities [R, NUM_ACTIONS] in the flat action layout: log p(kind) + log p(argument |
   * kind), with illegal actions (mask 0) and kinds without a legal action at about -1e9. Reads
   * `obs` and `mask` back to pack them, then runs `heads`: a convenience for tests and probes;
   * training and acting run `forward` on rows packed once. Call inside tf.tidy.
   */
  logProbs(obs: tf.Tensor2D, mask: tf.Tensor2D, agents: number = MAX_AGENTS): { logp: tf.Tensor2D; value: tf.Tensor1D } {
    const R = obs.shape[0];
    const d = decisionTensors(packDecisions(obs.dataSync() as Float32Array, mask.dataSync() as Float32Array, R, MAX_MODULES, agents));
    const heads = this.heads(d);
    const col = (s: number) => heads.kind.slice([0, s], [R, 1]);
    const arg = (k: number) => heads.arg.slice([0, k, 0], [R, 1, MAX_MODULES]).reshape([R, MAX_MODULES]);
    const dm = agents < MAX_AGENTS ? tf.concat([heads.dm, tf.fill([R, MAX_AGENTS - agents], ILLEGAL)], 1) : heads.dm;
    const logp = tf.concat([tf.add(arg(0), col(0)), tf.add(arg(1), col(1)), tf.add(dm, col(2)), heads.kind.slice([0, 3], [R, 3])], 1) as tf.Tensor2D;
    return { logp, value: heads.value };
  }

  /**
   * The policy's log-probabilities per head, from decision rows packed in JavaScript
   * (`packDecisions`): the definition that `lossAndGradients` (the trainer's hand-written backward
   * pass) and `forward` (the forward pass acting and learning share) are tested against. Every action's log-probability is
   * `kind[kind(a)] + arg[...]` (or `+ dm[...]`); the one-action kinds have only their kind term.
   * The same numbers as `logProbs`, with the work in a few matrix products: no column slices of the
   * observation, one log-softmax per head over just its legal choices instead of a padded layout,
   * and the biases shared by every module (`mb`) and every recipient (`ab`) added once per row
   * before they are broadcast. `mob` and `aob` shift every argument of a kind alike, so they cancel
   * in its softmax and are left out (their gradient is exactly zero). Call inside tf.tidy.
   */
  heads(d: DecisionTensors): PolicyHeads {
    const v = this.vars;
    const { rows: R, M, A } = d;
    const S = this.shape.scorer;
    const h = this.trunk(d.trunk);
    const withBias = (w: tf.Variable, b: tf.Variable) => tf.concat([w, b.reshape([1, b.size])], 0) as tf.Tensor2D;
    // The four heads that read the trunk as one product (one transpose of h for all their gradients).
    const fused = tf.concat([withBias(v.mh, v.mb), withBias(v.ah, v.ab), withBias(v.ko, v.kob), withBias(v.vo, v.vob)], 1) as tf.Tensor2D;
    const [mCtx, aCtx, kindL, valueL] = tf.split(dense(h, fused), [S, S, KINDS, 1], 1);
    const mz = tf.relu(tf.add(tf.matMul(d.modules, v.mf as tf.Tensor2D).reshape([R, M, S]), mCtx.reshape([R, 1, S]))).reshape([R * M, S]);
    const mOut = tf.transpose(dense(mz, v.mo).reshape([R, M, 2]), [0, 2, 1]);
    const arg = tf.logSoftmax(tf.add(mOut, d.argBias)) as tf.Tensor3D;
    const az = tf.relu(tf.add(tf.matMul(d.agents, v.af as tf.Tensor2D).reshape([R, A, S]), aCtx.reshape([R, 1, S]))).reshape([R * A, S]);
    const dm = tf.logSoftmax(tf.add(dense(az, v.ao).reshape([R, A]), d.dmBias)) as tf.Tensor2D;
    const kind = tf.logSoftmax(tf.add(kindL, d.kindBias)) as tf.Tensor2D;
    return { kind, arg, dm, value: valueL.reshape([R]) as tf.Tensor1D };
  }

  /**
   * The trunk over packed trunk rows (their last column is 1): [R x (hidden + 1)], the last column 1
   * again. The biases ride in the products as one more weight row each, and the constant column is
   * carried through by a unit column appended to each layer's weights: no bias additions, and no
   * column sums for their gradients (on wasm a sum over rows is a transpose and a reduction).
   */
  private trunk(x: tf.Tensor2D): tf.Tensor2D {
    const [w1, w2] = this.trunkLayers();
    const h1 = tf.relu(tf.matMul(x, w1));
    return tf.relu(dense(h1, w2)) as tf.Tensor2D;
  }

  /**
   * The trunk's two layers as the products use them: [fanIn + 1 x hidden + 1], the weights with
   * the bias as their last row and a unit column that carries the constant 1 on. Call inside tf.tidy.
   */
  trunkLayers(): [tf.Tensor2D, tf.Tensor2D] {
    const v = this.vars;
    const H = this.shape.hidden;
    const layer = (w: tf.Variable, b: tf.Variable) => {
      const rows = w.shape[0] + 1;
      const carry = tf.oneHot(tf.tensor1d([rows - 1], 'int32'), rows).reshape([rows, 1]);
      return tf.concat([tf.concat([w, b.reshape([1, H])], 0), carry], 1) as tf.Tensor2D;
    };
    return [layer(v.g1, v.b1), layer(v.g2, v.b2)];
  }

  /**
   * The forward pass that acting and learning share, over packed rows (trunk [R x TRUNK_WIDTH],
   * modules [R * M x MODULE_DIM], agents [R * A x AGENT_DIM]): the trunk's two layers, the scorers'
   * hidden layers and the raw scores, without masks or softmax. The same products as `heads`, with
   * the weights fused once per change of the variables instead of once per call (a rollout's
   * minutes all act with the same weights, and a learn step's forward pass with the weights the
   * actor used). What the hand-written backward pass needs is kept (`lossAndGradients`), so the
   * actor's forward passes of a batch can serve the first epoch of its learn step. Call inside tf.tidy.
   */
  forward(trunk: tf.Tensor2D, modules: tf.Tensor2D, agents: tf.Tensor2D, M: number, A: number): ForwardPass {
    const v = this.vars;
    const w = this.fusedWeights();
    const h1 = tf.relu(tf.matMul(trunk, w.trunk1)) as tf.Tensor2D;
    const h = tf.relu(tf.matMul(h1, w.trunk2)) as tf.Tensor2D;
    // relu(x · wIn + the row's context) per item: one kernel on wasm (wasmKernels.ts).
    const hidden = (x: tf.Tensor2D, wIn: tf.Variable, ctx: tf.Tensor2D, items: number) => addRelu(tf.matMul(x, wIn as tf.Tensor2D), tf.matMul(h, ctx), items);
    const zm = hidden(modules, v.mf, w.modules, M);
    const za = hidden(agents, v.af, w.agents, A);
    return { h1, h, zm, za, kinds: tf.matMul(h, w.kinds), moduleScores: tf.matMul(zm, v.mo as tf.Tensor2D), dmScores: tf.matMul(za, v.ao as tf.Tensor2D) };
  }

  /**
   * The weights as `forward` and the hand-written backward pass multiply by, fused once and rebuilt
   * when a variable was assigned (its data changes identity). Kept past the caller's tidy; the
   * policy frees them. Call inside tf.tidy (the check of the variables makes no tensors).
   */
  fusedWeights(): FusedWeights {
    const ids = Object.values(this.vars).map((x) => x.dataId);
    if (this.fused && ids.every((id, i) => id === this.fused!.ids[i])) return this.fused.w;
    if (this.fused) tf.dispose(Object.values(this.fused.w));
    const v = this.vars;
    const w = tf.tidy(() => {
      const [trunk1, trunk2] = this.trunkLayers();
      const withBias = (a: tf.Variable, b: tf.Variable) => tf.concat([a, b.reshape([1, b.size])], 0) as tf.Tensor2D;
      return { trunk1, trunk2, modules: withBias(v.mh, v.mb), agents: withBias(v.ah, v.ab), kinds: withBias(v.ko, v.kob), value: withBias(v.vo, v.vob) };
    });
    // Kept past the caller's tidy (forward passes run inside one); freed when rebuilt or disposed.
    for (const t of Object.values(w)) tf.keep(t);
    this.fused = { ids, w };
    return w;
  }

  /** The state value of every row (the critic ablation): the trunk and the value head only. Call inside tf.tidy. */
  values(trunk: tf.Tensor2D): tf.Tensor1D {
    const v = this.vars;
    const w = tf.concat([v.vo, v.vob.reshape([1, 1])], 0) as tf.Tensor2D;
    return tf.matMul(this.trunk(trunk), w).reshape([trunk.shape[0]]) as tf.Tensor1D;
  }

  /** Number of trainable numbers. */
  get size(): number {
    return Object.values(this.vars).reduce((s, v) => s + v.size, 0);
  }

  dispose(): void {
    for (const v of Object.values(this.vars)) v.dispose();
    if (this.fused) tf.dispose(Object.values(this.fused.w));
    this.fused = null;
  }
}

/**
 * The weights `forward` multiplies by: the trunk's layers [fanIn + 1 x hidden + 1] (`trunkLayers`),
 * and the four products that read the trunk, each with its bias as the last row: the module and
 * recipient context [hidden + 1 x scorer], the kinds [hidden + 1 x KINDS], the value [hidden + 1 x 1].
 */
export interface FusedWeights {
  trunk1: tf.Tensor2D;
  trunk2: tf.Tensor2D;
  modules: tf.Tensor2D;
  agents: tf.Tensor2D;
  kinds: tf.Tensor2D;
  value: tf.Tensor2D;
}

/**
 * One forward pass over R packed rows (`SwarmPolicy.forward`): the trunk's layers h1 and h
 * [R x hidden + 1] (the last column the carried constant 1), the scorers' hidden layers over every
 * module [R * M x scorer] and every recipient [R * A x scorer], and the raw scores: kinds
 * [R x KINDS], work and claim per module [R * M x 2], DM per recipient [R * A x 1]. (A type, not an
 * interface, so tf.tidy can return it.)
 */
export type ForwardPass = {
  h1: tf.Tensor2D;
  h: tf.Tensor2D;
  zm: tf.Tensor2D;
  za: tf.Tensor2D;
  kinds: tf.Tensor2D;
  moduleScores: tf.Tensor2D;
  dmScores: tf.Tensor2D;
};

/**
 * The raw scores of a forward pass, flat, as the actor reads them back: the kind scores [R x KINDS],
 * then the work and claim scores of each module [R x M x 2], then the DM scores [R x A]; no masks,
 * no softmax (the actor does both in JavaScript, `actionProbabilities`). Call inside tf.tidy.
 */
export function flatScores(f: ForwardPass): tf.Tensor1D {
  return tf.concat([f.kinds.reshape([-1]), f.moduleScores.reshape([-1]), f.dmScores.reshape([-1])]) as tf.Tensor1D;
}

/** `DecisionRows` on the backend (see decisions.ts for the layouts). */
export interface DecisionTensors {
  rows: number;
  M: number;
  A: number;
  trunk: tf.Tensor2D;
  modules: tf.Tensor2D;
  agents: tf.Tensor2D;
  kindBias: tf.Tensor2D;
  argBias: tf.Tensor3D;
  dmBias: tf.Tensor2D;
}

/** `ChoiceRows` on the backend. */
export interface ChoiceTensors {
  kind: tf.Tensor2D;
  arg: tf.Tensor3D;
  dm: tf.Tensor2D;
}

/** Log-probabilities per head: kinds [R x 6], work/claim within their kind [R x 2 x M], DM within its kind [R x A]. */
export interface PolicyHeads {
  kind: tf.Tensor2D;
  arg: tf.Tensor3D;
  dm: tf.Tensor2D;
  value: tf.Tensor1D;
}

/**
 * Whether the current backend copies a typed array into its own memory when a tensor is made from
 * it, so that the array may be written again at once (packing into a `PackStore`): tfjs-backend-wasm
 * does (`BackendWasm.move`); the cpu backend keeps the array itself and WebGPU's uploads it when it
 * is first used, so on those each pack gets arrays of its own.
 */
export function uploadCopies(): boolean {
  return tf.getBackend() === 'wasm';
}

/**
 * A float32 tensor's numbers where the backend keeps them, without a copy: on wasm a view of its
 * memory (tfjs-backend-wasm's `typedArrayFromHeap`), valid until the backend next allocates, so read
 * it at once; null on the other backends, which read back with `data()`.
 */
export function backendView(t: tf.Tensor): Float32Array | null {
  if (tf.getBackend() !== 'wasm' || t.dtype !== 'float32') return null;
  const backend = tf.backend() as { typedArrayFromHeap?: (t: tf.TensorInfo) => unknown };
  const view = backend.typedArrayFromHeap?.(t);
  return view instanceof Float32Array ? view : null;
}

/** Uploads packed decision rows (the caller disposes them, or calls inside tf.tidy). */
export function decisionTensors(d: DecisionRows): DecisionTensors {
  const { rows: R, M, A } = d;
  const t: DecisionTensors = {
    rows: R,
    M,
    A,
    trunk: tf.tensor2d(d.trunk, [R, TRUNK_WIDTH]),
    modules: tf.tensor2d(d.modules, [R * M, MODULE_DIM]),
    agents: tf.tensor2d(d.agents, [R * A, AGENT_DIM]),
    kindBias: tf.tensor2d(d.kindBias, [R, KINDS]),
    argBias: tf.tensor3d(d.argBias, [R, 2, M]),
    dmBias: tf.tensor2d(d.dmBias, [R, A]),
  };
  return t;
}

/** Uploads packed choices. */
export function choiceTensors(c: ChoiceRows, R: number, M: number, A: number): ChoiceTensors {
  return { kind: tf.tensor2d(c.kind, [R, KINDS]), arg: tf.tensor3d(c.arg, [R, 2, M]), dm: tf.tensor2d(c.dm, [R, A]) };
}

/** Log-probability [R] of each row's chosen action under `heads`. Call inside tf.tidy. */
export function chosenLogProb(heads: PolicyHeads, c: ChoiceTensors): tf.Tensor1D {
  return tf.addN([tf.sum(tf.mul(heads.kind, c.kind), 1), tf.sum(tf.mul(heads.arg, c.arg), [1, 2]), tf.sum(tf.mul(heads.dm, c.dm), 1)]) as tf.Tensor1D;
}

/** Kind columns that have arguments (work, claim, dm), as a 0/1 selection [6 x 3]; one per backend. */
let argKinds: { backend: string; sel: tf.Tensor2D } | null = null;

/**
 * Entropy [R] of each row's whole action distribution: H(kind) + sum over work, claim and dm of
 * p(kind) H(argument | kind). Illegal choices have probability 0 and add nothing. Call inside tf.tidy.
 */
export function headsEntropy(heads: PolicyHeads): tf.Tensor1D {
  const backend = tf.getBackend();
  if (argKinds?.backend !== backend) {
    const sel = new Float32Array(KINDS * 3);
    for (let k = 0; k < 3; k++) sel[k * 3 + k] = 1;
    argKinds = { backend, sel: tf.keep(tf.tensor2d(sel, [KINDS, 3])) };
  }
  const pKind = tf.exp(heads.kind);
  const hKind = tf.neg(tf.sum(tf.mul(pKind, heads.kind), 1));
  const hArg = tf.neg(tf.sum(tf.mul(tf.exp(heads.arg), heads.arg), 2));
  const hDm = tf.neg(tf.sum(tf.mul(tf.exp(heads.dm), heads.dm), 1, true));
  const hWithin = tf.concat([hArg, hDm], 1);
  return tf.add(hKind, tf.sum(tf.mul(tf.matMul(pKind, argKinds.sel), hWithin), 1)) as tf.Tensor1D;
}
