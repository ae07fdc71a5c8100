import type { Metric } from './env';

/** What one rollout achieved by the deadline. */
export interface EpisodeStats {
  /** Anytime return at the cut: share of tests passing. */
  ret: number;
  /** First minute with >= 90% of tests passing, or null if never. */
  t90: number | null;
  /** Minute all tests passed, or the deadline. */
  tEnd: number;
  metrics: Record<Metric, number>;
  /** Return after each minute 0..tmax. */
  curve: number[];
}
