/** Summary of repeated measurements: the median and the range. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  /** Number of samples. */
  n: number;
}

/** Median of `xs` (mean of the two middle values for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Median, minimum and maximum of `xs`. */
export function summarise(xs: readonly number[]): Summary {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length };
}
