import { line, scaleLinear } from 'd3';
import type { Config } from '../rl/config';
import { rlcrDeadlines } from '../rl/deadline';

export interface Frame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export const CHART: Frame = { width: 640, height: 220, margin: { top: 12, right: 16, bottom: 28, left: 40 } };

/**
 * The largest magnitude a chart's domain is given: a domain end beyond it is clamped to it, so the
 * domain's span (up to 2e15) and d3's nice() stay finite and a value inside still maps to a finite
 * coordinate. Run files refuse the numbers that would reach it (core/runChecks); this is the
 * views' own guard, whatever reaches them.
 */
export const MAX_DOMAIN = 1e15;
/** The largest magnitude of a coordinate drawn, in px: a point beyond it is drawn at it (far outside any chart, but a number SVG reads). */
export const MAX_COORDINATE = 1e6;

/** `v` clamped to [-limit, limit], or `fallback` when it is NaN (null read from a file) or not a number. */
export function finiteOr(v: number, fallback: number, limit = MAX_DOMAIN): number {
  if (typeof v !== 'number' || Number.isNaN(v)) return fallback;
  return Math.max(-limit, Math.min(limit, v));
}

/** A domain [lo, hi] a d3 scale maps to finite coordinates: NaN ends become the fallback's, infinite or huge ones are clamped to MAX_DOMAIN. */
export function safeDomain(lo: number, hi: number, fallback: readonly [number, number] = [0, 1]): [number, number] {
  return [finiteOr(lo, fallback[0]), finiteOr(hi, fallback[1])];
}

/** x (update) and y scales for a chart of `updates` updates with y in [yMin, yMax] (made safe by `safeDomain`). */
export function chartScales(frame: Frame, updates: number, yMin: number, yMax: number) {
  const { width, height, margin } = frame;
  const x = scaleLinear()
    .domain([0, Math.max(1, finiteOr(updates, 2) - 1)])
    .range([margin.left, width - margin.right]);
  const y = scaleLinear()
    .domain(safeDomain(yMin, yMax))
    .nice()
    .range([height - margin.bottom, margin.top]);
  return { x, y };
}

/**
 * SVG path for the points (update, value). A point whose scaled x or y is not a finite number (a
 * NaN value, a null read from a file) is left out, the line broken there; a finite coordinate beyond
 * MAX_COORDINATE is drawn at it. So the path holds only numbers, whatever the points are.
 */
export function seriesPath(points: readonly (readonly [number, number])[], x: (v: number) => number, y: (v: number) => number): string {
  const at = (v: number) => Math.max(-MAX_COORDINATE, Math.min(MAX_COORDINATE, v));
  return (
    line<readonly [number, number]>()
      .defined((p) => Number.isFinite(x(p[0])) && Number.isFinite(y(p[1])))
      .x((p) => at(x(p[0])))
      .y((p) => at(y(p[1])))(points) ?? ''
  );
}

/** Tmax at every update of the config's schedule (imitation updates excluded; see rl/deadline). */
export function scheduleSeries(c: Config): [number, number][] {
  return rlcrDeadlines(c);
}

/**
 * Puts labels centred at `x` (each `width` wide) into the first of `lanes` rows where it overlaps
 * no label already there (with `gap` between); a label that fits in no row gets lane -1 and should be
 * left out (its mark and tooltip still say it). The labels at positions `first` are placed before
 * the others (a label that must show: the curve's coordination marker), then the rest left to right.
 */
export function placeLabels(items: readonly { x: number; width: number }[], lanes: number, gap = 3, first: readonly number[] = []): number[] {
  const rows: [number, number][][] = Array.from({ length: Math.max(0, lanes) }, () => []);
  const ahead = new Set(first.filter((i) => i >= 0 && i < items.length));
  const order = [
    ...ahead,
    ...items
      .map((_, i) => i)
      .filter((i) => !ahead.has(i))
      .sort((a, b) => items[a].x - items[b].x),
  ];
  const out = new Array<number>(items.length).fill(-1);
  for (const i of order) {
    const left = items[i].x - items[i].width / 2;
    const right = items[i].x + items[i].width / 2;
    const lane = rows.findIndex((row) => row.every(([l, r]) => left >= r + gap || right + gap <= l));
    if (lane < 0) continue;
    out[i] = lane;
    rows[lane].push([left, right]);
  }
  return out;
}

/** About how wide `text` is in a sans-serif font of `size` px (for label placement, not layout). */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.62;
}
