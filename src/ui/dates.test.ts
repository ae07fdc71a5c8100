import { describe, expect, it } from 'vitest';
import { formatDateTime, formatTime } from './dates';

describe('dates', () => {
  const at = new Date(2026, 11, 1, 15, 4, 5).getTime();
  it('formats as the locale does, date with time and time alone', () => {
    expect(formatDateTime(at)).toBe(new Date(at).toLocaleString());
    expect(formatTime(at)).toBe(new Date(at).toLocaleTimeString());
  });
  it('reads the ISO dates run files store', () => {
    const iso = new Date(at).toISOString();
    expect(formatDateTime(iso)).toBe(new Date(iso).toLocaleString());
  });
  it('says so for a time stamp that is not a number, instead of throwing', () => {
    expect(formatDateTime(Number.NaN)).toBe('unknown date');
    expect(formatTime(Number.POSITIVE_INFINITY)).toBe('unknown time');
    expect(formatDateTime('yesterday-ish')).toBe('unknown date');
  });
});
