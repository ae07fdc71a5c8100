/**
 * How the page is shown (not what is trained): presenter mode, embed mode, parts hidden from the
 * link, the curve's view and the lesson step. Kept in the URL hash beside the run's settings, so a
 * link opens a class straight into them (as TensorFlow Playground's `hide` settings do).
 */

/** Parts of the page a link can hide (`#hide=controls,library`). */
export const VIEW_PARTS = ['header', 'bar', 'controls', 'schedule', 'ablations', 'settings', 'work', 'modules', 'organisations', 'library', 'curve', 'countdown', 'swimlanes', 'dm', 'board'] as const;
export type ViewPart = (typeof VIEW_PARTS)[number];

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
    for (const part of values.hide.split(',').map((p) => p.trim()).filter(Boolean)) {
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
    const n = Number(values.lesson === '' ? '1' : values.lesson);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_LESSON) view.lesson = n;
    else issues.push({ key: 'lesson', message: `"${values.lesson.slice(0, 40)}" is not a lesson step` });
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
