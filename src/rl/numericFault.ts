/**
 * A numeric fault of the trainer, in words: where a non-finite number turned up, the likely cause
 * and a safer learning rate. Free of TF.js, so the page can offer the way on without loading it.
 */

/** Where a non-finite number turned up in an update. */
export type FaultSite = 'loss' | 'gradients' | 'weights';

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
  const cause =
    s.gradClip === 0 && site !== 'loss'
      ? `gradient clipping is off (grad-clip 0) and the learning rate is ${s.lr}: turn clipping on or lower the learning rate`
      : `the likely cause is the learning rate (${s.lr}): lower it, e.g. to ${saferLearningRate(s.lr)}`;
  return `Training stopped at update ${update}: ${what} became NaN or infinite. The weights are back at their last good values; ${cause}, then resume.`;
}
