import { useCallback, useRef, useState } from 'react';

/**
 * The size of an element's box in CSS pixels, rounded to `step`, kept up to date with a
 * ResizeObserver: a chart that draws in its box's own pixels keeps its text at its real size however
 * the layout stretches it. `fallback` serves until the first measurement (and where there is no
 * ResizeObserver).
 */
export function useBoxSize<T extends Element>(
  fallback: { width: number; height: number },
  step = 8,
): [{ width: number; height: number }, (el: T | null) => void] {
  const [size, setSize] = useState(fallback);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (el: T | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!el || typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver(([entry]) => {
        const width = Math.round(entry.contentRect.width / step) * step;
        const height = Math.round(entry.contentRect.height / step) * step;
        if (width > 0 && height > 0) setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
      });
      observer.current.observe(el);
    },
    [step],
  );
  return [size, ref];
}
