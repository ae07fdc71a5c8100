import { useId, useState, type ReactNode } from 'react';

/** A small "?" button that shows a plain-words explanation of a view on hover, focus or click. */
export function Explain({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <span className="explain" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button type="button" className="explain-button" aria-label="What does this show?" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} onFocus={() => setOpen(true)} onBlur={() => setOpen(false)} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
        ?
      </button>
      <span id={id} role="tooltip" className="explain-popover" hidden={!open}>
        {children}
      </span>
    </span>
  );
}
