import { describe, expect, it } from 'vitest';
import type { TalkRecord } from '../core/runFormat';
import { neededSentence, printedGain, talkSentence, talkTone, talkWhen } from './talkText';

const at = (over: Partial<TalkRecord>): TalkRecord => ({
  updates: 150,
  tmax: 24,
  tasks: 8,
  ret: 0.77,
  muted: 0.65,
  neededShare: 0.62,
  messages: 12.5,
  ...over,
});

describe('talk figures in words', () => {
  it('says a positive gain as what talk is worth, with both returns and the update', () => {
    const r = at({});
    expect(talkSentence(r)).toBe('Talk is worth +0.12 of the tests (0.77 talking vs 0.65 muted, update 150).');
    expect(talkTone(r)).toBe('gain');
  });

  it('says a negative gain plainly as overhead', () => {
    const r = at({ ret: 0.62, muted: 0.65 });
    expect(talkSentence(r)).toBe('Muting it would gain 0.03: its talk is overhead (0.62 talking vs 0.65 muted, update 150).');
    expect(talkTone(r)).toBe('overhead');
  });

  it('takes the gain from the returns as printed, so the sentence adds up', () => {
    expect(talkSentence(at({ ret: 0.124, muted: 0.076 }))).toBe('Talk is worth +0.04 of the tests (0.12 talking vs 0.08 muted, update 150).');
    expect(printedGain({ ret: 0.076, muted: 0.124 })).toBe(-0.04);
    expect(printedGain({ ret: 0.3, muted: 0.1 })).toBe(0.2);
  });

  it('calls a gain that rounds to 0.00 no difference, whichever its sign', () => {
    for (const muted of [0.65, 0.6501, 0.6499]) {
      const r = at({ ret: 0.65, muted });
      expect(talkSentence(r)).toBe('Its talk makes no difference to the tests (0.65 talking vs 0.65 muted, update 150).');
      expect(talkTone(r)).toBe('even');
    }
  });

  it('says when a silent swarm is unchanged by muting, and names the untrained swarm', () => {
    const r = at({ updates: 0, ret: 0.4, muted: 0.4, messages: 0, neededShare: 0 });
    expect(talkWhen(r)).toBe('before training');
    expect(talkSentence(r)).toBe('The swarm sends no messages, so muting it changes nothing (0.40 of the tests, before training).');
    expect(neededSentence(r)).toBe('No messages were sent, so no interface was handed over.');
  });

  it('gives the share of needed deliveries as a whole percentage', () => {
    expect(neededSentence(at({}))).toBe('On these fresh tasks 62% of deliveries brought an interface the receiver needed.');
    expect(neededSentence(at({ neededShare: 0 }))).toBe('On these fresh tasks 0% of deliveries brought an interface the receiver needed.');
    expect(neededSentence(at({ neededShare: 1 }))).toBe('On these fresh tasks 100% of deliveries brought an interface the receiver needed.');
  });

  it('does not print NaN when a measurement failed', () => {
    expect(talkSentence(at({ ret: NaN }))).toBe('What talk is worth could not be measured (update 150).');
    expect(neededSentence(at({ neededShare: NaN }))).toBe('The share of useful deliveries could not be measured.');
  });
});
