/**
 * `bench:learn --seeds` and `bench:ui --learn --seeds`: the time to coordination over several training seeds. A seed's run either
 * coordinated after some seconds of training or never did within its budget; a seed that never did
 * is slower than every seed that did, so the median over seeds is a time only while more than half
 * of the seeds coordinated (at an even count, the two middle seeds both did).
 */
import { median } from '../stats';
import { formatTable } from '../table';

/** One seed's outcome: seconds of training to coordination, or null for never. */
export interface SeedTime {
  seed: number;
  seconds: number | null;
}

export interface SeedTimesSummary {
  /** Seeds that coordinated. */
  coordinated: number;
  seeds: number;
  /** Median seconds over the seeds, a seed that never coordinated counting as slower than any; null when that median is "never". */
  medianSeconds: number | null;
}

export function summariseSeedTimes(times: readonly SeedTime[]): SeedTimesSummary {
  const seconds = times.map((t) => (t.seconds === null ? Infinity : t.seconds));
  const m = median(seconds);
  return {
    coordinated: times.filter((t) => t.seconds !== null).length,
    seeds: times.length,
    medianSeconds: Number.isFinite(m) ? m : null,
  };
}

/** The summary as a sentence, e.g. "coordinated in 2 of 3 seeds; median over the seeds 74.1 s". */
export function describeSeedTimes(s: SeedTimesSummary): string {
  const median = s.medianSeconds === null ? 'never (more than half never coordinated)' : `${s.medianSeconds.toFixed(1)} s of training`;
  return `coordinated in ${s.coordinated} of ${s.seeds} seeds; median over the seeds ${median}`;
}

/** One seed's run as the table over seeds shows it. */
export interface SeedRow extends SeedTime {
  /** The update it coordinated at (null: never). */
  updates: number | null;
  /** Seconds of training the run took (all of its budget when it never coordinated). */
  trainedSeconds: number;
  /** Its best evaluated return (null: none evaluated). */
  best: number | null;
}

/** The runs over seeds as a table: seed, time to coordination (or never, after how long), update, best return. */
export function formatSeedTimes(rows: readonly SeedRow[]): string {
  return formatTable(
    ['seed', 'time to coordination', 'update', 'best return'],
    rows.map((r) => [
      String(r.seed),
      r.seconds === null ? `never (${r.trainedSeconds.toFixed(1)} s)` : `${r.seconds.toFixed(1)} s`,
      r.updates === null ? '-' : String(r.updates),
      r.best === null ? '-' : r.best.toFixed(3),
    ]),
  );
}
