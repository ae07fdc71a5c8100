import { memo } from 'react';
import { decimate } from './decimate';
import { seriesPath } from './geometry';

/** Points per path element while the line is short. */
const CHUNK = 50;
/** Most path elements a line is drawn in: past that, the stretch length doubles. */
const MAX_STRETCHES = 32;
/** A stretch is drawn with the lowest and highest point of at most this many groups of its points. */
const BUCKETS = 60;

/** Points per stretch for a line of `n` points: CHUNK, doubled until at most MAX_STRETCHES stretches remain. */
export function stretchSize(n: number): number {
  let size = CHUNK;
  while (n > size * MAX_STRETCHES) size *= 2;
  return size;
}

/**
 * The `d` of every stretch of the line (consecutive stretches share their end points). A finished
 * stretch's `d` stays the same while the line grows, until the stretch length doubles; each is drawn
 * with at most about 2 x BUCKETS points (its groups' lows and highs), so a long run costs a bounded
 * number of elements and path points however many updates it has.
 */
export function stretchPaths(points: readonly [number, number][], x: (v: number) => number, y: (v: number) => number): string[] {
  const size = stretchSize(points.length);
  const out: string[] = [];
  for (let i = 0; i === 0 || i < points.length - 1; i += size) out.push(seriesPath(decimate(points.slice(i, i + size + 1), BUCKETS), x, y));
  return out;
}

/** One finished stretch of the line: memoised, so React leaves its element alone once drawn. */
const Stretch = memo(function Stretch({ d, className, testId }: { d: string; className: string; testId?: string }) {
  return <path className={className} d={d} data-testid={testId} />;
});

/**
 * A line through `points` (update, value) in fixed scales, drawn as consecutive path elements
 * (`stretchPaths`). While a run grows, the finished stretches keep their `d`, so each update
 * rewrites and repaints one short path instead of the whole line, and the number of elements stays
 * bounded: the page's cost per update stays flat as the run grows. `testId` marks the first stretch.
 */
export function ChunkedPath({ points, x, y, className, testId }: { points: readonly [number, number][]; x: (v: number) => number; y: (v: number) => number; className: string; testId?: string }) {
  const stretches = stretchPaths(points, x, y);
  return (
    <>
      {stretches.map((d, k) => (
        <Stretch key={k} d={d} className={className} testId={k === 0 ? testId : undefined} />
      ))}
    </>
  );
}
