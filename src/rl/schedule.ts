/** How the deadline Tmax grows over training. */
export const SCHEDULE_SHAPES = ['linear', 'exponential', 'step'] as const;
export type ScheduleShape = (typeof SCHEDULE_SHAPES)[number];

export interface DeadlineSchedule {
  /** Tmax (minutes) during warm-up and at the start of growth. */
  start: number;
  /** Tmax reached at the last update. */
  end: number;
  shape: ScheduleShape;
  /** Updates spent at `start` before growth begins. */
  warmup: number;
  /** Number of equal stairs for the `step` shape. */
  steps: number;
}

/**
 * Tmax (whole minutes) at update `u` of `updates`: `start` for the warm-up, then growing to `end`
 * at the last update, linearly, geometrically, or in `steps` stairs. start == end gives a fixed deadline.
 */
export function tmaxAt(s: DeadlineSchedule, u: number, updates: number): number {
  const span = Math.max(1, updates - 1 - s.warmup);
  const p = Math.min(1, Math.max(0, (u - s.warmup) / span));
  let v: number;
  switch (s.shape) {
    case 'linear':
      v = s.start + (s.end - s.start) * p;
      break;
    case 'exponential':
      v = s.start * Math.pow(s.end / s.start, p);
      break;
    case 'step': {
      const n = Math.max(1, Math.floor(s.steps));
      v = s.start + ((s.end - s.start) * Math.min(n, Math.floor(p * n + 1e-9))) / n;
      break;
    }
  }
  return Math.max(1, Math.round(v));
}
