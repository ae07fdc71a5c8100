/**
 * The words a student meets on the stage and in the lesson that need plain words (the lecture
 * issue's list): the glossary must explain each, and the tests of the glossary and of the lecture
 * read this one list.
 */
export const STUDENT_TERMS = [
  'best-of-N',
  'single chain',
  'RLCR update',
  'Tmax',
  'dr-grpo',
  'critic + GAE',
  'imitation prior',
  'rollout',
  'return',
  'interface',
  'advantage form',
] as const;
