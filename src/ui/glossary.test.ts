import { describe, expect, it } from 'vitest';
import { gloss, GLOSSARY } from './glossary';
import { STUDENT_TERMS } from './studentTerms';

describe('the glossary', () => {
  it('has a plain label and one line for every term a student meets on the stage', () => {
    for (const t of STUDENT_TERMS) {
      const e = gloss(t);
      expect(e.plain.length, t).toBeGreaterThan(3);
      expect(e.line, t).toMatch(/^[A-Z].*\.$/);
      // A plain label does not lean on the term it explains.
      expect(e.plain.toLowerCase(), t).not.toContain(t.toLowerCase());
    }
    expect(new Set(GLOSSARY.map((g) => g.term)).size).toBe(GLOSSARY.length);
  });
});
