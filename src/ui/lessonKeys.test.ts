import { describe, expect, it } from 'vitest';
import { lessonKeyAction, type KeyTarget } from './lessonKeys';

const none = {};
const body: KeyTarget = { tag: 'body' };
const slider: KeyTarget = { tag: 'input', type: 'range' };
const button: KeyTarget = { tag: 'button' };

describe('the lesson keys', () => {
  it('move the lesson from the page, a button and a slider', () => {
    for (const t of [body, button, slider, { tag: 'h2', inLesson: true }, { tag: 'g', role: 'button' }]) {
      expect(lessonKeyAction('ArrowRight', none, t)).toBe('next');
      expect(lessonKeyAction('PageDown', none, t)).toBe('next');
      expect(lessonKeyAction('ArrowLeft', none, t)).toBe('back');
      expect(lessonKeyAction('PageUp', none, t)).toBe('back');
    }
  });

  it('leave every key to a text field', () => {
    const fields: KeyTarget[] = [
      { tag: 'input', type: 'text' },
      { tag: 'input', type: 'number' },
      { tag: 'input' },
      { tag: 'input', type: 'search' },
      { tag: 'textarea' },
      { tag: 'select' },
      { tag: 'div', editable: true },
    ];
    for (const t of fields)
      for (const key of ['ArrowRight', 'ArrowLeft', 'PageUp', 'PageDown', ' ']) expect(lessonKeyAction(key, none, t), `${key} ${JSON.stringify(t)}`).toBeNull();
  });

  it('take Space where Space presses nothing, and leave it to buttons, links, checkboxes and role=button', () => {
    expect(lessonKeyAction(' ', none, body)).toBe('next');
    expect(lessonKeyAction(' ', { shift: true }, body)).toBe('back');
    expect(lessonKeyAction(' ', none, slider)).toBe('next');
    for (const t of [button, { tag: 'a' }, { tag: 'summary' }, { tag: 'input', type: 'checkbox' }, { tag: 'g', role: 'button' }])
      expect(lessonKeyAction(' ', none, t), JSON.stringify(t)).toBeNull();
  });

  it('leave browser shortcuts, dialogs and other keys alone; Esc closes only from inside the lesson', () => {
    expect(lessonKeyAction('ArrowRight', { alt: true }, body)).toBeNull();
    expect(lessonKeyAction('PageDown', { ctrl: true }, body)).toBeNull();
    expect(lessonKeyAction('ArrowRight', { meta: true }, body)).toBeNull();
    expect(lessonKeyAction('ArrowRight', none, { tag: 'button', inDialog: true })).toBeNull();
    expect(lessonKeyAction('ArrowUp', none, slider)).toBeNull();
    expect(lessonKeyAction('Enter', none, body)).toBeNull();
    expect(lessonKeyAction('Escape', none, body)).toBeNull();
    expect(lessonKeyAction('Escape', none, { tag: 'button', inLesson: true })).toBe('close');
  });
});
