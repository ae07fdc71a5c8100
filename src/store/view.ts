/**
 * How the page is shown (not what is trained): presenter mode, embed mode, parts hidden from the
 * link, the curve's view and the lesson step. Kept in the URL hash beside the run's settings, so a
 * link opens a class straight into them (as TensorFlow Playground's `hide` settings do).
 */
import { readNumber } from '../rl/readNumber';

/** Where a view sits in a video's dashboard, as fractions of the frame under the header. */
export interface DashboardCell {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Where a part sits on the page: the top (the header, and the run buttons in it or in their own bar),
 * the controls drawer (opened from the header), the details below the stage, or the stage.
 */
export type ViewPlace = 'top' | 'drawer' | 'details' | 'stage';

/** One part of the page, as every user of views names it. */
export interface ViewEntry {
  /**
   * The view's one name: the key a link hides it by (`#hide=dm,board`), the lesson's focus, the
   * video's view. Links in use carry these spellings, so they stay.
   */
  readonly id: string;
  /** Its element's `data-testid` on the page (the lesson finds it by this; the e2e tests use it too). */
  readonly testId?: string;
  /** Its title: drawn above it in a video and offered in the export dialog. */
  readonly label: string;
  /** Where the page puts it (embed mode shows only the run buttons and the stage). */
  readonly place: ViewPlace;
  /** True if a lesson step may point at it (the page highlights it while the step is on screen). */
  readonly focus?: true;
  /** Its cell in a video's dashboard; absent for a view a video does not show. */
  readonly video?: DashboardCell;
}

/** Every part of the page a link can hide, in the page's order. */
export const VIEWS = [
  { id: 'header', label: 'Header', place: 'top' },
  { id: 'bar', testId: 'stage-bar', label: 'Run buttons', place: 'top' },
  { id: 'controls', testId: 'controls', label: 'Controls', place: 'drawer' },
  { id: 'schedule', testId: 'schedule', label: 'Deadline schedule', place: 'drawer', focus: true },
  { id: 'ablations', testId: 'ablations', label: 'Ablations', place: 'drawer', focus: true },
  { id: 'settings', testId: 'settings-panel', label: 'Settings', place: 'drawer' },
  { id: 'work', testId: 'work-curves', label: 'Work curves', place: 'details', focus: true },
  { id: 'modules', testId: 'module-bars', label: 'Modules and tests', place: 'details', video: { x: 0, y: 0.72, w: 0.58, h: 0.28 } },
  { id: 'organisations', testId: 'organisations', label: 'Organisations', place: 'details', focus: true },
  { id: 'library', testId: 'library', label: 'Run library', place: 'details' },
  { id: 'curve', testId: 'curves', label: 'Training curve', place: 'stage', focus: true, video: { x: 0, y: 0, w: 0.58, h: 0.4 } },
  { id: 'countdown', testId: 'countdown', label: 'Deadline', place: 'stage', video: { x: 0.58, y: 0, w: 0.42, h: 0.26 } },
  { id: 'swimlanes', testId: 'swimlanes', label: 'What each agent did', place: 'stage', focus: true, video: { x: 0, y: 0.4, w: 0.58, h: 0.32 } },
  { id: 'dm', testId: 'dm-graph', label: 'Direct messages', place: 'stage', focus: true, video: { x: 0.58, y: 0.26, w: 0.42, h: 0.42 } },
  { id: 'board', testId: 'message-board', label: 'Message board', place: 'stage', video: { x: 0.58, y: 0.68, w: 0.42, h: 0.32 } },
] as const satisfies readonly ViewEntry[];

/** A view's name (see `ViewEntry.id`). */
export type ViewPart = (typeof VIEWS)[number]['id'];
/** The views a lesson step may point at. */
export type FocusView = Extract<(typeof VIEWS)[number], { focus: true }>['id'];
/** The views a video shows. */
export type VideoViewId = Extract<(typeof VIEWS)[number], { video: DashboardCell }>['id'];

/** Every view's name, in the page's order (what `#hide=` accepts). */
export const VIEW_PARTS: readonly ViewPart[] = VIEWS.map((v) => v.id);

/** The table's row of a view. */
export function viewEntry(id: ViewPart): ViewEntry {
  return VIEWS.find((v) => v.id === id)!;
}

/** What the curve plots: the return itself, or the return minus the scripted organisation's at the same deadline. */
export const CURVE_VIEWS = ['return', 'relative'] as const;
export type CurveView = (typeof CURVE_VIEWS)[number];

export interface ViewSettings {
  /** Large type and high contrast, for a projector at the back of a room. */
  presenter: boolean;
  /** Only the live views, for a course page: the header, controls and detailed panels are hidden. */
  embed: boolean;
  /** Parts hidden by the link, in any mode. */
  hide: ViewPart[];
  curve: CurveView;
  /** The lesson step on screen (1-based), or null when the lesson is closed. */
  lesson: number | null;
}

/** The hash keys that belong to the view rather than to the run's settings. */
export const VIEW_KEYS = ['presenter', 'embed', 'hide', 'curve', 'lesson'] as const;

/** Most lesson steps a link may name (the lesson clamps to its own length). */
const MAX_LESSON = 50;

export function defaultView(): ViewSettings {
  return { presenter: false, embed: false, hide: [], curve: 'return', lesson: null };
}

/**
 * The parts `view` shows on the screen without opening anything: in embed mode the run buttons and
 * the stage, otherwise everything but the drawer (its button is in the header).
 */
export function partsOnScreen(view: ViewSettings): ViewPart[] {
  return VIEWS.filter((v) => (view.embed ? v.id === 'bar' || v.place === 'stage' : v.place !== 'drawer'))
    .map((v) => v.id)
    .filter((id) => !view.hide.includes(id));
}

/** Reads an on/off flag: a bare key (`#embed`), `1`, `true` or `on` is on; `0`, `false`, `off` is off. */
function flag(key: string, raw: string, issues: { key: string; message: string }[]): boolean {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === '1' || v === 'true' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'off') return false;
  issues.push({ key, message: `"${raw.slice(0, 40)}" is not on or off; it was left off` });
  return false;
}

