import * as tf from '@tensorflow/tfjs';
import { KINDS } from './decisions';
import type { ChoiceTensors, DecisionTensors, ForwardPass, SwarmPolicy } from './policy';
import { scorerBackward, tallProduct } from './wasmKernels';

/**
 * A loss over decision rows as a function of three per-row terms [L]: the chosen action's
 * log-probability, the policy's entropy, and the state value (the critic ablation). The trainer's
 * clipped surrogate, entropy bonus and value loss, and the prior's cross-entropy, are all of this
 * form; TF.js differentiates it (a few element-wise ops over L numbers).
 */
export type RowLoss = (chosen: tf.Tensor1D, entropy: tf.Tensor1D, value: tf.Tensor1D) => tf.Scalar;

/**
 * The policy variables (`SwarmPolicy.vars` keys) a loss has a gradient for, in a fixed order: all but
 * the scorers' output biases, which shift every module's (every recipient's) score alike and so
 * cancel in the softmax.
 */
export const GRADIENT_VARS = ['g1', 'b1', 'g2', 'b2', 'mf', 'mh', 'mb', 'mo', 'af', 'ah', 'ab', 'ao', 'ko', 'kob', 'vo', 'vob'] as const;

export interface LossGradients {
  loss: tf.Scalar;
  /** Mean entropy of the rows' action distributions. */
  entropy: tf.Scalar;
  /** Gradient of the loss per policy variable name (every variable the heads use). */
  grads: tf.NamedTensorMap;
}

/**
 * Column selections as products (a column slice or concatenation is a loop over rows on wasm): the
 * work and claim columns of the kind log-probabilities [6 x 2], the dm column [6 x 1], and the
 * work and claim columns spread back to six [2 x 6], the dm column's place among six [1 x 6].
 */
interface Selections {
  backend: string;
  args: tf.Tensor2D;
  dm: tf.Tensor2D;
  spreadArgs: tf.Tensor2D;
  spreadDm: tf.Tensor2D;
}
let selections: Selections | null = null;

function selectionsFor(backend: string): Selections {
  if (selections?.backend === backend) return selections;
  const one = (rows: number, cols: number, at: [number, number][]) => {
    const m = new Float32Array(rows * cols);
    for (const [r, c] of at) m[r * cols + c] = 1;
    return tf.keep(tf.tensor2d(m, [rows, cols]));
  };
  selections = {
    backend,
    args: one(KINDS, 2, [
      [0, 0],
      [1, 1],
    ]),
    dm: one(KINDS, 1, [[2, 0]]),
    spreadArgs: one(2, KINDS, [
      [0, 0],
      [1, 1],
    ]),
    spreadDm: one(1, KINDS, [[0, 2]]),
  };
  return selections;
}

/**
 * Log-softmax over the last axis and its probabilities: the backend's softmax kernel (on wasm one
 * vectorised pass), and the log-sum from its largest probability, 1 / sum of exp(x - max).
 */
function logSoftmaxAndProbabilities(x: tf.Tensor): [tf.Tensor, tf.Tensor] {
  const shifted = tf.sub(x, tf.max(x, -1, true));
  const p = tf.softmax(shifted);
  return [tf.add(shifted, tf.log(tf.max(p, -1, true))), p];
}

/**
 * The loss of a set of decision rows and its gradient over every weight of the policy, the
 * backward pass written by hand: the same numbers as TF.js's tape over `SwarmPolicy.heads`,
 * `chosenLogProb` and `headsEntropy` (the tests compare them), without the tape. Taped, every op
 * of the forward pass saved copies of its inputs (the wasm backend's Identity kernel copies), the
 * fused head product was split into columns and concatenated back (row by row in JavaScript on
 * wasm), and each log-softmax and exponential was recomputed for its gradient; here the forward
 * pass keeps what the backward pass needs and nothing else, and the probabilities are computed once.
 *
 * With p = softmax of a head and l = log p, the gradients are, per row:
 * - the chosen log-probability through a log-softmax: one-hot(choice) - p (times whether the
 *   choice is of that head's kind);
 * - the entropy H = H(kind) + sum over work, claim and dm of p(kind) H(argument | kind): for the
 *   kind logits p ⊙ (u - l - H) with u the within-kind entropies, for an argument head
 *   -p(kind) p ⊙ (l + H(argument | kind));
 * - then the scorers, the four products that read the trunk, and the trunk's two layers, as
 *   plain products, relu masks and sums.
 *
 * `forward`, if given, is `SwarmPolicy.forward` over these rows with the current weights (the
 * actor's, recorded while it collected them: `ActingRecord`); the caller still owns it. Without it
 * the forward pass is computed here.
 */
