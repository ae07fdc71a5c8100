import { memo, useState } from 'react';
import { seriesPath } from './geometry';
import { MinMaxSeries, type Point } from './minMaxSeries';

/** Groups (each drawn as its lowest and highest point) per path element. */
const STRETCH_GROUPS = 60;
/** Most path elements a line is drawn in. */
const MAX_STRETCHES = 32;

/**
 * A new line for `ChunkedPath`: at most MAX_STRETCHES stretches of STRETCH_GROUPS groups, so a
 * stretch draws at most about 2 x STRETCH_GROUPS points however long the run grows.
 */
export function chunkedLine(): MinMaxSeries {
  return new MinMaxSeries(STRETCH_GROUPS * MAX_STRETCHES);
}

/**
 * The `d` of every stretch of a line (consecutive stretches share their end points), remembered:
 * a stretch whose points and scales are unchanged keeps its `d` (the same string), so an update
 * computes only the last stretch's, whatever the run's length. All change when the line's groups
 * double (at most MAX_STRETCHES x STRETCH_GROUPS groups) or the scales change.
 */
export class StretchPaths {
  private line: MinMaxSeries | null = null;
  private drawn: { scaleKey: string; size: number; covered: number; d: string }[] = [];

  /** `scaleKey` names the scales `x` and `y` (their domains and ranges): another key redraws every stretch. */
  of(line: MinMaxSeries, x: (v: number) => number, y: (v: number) => number, scaleKey: string): string[] {
    if (line !== this.line) {
      this.line = line;
      this.drawn = [];
    }
    const stretches = Math.max(1, Math.ceil(line.groups / STRETCH_GROUPS));
    this.drawn.length = Math.min(this.drawn.length, stretches);
    const out: string[] = [];
    for (let k = 0; k < stretches; k++) {
      const to = Math.min(line.groups, (k + 1) * STRETCH_GROUPS);
      // The points the stretch covers: all of them up to its end once it is finished.
      const covered = to === line.groups ? line.count : to * line.size;
      const was = this.drawn[k];
      if (was?.scaleKey === scaleKey && was.size === line.size && was.covered === covered) out.push(was.d);
      else {
        const d = seriesPath(stretchPoints(line, k) as [number, number][], x, y);
        this.drawn[k] = { scaleKey, size: line.size, covered, d };
        out.push(d);
      }
    }
    return out;
  }
}

/** The points of stretch `k` of `line`. */
export function stretchPoints(line: MinMaxSeries, k: number): Point[] {
  return line.points(k * STRETCH_GROUPS, Math.min(line.groups, (k + 1) * STRETCH_GROUPS));
}

/** One stretch of the line: memoised, so React leaves its element alone while its `d` is the same. */
const Stretch = memo(function Stretch({ d, className, testId }: { d: string; className: string; testId?: string }) {
  return <path className={className} d={d} data-testid={testId} />;
});

/**
 * A line (`chunkedLine`, kept up to date by the caller) in fixed scales, drawn as consecutive path
 * elements (`StretchPaths`). While a run grows only the last stretch changes, so each update
 * computes, rewrites and repaints one short path instead of the whole line, and the number of
 * elements and points stays bounded: the page's cost per update stays flat as the run grows.
 * `testId` marks the first stretch.
 */
export function ChunkedPath({
  line,
  x,
  y,
  scaleKey,
  className,
  testId,
}: {
  line: MinMaxSeries;
  x: (v: number) => number;
  y: (v: number) => number;
  scaleKey: string;
  className: string;
  testId?: string;
}) {
  const [paths] = useState(() => new StretchPaths());
  const stretches = paths.of(line, x, y, scaleKey);
  return (
    <>
      {stretches.map((d, k) => (
        <Stretch key={k} d={d} className={className} testId={k === 0 ? testId : undefined} />
      ))}
    </>
  );
}
