import { describe, expect, it } from 'vitest';
import { PRETRAINED } from '../core/pretrained';
import { clampStep, LESSON, stepLink } from './lessonSteps';

/** Sentences in a text: ends of sentences followed by a space or the end (decimals like 0.929 are not ends). */
const sentences = (t: string) => t.split(/[.!?](?:\s|$)/).filter((s) => s.trim()).length;

describe('the guided lesson', () => {
  it('has five to nine steps, each with two or three sentences on what to look for', () => {
    expect(LESSON.length).toBeGreaterThanOrEqual(5);
    expect(LESSON.length).toBeLessThanOrEqual(9);
    for (const s of LESSON) {
      expect(sentences(s.text), s.title).toBeGreaterThanOrEqual(2);
      expect(sentences(s.text), s.title).toBeLessThanOrEqual(3);
    }
  });

  it('quotes numbers measured on its own setup by lesson:check in every step, and declares what the class will see as claims', () => {
    for (const s of LESSON) {
      expect(s.measured, s.title).toMatch(/\d\.\d/);
      expect(s.measured, s.title).toMatch(/^Measured by npm run lesson:check on this step's own (run|setup)/);
      expect(s.claims.length, s.title).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(LESSON.map((s) => s.id)).size).toBe(LESSON.length);
  });

  it('explains each term a student does not know where it first appears', () => {
    const all = LESSON.map((s) => s.text).join(' ');
    // ("imitation prior" left the lesson with the pretrained swarm trained under the costs of talk, without one; the glossary explains it.)
    for (const term of ['best-of-N', 'single chain', 'RLCR update', 'Tmax', 'rollout', 'return', 'interface', 'advantage']) {
      const at = all.indexOf(term);
      expect(at, term).toBeGreaterThanOrEqual(0);
      // The explanation is beside the term: in brackets or after a colon, within a few words of it.
      expect(all.slice(Math.max(0, at - 40), at + term.length + 12), term).toMatch(/[(:]/);
    }
  });

  it('sets every step up with something the app can load', () => {
    const pretrained = LESSON.flatMap((s) => (s.setup.kind === 'pretrained' ? [s.setup.family] : []));
    expect(pretrained.length).toBeGreaterThan(0);
    for (const family of pretrained) expect(PRETRAINED).toContain(family);
  });

  it('links each step, clamped to the lesson', () => {
    expect(stepLink(3)).toBe('#v=4&lesson=3');
    expect(clampStep(0)).toBe(1);
    expect(clampStep(99)).toBe(LESSON.length);
  });
});
