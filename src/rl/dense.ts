import * as tf from '@tensorflow/tfjs';

/**
 * x · w with a hand-written gradient that transposes explicitly before multiplying.
 * TF.js's own gradient uses matMul's transpose flags, which the wasm backend runs about ten times
 * slower than a transpose followed by a plain product (docs/HISTORY.md has the measurement).
 */
export const dense = tf.customGrad(((x: tf.Tensor, w: tf.Tensor, save: tf.GradSaveFunc) => {
  save([x, w]);
  return {
    value: tf.matMul(x as tf.Tensor2D, w as tf.Tensor2D),
    gradFunc: (dy: tf.Tensor, saved: tf.Tensor[]) => [
      tf.matMul(dy as tf.Tensor2D, tf.transpose(saved[1]) as tf.Tensor2D),
      tf.matMul(tf.transpose(saved[0]) as tf.Tensor2D, dy as tf.Tensor2D),
    ],
  };
}) as unknown as Parameters<typeof tf.customGrad>[0]) as unknown as (x: tf.Tensor, w: tf.Tensor) => tf.Tensor2D;