/**
 * The view settings in hash values (keys of VIEW_KEYS only). Unknown parts and bad values are
 * dropped with an issue each, so a mistyped link still opens.
 */
export function viewFromValues(values: Record<string, string>): { view: ViewSettings; issues: { key: string; message: string }[] } {
  const view = defaultView();
  const issues: { key: string; message: string }[] = [];
  if ('presenter' in values) view.presenter = flag('presenter', values.presenter, issues);
  if ('embed' in values) view.embed = flag('embed', values.embed, issues);
  if ('hide' in values) {
    for (const part of values.hide
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      if ((VIEW_PARTS as readonly string[]).includes(part)) {
        if (!view.hide.includes(part as ViewPart)) view.hide.push(part as ViewPart);
      } else issues.push({ key: 'hide', message: `"${part.slice(0, 40)}" is not one of ${VIEW_PARTS.join(', ')}` });
    }
  }
  if ('curve' in values) {
    if ((CURVE_VIEWS as readonly string[]).includes(values.curve)) view.curve = values.curve as CurveView;
    else issues.push({ key: 'curve', message: `"${values.curve.slice(0, 40)}" is not one of ${CURVE_VIEWS.join(', ')}` });
  }
  if ('lesson' in values) {
    // Read as every typed number is (no hex such as 0x3, no 3.5); a bare `lesson` opens step 1.
    const r = readNumber(values.lesson === '' ? '1' : values.lesson, { kind: 'int', min: 1, max: MAX_LESSON });
    if (r.ok) view.lesson = r.value;
    else issues.push({ key: 'lesson', message: `"${values.lesson.slice(0, 40)}" is not a lesson step` });
  }
  // A link that hides every part would open an empty page with no button to bring one back.
  if (view.hide.length && partsOnScreen(view).length === 0) {
    issues.push({ key: 'hide', message: 'hiding every part would leave an empty page, so nothing was hidden' });
    view.hide = [];
  }
  return { view, issues };
}

/** The hash values that reproduce `view` (only what differs from the default view). */
export function viewToValues(view: ViewSettings): Record<string, string> {
  const out: Record<string, string> = {};
  if (view.presenter) out.presenter = '1';
  if (view.embed) out.embed = '1';
  if (view.hide.length) out.hide = view.hide.join(',');
  if (view.curve !== 'return') out.curve = view.curve;
  if (view.lesson !== null) out.lesson = String(view.lesson);
  return out;
}
