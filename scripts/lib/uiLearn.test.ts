import { describe, expect, it } from 'vitest';
import { MAX_DUPLICATE_SHARE, MIN_NEEDED_SHARE, RETURN_MARGIN } from '../../src/sim/coordination';
import {
  COORDINATION,
  coordinationByUpdate,
  coordinationDefinition,
  evaluationLine,
  firstShownCoordination,
  parseDuration,
  parseTalkSentence,
  readCoordination,
  secondsAtUpdate,
  timeLeftErrors,
  type CoordinationReading,
} from './uiLearn';

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

/** A reading of the coordination line as the probe notes it: after `updates` updates, coordinated first at `first` (null: not yet). */
const reading = (t: number, updates: number, first: number | null, met: boolean, over: Partial<CoordinationReading> = {}): CoordinationReading => ({
  t,
  updates: String(updates),
  coordinatedUpdate: first === null ? null : String(first),
  met: String(met),
  ret: '0.934',
  target: '0.93',
  duplicateShare: met ? '0.1' : '0.22',
  neededShare: '0.62',
  headline: met ? `Coordinated at update ${first}: all three conditions met.` : `Not coordinated yet. Latest measurement (update ${updates}): 2 of 3 met.`,
  rows: [
    { key: 'return', met: 'true', shown: '0.934' },
    { key: 'duplicates', met: String(met), shown: met ? '10%' : '22%' },
    { key: 'needed', met: 'true', shown: '62%' },
  ],
  marker: first === null ? null : String(first),
  ...over,
});

describe('bench:ui --learn coordination as the page shows it', () => {
  it('states the definition from the constants of src/sim/coordination.ts', () => {
    expect(COORDINATION).toEqual({ returnMargin: RETURN_MARGIN, maxDuplicateShare: MAX_DUPLICATE_SHARE, minNeededShare: MIN_NEEDED_SHARE });
    const text = coordinationDefinition(72);
    expect(text).toContain('(72 min)');
    expect(text).toContain(`- ${RETURN_MARGIN},`);
    expect(text).toContain(`at most ${Math.round(MAX_DUPLICATE_SHARE * 100)}% of useful work`);
    expect(text).toContain(`at least ${Math.round(MIN_NEEDED_SHARE * 100)}% of deliveries needed`);
  });

  it('reads the line back into numbers and the figures as shown', () => {
    expect(readCoordination(reading(5, 30, null, false))).toEqual({
      updates: 30,
      met: false,
      ret: 0.934,
      target: 0.93,
      duplicateShare: 0.22,
      neededShare: 0.62,
      shown: { return: { text: '0.934', met: true }, duplicates: { text: '22%', met: false }, needed: { text: '62%', met: true } },
      coordinatedUpdate: null,
      markerUpdate: null,
      headline: 'Not coordinated yet. Latest measurement (update 30): 2 of 3 met.',
    });
    // Duplicates without useful work: the page writes Infinity.
    expect(readCoordination(reading(5, 30, null, false, { duplicateShare: 'Infinity' }))?.duplicateShare).toBe(Infinity);
    // An older measurement that cannot tell: no verdict, no figures.
    const old = readCoordination(reading(5, 30, null, false, { met: null, ret: null, target: null, duplicateShare: null, neededShare: null, rows: [] }));
    expect(old).toMatchObject({ met: null, ret: null, duplicateShare: null, shown: {} });
    expect(readCoordination(reading(5, 30, null, false, { updates: null }))).toBeNull();
  });

  it('keeps the last reading of each evaluation and finds when the page first showed coordination', () => {
    const readings = [reading(100, 10, null, false), reading(160, 10, null, false, { ret: '0.935' }), reading(300, 20, 20, true), reading(420, 30, 20, false)];
    const byUpdate = coordinationByUpdate(readings);
    expect([...byUpdate.keys()]).toEqual([10, 20, 30]);
    expect(byUpdate.get(10)?.ret).toBe(0.935);
    // Still named at update 30, where the evaluation misses the duplicates.
    expect(byUpdate.get(30)).toMatchObject({ met: false, coordinatedUpdate: 20 });
    expect(firstShownCoordination(readings)).toEqual({ t: 300, updates: 20, by: 'line' });
    expect(firstShownCoordination(readings.slice(0, 2))).toBeNull();
    // The marker alone counts too (the curve drawn before the panel's line was read).
    expect(firstShownCoordination([reading(90, 10, null, false, { marker: '10' })])).toEqual({ t: 90, updates: 10, by: 'marker' });
  });

  it('prints each evaluation with its conditions as shown', () => {
    const at = (r: CoordinationReading) => ({ updates: Number(r.updates), ret: Number(r.ret), coordination: readCoordination(r) });
    expect(evaluationLine(at(reading(1, 30, null, false)))).toBe('update    30: return 0.934 (target 0.930) met, duplicates 22% NOT met, needed 62% met');
    expect(evaluationLine(at(reading(1, 20, 20, true)))).toBe(
      'update    20: return 0.934 (target 0.930) met, duplicates 10% met, needed 62% met  <- coordinated',
    );
    expect(evaluationLine({ updates: 40, ret: 0.5, coordination: null })).toBe('update    40: return 0.500; the page could not tell coordination');
  });
});
