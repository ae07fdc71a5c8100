import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/rl/config';
import { updateWork } from '../../src/core/timeLeft';
import { formatDuration, ProgressBar } from './progress';

/** The ETA printed on the bar's last line, in seconds. */
function lastEta(lines: string[]): number {
  const m = /ETA (?:(\d+):)?(\d+):(\d\d)/.exec(lines.at(-1)!)!;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** A bar over the default run (300 updates) whose update u takes 1e-4 s per agent-minute, after `upTo` updates. */
function run(options: { work?: boolean }, upTo: number): string[] {
  const c = defaultConfig();
  const lines: string[] = [];
  let t = 0;
  const bar = new ProgressBar('seed 1', 300, { write: (s: string) => lines.push(s) }, { now: () => t, work: options.work ? c : undefined });
  for (let u = 0; u < upTo; u++) {
    t += 1000 * 1e-4 * updateWork(c, u);
    bar.update(u + 1);
  }
  return lines;
}

describe('ProgressBar', () => {
  it("given the run's settings, its ETA counts the longer deadlines to come", () => {
    const c = defaultConfig();
    let rest = 0;
    for (let u = 30; u < 300; u++) rest += 1e-4 * updateWork(c, u);
    // After 30 updates (10%, a line is printed) the mean rate so far promises far too little; the model does not.
    expect(lastEta(run({ work: true }, 30)) / rest).toBeGreaterThan(0.97);
    expect(lastEta(run({ work: true }, 30)) / rest).toBeLessThan(1.06);
    expect(lastEta(run({}, 30)) / rest).toBeLessThan(0.7);
  });

  it('prints a line per 10% when the output is no terminal', () => {
    expect(run({ work: true }, 300)).toHaveLength(11);
    expect(run({ work: true }, 300).at(-1)).toContain('300/300');
    expect(lastEta(run({ work: true }, 300))).toBe(0);
  });

  it('formats durations as m:ss or h:mm:ss', () => {
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3700)).toBe('1:01:40');
    expect(formatDuration(Infinity)).toBe('--:--');
  });
});
