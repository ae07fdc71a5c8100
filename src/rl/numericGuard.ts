import * as tf from '@tensorflow/tfjs';

/** Where a non-finite number turned up in an update. */
export type FaultSite = 'loss' | 'gradients' | 'weights';

/** Every NumericFault message starts with this, so a view can recognise one in plain text. */
export const NUMERIC_FAULT_PREFIX = 'Training stopped at update';

/** The settings that decide the likely cause of a fault. */
export interface FaultSettings {
  lr: number;
  gradClip: number;
}

/**
 * The trainer found NaN or Infinity in the loss, the gradients or the weights. The weights are back
 * at their last good values when this is thrown, so training can resume after a settings change.
 */
export class NumericFault extends Error {
  constructor(
    readonly site: FaultSite,
    readonly update: number,
    readonly settings: FaultSettings,
  ) {
    super(faultMessage(site, update, settings));
    this.name = 'NumericFault';
  }
}

/** A learning rate a tenth of `lr`, kept within the schema's lower bound (1e-6). */
export function saferLearningRate(lr: number): number {
  return Math.max(1e-6, Number((lr / 10).toPrecision(2)));
}

/** The one-paragraph explanation of a fault: what happened, the likely cause, the way on. */
export function faultMessage(site: FaultSite, update: number, s: FaultSettings): string {
  const what = site === 'loss' ? 'the loss' : site === 'gradients' ? 'the gradients' : 'the weights after the step';
  const cause = s.gradClip === 0 && site !== 'loss' ? `gradient clipping is off (grad-clip 0) and the learning rate is ${s.lr}: turn clipping on or lower the learning rate` : `the likely cause is the learning rate (${s.lr}): lower it, e.g. to ${saferLearningRate(s.lr)}`;
  return `${NUMERIC_FAULT_PREFIX} ${update}: ${what} became NaN or infinite. The weights are back at their last good values; ${cause}, then resume.`;
}

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
