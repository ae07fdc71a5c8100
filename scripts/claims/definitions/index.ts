/**
 * The claims C1..C9: each one a statement, the training conditions it needs (declared as config
 * overrides, shared between claims through the runner's cache), and an evaluation that turns the
 * measured numbers into a table, plots and a verdict by the rules of `rules.ts`.
 * Each claim is its own file (c1.ts .. c9.ts); this module assembles them in order and holds the active setting.
 */
import { verdictOf } from '../rules';
import { conditionsOf, type Suite, type SuiteName, SUITES } from './suites';
import type { Claim, ClaimContext, ClaimReport, Condition } from './types';
import { c1 } from './c1';
import { c2 } from './c2';
import { c3 } from './c3';
import { c4 } from './c4';
import { c5 } from './c5';
import { c6 } from './c6';
import { c7 } from './c7';
import { c8 } from './c8';
import { c9 } from './c9';

export type { Baseline, Claim, ClaimContext, ClaimReport, Condition, ConditionRun, CurvePoint, EvalNumbers, Plot, Table } from './types';
export { conditionsOf, SUITE_NAMES, SUITES, type Suite, type SuiteName } from './suites';
export { crossoverUpdate, discoveryUpdate, meanSeries, rolling } from './helpers';
export { taskMix } from './c8';

/** The nine claims on the setting `S`. */
export function claimsOf(S: Suite): readonly Claim[] {
  return [c1(S), c2(S), c3(S), c4(S), c5(S), c6(S), c7(S), c8(S), c9(S)];
}

/** The default setting: the default sprint (long-planned). */
export const DEFAULT_SUITE: Suite = SUITES.planned;

/** The setting this process runs the claims on (`useSuite`; the default unless `--claim-suite`). */
export let ACTIVE_SUITE: Suite = DEFAULT_SUITE;

/** The claims in order, on the active setting. */
export let CLAIMS: readonly Claim[] = claimsOf(DEFAULT_SUITE);

/** The training conditions of the active setting, by id. */
export let CONDITIONS: Record<string, Condition> = conditionsOf(DEFAULT_SUITE);

/** Makes `name` the setting of this process: CLAIMS and CONDITIONS follow it (call before anything reads them). */
export function useSuite(name: SuiteName): void {
  ACTIVE_SUITE = SUITES[name];
  CLAIMS = claimsOf(ACTIVE_SUITE);
  CONDITIONS = conditionsOf(ACTIVE_SUITE);
}

/** Claim ids accepted by `--claim`. */
export const CLAIM_IDS = CLAIMS.map((c) => c.id);

/** Evaluates a claim and decides its verdict. */
export async function evaluateClaim(claim: Claim, ctx: ClaimContext): Promise<ClaimReport> {
  const r = await claim.evaluate(ctx);
  return { id: claim.id, title: claim.title, statement: claim.statement, conditions: claim.conditions, ...r, verdict: verdictOf(r.parts) };
}
