import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { partsOnScreen, VIEW_PARTS, VIEWS, viewEntry, viewFromValues, viewToValues } from './view';

describe('the table of views', () => {
  it('names every view once and gives each element its own test id', () => {
    expect(new Set(VIEW_PARTS).size).toBe(VIEWS.length);
    const testIds = VIEWS.flatMap((v) => ('testId' in v ? [v.testId] : []));
    expect(new Set(testIds).size).toBe(testIds.length);
    expect(viewEntry('dm')).toMatchObject({ testId: 'dm-graph', label: 'Direct messages' });
  });

  it('keeps the hide= spellings links already carry', () => {
    const link = 'header,bar,controls,schedule,ablations,settings,work,modules,organisations,library,curve,countdown,swimlanes,dm';
    const { view, issues } = viewFromValues({ hide: link });
    expect(issues).toEqual([]);
    expect(view.hide.join(',')).toBe(link);
    expect(viewToValues(view).hide).toBe(link);
    expect(partsOnScreen(view)).toEqual(['board']);
    expect(viewFromValues({ hide: 'dm-graph' }).issues).toHaveLength(1);
  });

  it('refuses a hide= that would leave an empty page, and hides nothing', () => {
    const message = 'hiding every part would leave an empty page, so nothing was hidden';
    const all = viewFromValues({ hide: VIEW_PARTS.join(',') });
    expect(all.view.hide).toEqual([]);
    expect(all.issues).toEqual([{ key: 'hide', message }]);
    // Only the drawer left: its button is in the hidden header, so nothing could be opened.
    const drawerOnly = viewFromValues({
      hide: VIEWS.filter((v) => v.place !== 'drawer')
        .map((v) => v.id)
        .join(','),
    });
    expect(drawerOnly.view.hide).toEqual([]);
    // Embed mode shows the run buttons and the stage only: hiding those is hiding everything.
    const embed = viewFromValues({ embed: '1', hide: 'bar,curve,countdown,swimlanes,dm,board' });
    expect(embed.view).toMatchObject({ embed: true, hide: [] });
    expect(embed.issues).toEqual([{ key: 'hide', message }]);
    expect(viewFromValues({ embed: '1', hide: 'bar,curve,countdown,swimlanes,dm' }).view.hide).toHaveLength(5);
  });

  it('reads the lesson step as every typed integer is read', () => {
    expect(viewFromValues({ lesson: '3' }).view.lesson).toBe(3);
    expect(viewFromValues({ lesson: '' }).view.lesson).toBe(1);
    for (const bad of ['0x3', '3.5', '3e0', '0', '51', 'Infinity', '0b11']) {
      const r = viewFromValues({ lesson: bad });
      expect(r.view.lesson).toBeNull();
      expect(r.issues).toEqual([{ key: 'lesson', message: `"${bad}" is not a lesson step` }]);
    }
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
