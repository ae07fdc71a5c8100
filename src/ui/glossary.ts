/**
 * The words of the stage and the settings, each with a plain label a student knows and one line that
 * explains it. The views show the plain label beside the term where it first appears; the glossary
 * (the header's Glossary button, and the help's last line) lists them all. Plain text only.
 */
export interface GlossaryEntry {
  term: string;
  /** A few plain words that can stand beside the term on the stage. */
  plain: string;
  /** One line that explains it. */
  line: string;
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: 'rollout',
    plain: 'one practice sprint',
    line: 'The swarm plays one task from minute 0 to its deadline; the views play one rollout of the latest update minute by minute.',
  },
  { term: 'return', plain: 'share of tests passed', line: "A rollout's score: the share of the task's tests passing when the deadline hits, from 0 to 1." },
  {
    term: 'RLCR update',
    plain: 'one training step',
    line: 'Reinforcement Learning from Collective Rewards: after a batch of rollouts the shared policy is nudged towards what earned the team more.',
  },
  {
    term: 'Tmax',
    plain: 'the deadline',
    line: 'Minutes a rollout has before its tests are counted; the schedule lets it grow over training.',
  },
  {
    term: 'interface',
    plain: 'what a finished module tells',
    line: 'Whoever finishes a module knows its interface; a module that depends on it cannot be built until that knowledge reaches its builder.',
  },
  {
    term: 'single chain',
    plain: 'one agent alone',
    line: 'A reference: one agent does the whole task, given as many minutes as the swarm has agent-minutes.',
  },
  {
    term: 'best-of-N',
    plain: 'best of N solo tries',
    line: 'A reference: N agents each try the whole task alone, without talking, and the best try counts.',
  },
  {
    term: 'scripted organisation',
    plain: 'a hand-written team plan',
    line: 'A reference: agents follow fixed rules written by hand (split the modules, hand interfaces over).',
  },
  {
    term: 'imitation prior',
    plain: 'copying a scripted team first',
    line: 'Before RLCR the policy first learns to copy the scripted organisation for a few updates; the curve marks where that ends.',
  },
  {
    term: 'advantage form',
    plain: 'how credit is shared',
    line: "How a rollout's return becomes credit for its decisions: compared with the other rollouts of the same task (the group).",
  },
  {
    term: 'dr-grpo',
    plain: 'against the group mean',
    line: "The default advantage form: a rollout's return minus the mean of its group; grpo also divides by the group's spread, rloo leaves itself out of the mean.",
  },
  {
    term: 'critic + GAE',
    plain: 'a learned judge of each minute',
    line: 'Instead of one credit for a whole rollout, a second network (the critic) estimates how good each moment is, and GAE blends its estimates (γ, λ).',
  },
  {
    term: 'ablation',
    plain: 'one thing switched off',
    line: 'Train again with one ingredient removed or changed, to see what it was worth.',
  },
];

/** The advantage forms' options with their plain words ("dr-grpo (against the group mean)"). */
export const ADVANTAGE_LABELS: Record<string, string> = {
  'dr-grpo': 'dr-grpo (against the group mean)',
  grpo: 'grpo (group mean, scaled by its spread)',
  rloo: 'rloo (against the mean of the others)',
};

/** The entry of `term`. */
export function gloss(term: string): GlossaryEntry {
  const e = GLOSSARY.find((g) => g.term === term);
  if (!e) throw new Error(`no glossary entry for ${term}`);
  return e;
}
