import { describe, expect, it } from 'vitest';
import { episodeFrameCount, framesPerMinute, holdFrames, tickAtFrame } from './frameSource';

describe('frame timing', () => {
  it('plays a speed in simulated minutes per second at the frame rate', () => {
    expect(framesPerMinute(2, 30)).toBe(15);
    expect(framesPerMinute(16, 30)).toBeCloseTo(1.875);
    expect(framesPerMinute(1, 60)).toBe(60);
  });

  it('holds the last minute for a second, at least one frame', () => {
    expect(holdFrames(30)).toBe(30);
    expect(holdFrames(30, 0.5)).toBe(15);
    expect(holdFrames(30, 0)).toBe(1);
  });

  it('counts the frames of an episode: its minutes at the speed, then the hold', () => {
    // 24 minutes at 2 min/s: 12 s, 360 frames, then 30 frames of hold.
    expect(episodeFrameCount(24, { speed: 2, fps: 30 })).toBe(390);
    // 8 minutes at 16 min/s: 0.5 s, 15 frames, then the hold.
    expect(episodeFrameCount(8, { speed: 16, fps: 30 })).toBe(45);
    // 5 minutes at 4 min/s: 37.5 frames, so the clock reaches 5 at frame 38.
    expect(episodeFrameCount(5, { speed: 4, fps: 30 })).toBe(38 + 30);
    expect(episodeFrameCount(0, { speed: 4, fps: 30 })).toBe(30);
  });

  it('shows whole minutes, reaching the end exactly when the hold starts', () => {
    const timing = { speed: 2, fps: 30 };
    const frames = episodeFrameCount(24, timing);
    const ticks = Array.from({ length: frames }, (_, i) => tickAtFrame(i, 24, timing));
    expect(ticks[0]).toBe(0);
    expect(ticks[14]).toBe(0);
    expect(ticks[15]).toBe(1);
    expect(ticks.indexOf(24)).toBe(360);
    expect(ticks.slice(360).every((t) => t === 24)).toBe(true);
    // Every minute is on screen for the same number of frames.
    for (let m = 0; m < 24; m++) expect(ticks.filter((t) => t === m)).toHaveLength(15);
  });

  it('ends at the last minute for a speed that does not divide the frame rate', () => {
    const timing = { speed: 16, fps: 30 };
    const frames = episodeFrameCount(9, timing);
    const ticks = Array.from({ length: frames }, (_, i) => tickAtFrame(i, 9, timing));
    expect(ticks[frames - 1]).toBe(9);
    expect(ticks.filter((t) => t === 9)).toHaveLength(30);
    expect(new Set(ticks).size).toBe(10);
  });
});
