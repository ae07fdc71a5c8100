import { useEffect, useRef } from 'react';
import { lesson } from '../app/page';
import { selectActions, useApp, type SessionActions } from '../store/store';
import { viewEntry } from '../store/view';
import { keyTarget, lessonKeyAction } from './lessonKeys';
import { clampStep, LESSON, stepLink, type LessonStep } from './lessonSteps';

/** Sets the app up for a lesson step (the controller's part), then brings its view into sight. */
function setUp(step: LessonStep, controls: SessionActions): void {
  // In presenter mode the step's panel is lifted onto the stage (App.tsx): the drawer stays shut.
  const presenter = useApp.getState().view.presenter;
  void lesson.setUp({ ...step, drawer: !!step.drawer && !presenter }, controls, wide());
  // After the drawer has opened or closed: the ablations panel is a disclosure the step opens, and a
  // view in the drawer is scrolled into sight there. Views below the stage are left where they are
  // (the lesson's "Show me" scrolls to them), so the step's text stays on screen.
  requestAnimationFrame(() => {
    const el = focusedView(step);
    if (el instanceof HTMLDetailsElement) el.open = true;
    if (el?.closest('.drawer.open')) el.scrollIntoView({ block: 'nearest' });
  });
}

/** A step's text longer than this (characters) gets the wider lesson column in presenter mode (stage.css), so it reads without scrolling. */
const LONG_TEXT = 600;

/** Whether the stage layout is on (the drawer then sits beside the views). */
function wide(): boolean {
  return typeof matchMedia === 'undefined' || matchMedia('(min-width: 900px) and (min-height: 560px)').matches;
}

/** The element of the step's view. */
function focusedView(step: LessonStep): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="${viewEntry(step.focus).testId}"]`);
}

/** Closes the lesson (and the drawer it may have opened); focus goes back to the Lesson button. */
function closeLesson(): void {
  useApp.getState().setView({ lesson: null });
  useApp.getState().setDrawerOpen(false);
  document.querySelector<HTMLElement>('[data-testid="lesson-toggle"]')?.focus();
}

/**
 * The guided lesson: a step at a time, each setting up the app and saying what to look for, with
 * what was measured. Arrow keys move between steps, Esc closes; every step has its own link.
 */
export function Lesson() {
  const controls = useApp(selectActions);
  const raw = useApp((s) => s.view.lesson) ?? 1;
  const step = clampStep(raw);
  const setView = useApp((s) => s.setView);
  const heading = useRef<HTMLHeadingElement>(null);
  const s = LESSON[step - 1];
  const presenter = useApp((st) => st.view.presenter);

  useEffect(() => {
    setUp(LESSON[step - 1], controls);
    heading.current?.focus();
    // The step decides the setup; the actions change once, when the page's session installs them (a
    // step opened from a link is set up again then, with the real session).
  }, [step, controls]);

  // Presenter mode switched on or off on a drawer step: its panel moves between the stage and the drawer.
  useEffect(() => {
    if (LESSON[step - 1].drawer) useApp.getState().setDrawerOpen(!presenter && wide());
  }, [step, presenter]);

  const go = (n: number) => setView({ lesson: clampStep(n) });
  const close = closeLesson;
  // The lesson's keys work wherever focus is (ui/lessonKeys.ts says which, and where not): the
  // listener is the page's, in the capture phase, so a focused slider or button does not act first.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const action = lessonKeyAction(e.key, { shift: e.shiftKey, ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey }, keyTarget(e.target));
      if (!action) return;
      e.preventDefault();
      e.stopPropagation();
      // A held key moves one step (it would race through the lesson), and still does not reach the slider under it.
      if (e.repeat) return;
      if (action === 'close') closeLesson();
      else useApp.getState().setView({ lesson: clampStep(step + (action === 'next' ? 1 : -1)) });
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [step]);

  const measured = (
    <p className="lesson-measured" data-testid="lesson-measured">
      {s.measured}
    </p>
  );
  const hint = (
    <p className="lesson-hint">
      Keys, wherever you are but in a text field: ← → or Page Up / Page Down (a presentation clicker) previous / next step, Space next; Esc closes the lesson.
    </p>
  );
  return (
    <section className={s.text.length > LONG_TEXT ? 'lesson panel lesson-long' : 'lesson panel'} aria-labelledby="lesson-title" data-testid="lesson">
      <div className="lesson-head">
        <h2 id="lesson-title" tabIndex={-1} ref={heading} data-testid="lesson-title">
          Step {step} of {LESSON.length}: {s.title}
        </h2>
        <nav aria-label="Lesson steps">
          <ol className="lesson-steps">
            {LESSON.map((l, i) => (
              <li key={l.title}>
                <a
                  href={stepLink(i + 1)}
                  aria-current={i + 1 === step ? 'step' : undefined}
                  aria-label={`Step ${i + 1}: ${l.title}`}
                  onClick={(e) => {
                    e.preventDefault();
                    go(i + 1);
                  }}
                >
                  {i + 1}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      </div>
      <div className="lesson-buttons">
        <button type="button" onClick={() => go(step - 1)} disabled={step === 1} data-testid="lesson-back">
          ← Back
        </button>
        {step < LESSON.length ? (
          <button type="button" className="primary" onClick={() => go(step + 1)} data-testid="lesson-next">
            Next →
          </button>
        ) : (
          <button type="button" className="primary" onClick={close} data-testid="lesson-finish">
            Finish
          </button>
        )}
        {/* In presenter mode on a wide screen the step's view is lifted onto the stage: nothing to scroll to. */}
        {(s.below || (s.drawer && !wide())) && !(presenter && wide()) && (
          <button type="button" onClick={() => focusedView(s)?.scrollIntoView({ block: 'start' })} data-testid="lesson-show">
            Show me ↓
          </button>
        )}
        <button type="button" onClick={close} data-testid="lesson-close">
          Close
        </button>
      </div>
      <p className="lesson-text" data-testid="lesson-text">
        {s.text}
      </p>
      {presenter ? (
        // On a projector the step's text is what the class reads: what was measured and the keys fold under it (one click), so the text needs no scrolling.
        <details className="lesson-more" data-testid="lesson-more" key={step}>
          <summary>What was measured, and the keys</summary>
          {measured}
          {hint}
        </details>
      ) : (
        <>
          {measured}
          {hint}
        </>
      )}
    </section>
  );
}
