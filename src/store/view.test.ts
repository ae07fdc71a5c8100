import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VIEW_PARTS, VIEWS, viewEntry, viewFromValues, viewToValues } from './view';

describe('the table of views', () => {
  it('names every view once and gives each element its own test id', () => {
    expect(new Set(VIEW_PARTS).size).toBe(VIEWS.length);
    const testIds = VIEWS.flatMap((v) => ('testId' in v ? [v.testId] : []));
    expect(new Set(testIds).size).toBe(testIds.length);
    expect(viewEntry('dm')).toMatchObject({ testId: 'dm-graph', label: 'Direct messages' });
  });

  it('keeps the hide= spellings links already carry', () => {
    const link = 'header,bar,controls,schedule,ablations,settings,work,modules,organisations,library,curve,countdown,swimlanes,dm,board';
    const { view, issues } = viewFromValues({ hide: link });
    expect(issues).toEqual([]);
    expect(view.hide.join(',')).toBe(link);
    expect(viewToValues(view).hide).toBe(link);
    expect(viewFromValues({ hide: 'dm-graph' }).issues).toHaveLength(1);
  });

  it('gives a test id to every view a lesson points at or a video draws', () => {
    const shown = VIEWS.filter((v) => 'focus' in v || 'video' in v);
    expect(shown.map((v) => v.id)).toEqual(['schedule', 'ablations', 'work', 'modules', 'organisations', 'curve', 'countdown', 'swimlanes', 'dm', 'board']);
    expect(shown.filter((v) => !('testId' in v))).toEqual([]);
  });

  it('names test ids that the page renders', () => {
    const dir = new URL('../ui/', import.meta.url);
    const source = readdirSync(dir)
      .filter((f) => f.endsWith('.tsx'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const testIds = VIEWS.flatMap((v) => ('testId' in v ? [v.testId] : []));
    expect(testIds.filter((id) => !source.includes(`data-testid="${id}"`))).toEqual([]);
  });
});
