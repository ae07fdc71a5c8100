import * as tf from '@tensorflow/tfjs';
import { KIND_SEGMENTS, type SwarmPolicy } from './policy';

/**
 * `SwarmPolicy.logProbs` written the plain way, one slice and log-sum-exp per action kind: how the
 * first engine computed it (2026-11-29). Kept as the reference the padded version is tested and benchmarked
 * against (policy.test.ts, `npm run bench:kinds`). Call inside tf.tidy.
 */
export function referenceLogProbs(p: SwarmPolicy, obs: tf.Tensor2D, mask: tf.Tensor2D, agents: number): tf.Tensor2D {
  const { logits, kinds } = p.apply(obs, agents);
  const R = obs.shape[0];
  const masked = tf.add(logits, tf.mul(tf.sub(1, mask), -1e9));
  const within: tf.Tensor[] = [];
  const kindMask: tf.Tensor[] = [];
  for (const [from, to] of KIND_SEGMENTS) {
    const seg = masked.slice([0, from], [R, to - from]);
    within.push(to - from === 1 ? tf.zerosLike(seg) : tf.sub(seg, tf.logSumExp(seg, 1, true)));
    kindMask.push(mask.slice([0, from], [R, to - from]).max(1, true));
  }
  const kindLogp = tf.logSoftmax(tf.add(kinds, tf.mul(tf.sub(1, tf.concat(kindMask, 1)), -1e9)));
  return tf.concat(
    within.map((w, s) => tf.add(w, kindLogp.slice([0, s], [R, 1]))),
    1,
  ) as tf.Tensor2D;
}
