import { describe, expect, it } from 'vitest';
import { FAMILIES, generateTask, MAX_MODULES } from './task';

describe('generateTask', () => {
  it('is a pure function of family and seed', () => {
    for (const f of FAMILIES) {
      expect(generateTask(f, 42)).toEqual(generateTask(f, 42));
      expect(generateTask(f, 42)).not.toEqual(generateTask(f, 43));
    }
  });

  it('builds acyclic tasks within the encoding limits', () => {
    for (const f of FAMILIES) {
      for (let seed = 0; seed < 50; seed++) {
        const t = generateTask(f, seed);
        expect(t.modules).toBeLessThanOrEqual(MAX_MODULES);
        for (let k = 0; k < t.modules; k++) {
          expect(t.dep[k]).toBeLessThan(k); // prerequisites come first, so no cycles
          expect(t.tests[k]).toBeGreaterThan(0);
        }
      }
    }
  });

  it('gives each family its own shape', () => {
    const depCount = (f: (typeof FAMILIES)[number]) => {
      const t = generateTask(f, 7);
      return Array.from(t.dep).filter((d) => d >= 0).length;
    };
    expect(depCount('parallel')).toBe(0);
    expect(depCount('coupled')).toBeGreaterThanOrEqual(10);
    const search = generateTask('search', 7);
    expect(Array.from(search.luck).every((p) => p > 0)).toBe(true);
    expect(Array.from(search.dep).slice(1)).toEqual([0, 1, 2, 3, 4]);
  });
});
