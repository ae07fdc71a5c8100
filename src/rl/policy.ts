import * as tf from '@tensorflow/tfjs';
import { A_CLAIM, A_DM, A_IDLE, A_POST, A_READ, A_WORK, NUM_ACTIONS } from '../sim/actions';
import { AGENT_DIM, AGENTS_OFFSET, GLOBAL_DIM, MODULE_DIM, MODULES_OFFSET, OBS_DIM } from '../sim/observe';
import { Rng } from '../sim/rng';
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';
import { dense } from './dense';

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

const KIND_COUNT = KIND_SEGMENTS.length;
/** Width of one kind's slot in the padded layout: the longest kind (the DM recipients). */
const SEG = Math.max(...KIND_SEGMENTS.map(([a, b]) => b - a));

/**
 * Selection matrices of the padded per-kind layout, made once per backend (never disposed). The
 * moves in and out of it are products with 0/1 matrices that have one 1 per column, so they copy
 * values exactly (a gather would do the same, but its gradient has no wasm kernel).
 */
let layoutTensors: { backend: string; toPadded: tf.Tensor2D; padding: tf.Tensor1D; fromPadded: tf.Tensor2D; kindOf: tf.Tensor2D; kindOfT: tf.Tensor2D } | null = null;

function layout(): NonNullable<typeof layoutTensors> {
  const backend = tf.getBackend();
  if (layoutTensors?.backend === backend) return layoutTensors;
  const P = KIND_COUNT * SEG;
  // Slot s * SEG + j holds flat action `from_s + j`; slots past a kind's end are padding (-1e9).
  const toPadded = new Float32Array(NUM_ACTIONS * P);
  const padding = new Float32Array(P).fill(-1e9);
  const fromPadded = new Float32Array(P * NUM_ACTIONS);
  const kindOf = new Float32Array(NUM_ACTIONS * KIND_COUNT);
  const kindOfT = new Float32Array(KIND_COUNT * NUM_ACTIONS);
  KIND_SEGMENTS.forEach(([from, to], s) => {
    for (let a = from; a < to; a++) {
      const slot = s * SEG + a - from;
      toPadded[a * P + slot] = 1;
      padding[slot] = 0;
      fromPadded[slot * NUM_ACTIONS + a] = 1;
      kindOf[a * KIND_COUNT + s] = 1;
      kindOfT[s * NUM_ACTIONS + a] = 1;
    }
  });
  layoutTensors = tf.tidy(() => ({
    backend,
    toPadded: tf.keep(tf.tensor2d(toPadded, [NUM_ACTIONS, P])),
    padding: tf.keep(tf.tensor1d(padding)),
    fromPadded: tf.keep(tf.tensor2d(fromPadded, [P, NUM_ACTIONS])),
    kindOf: tf.keep(tf.tensor2d(kindOf, [NUM_ACTIONS, KIND_COUNT])),
    kindOfT: tf.keep(tf.tensor2d(kindOfT, [KIND_COUNT, NUM_ACTIONS])),
  }));
  return layoutTensors;
}

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
    if (j.obsDim !== OBS_DIM || j.actions !== NUM_ACTIONS) throw new Error(`policy was made for ${j.obsDim} inputs / ${j.actions} actions, this build has ${OBS_DIM} / ${NUM_ACTIONS}`);
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
   * Log-probabilities [R, NUM_ACTIONS]: log p(kind) + log p(argument | kind), with illegal actions
   * (mask 0) and kinds without a legal action pushed to about -1e9. Call inside tf.tidy.
   *
   * The per-kind log-softmax runs as one op over a padded [R x 6 kinds x 16] layout (two gathers
   * move the flat logits in and out of it) instead of one slice and log-sum-exp per kind: the same
   * numbers, a tenth of the kernels (docs/RESULTS.md, "the learn step").
   */
  logProbs(obs: tf.Tensor2D, mask: tf.Tensor2D, agents: number = MAX_AGENTS): { logp: tf.Tensor2D; value: tf.Tensor1D } {
    const { logits, kinds, value } = this.apply(obs, agents);
    const R = obs.shape[0];
    const L = layout();
    const masked = tf.add(logits, tf.mul(tf.sub(1, mask), -1e9)) as tf.Tensor2D;
    const padded = tf.add(dense(masked, L.toPadded), L.padding).reshape([R * KIND_COUNT, SEG]);
    const withinPadded = tf.logSoftmax(padded).reshape([R, KIND_COUNT * SEG]);
    const within = dense(withinPadded, L.fromPadded);
    const kindMask = tf.greater(tf.matMul(mask, L.kindOf), 0).toFloat();
    const kindLogp = tf.logSoftmax(tf.add(kinds, tf.mul(tf.sub(1, kindMask), -1e9)));
    const logp = tf.add(within, dense(kindLogp, L.kindOfT)) as tf.Tensor2D;
    return { logp, value };
  }

  /** Number of trainable numbers. */
  get size(): number {
    return Object.values(this.vars).reduce((s, v) => s + v.size, 0);
  }

  dispose(): void {
    for (const v of Object.values(this.vars)) v.dispose();
  }
}
