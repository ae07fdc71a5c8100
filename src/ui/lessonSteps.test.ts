import { describe, expect, it } from 'vitest';
import { PRETRAINED } from '../app/runLibrary';
import { clampStep, LESSON, stepLink } from './lessonSteps';

/** Sentences in a text: ends of sentences followed by a space or the end (decimals like 0.929 are not ends). */
const sentences = (t: string) => t.split(/[.!?](?:\s|$)/).filter((s) => s.trim()).length;

describe('the guided lesson', () => {
  it('has five to seven steps, each with two or three sentences on what to look for', () => {
    expect(LESSON.length).toBeGreaterThanOrEqual(5);
    expect(LESSON.length).toBeLessThanOrEqual(7);
    for (const s of LESSON) {
      expect(sentences(s.text), s.title).toBeGreaterThanOrEqual(2);
      expect(sentences(s.text), s.title).toBeLessThanOrEqual(3);
    }
  });

  it('quotes measured numbers in every step and says where a claim reproduced only partly', () => {
    for (const s of LESSON) expect(s.measured, s.title).toMatch(/\d\.\d/);
    const schedule = LESSON.find((s) => s.focus === 'schedule');
    expect(schedule?.measured).toMatch(/^Partly reproduced/);
    expect(LESSON.find((s) => s.focus === 'ablations')?.measured).toMatch(/not reproduced/);
  });

  it('sets every step up with something the app can load', () => {
    const pretrained = LESSON.flatMap((s) => (s.setup.kind === 'pretrained' ? [s.setup.family] : []));
    expect(pretrained.length).toBeGreaterThan(0);
    for (const family of pretrained) expect(PRETRAINED).toContain(family);
  });

  it('links each step, clamped to the lesson', () => {
    expect(stepLink(3)).toBe('#lesson=3');
    expect(clampStep(0)).toBe(1);
    expect(clampStep(99)).toBe(LESSON.length);
  });
});
