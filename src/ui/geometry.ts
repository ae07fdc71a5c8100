import { line, scaleLinear } from 'd3';
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
  const x = scaleLinear()
    .domain([0, Math.max(1, updates - 1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain([yMin, yMax])
    .nice()
    .range([height - margin.bottom, margin.top]);
  return { x, y };
}

/** SVG path for the points (update, value). */
export function seriesPath(points: readonly [number, number][], x: (v: number) => number, y: (v: number) => number): string {
  return (
    line<[number, number]>()
      .x((p) => x(p[0]))
      .y((p) => y(p[1]))(points as [number, number][]) ?? ''
  );
}

/** Tmax at every update of the config's schedule (imitation updates excluded; see rl/deadline). */
export function scheduleSeries(c: Config): [number, number][] {
  return rlcrDeadlines(c);
}

/**
 * Puts labels centred at `x` (each `width` wide) into the first of `lanes` rows where it overlaps
 * no label already there (with `gap` between); a label that fits in no row gets lane -1 and should be
 * left out (its mark and tooltip still say it). Labels are placed left to right.
 */
export function placeLabels(items: readonly { x: number; width: number }[], lanes: number, gap = 3): number[] {
  const ends: number[] = new Array(Math.max(0, lanes)).fill(-Infinity);
  const order = items.map((_, i) => i).sort((a, b) => items[a].x - items[b].x);
  const out = new Array<number>(items.length).fill(-1);
  for (const i of order) {
    const left = items[i].x - items[i].width / 2;
    const lane = ends.findIndex((end) => left >= end + gap);
    if (lane < 0) continue;
    out[i] = lane;
    ends[lane] = items[i].x + items[i].width / 2;
  }
  return out;
}

/** About how wide `text` is in a sans-serif font of `size` px (for label placement, not layout). */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.62;
}
