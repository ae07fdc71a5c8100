import { memo } from 'react';
import { seriesPath } from './geometry';

/** Points per path element. */
const CHUNK = 50;

/** One finished stretch of the line: memoised, so React leaves its element alone once drawn. */
const Stretch = memo(function Stretch({ d, className, testId }: { d: string; className: string; testId?: string }) {
  return <path className={className} d={d} data-testid={testId} />;
});

/**
 * A line through `points` (update, value) in fixed scales, drawn as consecutive path elements of
 * CHUNK points each (sharing their end points). While a run grows, the finished stretches keep
 * their `d`, so each update rewrites and repaints one short path instead of the whole line:
 * the page's cost per update stays flat as the run grows. `testId` marks the first stretch.
 */
export function ChunkedPath({ points, x, y, className, testId }: { points: readonly [number, number][]; x: (v: number) => number; y: (v: number) => number; className: string; testId?: string }) {
  const stretches: string[] = [];
  for (let i = 0; i === 0 || i < points.length - 1; i += CHUNK) stretches.push(seriesPath(points.slice(i, i + CHUNK + 1), x, y));
  return (
    <>
      {stretches.map((d, k) => (
        <Stretch key={k} d={d} className={className} testId={k === 0 ? testId : undefined} />
      ))}
    </>
  );
}
