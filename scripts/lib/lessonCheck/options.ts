/** The command line of `npm run lesson:check` (scripts/commands/experiments/lesson-check.ts): TF-free, so a bad flag is answered before TF.js loads. */
import { LESSON_CONTENT } from '../../../src/core/lesson';
import { choiceFlag, intFlag, intListFlag, parseFlags, pathFlag, UsageError } from '../cli';
import { NODE_BACKENDS, type NodeBackend } from '../nodeBackends';

export const USAGE = `usage: npm run lesson:check -- [--seeds 101,102,103] [--steps 1-${LESSON_CONTENT.length} list, e.g. 1,3] [--updates N] [--quick] [--cache DIR | --no-cache] [--backend ${NODE_BACKENDS.join('|')}]
  --updates N   train every setup for N updates (the imitation prior shrinks to a third at most): a smoke scale, the verdicts then mean little
  --quick       the smallest scale (4 updates, one group of 2 rollouts, 2 evaluation tasks): checks that the check runs`;

/** The app shows seed 1 (and what the URL sets); these are not it. */
export const DEFAULT_SEEDS = [101, 102, 103];

export interface LessonCheckOptions {
  seeds: number[];
  steps: number[];
  updates: number | null;
  quick: boolean;
  cache: string | null;
  backend: NodeBackend;
}

export function parseLessonCheck(argv: string[]): LessonCheckOptions | 'help' {
  const v = parseFlags(argv, {
    seeds: { type: 'string', default: DEFAULT_SEEDS.join(',') },
    steps: { type: 'string' },
    updates: { type: 'string' },
    quick: { type: 'boolean', default: false },
    cache: { type: 'string', default: 'results/lesson-check' },
    'no-cache': { type: 'boolean', default: false },
    backend: { type: 'string', default: 'wasm' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  const seeds = intListFlag('seeds', v.seeds, 0, 2147483647);
  if (seeds.includes(1)) throw new UsageError('--seeds: seed 1 is the one the app shows; check on others');
  const steps = v.steps === undefined ? LESSON_CONTENT.map((_, i) => i + 1) : intListFlag('steps', v.steps, 1, LESSON_CONTENT.length);
  if (v.quick && v.updates !== undefined) throw new UsageError('--quick and --updates: choose one scale');
  return {
    seeds: [...new Set(seeds)],
    steps: [...new Set(steps)].sort((a, b) => a - b),
    updates: v.updates === undefined ? null : intFlag('updates', v.updates, 1, 100000),
    quick: v.quick,
    cache: v['no-cache'] ? null : pathFlag('cache', v.cache, 'a folder'),
    backend: choiceFlag('backend', v.backend, NODE_BACKENDS),
  };
}
