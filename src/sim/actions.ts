import { MAX_AGENTS, MAX_MODULES } from './task';

/**
 * The flat action index every agent picks each minute:
 * `work k` | `claim k` | `dm j` | `post` | `read` | `idle`.
 */
export const A_WORK = 0;
export const A_CLAIM = MAX_MODULES;
export const A_DM = 2 * MAX_MODULES;
export const A_POST = 2 * MAX_MODULES + MAX_AGENTS;
export const A_READ = A_POST + 1;
export const A_IDLE = A_POST + 2;
export const NUM_ACTIONS = A_POST + 3;

export const ACTION_KINDS = ['work', 'claim', 'dm', 'post', 'read', 'idle'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Kind index (position in ACTION_KINDS) of a flat action. */
export function actionKind(a: number): number {
  if (a < A_CLAIM) return 0;
  if (a < A_DM) return 1;
  if (a < A_POST) return 2;
  return 3 + (a - A_POST);
}

/** Module (for work/claim) or agent (for dm) the action refers to, else -1. */
export function actionArg(a: number): number {
  if (a < A_CLAIM) return a - A_WORK;
  if (a < A_DM) return a - A_CLAIM;
  if (a < A_POST) return a - A_DM;
  return -1;
}

export const work = (k: number): number => A_WORK + k;
export const claim = (k: number): number => A_CLAIM + k;
export const dm = (j: number): number => A_DM + j;

/** Human-readable form, e.g. "work 3", "dm 5", "post". */
export function describeAction(a: number): string {
  const kind = ACTION_KINDS[actionKind(a)];
  const arg = actionArg(a);
  return arg >= 0 ? `${kind} ${arg}` : kind;
}
