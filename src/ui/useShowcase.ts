import { useEffect, useRef, useState } from 'react';
import { selectLast, useApp } from '../store/store';
import type { UpdateMessage } from '../worker/protocol';

/** How often the showcase views (swimlanes, DM graph, board, countdown) follow new updates. */
export const SHOWCASE_INTERVAL_MS = 1000;

/**
 * The latest update's showcase episode, refreshed at most once per SHOWCASE_INTERVAL_MS: the episode
 * views redraw hundreds of elements, and nobody can read them four times a second anyway.
 * The first update and a reset (null) come through at once.
 */
export function useShowcase(): UpdateMessage | null {
  const last = useApp(selectLast);
  const [shown, setShown] = useState(last);
  const lastShownAt = useRef(0);
  useEffect(() => {
    if (last === shown) return;
    const wait = last === null || shown === null ? 0 : Math.max(0, lastShownAt.current + SHOWCASE_INTERVAL_MS - performance.now());
    const timer = setTimeout(() => {
      lastShownAt.current = performance.now();
      setShown(last);
    }, wait);
    return () => clearTimeout(timer);
  }, [last, shown]);
  return shown;
}
