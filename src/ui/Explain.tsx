import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Gap between the "?" button and its explanation, and the least margin to the window's edges (px). */
const GAP = 4;
const EDGE = 8;

/**
 * A small "?" button that shows a plain-words explanation of a view on hover, focus or click.
 * The explanation opens in the top layer (the Popover API) beside its button, so a panel that
 * contains its own painting (`content-visibility`, which lets the page skip the views scrolled
 * out of sight) does not clip it; where the API is missing it opens in place, below the button.
 */
export function Explain({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = popover.current;
    const b = button.current;
    if (!open || !el || !b || typeof el.showPopover !== 'function') return;
    const place = () => {
      const r = b.getBoundingClientRect();
      const width = el.offsetWidth;
      el.style.top = `${Math.round(r.bottom + GAP)}px`;
      el.style.left = `${Math.round(Math.max(EDGE, Math.min(r.left, window.innerWidth - width - EDGE)))}px`;
    };
    el.showPopover();
    place();
    // The button moves with the page; the popover, fixed in the window, follows it.
    window.addEventListener('scroll', place, { passive: true, capture: true });
    window.addEventListener('resize', place);
    return () => {
      window.removeEventListener('scroll', place, { capture: true });
      window.removeEventListener('resize', place);
      if (el.matches(':popover-open')) el.hidePopover();
    };
  }, [open]);
  return (
    <span className="explain" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        ref={button}
        type="button"
        className="explain-button"
        aria-label="What does this show?"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
      >
        ?
      </button>
      <span ref={popover} id={id} role="tooltip" className="explain-popover" popover="manual" hidden={!open}>
        {children}
        <span className="explain-more"> Words in plain language: the Glossary button at the top of the page.</span>
      </span>
    </span>
  );
}
