import { describe, expect, it } from 'vitest';
import { formatDuration, RateMeter } from './rate';

describe('RateMeter', () => {
  it('says nothing before it has run for a second, then the rate over the window and the time left', () => {
    const m = new RateMeter();
    expect(m.read(0, 100)).toEqual({ perSecond: null, etaSeconds: null });
    m.start(0, 0);
    m.observe(400, 1);
    expect(m.read(500, 100).perSecond).toBeNull();
    m.observe(800, 2);
    m.observe(2000, 5);
    const r = m.read(2000, 105);
    expect(r.perSecond).toBeCloseTo(2.5);
    expect(r.etaSeconds).toBeCloseTo(40);
    // The time left counts down between updates.
    expect(m.read(3000, 105).etaSeconds).toBeCloseTo(39);
  });

  it('forgets samples older than the window, so the rate follows a change of speed', () => {
    const m = new RateMeter({ windowMs: 10_000 });
    m.start(0, 0);
    for (let t = 1000; t <= 20_000; t += 1000) m.observe(t, t / 1000);
    expect(m.read(20_000, 1000).perSecond).toBeCloseTo(1);
    // Four times faster from here on.
    for (let t = 20_250; t <= 40_000; t += 250) m.observe(t, 20 + (t - 20_000) / 250);
    expect(m.read(40_000, 1000).perSecond).toBeCloseTo(4);
  });

  it('keeps a few samples of a slow run even when they are older than the window', () => {
    const m = new RateMeter({ windowMs: 10_000, minSamples: 3 });
    m.start(0, 0);
    m.observe(20_000, 1);
    m.observe(40_000, 2);
    expect(m.read(40_000, 10).perSecond).toBeCloseTo(0.05);
  });

  it('does not count paused time, and starts again after a reset', () => {
    const m = new RateMeter();
    m.start(0, 0);
    m.observe(2000, 4);
    m.pause();
    expect(m.read(60_000, 10)).toEqual({ perSecond: null, etaSeconds: null });
    m.observe(61_000, 5);
    expect(m.read(61_000, 10).perSecond).toBeNull();
    m.start(100_000, 4);
    m.observe(101_000, 5);
    m.observe(102_000, 6);
    expect(m.read(102_000, 10).perSecond).toBeCloseTo(1);
    m.observe(103_000, 0);
    expect(m.read(103_000, 10).perSecond).toBeNull();
  });

  it('gives a time left of 0 once the target is reached', () => {
    const m = new RateMeter();
    m.start(0, 8);
    m.observe(2000, 10);
    expect(m.read(2000, 10)).toEqual({ perSecond: null, etaSeconds: 0 });
  });
});

describe('formatDuration', () => {
  it('writes seconds, minutes or hours', () => {
    expect(formatDuration(0.4)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
  });
});
