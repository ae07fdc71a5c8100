/** How a rollout's advantage is computed from the returns of its group (K rollouts of one task). */
export const ADVANTAGES = ['dr-grpo', 'grpo', 'rloo'] as const;
export type AdvantageForm = (typeof ADVANTAGES)[number];

/**
 * Flat group-relative advantages. `returns` holds G groups of K consecutive rollouts; the result
 * has one number per rollout, which every action of every agent in that rollout receives.
 * - dr-grpo: R - mean(group)
 * - grpo:    (R - mean(group)) / (std(group) + eps)   (population std)
 * - rloo:    R - mean(other K-1 rollouts of the group) = K/(K-1) * (R - mean(group))
 * A group whose returns all tie gets zero advantage in every form.
 */
export function groupAdvantages(returns: Float32Array | number[], K: number, form: AdvantageForm, eps = 1e-6): Float32Array {
  if (K < 2 || returns.length % K !== 0) throw new RangeError(`need groups of K >= 2 rollouts, got ${returns.length} returns for K = ${K}`);
  const out = new Float32Array(returns.length);
  for (let g = 0; g < returns.length; g += K) {
    let mean = 0;
    for (let k = 0; k < K; k++) mean += returns[g + k];
    mean /= K;
    let varSum = 0;
    for (let k = 0; k < K; k++) varSum += (returns[g + k] - mean) ** 2;
    const std = Math.sqrt(varSum / K);
    for (let k = 0; k < K; k++) {
      const d = returns[g + k] - mean;
      out[g + k] = form === 'dr-grpo' ? d : form === 'grpo' ? (std > eps ? d / (std + eps) : 0) : (d * K) / (K - 1);
    }
  }
  return out;
}

/**
 * The explicit latency penalty: R' = R - c * s * (tEnd / Tmax), where s is the mean return of the
 * rollout's group (how well the swarm already does this task), so finishing early pays more on tasks
 * it already solves.
 */
export function latencyPenalised(returns: Float32Array, tEnd: Float32Array, tmax: number, K: number, c: number): Float32Array {
  const out = new Float32Array(returns.length);
  for (let g = 0; g < returns.length; g += K) {
    let s = 0;
    for (let k = 0; k < K; k++) s += returns[g + k];
    s /= K;
    for (let k = 0; k < K; k++) out[g + k] = returns[g + k] - c * s * (tEnd[g + k] / tmax);
  }
  return out;
}

/**
 * Generalised advantage estimation over one trajectory of per-minute rewards and values
 * (the critic ablation). The episode ends after the last reward (value 0 beyond it).
 * Returns the advantages; value targets are advantages + values.
 */
export function gae(rewards: ArrayLike<number>, values: ArrayLike<number>, gamma: number, lambda: number): Float32Array {
  const T = rewards.length;
  const adv = new Float32Array(T);
  let next = 0;
  for (let t = T - 1; t >= 0; t--) {
    const nextValue = t + 1 < T ? values[t + 1] : 0;
    const delta = rewards[t] + gamma * nextValue - values[t];
    next = delta + gamma * lambda * next;
    adv[t] = next;
  }
  return adv;
}
