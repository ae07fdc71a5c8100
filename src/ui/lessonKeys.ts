/**
 * Which keys move the lesson, wherever focus is. A presenter clicks Train, drags a slider or clicks
 * the text and then presses an arrow or the clicker's PageDown: the lesson should move. So the lesson
 * listens on the whole page (before the focused element acts on the key) and takes:
 *
 * - ArrowRight / PageDown: next step; ArrowLeft / PageUp: previous step, everywhere but in a text
 *   field (input of text or number, textarea, select, contenteditable), where they edit. A slider
 *   does not get ArrowLeft/Right while the lesson is open (it still moves with ArrowUp/Down, Home, End
 *   and the mouse), so a presenter's arrows never change a setting by accident.
 * - Space: next step (Shift+Space: previous), except where Space presses something (a button, a
 *   link, a checkbox, a radio, a disclosure, an element with role="button"), so the keyboard keeps
 *   working the page's controls, and in a text field.
 * - Escape closes the lesson when focus is in it (elsewhere Esc closes what it is in: the drawer, a help text).
 *
 * Keys with Ctrl, Alt or Meta, and keys inside a dialog, are left alone.
 */

/** What the lesson needs to know about the element a key went to. */
export interface KeyTarget {
  /** Lower-case tag name (`input`, `button`, `body`, ...). */
  tag: string;
  /** An input's type, lower case (`text`, `range`, ...). */
  type?: string;
  role?: string | null;
  /** contenteditable */
  editable?: boolean;
  /** Inside the lesson panel. */
  inLesson?: boolean;
  /** Inside a dialog (the video dialog, a modal). */
  inDialog?: boolean;
}

export type LessonKeyAction = 'next' | 'back' | 'close' | null;

/** Input types that are not typed into: a key there is not editing text. */
const NOT_TEXT = new Set(['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file', 'image']);
/** Input types (and elements) that Space presses. */
const PRESSED_BY_SPACE = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file', 'image']);

/** Whether the target is a field that is typed into (keys edit there). */
export function isTextField(t: KeyTarget): boolean {
  if (t.editable) return true;
  if (t.tag === 'textarea' || t.tag === 'select') return true;
  return t.tag === 'input' && !NOT_TEXT.has(t.type ?? 'text');
}

/** Whether Space on the target presses it. */
function spacePresses(t: KeyTarget): boolean {
  if (t.tag === 'button' || t.tag === 'a' || t.tag === 'summary') return true;
  if (t.tag === 'input' && PRESSED_BY_SPACE.has(t.type ?? 'text')) return true;
  return t.role === 'button' || t.role === 'link' || t.role === 'checkbox' || t.role === 'switch' || t.role === 'tab' || t.role === 'menuitem';
}

/** What a key does to the lesson with focus on `target`; null: the key is the page's. */
export function lessonKeyAction(key: string, mods: { shift?: boolean; ctrl?: boolean; alt?: boolean; meta?: boolean }, target: KeyTarget): LessonKeyAction {
  if (mods.ctrl || mods.alt || mods.meta || target.inDialog) return null;
  if (isTextField(target)) return null;
  switch (key) {
    case 'ArrowRight':
    case 'PageDown':
      return 'next';
    case 'ArrowLeft':
    case 'PageUp':
      return 'back';
    case ' ':
      return spacePresses(target) ? null : mods.shift ? 'back' : 'next';
    case 'Escape':
      return target.inLesson ? 'close' : null;
    default:
      return null;
  }
}

/** The KeyTarget of a DOM event target. */
export function keyTarget(el: EventTarget | null): KeyTarget {
  if (!(el instanceof Element)) return { tag: 'body' };
  const html = el as HTMLElement;
  return {
    tag: el.tagName.toLowerCase(),
    type: el instanceof HTMLInputElement ? el.type.toLowerCase() : undefined,
    role: el.getAttribute('role'),
    editable: html.isContentEditable === true,
    inLesson: el.closest('[data-testid="lesson"]') !== null,
    inDialog: el.closest('dialog[open], [role="dialog"], [role="alertdialog"]') !== null,
  };
}
