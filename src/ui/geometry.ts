import { extent, line, scaleLinear } from 'd3';
import type { Config } from '../rl/config';
import { rlcrDeadlines } from '../rl/deadline';

export interface Frame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export const CHART: Frame = { width: 640, height: 220, margin: { top: 12, right: 16, bottom: 28, left: 40 } };

/** x (update) and y scales for a chart of `updates` updates with y in [yMin, yMax]. */
export function chartScales(frame: Frame, updates: number, yMin: number, yMax: number) {
  const { width, height, margin } = frame;
  const x = scaleLinear().domain([0, Math.max(1, updates - 1)]).range([margin.left, width - margin.right]);
  const y = scaleLinear().domain([yMin, yMax]).nice().range([height - margin.bottom, margin.top]);
  return { x, y };
}

/** SVG path for the points (update, value). */
export function seriesPath(points: readonly [number, number][], x: (v: number) => number, y: (v: number) => number): string {
  return line<[number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]))(points as [number, number][]) ?? '';
}

/** Tmax at every update of the config's schedule (imitation updates excluded; see rl/deadline). */
export function scheduleSeries(c: Config): [number, number][] {
  return rlcrDeadlines(c);
}

/** [min, max] of a list with a fallback for empty lists. */
export function range(values: number[], fallback: [number, number]): [number, number] {
  const [lo, hi] = extent(values);
  return lo === undefined || hi === undefined ? fallback : [lo, hi];
}
