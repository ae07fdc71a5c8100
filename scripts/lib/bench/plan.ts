/** What the speed benchmark's parts share: the deadline, the plan (repetitions and sizes, full or --quick), the progress line and the number formats. */
import type { Summary } from '../stats';
import { formatTable } from '../table';

/** Deadline (minutes) of every episode the benchmark plays. */
export const DEADLINE = 24;
/** How much to repeat each measurement. */
export interface Plan {
  /** Untimed repetitions before the environment measurements. */
  envWarmup: number;
  envReps: number;
  /** Target duration of one environment repetition; episodes per repetition are calibrated to it. */
  envRepMs: number;
  trainWarmup: number;
  /** Measured updates: as many as fit `trainBudgetMs`, within [trainMin, trainMax]. */
  trainMin: number;
  trainMax: number;
  trainBudgetMs: number;
  matmulWarmup: number;
  matmulReps: number;
}

export const FULL_PLAN: Plan = {
  envWarmup: 2,
  envReps: 7,
  envRepMs: 300,
  trainWarmup: 2,
  trainMin: 3,
  trainMax: 10,
  trainBudgetMs: 50_000,
  matmulWarmup: 2,
  matmulReps: 7,
};

export const QUICK_PLAN: Plan = {
  envWarmup: 1,
  envReps: 3,
  envRepMs: 100,
  trainWarmup: 1,
  trainMin: 2,
  trainMax: 2,
  trainBudgetMs: 0,
  matmulWarmup: 1,
  matmulReps: 3,
};

/** Prints a progress note on stderr, so stdout holds only the report. */
export function progress(msg: string): void {
  process.stderr.write(`  .. ${msg}\n`);
}

// ---------------------------------------------------------------------------------------------
// Output

/** Formats with a fixed number of decimals. */
export function f(x: number, digits = 1): string {
  return x.toFixed(digits);
}

/** Prints rows as an aligned table, indented under its section. */
export function table(header: string[], rows: string[][]): void {
  console.log(formatTable(header, rows).replace(/^/gm, '  '));
}

/** "median (min..max)" of a summary. */
export function range(s: Summary, digits = 1, scale = 1): string {
  return `${f(s.median * scale, digits)} (${f(s.min * scale, digits)}..${f(s.max * scale, digits)})`;
}
