/** The command line of `npm run bench:ui`: its defaults, help and flags (scripts/commands/bench/bench-ui.ts). */
import { intFlag, intListFlag, numberFlag, parseFlags, pathFlag, UsageError } from '../cli';
import { LESSON_CONTENT } from '../../../src/core/lesson';
import { liveSteps } from '../uiLesson';
import { COORDINATION } from '../uiLearn';
import { LINK_VERSION } from '../../../src/rl/config';

const DEFAULT_PORT = 4191;
const DEFAULT_SECONDS = 60;
/** Today's link format: the page reads the lesson's step numbers (`--lesson`) as this build numbers them. */
const DEFAULT_HASH = `v=${LINK_VERSION}&seed=1`;
/** --learn: how far below the scripted organisation the swarm may stay and still count as coordinated (src/sim/coordination.ts). */
export const MARGIN = COORDINATION.returnMargin;
/** --learn: the default cap on seconds of training. */
const DEFAULT_MAX_SECONDS = 300;
/** --lesson: the default cap on seconds per step, from opening it. */
const DEFAULT_LESSON_MAX_SECONDS = 1800;
export const USAGE = `usage: npm run bench:ui -- [--seconds ${DEFAULT_SECONDS}] [--hash ${DEFAULT_HASH}] [--threads auto] [--after-updates 0] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
       npm run bench:ui -- --learn [--to-end] [--max-seconds ${DEFAULT_MAX_SECONDS}] [--hash ${DEFAULT_HASH}] [--seeds 1,2,3] [--threads auto] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
       npm run bench:ui -- --lesson [${liveSteps().join(',')}] [--max-seconds ${DEFAULT_LESSON_MAX_SECONDS}] [--hash ${DEFAULT_HASH}] [--threads auto] [--port ${DEFAULT_PORT}] [--no-build] [--json <file>]
  --seconds <n>   how long to train with every view live (default: ${DEFAULT_SECONDS})
  --hash <hash>   URL hash selecting the config (default: ${DEFAULT_HASH}: the default task family, 8 agents)
  --threads <n>   threads for the wasm backend, as the page's ?threads= setting (default: auto, the page's choice)
  --after-updates <n>  train until the run has n updates before measuring (default: 0); the config must allow that many
  --port <n>      port of the preview server (default: ${DEFAULT_PORT})
  --no-build      serve the existing dist/ instead of running \`npm run build\` first
  --json <file>   also write the numbers to <file> as JSON
  --trace <file>  record a Chromium performance trace of the window to <file> and break its long tasks down
  --learn         instead: open the page, press Train as soon as it can be pressed, and report the start-up times,
                  and the seconds of training until the page itself shows coordination (the curve's marker, the work
                  panel's line): its own final-deadline evaluation of the swarm meets all three conditions of
                  src/sim/coordination.ts (return at least the scripted organisation's minus ${MARGIN}, duplicate work at
                  most ${COORDINATION.maxDuplicateShare * 100}% of useful work, at least ${COORDINATION.minNeededShare * 100}% of deliveries needed)
  --to-end        with --learn: go on training until the run's last update, and report the error of the page's time left
  --seeds <list>  with --learn: one page run per training seed, one after another (e.g. 1,2,3; each replaces the
                  hash's seed), and the median time over them (a seed that never coordinates counts as slower than any)
  --max-seconds <n>  with --learn: give up after n seconds of training (default: ${DEFAULT_MAX_SECONDS});
                  with --lesson: give up on a step n seconds after opening it (default: ${DEFAULT_LESSON_MAX_SECONDS})
  --lesson [steps]  instead: open each of these lesson steps (default: every live step that trains or steps when
                  opened: ${liveSteps().join(', ')}) as its link does, do what the step asks of the teacher (drag the slider its
                  claims assume, when the update readout reaches the update they drag it at), and report the
                  config it trains, the update by which the page has shown everything its claims measure, and the
                  seconds from opening the step until the page showed it
  --help          print this help`;

