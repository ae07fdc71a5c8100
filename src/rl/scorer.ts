import * as tf from '@tensorflow/tfjs';

/**
 * One shared scorer applied to every item of every row (the policy's per-module and per-recipient
 * scorers): y = relu(x · wIn + ctx[row]) · wOut, for x [rows * items x F] (data: the items'
 * features, rows-major), ctx [rows x S] (what the trunk says about the row, the same for all its
 * items), wIn [F x S] and wOut [S x O]; the result is [rows * items x O].
 *
 * When `xT` (the transpose of x, made once per learn step) is given, the gradient is hand-written
 * and the whole scorer is one node of TF.js's tape. Taped op by op, every reshape, add, relu and
 * product over the [rows * items x S] hidden layer saves a copy of its input for the backward pass
 * (the wasm backend's Identity kernel copies): five copies of 2.4 M floats per module scorer pass
 * at the bench's 6,144 rows. Here only the hidden layer itself is kept, without a copy, and freed
 * by the backward pass. Without `xT` (acting: no gradient) it is the plain forward pass.
 */
export function scorer(x: tf.Tensor2D, xT: tf.Tensor2D | undefined, ctx: tf.Tensor2D, wIn: tf.Tensor2D, wOut: tf.Tensor2D, items: number): tf.Tensor2D {
  const rows = ctx.shape[0];
  const S = wIn.shape[1];
  const hidden = (w: tf.Tensor2D, c: tf.Tensor2D) => tf.relu(tf.add(tf.matMul(x, w).reshape([rows, items, S]), c.reshape([rows, 1, S]))).reshape([rows * items, S]) as tf.Tensor2D;
  if (!xT) return tf.matMul(hidden(wIn, ctx), wOut);
  const f = tf.customGrad(((c: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor, save: tf.GradSaveFunc) => {
    save([]);
    // Kept past the forward pass's tidy for the backward pass, which frees it.
    const z = tf.keep(hidden(w1 as tf.Tensor2D, c as tf.Tensor2D));
    return {
      value: tf.matMul(z, w2 as tf.Tensor2D),
      gradFunc: (dy: tf.Tensor) => {
        const d = dy as tf.Tensor2D;
        const dz = tf.mul(tf.matMul(d, tf.transpose(w2 as tf.Tensor2D)), tf.step(z)) as tf.Tensor2D;
        const grads = [tf.sum(dz.reshape([rows, items, S]), 1), tf.matMul(xT, dz), tf.matMul(tf.transpose(z), d)];
        z.dispose();
        return grads;
      },
    };
  }) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (c: tf.Tensor, w1: tf.Tensor, w2: tf.Tensor) => tf.Tensor2D;
  return f(ctx, wIn, wOut);
}
