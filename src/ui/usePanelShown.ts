import { useCallback, useEffect, useRef, useState, type RefCallback } from 'react';
import { useApp, type AppState } from '../store/store';

/** A view out of sight still takes in the store's newest value this often (for screen readers, which read it there). */
export const HIDDEN_REFRESH_MS = 2_000;

/**
 * Whether a panel's content is drawn: false while the browser skips it (the panel is out of sight;
 * `content-visibility: auto`, app.css), true otherwise and where browsers do not say. Returns a ref
 * for the panel and the flag.
 */
export function usePanelShown(): [RefCallback<HTMLElement>, boolean] {
  const [shown, setShown] = useState(true);
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!panel) return;
    const change = (e: Event) => setShown(!(e as Event & { skipped?: boolean }).skipped);
    panel.addEventListener('contentvisibilityautostatechange', change);
    return () => panel.removeEventListener('contentvisibilityautostatechange', change);
  }, [panel]);
  return [setPanel, shown];
}

/**
 * A value that holds still while its view is out of sight: the newest one while shown, otherwise
 * the one taken last, renewed at most every `refreshMs`. The same value object comes back while it
 * holds, so a store selector built on it does not render the view again.
 */
export class HeldValue<T> {
  private held: { value: T; at: number } | null = null;

  constructor(private readonly refreshMs = HIDDEN_REFRESH_MS) {}

  pick(newest: () => T, shown: boolean, now: number): T {
    if (shown || this.held === null || now - this.held.at >= this.refreshMs) this.held = { value: newest(), at: now };
    return this.held.value;
  }
}

/**
 * A value of the store that holds still while `shown` is false (HeldValue): a view out of sight
 * does not render again for every training update, and catches up at once when it comes back.
 * `selector` must not change from render to render (a selector defined at module level).
 */
export function useAppWhileShown<T>(selector: (s: AppState) => T, shown: boolean): T {
  const held = useRef<HeldValue<T> | null>(null);
  const pick = useCallback(
    (s: AppState) => {
      held.current ??= new HeldValue<T>();
      return held.current.pick(() => selector(s), shown, performance.now());
    },
    [selector, shown],
  );
  return useApp(pick);
}
