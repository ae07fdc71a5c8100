import * as tf from '@tensorflow/tfjs';

/**
 * Adam over a set of variables as one flat vector. The update is TF.js's `AdamOptimizer`'s, the same
 * element-wise operations in the same order on every weight, so the weights come out the same float
 * for float; but its moments are two flat vectors and its arithmetic one chain of operations for all
 * the variables together (about 60 small kernels a step for the policy's 16 variables instead of
 * about 160, which on wasm cost more in launching than in computing). The learning rate can change
 * mid-run without losing the moment estimates.
 */
export class FlatAdam {
  private readonly beta1 = 0.9;
  private readonly beta2 = 0.999;
  private readonly epsilon: number;
  private readonly accBeta1: tf.Variable;
  private readonly accBeta2: tf.Variable;
  private m: tf.Variable | null = null;
  private v: tf.Variable | null = null;
  /** The variables' names in the order of the flat vector, fixed by the first step. */
  private names: string[] | null = null;

  constructor(public learningRate: number) {
    this.epsilon = tf.backend().epsilon();
    this.accBeta1 = tf.tidy(() => tf.scalar(this.beta1).variable(false));
    this.accBeta2 = tf.tidy(() => tf.scalar(this.beta2).variable(false));
  }

  /** One step with `grads` (gradient per variable name); every step must name the same variables. */
  applyGradients(grads: tf.NamedTensorMap): void {
    const names = Object.keys(grads);
    if (this.names === null) this.names = names;
    else if (names.length !== this.names.length || names.some((n, i) => n !== this.names![i]))
      throw new Error('FlatAdam: every step must update the same variables');
    const vars = names.map((n) => tf.engine().registeredVariables[n]);
    tf.tidy(() => {
      const g = tf.concat(names.map((n) => grads[n].reshape([-1])));
      if (this.m === null || this.v === null) {
        this.m = tf.variable(tf.zerosLike(g), false);
        this.v = tf.variable(tf.zerosLike(g), false);
      }
      const oneMinusAccBeta1 = tf.sub(1, this.accBeta1);
      const oneMinusAccBeta2 = tf.sub(1, this.accBeta2);
      const m = tf.add(tf.mul(this.m, this.beta1), tf.mul(g, 1 - this.beta1));
      const v = tf.add(tf.mul(this.v, this.beta2), tf.mul(tf.square(g), 1 - this.beta2));
      const step = tf.mul(tf.div(tf.div(m, oneMinusAccBeta1), tf.add(tf.sqrt(tf.div(v, oneMinusAccBeta2)), this.epsilon)), -this.learningRate);
      this.m.assign(m);
      this.v.assign(v);
      const parts = tf.split(
        step,
        vars.map((x) => x.size),
      );
      vars.forEach((x, i) => x.assign(tf.add(parts[i].reshape(x.shape), x)));
      this.accBeta1.assign(tf.mul(this.accBeta1, this.beta1));
      this.accBeta2.assign(tf.mul(this.accBeta2, this.beta2));
    });
  }

  dispose(): void {
    tf.dispose([this.accBeta1, this.accBeta2, ...(this.m ? [this.m] : []), ...(this.v ? [this.v] : [])]);
    this.m = this.v = null;
  }
}
