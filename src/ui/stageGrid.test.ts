import { describe, expect, it } from 'vitest';
import type { ViewPart } from '../store/view';
import { stageGrid } from './stageGrid';

const without =
  (...hidden: ViewPart[]) =>
  (p: ViewPart) =>
    !hidden.includes(p);

describe("the stage's grid", () => {
  it('has the three rows of five views when none is hidden', () => {
    expect(stageGrid(without())).toEqual({
      areas: "'count count' 'curve dm' 'lanes board'",
      rows: 'auto minmax(0, 1.3fr) minmax(0, 1fr)',
    });
  });

  it("gives a hidden view's place to its neighbour, and drops a row with both hidden", () => {
    expect(stageGrid(without('board')).areas).toBe("'count count' 'curve dm' 'lanes lanes'");
    expect(stageGrid(without('curve')).areas).toBe("'count count' 'dm dm' 'lanes board'");
    expect(stageGrid(without('dm', 'board')).areas).toBe("'count count' 'curve curve' 'lanes lanes'");
    expect(stageGrid(without('countdown', 'swimlanes', 'board'))).toEqual({ areas: "'curve dm'", rows: 'minmax(0, 1.3fr)' });
  });
});
