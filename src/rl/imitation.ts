/**
 * The imitation prior's schedule (DAgger). The first imitation updates are played by the scripted
 * organisation alone; from then on a growing share of every group's rollouts is played by the
 * learner itself, with the scripted organisation labelling each of its decisions, so that the prior
 * learns what to do in the states its own mistakes lead to, not only in the teacher's. At most
 * `MAX_LEARNER_SHARE` of a group is the learner's, so every update still shows the states a good
 * team reaches late in an episode.
 */

/** The largest share of a group's rollouts the learner plays during the prior. */
export const MAX_LEARNER_SHARE = 0.5;

/** Share of each group's rollouts played by the learner in imitation update `u` of `prior`. */
export function learnerShare(u: number, prior: number): number {
  if (prior <= 1) return 0;
  return (MAX_LEARNER_SHARE * Math.min(u, prior - 1)) / (prior - 1);
}

/**
 * Per rollout (B = groups x groupSize, group-major): 1 if the learner plays it in imitation update
 * `u`. The same first rollouts of every group are the learner's, so every task is seen played both ways.
 */
export function learnerPlays(u: number, prior: number, groups: number, groupSize: number): Uint8Array {
  const k = Math.round(groupSize * learnerShare(u, prior));
  const out = new Uint8Array(groups * groupSize);
  for (let g = 0; g < groups; g++) out.fill(1, g * groupSize, g * groupSize + k);
  return out;
}
