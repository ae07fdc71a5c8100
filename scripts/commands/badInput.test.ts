import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LESSON_CONTENT } from '../../src/core/lesson';
import { liveSteps } from '../lib/uiLesson';

const tsx = join('node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'swarm-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a script to its end; resolves with its exit code and output. */
function run(script: string, args: string[]): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs jobs at most `n` at a time, in order of the results. */
async function limited<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

const out = join(dir, 'never-written');

/** A lesson step that does not train when it is opened (a replay, or one the class starts): bench:ui --lesson refuses it. */
const notLive = LESSON_CONTENT.findIndex((_, i) => !liveSteps().includes(i + 1)) + 1;

/** Each bad command line, with the words its one-line refusal must hold. */
/** A file that is no run file. */
const notARun = join(dir, 'notes.txt');
writeFileSync(notARun, 'not a run file');

const CASES: [script: string, args: string[], expected: string][] = [
  ['scripts/commands/experiments/pretrain.ts', ['--out', ''], '--out needs a folder'],
  ['scripts/commands/experiments/pretrain.ts', ['--updates', '1e12'], '"1e12" is not an integer from 1 to 1000000'],
  ['scripts/commands/experiments/pretrain.ts', ['--updates', '-5'], '-5 is out of range'],
  ['scripts/commands/experiments/pretrain.ts', ['--families', 'coupled,,parallel'], 'has an empty item'],
  ['scripts/commands/experiments/experiment.ts', ['--to-string', '1', '--out', out], 'unknown flag --to-string'],
  ['scripts/commands/experiments/experiment.ts', ['--constructor', '--out', out], 'unknown flag --constructor'],
  ['scripts/commands/experiments/experiment.ts', ['--__proto__', 'x', '--out', out], 'unknown flag --__proto__'],
  ['scripts/commands/experiments/experiment.ts', ['--seeds', '1,,2', '--out', out], 'item 2 of "1,,2" is empty'],
  ['scripts/commands/experiments/experiment.ts', ['--agents', '0x8', '--out', out], '"0x8" is not an integer from 1 to 16'],
  ['scripts/commands/experiments/experiment.ts', ['--agents', '1e1', '--out', out], '"1e1" is not an integer from 1 to 16'],
  ['scripts/commands/experiments/experiment.ts', ['--agents', '-3', '--out', out], '-3 is out of range'],
  ['scripts/commands/experiments/experiment.ts', ['--out', ''], '--out needs a path'],
  [
    'scripts/commands/experiments/experiment.ts',
    [
      '--agents',
      '16',
      '--tasks-per-update',
      '64',
      '--group-size',
      '64',
      '--hidden',
      '512',
      '--scorer',
      '256',
      '--tmax-start',
      '200',
      '--tmax-end',
      '200',
      '--out',
      out,
    ],
    'lower --tasks-per-update (64) or --group-size (64)',
  ],
  ['scripts/commands/experiments/race.ts', ['--scaling', '1,,2'], 'item 2 of "1,,2" is empty'],
  ['scripts/commands/experiments/race.ts', ['--agents', '0x8'], '"0x8" is not an integer'],
  ['scripts/commands/experiments/race.ts', ['--swarm', ''], '--swarm needs a run file'],
  ['scripts/commands/experiments/race.ts', ['--tasks'], '--tasks needs a value'],
  ['scripts/commands/experiments/experiment.ts', ['--critic=1', '--out', out], '--critic takes no value'],
  ['scripts/commands/experiments/experiment.ts', ['--claim', 'C1', '--jobs', '0'], '--jobs: 0 is out of range'],
  ['scripts/commands/experiments/calibrate.ts', ['--agentz', '3'], 'calibrate: unknown flag --agentz'],
  ['scripts/commands/experiments/calibrate.ts', ['extra'], 'unexpected argument "extra"'],
  ['scripts/commands/bench/bench.ts', ['--backends', 'cpu,gpu'], '--backends: "gpu" is not one of'],
  ['scripts/commands/bench/bench-policy.ts', ['--rows', '1e3'], '--rows: "1e3" is not an integer from 1 to 200000'],
  ['scripts/commands/bench/bench-learn.ts', ['--threads', 'two'], '--threads: "two" is not an integer from 1 to 16'],
  ['scripts/commands/bench/bench-learn.ts', ['--seed', '2', '--seeds', '1,2'], '--seed and --seeds: give one'],
  ['scripts/commands/bench/bench-learn.ts', ['--seeds', '1,x'], '--seeds:'],
  [
    'scripts/commands/bench/bench-learn.ts',
    ['--threads', '8'],
    '--threads 8: each thread needs a task group of its own, and an update has 2 (--tasks-per-update)',
  ],
  [
    'scripts/commands/bench/bench-learn.ts',
    ['--threads', '2', '--set', 'structure=ceo'],
    '--threads 2: only the flat structure trains on several threads (this run is ceo)',
  ],
  ['scripts/commands/bench/bench-ui.ts', ['--lesson', String(notLive), '--no-build'], `--lesson: step ${notLive} ("${LESSON_CONTENT[notLive - 1]?.title}")`],
  ['scripts/commands/bench/bench-ui.ts', ['--lesson', `1,${LESSON_CONTENT.length + 1}`], `--lesson: ${LESSON_CONTENT.length + 1} is out of range`],
  ['scripts/commands/bench/bench-ui.ts', ['--lesson', '--learn'], '--lesson and --learn: choose one'],
  ['scripts/commands/bench/bench-ui.ts', ['--seeds', '1,2'], '--seeds needs --learn'],
  ['scripts/commands/bench/bench-ui.ts', ['--learn', '--seeds', '1,-2'], '--seeds:'],
  ['scripts/commands/experiments/pile-audit.ts', [], '--run <file> is required'],
  ['scripts/commands/experiments/pile-audit.ts', ['--run', 'x.swarmrun.json.gz', '--tasks', '0'], '--tasks: 0 is out of range'],
  [
    'scripts/commands/experiments/pile-audit.ts',
    ['--run', join(dir, 'missing.swarmrun.json.gz')],
    `pile-audit: --run: cannot read ${join(dir, 'missing.swarmrun.json.gz')}`,
  ],
  ['scripts/commands/experiments/pile-audit.ts', ['--run', notARun], `pile-audit: --run: ${notARun}: `],
];

/** A file where a script's output folder would go. */
const inTheWay = join(dir, 'a-file');
writeFileSync(inTheWay, 'not a folder');

/** Output folders and files no script can write: each refused before any work, in one line. */
const OUTPUT_CASES: [script: string, args: string[], line: string][] = [
  [
    'scripts/commands/experiments/experiment.ts',
    ['--out', '/proc/nope', '--updates', '1'],
    "error: --out /proc/nope: /proc is on the kernel's proc file system, not a place for files: choose a folder on a disk",
  ],
  ['scripts/commands/experiments/experiment.ts', ['--out', '/dev/null/x'], 'error: --out /dev/null/x: /dev/null is a device, not a folder'],
  [
    'scripts/commands/experiments/experiment.ts',
    ['--claim', 'C1', '--claim-scale', 'smoke', '--out', join(inTheWay, 'claims')],
    `error: --out ${join(inTheWay, 'claims')}: ${inTheWay} is a file, not a folder`,
  ],
  ['scripts/commands/experiments/pretrain.ts', ['--out', join(inTheWay, 'x')], `pretrain: --out ${join(inTheWay, 'x')}: ${inTheWay} is a file, not a folder`],
  [
    'scripts/commands/bench/bench.ts',
    ['--quick', '--json', join(inTheWay, 'bench.json')],
    `bench: --json ${join(inTheWay, 'bench.json')}: ${inTheWay} is a file, not a folder`,
  ],
  ['scripts/commands/bench/bench-learn.ts', ['--json', dir], `bench:learn: --json ${dir} is a folder, not a file to write`],
  [
    'scripts/commands/bench/bench-ui.ts',
    ['--no-build', '--json', '/proc/ui.json'],
    "bench:ui: --json /proc/ui.json: /proc is on the kernel's proc file system, not a place for files: choose a folder on a disk",
  ],
];

describe('bad output folders and files', () => {
  it.runIf(process.platform === 'linux')(
    'each ends with exit code 2 and one line naming the path and the reason, before any work',
    async () => {
      const results = await limited(
        OUTPUT_CASES.map(
          ([script, args]) =>
            () =>
              run(script, args),
        ),
        3,
      );
      results.forEach((r, i) => {
        const [script, args, line] = OUTPUT_CASES[i];
        const what = `${script} ${args.join(' ')}\n${r.stderr}`;
        expect(r.status, what).toBe(2);
        expect(r.stderr, what).toBe(`${line}\n`);
        expect(r.stdout, what).toBe('');
      });
      expect(existsSync('/proc/nope')).toBe(false);
    },
    240_000,
  );
});

describe('bad command lines', () => {
  it('each ends with exit code 2 and a message naming the problem, no stack trace, nothing written', async () => {
    const results = await limited(
      CASES.map(
        ([script, args]) =>
          () =>
            run(script, args),
      ),
      3,
    );
    results.forEach((r, i) => {
      const [script, args, expected] = CASES[i];
      const what = `${script} ${args.join(' ')}\n${r.stderr}`;
      expect(r.status, what).toBe(2);
      expect(r.stderr, what).toContain(expected);
      expect(r.stderr, what).not.toMatch(/^\s+at /m);
    });
    expect(existsSync(out)).toBe(false);
  }, 240_000);

  it('--init-from refuses an empty file and a gzip bomb with the reason, exit code 2', async () => {
    const empty = join(dir, 'empty.swarmrun.json.gz');
    writeFileSync(empty, new Uint8Array(0));
    const bomb = join(dir, 'bomb.swarmrun.json.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(210 * 2 ** 20)));
    const small = ['--agents', '2', '--updates', '1', '--tasks-per-update', '1', '--group-size', '2', '--backend', 'cpu', '--quiet'];
    // Each into its own folder: two experiments at once into one folder are not a case the folder's records serve.
    const [a, b] = await limited(
      [
        () => run('scripts/commands/experiments/experiment.ts', [...small, '--out', join(dir, 'init-empty'), '--init-from', empty]),
        () => run('scripts/commands/experiments/experiment.ts', [...small, '--out', join(dir, 'init-bomb'), '--init-from', bomb]),
      ],
      2,
    );
    expect(a.status).toBe(2);
    expect(a.stderr).toContain('The file is empty.');
    expect(b.status).toBe(2);
    expect(b.stderr).toContain('it unpacks to more than 200.0 MB, the limit');
    expect(b.stderr).not.toMatch(/^\s+at /m);
  }, 120_000);
});
