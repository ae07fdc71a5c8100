import { describe, expect, it } from 'vitest';
import type { EventKind, SimEvent } from '../sim/events';
import { clampTick, episodeLength, eventsBefore, minuteMs, PLAYBACK_SPEEDS, speedLabel } from './playback';

const ev = (t: number, agent: number, kind: EventKind, module = -1): SimEvent => ({ t, agent, kind, module, target: -1, useful: false });
const modules = [0, 1].map(() => ({ tests: 2, dep: -1, work: 2, luck: false }));

describe('episodeLength', () => {
  it('ends at the minute the last module finished when all did', () => {
    const events = [ev(0, 0, 'work', 0), ev(1, 0, 'complete', 0), ev(4, 1, 'complete', 1), ev(5, 0, 'idle')];
    expect(episodeLength({ events, modules, metrics: { tmax: 10 } })).toBe(5);
  });
  it('runs to the deadline when a module is left, or a completion names no module', () => {
    expect(episodeLength({ events: [ev(1, 0, 'complete', 0)], modules, metrics: { tmax: 10 } })).toBe(10);
    expect(episodeLength({ events: [ev(1, 0, 'complete', 0), ev(2, 0, 'complete', 7)], modules, metrics: { tmax: 10 } })).toBe(10);
    expect(episodeLength({ events: [], modules: [], metrics: { tmax: 0 } })).toBe(1);
  });
});

describe('eventsBefore', () => {
  it('keeps the minutes before the clock', () => {
    const events = [ev(0, 0, 'work'), ev(1, 1, 'dm'), ev(1, 0, 'post'), ev(3, 0, 'read')];
    expect(eventsBefore(events, 0)).toEqual([]);
    expect(eventsBefore(events, 2).map((e) => e.kind)).toEqual(['work', 'dm', 'post']);
    expect(eventsBefore(events, 4)).toHaveLength(4);
  });
});

describe('clampTick and speeds', () => {
  it('clamps a scrubber value into the episode', () => {
    expect(clampTick(-3, 12)).toBe(0);
    expect(clampTick(40, 12)).toBe(12);
    expect(clampTick(4.6, 12)).toBe(5);
    expect(clampTick(Number.NaN, 12)).toBe(12);
  });
  it('labels speeds and times a minute', () => {
    expect(PLAYBACK_SPEEDS[0]).toBe(0);
    expect(speedLabel(0)).toBe('whole episode');
    expect(speedLabel(8)).toBe('8 min/s');
    expect(minuteMs(4)).toBe(250);
  });
});
