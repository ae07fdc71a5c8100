import { inferenceScaling, type InferencePoint, type UpdatePoint } from '../sim/race';
import { AppendFold } from './appendFold';
import { safeDomain } from './geometry';

/**
 * `inferenceScaling(metrics, window, stride)` (one rolling mean every `stride` updates, and the
 * last), kept for a list that grows by appending: a point depends only on the `window` updates up
 * to it, which never change, so each is computed once (while the list and `stride` stay the same)
 * and an update costs about one new point, not a pass over the run.
 */
export class InferenceCurve {
  private readonly known = new AppendFold<UpdatePoint, Map<number, InferencePoint>>();

  of(metrics: readonly UpdatePoint[], window: number, stride: number): InferencePoint[] {
    const w = Math.max(1, Math.floor(window));
    const s = Math.max(1, stride);
    const known = this.known.of(
      metrics,
      [w, s],
      () => new Map(),
      () => undefined,
    );
    const at = (i: number): InferencePoint => {
      let p = known.get(i);
      if (!p) {
        // The point of update i alone: its window is the whole slice, the slice's last point.
        p = inferenceScaling(metrics.slice(Math.max(0, i - w + 1), i + 1), w, w).at(-1)!;
        known.set(i, p);
      }
      return p;
    };
    const out: InferencePoint[] = [];
    for (let i = 0; i < metrics.length; i += s) out.push(at(i));
    if (metrics.length && (metrics.length - 1) % s !== 0) out.push(at(metrics.length - 1));
    return out;
  }
}

/** The y domain of the inference-scaling chart: 0 to the highest parallel work or tenth of the messages (at least 1), safe for a scale (`safeDomain`). */
export function inferenceDomain(pts: readonly InferencePoint[]): [number, number] {
  let hi = 1;
  for (const p of pts) for (const v of [p.parallelism, p.messages / 10]) if (v > hi) hi = v;
  return safeDomain(0, hi);
}

/** One line of the inference-scaling chart as (update, value) points, for `seriesPath` (which leaves out what is not a number). */
export function inferenceSeries(pts: readonly InferencePoint[], f: (p: InferencePoint) => number): [number, number][] {
  return pts.map((p) => [p.update, f(p)]);
}
