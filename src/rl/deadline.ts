import { scheduleOf, type Config } from './config';
import { tmaxAt } from './schedule';

/** The settings that fix a run's deadline at every update. */
export type DeadlineSettings = Pick<Config, 'prior' | 'updates' | 'tmaxStart' | 'tmaxEnd' | 'tmaxShape' | 'tmaxWarmup' | 'tmaxSteps'>;

/**
 * The deadline Tmax (whole minutes) of update `u` of a run, counting its imitation updates: the
 * first `prior` updates imitate at deadlines that sweep linearly from the schedule's start to its
 * end (so the prior has seen every deadline RLCR will play: the observation carries the minutes
 * left), then RLCR update `u - prior` follows the schedule from its start. The one rule for the
 * trainer, the curve, the schedule editor and the countdown.
 */
export function deadlineAt(c: DeadlineSettings, u: number): number {
  if (u < c.prior) return tmaxAt({ ...scheduleOf(c as Config), shape: 'linear', warmup: 0 }, u, c.prior);
  return tmaxAt(scheduleOf(c as Config), u - c.prior, c.updates);
}

/**
 * (update, Tmax) over the RLCR updates of a run, numbered from the first RLCR update (imitation
 * excluded): about `points` of them, and always the last.
 */
export function rlcrDeadlines(c: DeadlineSettings, points = 200): [number, number][] {
  const step = Math.max(1, Math.floor(c.updates / points));
  const pts: [number, number][] = [];
  for (let u = 0; u < c.updates; u += step) pts.push([u, deadlineAt(c, c.prior + u)]);
  if (pts[pts.length - 1]?.[0] !== c.updates - 1) pts.push([c.updates - 1, deadlineAt(c, c.prior + c.updates - 1)]);
  return pts;
}
