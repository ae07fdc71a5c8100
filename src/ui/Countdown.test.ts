import { describe, expect, it } from 'vitest';
import { structureLine } from './Countdown';

describe('structureLine', () => {
  it('says what the structure did up to the clock', () => {
    expect(structureLine({ kind: 'ceo', headCount: [1, 1, 3, 3] }, 3, 60)).toBe('Head count 3; 5 of 60 agent-minutes of budget spent.');
    expect(structureLine({ kind: 'ceo', headCount: [1, 1, 3, 3] }, 0, 60)).toBe('Head count 1; 0 of 60 agent-minutes of budget spent.');
    expect(structureLine({ kind: 'islands', islandOf: [0, 0, 1, 1, 2] }, 4, 0)).toContain('3 islands');
    expect(structureLine({ kind: 'orchestrator', assignment: [-1, 2, -1, 7], criticalSteps: 31 }, 4, 0)).toBe(
      "Critical steps: 31 (per stage, the orchestrator's minutes plus its slowest worker's); 2 workers hold an assignment at the end.",
    );
  });
});
