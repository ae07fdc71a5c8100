import { mean, std } from './evaluate';

/**
 * Two teams' minutes to a goal (90% of the tests) compared task by task: both played the same
 * evaluation tasks in the same order, so the difference on each task where both got there is free of
 * how hard that task was. A mean over the rollouts each team reached on its own (the tables of
 * `npm run experiment`) compares different sets of tasks; this compares like with like, and says how
 * far the difference could be from chance.
 */
export interface PairedTimes {
  /** Tasks played by both. */
  tasks: number;
  /** Tasks both reached the goal on, and the mean of `a - b` over them (0 when none). */
  both: number;
  meanDiff: number;
  /** Half the width of the normal-approximation 95% interval of that mean (0 below two tasks). */
  halfWidth: number;
  /** Of the tasks both reached: `a` sooner, `b` sooner, in the same minute. */
  aSooner: number;
  bSooner: number;
  same: number;
  /** Tasks only `a` reached, and only `b`. */
  onlyA: number;
  onlyB: number;
}

/** Compares minutes to the goal per task (`null`: not reached by the deadline); `a` and `b` are the same tasks in the same order. */
export function pairedTimes(a: readonly (number | null)[], b: readonly (number | null)[]): PairedTimes {
  if (a.length !== b.length) throw new Error(`pairedTimes: ${a.length} tasks against ${b.length}; both teams must play the same tasks`);
  const diffs: number[] = [];
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== null && y !== null) diffs.push(x - y);
    else if (x !== null) onlyA++;
    else if (y !== null) onlyB++;
  }
  return {
    tasks: a.length,
    both: diffs.length,
    ...meanAndHalfWidth(diffs),
    aSooner: diffs.filter((d) => d < 0).length,
    bSooner: diffs.filter((d) => d > 0).length,
    same: diffs.filter((d) => d === 0).length,
    onlyA,
    onlyB,
  };
}

/** The mean of paired differences and half the width of its normal-approximation 95% interval (0 below two). */
export function meanAndHalfWidth(diffs: readonly number[]): { meanDiff: number; halfWidth: number } {
  return { meanDiff: mean(diffs), halfWidth: diffs.length >= 2 ? (1.96 * std(diffs)) / Math.sqrt(diffs.length) : 0 };
}