export interface Options {
  seconds: number;
  hash: string;
  threads: string;
  afterUpdates: number;
  port: number;
  build: boolean;
  json?: string;
  trace?: string;
  learn: boolean;
  toEnd: boolean;
  maxSeconds: number;
  /** --lesson: the steps to time (1-based), or null without --lesson. */
  lesson: number[] | null;
  /** --learn --seeds: the training seeds, a page run each (the hash's seed replaced), or null for the hash's own. */
  seeds: number[] | null;
}

/** `hash` with its training seed set to `seed` (the rest of the link as given). */
export function withSeed(hash: string, seed: number): string {
  const params = new URLSearchParams(hash);
  params.set('seed', String(seed));
  return params.toString();
}

/** `--lesson`'s text as the steps to time: "all", or a list of live steps (sorted, each once). */
function lessonSteps(text: string): number[] {
  const live = liveSteps();
  if (text === 'all') return live;
  const steps = [...new Set(intListFlag('lesson', text, 1, LESSON_CONTENT.length))].sort((a, b) => a - b);
  for (const n of steps) {
    const s = LESSON_CONTENT[n - 1];
    if (!live.includes(n)) {
      const what = s.setup.kind === 'pretrained' ? `replays the pretrained ${s.setup.family} run` : 'waits for the class to press Train';
      throw new UsageError(`--lesson: step ${n} ("${s.title}") ${what}, it does not train when opened; the steps that do are ${live.join(', ')}`);
    }
  }
  return steps;
}

export function parseOptions(argv: string[]): Options | 'help' {
  // A bare `--lesson` (last, or before another flag) times every live step.
  const args = argv.map((a, i) => (a === '--lesson' && (i + 1 === argv.length || argv[i + 1].startsWith('--')) ? '--lesson=all' : a));
  const values = parseFlags(args, {
    seconds: { type: 'string', default: String(DEFAULT_SECONDS) },
    hash: { type: 'string', default: DEFAULT_HASH },
    threads: { type: 'string', default: 'auto' },
    'after-updates': { type: 'string', default: '0' },
    port: { type: 'string', default: String(DEFAULT_PORT) },
    'no-build': { type: 'boolean', default: false },
    json: { type: 'string' },
    trace: { type: 'string' },
    learn: { type: 'boolean', default: false },
    'to-end': { type: 'boolean', default: false },
    seeds: { type: 'string' },
    'max-seconds': { type: 'string' },
    lesson: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) return 'help';
  const lesson = values.lesson === undefined ? null : lessonSteps(values.lesson);
  if (lesson) {
    if (values.learn) throw new UsageError('--lesson and --learn: choose one');
    if (values.trace !== undefined) throw new UsageError('--trace does not go with --lesson');
    if (values['after-updates'] !== '0') throw new UsageError('--after-updates does not go with --lesson (each step trains from its start)');
    if (values.seconds !== String(DEFAULT_SECONDS)) throw new UsageError('--seconds does not go with --lesson (use --max-seconds)');
  }
  if (!values.learn && values['to-end']) throw new UsageError('--to-end needs --learn');
  if (values.learn && values.trace !== undefined) throw new UsageError('--trace does not go with --learn');
  if (!values.learn && values.seeds !== undefined) throw new UsageError('--seeds needs --learn (one page run to coordination per seed)');
  return {
    learn: values.learn,
    toEnd: values['to-end'],
    lesson,
    maxSeconds: numberFlag('max-seconds', values['max-seconds'] ?? String(lesson ? DEFAULT_LESSON_MAX_SECONDS : DEFAULT_MAX_SECONDS), {
      kind: 'float',
      min: 1,
      max: 86_400,
    }),
    seconds: numberFlag('seconds', values.seconds, { kind: 'float', min: 0.001, max: 86_400 }),
    hash: values.hash.replace(/^#/, ''),
    threads: values.threads === 'auto' ? 'auto' : String(intFlag('threads', values.threads, 1, 99)),
    afterUpdates: intFlag('after-updates', values['after-updates'], 0, 1_000_000),
    port: intFlag('port', values.port, 1024, 65535),
    build: !values['no-build'],
    json: values.json === undefined ? undefined : pathFlag('json', values.json),
    trace: values.trace === undefined ? undefined : pathFlag('trace', values.trace),
    seeds: values.seeds === undefined ? null : intListFlag('seeds', values.seeds, 0, 2 ** 31 - 1),
  };
}
