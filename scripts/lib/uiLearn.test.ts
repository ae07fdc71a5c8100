import { describe, expect, it } from 'vitest';
import { parseDuration, parseTalkSentence, secondsAtUpdate, timeLeftErrors } from './uiLearn';

describe('bench:ui --learn readouts', () => {
  it('reads the time left as the page words it', () => {
    expect(parseDuration('45 s')).toBe(45);
    expect(parseDuration('3 min 05 s')).toBe(185);
    expect(parseDuration('1 h 02 min')).toBe(3720);
    expect(parseDuration('done')).toBe(0);
    expect(parseDuration('…')).toBeNull();
    expect(parseDuration('–')).toBeNull();
  });

  it('reads the talking return and its update from the talk sentence', () => {
    expect(parseTalkSentence('Talk is worth +0.12 of the tests (0.77 talking vs 0.65 muted, update 150).')).toEqual({ ret: 0.77, updates: 150 });
    expect(parseTalkSentence('Muting it would gain 0.03: its talk is overhead (0.62 talking vs 0.65 muted, before training).')).toEqual({
      ret: 0.62,
      updates: 0,
    });
    expect(parseTalkSentence('The swarm sends no messages, so muting it changes nothing (0.41 of the tests, update 25).')).toEqual({ ret: 0.41, updates: 25 });
    expect(parseTalkSentence('Not measured yet: the swarm plays talking and muted at the start, then every 10 updates or more.')).toBeNull();
  });

  it('compares what the readout said at each moment with the time really left', () => {
    const readings = [
      { t: 1, text: '…', seconds: null },
      { t: 9.5, text: '1 min 05 s', seconds: 65 },
      { t: 29, text: '2 min 00 s', seconds: 120 },
    ];
    const [a, b, c, d] = timeLeftErrors(readings, 150, [10, 30, 0.5, 200]);
    expect(a).toEqual({ at: 10, readAt: 9.5, text: '1 min 05 s', shown: 65, actual: 140, error: (65 - 140) / 140 });
    expect(b.shown).toBe(120);
    expect(b.error).toBeCloseTo(0, 10);
    expect(c).toMatchObject({ readAt: null, error: null });
    expect(d).toMatchObject({ actual: null, error: null });
  });

  it('finds when the run first showed a number of updates', () => {
    const timeline = [
      { t: 2, count: 1 },
      { t: 3, count: 4 },
      { t: 5, count: 9 },
    ];
    expect(secondsAtUpdate(timeline, 3)).toBe(3);
    expect(secondsAtUpdate(timeline, 9)).toBe(5);
    expect(secondsAtUpdate(timeline, 10)).toBeNull();
  });
});
