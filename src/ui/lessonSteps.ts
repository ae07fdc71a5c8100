/**
 * The guided lesson on the page: the steps' content (what each sets up, says and claims, checked by
 * `npm run lesson:check`) is core/lesson.ts; here each step gets the view it points at, the curve's
 * view and whether it opens the drawer.
 */
import { LESSON_CONTENT, type LessonContent, type LessonId, type LessonSetup } from '../core/lesson';
import { LINK_VERSION } from '../store/urlConfig';
import type { CurveView, FocusView } from '../store/view';

export type { LessonSetup };

/** How a step shows on the page. */
export interface LessonPresentation {
  /** The view the step points at (the page highlights it). */
  focus: FocusView;
  /** The curve's view while the step is on screen. */
  curve?: CurveView;
  /** Opens the controls drawer (the schedule and the ablations live there). */
  drawer?: boolean;
  /** The view is below the stage (one scroll away): the step offers to scroll there. */
  below?: boolean;
}

export type LessonStep = LessonContent & LessonPresentation;

/** Every step's place on the page, by its id (a step without one does not compile). */
const PRESENTATION: Record<LessonId, LessonPresentation> = {
  'team-reward': { focus: 'curve' },
  chaos: { focus: 'swimlanes' },
  handoffs: { focus: 'dm' },
  piles: { focus: 'swimlanes' },
  schedule: { focus: 'schedule', drawer: true, curve: 'relative' },
  talk: { focus: 'work', below: true },
  'side-board': { focus: 'dm' },
  race: { focus: 'organisations', below: true },
  ablations: { focus: 'ablations', drawer: true },
};

export const LESSON: readonly LessonStep[] = LESSON_CONTENT.map((c) => ({ ...c, ...PRESENTATION[c.id] }));

/** The lesson step number (1-based) clamped to the lesson. */
export function clampStep(step: number): number {
  return Math.min(LESSON.length, Math.max(1, Math.round(step)));
}

/** The link that opens a lesson step (the page's other settings are the step's own). */
export function stepLink(step: number): string {
  return `#v=${LINK_VERSION}&lesson=${clampStep(step)}`;
}
