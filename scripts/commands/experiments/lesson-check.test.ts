import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LESSON_CONTENT } from '../../../src/core/lesson';
import { parseLessonCheck } from '../../lib/lessonCheck/options';

const tsx = join('node_modules', '.bin', 'tsx');
const run = (args: string[]) => spawnSync(tsx, ['scripts/commands/experiments/lesson-check.ts', ...args], { encoding: 'utf8' });

describe('npm run lesson:check, its command line', () => {
  it('defaults to seeds the app does not show and every step', () => {
    const o = parseLessonCheck([]);
    expect(o).not.toBe('help');
    if (o === 'help') return;
    expect(o.seeds).toEqual([101, 102, 103]);
    expect(o.steps).toEqual(LESSON_CONTENT.map((_, i) => i + 1));
    expect(o.updates).toBeNull();
    expect(o.cache).toBe('results/lesson-check');
    const p = parseLessonCheck(['--seeds', '7,8', '--steps', '3,1,3', '--updates', '20', '--no-cache', '--backend', 'cpu']);
    expect(p).toMatchObject({ seeds: [7, 8], steps: [1, 3], updates: 20, cache: null, backend: 'cpu' });
  });

  it('refuses a bad command line with one line and exit code 2, before TF.js loads', () => {
    const cases: [string[], RegExp][] = [
      [['--stepz', '1'], /^lesson:check: unknown flag --stepz$/m],
      [['--steps', String(LESSON_CONTENT.length + 1)], new RegExp(`^lesson:check: --steps: .*1 to ${LESSON_CONTENT.length}`, 'm')],
      [['--seeds', '1,2'], /^lesson:check: --seeds: seed 1 is the one the app shows/m],
      [['--quick', '--updates', '5'], /^lesson:check: --quick and --updates: choose one scale$/m],
      [['--updates', '0'], /^lesson:check: --updates: /m],
      [['--backend', 'gpu'], /^lesson:check: --backend: "gpu" is not one of wasm, cpu$/m],
    ];
    for (const [args, message] of cases) {
      const r = run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(/^lesson:check: /);
      expect(r.stdout).toBe('');
    }
  }, 60_000);

  it('at the smoke scale, prints a table with one row per claim of the step and exits 1 exactly when a claim fails', () => {
    const r = run(['--quick', '--steps', '2', '--seeds', '5', '--no-cache', '--backend', 'cpu']);
    expect(r.stdout).toMatch(/^Step 2: /m);
    const step = LESSON_CONTENT[1];
    const rows = r.stdout.split('\n').filter((l) => / (pass|FAIL)$/.test(l));
    expect(rows).toHaveLength(step.claims.length);
    for (const c of step.claims) expect(r.stdout).toContain(c.says);
    const failed = rows.filter((l) => l.endsWith('FAIL')).length;
    expect(r.status, r.stderr).toBe(failed ? 1 : 0);
    expect(r.stdout).toMatch(failed ? new RegExp(`${failed} of ${step.claims.length} claims failed`) : /All \d+ claims hold on every seed/);
  }, 120_000);
});
