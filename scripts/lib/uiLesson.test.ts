import { describe, expect, it } from 'vitest';
import { LESSON_CONTENT, type LessonContent, type LessonId } from '../../src/core/lesson';
import type { LessonMeasure } from '../../src/core/lessonClaims';
import { stepConfig } from './lessonCheck/run';
import { describeRun, liveSteps, measureUpdate, neededUpdate, stepDrag, stepRun, trainsWhenOpened } from './uiLesson';

const byId = (id: LessonId): LessonContent => LESSON_CONTENT.find((s) => s.id === id)!;
const measures = (s: LessonContent): LessonMeasure[] => s.claims.flatMap((c) => (typeof c.than === 'number' ? [c.measure] : [c.measure, c.than]));

describe('bench:ui --lesson: the steps it times and what they train', () => {
  it('times every live step that trains or steps when opened, and no other', () => {
    const steps = liveSteps();
    expect(steps.length).toBeGreaterThan(0);
    LESSON_CONTENT.forEach((s, i) => {
      const live = s.setup.kind === 'live' && s.setup.run !== 'none';
      expect(steps.includes(i + 1), `step ${i + 1} (${s.id})`).toBe(live);
      expect(trainsWhenOpened(s)).toBe(live);
    });
    // The live steps that train or step when opened: team reward, chaos, the default sprint learning to split the work, schedule.
    for (const id of ['team-reward', 'chaos', 'handoffs', 'schedule'] as const) expect(steps).toContain(LESSON_CONTENT.indexOf(byId(id)) + 1);
    expect(() => stepRun(byId('piles'))).toThrow(/does not train/);
  });

  it("derives each step's config as lesson:check's stepConfig does", () => {
    for (const n of liveSteps()) {
      const step = LESSON_CONTENT[n - 1];
      for (const seed of [1, 5]) {
        const ours = stepRun(step, seed);
        const check = stepConfig(step, seed, undefined, { updates: null, quick: false });
        expect(ours.config).toEqual(check.config);
        expect(ours.updates).toBe(check.stopAfter ?? check.config.prior + check.config.updates);
      }
    }
    const small = stepRun(byId('team-reward'));
    const setup = byId('team-reward').setup as { kind: 'live'; config: Record<string, unknown> };
    expect(describeRun(small)).toBe(
      `${String(setup.config.family)}, ${String(setup.config.agents)} agents, ${String(setup.config.updates)} updates, ${String(setup.config.tasksPerUpdate)} x ${String(setup.config.groupSize)} rollouts, deadline ${String(setup.config.tmaxStart)} -> ${String(setup.config.tmaxEnd)} min`,
    );
  });
});

describe('bench:ui --lesson: the update by which a step has shown what its text says', () => {
  it('reads a window by its end, an evaluation or a race as the whole run', () => {
    expect(measureUpdate({ of: 'training', stat: 'ret', window: { anchor: 'end', updates: [-29, 0] } }, 300, 0)).toBe(300);
    expect(measureUpdate({ of: 'training', stat: 'ret', window: { anchor: 'start', updates: [1, 30] } }, 300, 0)).toBe(30);
    expect(measureUpdate({ of: 'training', stat: 'ret', window: { anchor: 'start', updates: [1, 30] } }, 1, 0)).toBe(1);
    expect(measureUpdate({ of: 'reference', reference: 'single chain', window: { anchor: 'prior', updates: [0, 2] } }, 300, 20)).toBe(22);
    expect(measureUpdate({ of: 'evaluation', player: 'trained swarm', stat: 'ret', tasks: 16 }, 300, 0)).toBe(300);
    expect(measureUpdate({ of: 'race', racer: 'trained swarm', tasks: 24 }, 120, 0)).toBe(120);
  });

  it("step 1 (the team reward) needs its run's last update: its claims include the evaluation after training", () => {
    const step = byId('team-reward');
    expect(measures(step).some((m) => m.of === 'evaluation')).toBe(true);
    const r = stepRun(step);
    expect(r.run).toBe('train');
    expect(neededUpdate(step).update).toBe(r.config.prior + r.config.updates);
    expect(stepDrag(step)).toBeNull();
  });

  it('step 2 (the chaos, one update) needs 1 update', () => {
    const step = byId('chaos');
    expect(stepRun(step)).toMatchObject({ run: 'step', updates: 1 });
    expect(neededUpdate(step).update).toBe(1);
  });

  it('step 4 (the schedule) needs the end of its latest window, after the drag its claims assume', () => {
    const step = byId('schedule');
    const ms = measures(step);
    // Every measure of the step is a window counted from the start: the latest one's end is the answer.
    expect(ms.every((m) => m.of === 'training' && m.window.anchor === 'start')).toBe(true);
    const latest = Math.max(...ms.map((m) => (m.of === 'training' ? m.window.updates[1] : NaN)));
    const needed = neededUpdate(step);
    expect(needed.update).toBe(latest);
    expect(needed.update).toBeLessThan(stepRun(step).updates);
    const drag = stepDrag(step)!;
    expect(drag).toEqual(ms.find((m) => m.drag)!.drag);
    expect(drag.at).toBeLessThan(needed.update);
    expect(Object.keys(drag.patch)).toEqual(['tmaxStart']);
  });

  it('every step that trains when opened needs an update within its run', () => {
    for (const n of liveSteps()) {
      const step = LESSON_CONTENT[n - 1];
      const u = neededUpdate(step).update;
      expect(u, `step ${n}`).toBeGreaterThanOrEqual(1);
      expect(u, `step ${n}`).toBeLessThanOrEqual(stepRun(step).updates);
    }
  });
});
