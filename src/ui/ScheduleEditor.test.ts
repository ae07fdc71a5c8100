import { describe, expect, it } from 'vitest';
import { scheduleLabel } from './ScheduleEditor';

describe("the schedule chart's label", () => {
  it('says whether the deadline grows, shrinks or stays fixed', () => {
    expect(scheduleLabel(8, 24, 600)).toBe('The deadline grows from 8 to 24 minutes over 600 updates');
    expect(scheduleLabel(50, 5, 100)).toBe('The deadline shrinks from 50 to 5 minutes over 100 updates');
    expect(scheduleLabel(24, 24, 100)).toBe('The deadline is fixed at 24 minutes over 100 updates');
  });
});
