import { describe, expect, it } from 'vitest';
import { planOnStage } from './VideoExport';

describe("the video dialog's plan", () => {
  it('names the rollout it records and, when the curve is further on, the update the curve shows', () => {
    expect(planOnStage(145, 150)).toBe(
      " It is the rollout the stage's episode views play (recorded at update 145); the curve and its readout show update 151.",
    );
    expect(planOnStage(151, 150)).toBe(' It is the rollout the stage plays, at update 151, the update the curve shows.');
    expect(planOnStage(undefined, 150)).toBe('');
    expect(planOnStage(12, undefined)).toBe('');
  });
});
