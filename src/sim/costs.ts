import { type ChannelPolicy, type SideBoardRules } from './channels';

/**
 * Optional rules that make talk and piling on cost what they cost a real team (docs/ENGINE.md,
 * "Costs of talk and of piling on"), and who may talk where ("Channels"). Every cost of talk and
 * piling on is paid in the sprint's minutes, never as a reward term, and none of them draws a
 * random number; only the unofficial board's monitor draws (from a stream of its own) and costs
 * return.
 */
export interface SprintCosts {
  /**
   * Interruption: a DM landing on an agent in a minute in which it worked on an open module it could
   * work on spoils that module's minute (the module does not advance; counted as `interrupted`).
   */
  interrupt: boolean;
  /**
   * Merge conflict, claimant wins: with two or more agents on one module in one minute, the minute
   * counts only if the module's claimant is among them, and is then the claimant's (counted as
   * `conflicts` when it does not count).
   */
  conflict: boolean;
  /**
   * A post notifies the whole team: it interrupts every other agent working on an open module that
   * minute, as a DM would (counted as `interrupted`). Reading the board stays free for everyone else.
   */
  broadcast: boolean;
  /**
   * Merge conflict, paid later: two or more agents on one module in one minute all land their edits
   * (one minute of progress, as without the rule), and the next minute anyone works on that module
   * goes into merging them (no progress; counted as `conflicts`). Agents piling onto a module every
   * minute move it at half the speed of one agent alone.
   */
  merge: boolean;
  /**
   * Under `merge`: the share of a minute a merge takes, 0..1 (absent: 1, a whole minute). The minute
   * that pays a merge moves its module by 1 - mergeCost. The trainer grows it from 0 to 1 over the
   * config's `mergeRamp` updates (from its `mergeFrom`-th update on; nothing before), as it grows the deadline;
   * evaluation always plays the whole minute.
   */
  mergeCost?: number;
  /**
   * Booked effort: the team's agent-minutes for the sprint, as a multiple of the task's nominal work
   * (`totalWork`; absent or 0: unlimited). Every minute an agent spends on anything but idling draws
   * one from it; an agent whose action the rest cannot pay idles, and the sprint ends once it is spent.
   */
  effort?: number;
  /** Who may DM whom and post (sim/channels.ts; absent: `open`). A message outside it is an attempt. */
  channels?: ChannelPolicy;
  /** The unofficial board (sim/channels.ts; absent: off). */
  side?: SideBoardRules;
}

export const NO_COSTS: SprintCosts = { interrupt: false, conflict: false, broadcast: false, merge: false };

/** Whether any rule is on. */
export function anyCost(c: SprintCosts | undefined): boolean {
  return (
    c !== undefined &&
    (c.interrupt ||
      c.conflict ||
      c.broadcast ||
      c.merge ||
      effortOf(c) > 0 ||
      (c.channels !== undefined && c.channels !== 'open') ||
      (c.side !== undefined && c.side.mode !== 'off'))
  );
}

/** The booked effort's multiple of the nominal work under `c` (0: unlimited). */
export function effortOf(c: SprintCosts | undefined): number {
  return c?.effort !== undefined && c.effort > 0 ? c.effort : 0;
}

/** Share of a minute a merge takes under `c` (1 unless the rule is being ramped in). */
export function mergeCostOf(c: SprintCosts | undefined): number {
  if (c === undefined || !c.merge) return 0;
  return c.mergeCost === undefined ? 1 : Math.min(1, Math.max(0, c.mergeCost));
}

/** The task played under `costs`: the same task with the rules attached (the task itself when none is on). */
export function withCosts<T extends { costs?: SprintCosts }>(task: T, costs: SprintCosts | undefined): T {
  if (!anyCost(costs) && task.costs === undefined) return task;
  return { ...task, costs: anyCost(costs) ? { ...(costs as SprintCosts) } : undefined };
}

/** `tasks` played under `costs`. */
export function tasksWithCosts<T extends { costs?: SprintCosts }>(tasks: readonly T[], costs: SprintCosts | undefined): T[] {
  return tasks.map((t) => withCosts(t, costs));
}
