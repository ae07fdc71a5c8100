import * as tf from '@tensorflow/tfjs';

/** True when every given number is finite. */
export function finite(...xs: number[]): boolean {
  return xs.every(Number.isFinite);
}

/**
 * Keeps a copy of the last good weights of a set of variables and checks new ones for NaN and
 * Infinity. One check reads back a single number (the sum of squares of all weights, which is finite
 * exactly when every weight is finite and the sum does not overflow; an overflow is a fault too).
 */
export class NumericGuard {
  private saved: tf.Tensor[];

  constructor(private readonly vars: readonly tf.Variable[]) {
    this.saved = vars.map((v) => tf.keep(v.clone()));
  }

  /** True when every weight is finite (reads back one number). */
  async weightsFinite(): Promise<boolean> {
    const t = tf.tidy(() => tf.addN(this.vars.map((v) => tf.sum(tf.square(v)))));
    const [x] = await t.data();
    t.dispose();
    return Number.isFinite(x);
  }

  /** Records the current weights as the last good ones (replacing the previous copy). */
  commit(): void {
    const next = this.vars.map((v) => tf.keep(v.clone()));
    tf.dispose(this.saved);
    this.saved = next;
  }

  /** Puts the last good weights back into the variables. */
  restore(): void {
    this.vars.forEach((v, i) => v.assign(this.saved[i]));
  }

  dispose(): void {
    tf.dispose(this.saved);
    this.saved = [];
  }
}
