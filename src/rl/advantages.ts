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

/** The advantage settings of a run (the fields of rl/config's Config they read). */
export interface AdvantageRule {
  /** Rollouts per task (K): every advantage is relative to the other rollouts of its group. */
  groupSize: number;
  advantage: AdvantageForm;
  /** c of the latency penalty (0: the deadline only). */
  latencyPenalty: number;
  /** collective: one team return for everyone; individual: each agent the tests of its own work. */
  rewards: 'collective' | 'individual';
  /** The critic ablation: GAE over per-minute rewards with the value head. */
  critic: boolean;
  gamma: number;
  lambda: number;
}

/**
 * A batch as the advantages read it. Its decision rows are minute-major: row t * B*N + b * N + i is
 * agent i of environment rollout b at minute t. A swarm rollout (a team) is I consecutive
 * environment rollouts (the islands; I = 1 for the other structures), and groups are of K teams.
 */
export interface AdvantageBatch {
  /** Environment rollouts. */
  B: number;
  N: number;
  /** Minutes played. */
  T: number;
  tmax: number;
  /** When each environment rollout ended, [B]. */
  tEnd: Float32Array;
  /** Share of its rollout's tests each agent's own work passed, [B * N] (individual rewards). */
  credit: Float32Array;
}

/** One swarm rollout's outcome as the advantages see it (islands: the best island). */
export interface Teams {
  /** Environment rollouts per swarm rollout. */
  I: number;
  returns: Float32Array;
  tEnd: Float32Array;
  /** Anytime return after every minute, [teams * (tmax + 1)]. */
  history: Float32Array;
}

/**
 * Every decision row's advantage by the run's rule: the critic's GAE (with `values`, one per row),
 * else the individual rewards' per-agent comparison, else the flat collective one (with the
 * orchestrator's shaping `bonus` per team, if any).
 */
export function decisionAdvantages(rule: AdvantageRule, batch: AdvantageBatch, teams: Teams, values?: Float32Array, bonus?: Float32Array | null): Float32Array {
  if (rule.critic && values) return criticAdvantages(batch, teams, values, rule.gamma, rule.lambda);
  if (rule.rewards === 'individual') return individualAdvantages(batch, teams, rule);
  return collectiveAdvantages(batch, teams, rule, bonus);
}

/**
 * The flat collective rule: each team's return (plus its `bonus`) compared within its group, and
 * that one number given to every decision of every agent of every cell of the team.
 */
export function collectiveAdvantages(batch: AdvantageBatch, teams: Teams, rule: AdvantageRule, bonus?: Float32Array | null): Float32Array {
  const { B, N } = batch;
  const I = teams.I;
  const shaped = bonus ? teams.returns.map((r, team) => r + bonus[team]) : teams.returns;
  const perTeam = groupAdvantages(penalised(shaped, teams.tEnd, batch.tmax, rule), rule.groupSize, rule.advantage);
  return everyMinute(
    Float32Array.from({ length: B * N }, (_, r) => perTeam[Math.floor(r / (I * N))]),
    batch.T,
  );
}

/**
 * Individual rewards: agent i of cell g of a team is compared with agent i of cell g of the other
 * teams of its group, on its own credit; every minute of the agent gets that number.
 */
export function individualAdvantages(batch: AdvantageBatch, teams: Teams, rule: AdvantageRule): Float32Array {
  const { B, N } = batch;
  const I = teams.I;
  const count = B / I;
  const perAgent = new Float32Array(B * N);
  const col = new Float32Array(count);
  for (let g = 0; g < I; g++) {
    for (let i = 0; i < N; i++) {
      for (let team = 0; team < count; team++) col[team] = batch.credit[(team * I + g) * N + i];
      const a = groupAdvantages(penalised(col, teams.tEnd, batch.tmax, rule), rule.groupSize, rule.advantage);
      for (let team = 0; team < count; team++) perAgent[(team * I + g) * N + i] = a[team];
    }
  }
  return everyMinute(perAgent, batch.T);
}

/**
 * The critic ablation: per environment rollout and agent, GAE over the team's per-minute rewards
 * (the steps of its anytime return) and the agent's `values` (one per decision row), up to the
 * rollout's end; later minutes get 0.
 */
export function criticAdvantages(batch: AdvantageBatch, teams: Teams, values: Float32Array, gamma: number, lambda: number): Float32Array {
  const { B, N, T } = batch;
  const R = B * N;
  const H = batch.tmax + 1;
  const history = teams.history;
  const adv = new Float32Array(T * R);
  for (let b = 0; b < B; b++) {
    const team = Math.floor(b / teams.I);
    const len = Math.min(T, Math.round(batch.tEnd[b]));
    const rewards = new Float32Array(len);
    for (let t = 0; t < len; t++) rewards[t] = history[team * H + t + 1] - history[team * H + t];
    for (let i = 0; i < N; i++) {
      const v = new Float32Array(len);
      for (let t = 0; t < len; t++) v[t] = values[t * R + b * N + i];
      const a = gae(rewards, v, gamma, lambda);
      for (let t = 0; t < len; t++) adv[t * R + b * N + i] = a[t];
    }
  }
  return adv;
}

/** The returns with the latency penalty of `rule` (as they are when it is 0). */
function penalised(returns: Float32Array, tEnd: Float32Array, tmax: number, rule: AdvantageRule): Float32Array {
  return rule.latencyPenalty > 0 ? latencyPenalised(returns, tEnd, tmax, rule.groupSize, rule.latencyPenalty) : returns;
}

/** Rows for each of T minutes from one number per environment rollout and agent ([B * N]). */
function everyMinute(perAgent: Float32Array, T: number): Float32Array {
  const R = perAgent.length;
  const adv = new Float32Array(T * R);
  for (let t = 0; t < T; t++) adv.set(perAgent, t * R);
  return adv;
}