export function lossAndGradients(policy: SwarmPolicy, d: DecisionTensors, c: ChoiceTensors, loss: RowLoss, forward?: ForwardPass): LossGradients {
  const sel = selectionsFor(tf.getBackend());
  return tf.tidy(() => {
    const v = policy.vars;
    const H = policy.shape.hidden;
    const S = policy.shape.scorer;
    const { rows: L, M, A } = d;

    // Forward pass: the given one (the actor's, made with these weights), or a fresh one.
    const { h1, h, zm, za, kinds, moduleScores, dmScores } = forward ?? policy.forward(d.trunk, d.modules, d.agents, M, A);
    const w = policy.fusedWeights();
    const value = tf.matMul(h, w.value).reshape([L]) as tf.Tensor1D;
    const [lk, pk] = logSoftmaxAndProbabilities(tf.add(kinds, d.kindBias)) as [tf.Tensor2D, tf.Tensor2D];
    const [la, pa] = logSoftmaxAndProbabilities(tf.add(tf.transpose(moduleScores.reshape([L, M, 2]), [0, 2, 1]), d.argBias)) as [tf.Tensor3D, tf.Tensor3D];
    const [ld, pd] = logSoftmaxAndProbabilities(tf.add(dmScores.reshape([L, A]), d.dmBias)) as [tf.Tensor2D, tf.Tensor2D];
    const hk = tf.neg(tf.sum(tf.mul(pk, lk), 1, true)) as tf.Tensor2D; // [L x 1]
    const ha = tf.neg(tf.sum(tf.mul(pa, la), 2, true)) as tf.Tensor3D; // [L x 2 x 1]
    const hd = tf.neg(tf.sum(tf.mul(pd, ld), 1, true)) as tf.Tensor2D; // [L x 1]
    const ha2 = ha.reshape([L, 2]) as tf.Tensor2D;
    const pkArgs = tf.matMul(pk, sel.args); // [L x 2]
    const pkDm = tf.matMul(pk, sel.dm); // [L x 1]
    const entropyCol = tf.addN([hk, tf.sum(tf.mul(pkArgs, ha2), 1, true), tf.mul(pkDm, hd)]) as tf.Tensor2D;
    const entropy = entropyCol.reshape([L]) as tf.Tensor1D;
    const chosen = tf.addN([tf.sum(tf.mul(lk, c.kind), 1), tf.sum(tf.mul(la, c.arg), [1, 2]), tf.sum(tf.mul(ld, c.dm), 1)]) as tf.Tensor1D;

    // The loss and its gradient over the three per-row terms (TF.js's tape over L numbers).
    const { value: lossValue, grads } = tf.engine().gradients(() => loss(chosen, entropy, value), [chosen, entropy, value], undefined, true);
    const [dChosen, dEntropy, dValue] = grads as (tf.Tensor | null)[];
    const dc = dChosen ? dChosen.reshape([L, 1]) : tf.zeros([L, 1]);
    const de = dEntropy ? dEntropy.reshape([L, 1]) : tf.zeros([L, 1]);

    // The three heads' logits.
    const u = tf.add(tf.matMul(ha2, sel.spreadArgs), tf.mul(hd, sel.spreadDm));
    const dzk = tf.add(tf.mul(dc, tf.sub(c.kind, pk)), tf.mul(de, tf.mul(pk, tf.sub(tf.sub(u, lk), entropyCol)))) as tf.Tensor2D;
    const dc3 = dc.reshape([L, 1, 1]);
    const dza = tf.sub(
      tf.mul(dc3, tf.sub(c.arg, tf.mul(pa, tf.sum(c.arg, 2, true)))),
      tf.mul(tf.mul(de.reshape([L, 1, 1]), pkArgs.reshape([L, 2, 1])), tf.mul(pa, tf.add(la, ha))),
    ) as tf.Tensor3D;
    const dzd = tf.sub(tf.mul(dc, tf.sub(c.dm, tf.mul(pd, tf.sum(c.dm, 1, true)))), tf.mul(tf.mul(de, pkDm), tf.mul(pd, tf.add(ld, hd)))) as tf.Tensor2D;

    // The scorers: the per-item input layer's gradient is xᵀ · dz, a product over the rows of x
    // (`tallProduct`); the context's gradient, each row's sum of dz over its items, comes in the
    // transposed layout [S x rows] the heads' gradients are stacked in below.
    // (On wasm, scorerBackward's output product, relu mask, context sum and output weights' gradient
    // are one kernel.)
    const scorerBack = (z: tf.Tensor2D, dOut: tf.Tensor2D, wOut: tf.Variable, x: tf.Tensor2D, items: number) => {
      const { dz, ctxT, dW } = scorerBackward(z, dOut, wOut as tf.Tensor2D, items);
      return { ctxT, wIn: tallProduct(x, dz), wOut: dW };
    };
    const mod = scorerBack(zm, tf.transpose(dza, [0, 2, 1]).reshape([L * M, 2]) as tf.Tensor2D, v.mo, d.modules, M);
    const ag = scorerBack(za, dzd.reshape([L * A, 1]), v.ao, d.agents, A);

    // The four products that read the trunk, as one: their output gradients stacked as rows
    // [S + S + KINDS + 1 x L], so all four weight gradients are one product with h.
    const dv = dValue ? dValue.reshape([1, L]) : tf.zeros([1, L]);
    const dHeadsT = tf.concat([mod.ctxT, ag.ctxT, tf.transpose(dzk), dv], 0) as tf.Tensor2D;
    const wHeads = tf.concat([w.modules, w.agents, w.kinds, w.value], 1) as tf.Tensor2D;
    const dWHeads = tf.transpose(tallProduct(dHeadsT, h, true)) as tf.Tensor2D; // [H + 1 x 2S + KINDS + 1]
    const [dWm, dWa, dWk, dWv] = tf.split(dWHeads, [S, S, KINDS, 1], 1) as tf.Tensor2D[];
    const rowsAndBias = (g: tf.Tensor2D): [tf.Tensor, tf.Tensor] => {
      const [w, b] = tf.split(g, [g.shape[0] - 1, 1], 0);
      return [w, b.reshape([g.shape[1]])];
    };
    const [dmh, dmb] = rowsAndBias(dWm);
    const [dah, dab] = rowsAndBias(dWa);
    const [dko, dkob] = rowsAndBias(dWk);
    const [dvo, dvob] = rowsAndBias(dWv);
    const dA2 = tf.mul(tf.matMul(tf.transpose(dHeadsT), tf.transpose(wHeads)), tf.step(h)) as tf.Tensor2D;
    const trunkLayer = (g: tf.Tensor2D): [tf.Tensor, tf.Tensor] => rowsAndBias(tf.slice(g, [0, 0], [g.shape[0], H]));
    const [dg2, db2] = trunkLayer(tallProduct(h1, dA2));
    const dA1 = tf.mul(tf.matMul(dA2, tf.transpose(w.trunk2)), tf.step(h1)) as tf.Tensor2D;
    // (dA1ᵀ · x)ᵀ, summed as xᵀ · dA1: the same sums, without a transpose.
    const [dg1, db1] = trunkLayer(tallProduct(d.trunk, dA1));

    const byKey: Record<(typeof GRADIENT_VARS)[number], tf.Tensor> = {
      g1: dg1,
      b1: db1,
      g2: dg2,
      b2: db2,
      mf: mod.wIn,
      mh: dmh,
      mb: dmb,
      mo: mod.wOut,
      af: ag.wIn,
      ah: dah,
      ab: dab,
      ao: ag.wOut,
      ko: dko,
      kob: dkob,
      vo: dvo,
      vob: dvob,
    };
    const named: tf.NamedTensorMap = {};
    for (const k of GRADIENT_VARS) named[v[k].name] = byKey[k];
    return { loss: lossValue as tf.Scalar, entropy: tf.mean(entropy) as tf.Scalar, grads: named };
  });
}
