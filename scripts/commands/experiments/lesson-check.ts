/**
 * `npm run lesson:check`: does the lesson say what the class will see? For each step it trains the
 * step's own setup (a live step: its config on top of the defaults, as the app trains it; a
 * pretrained step: the settings the shipped run was made with, `pretrainedConfig`) on seeds the app
 * does not show, measures every claim the step declares (core/lesson.ts) and prints, per step, the
 * claims with their value on each seed and whether they hold. Exit code 1 if any claim fails, 2 for
 * a bad command line. Trained runs are kept in `--cache` (a hash of the settings), so a second check
 * after a change of the words trains nothing.
 *
 *   npm run lesson:check -- [--seeds 101,102,103] [--steps 1,3] [--updates N | --quick] [--cache results/lesson-check | --no-cache]
 */
import { readCommandLine } from '../../lib/cli';
import { parseLessonCheck, USAGE } from '../../lib/lessonCheck/options';

async function main(): Promise<void> {
  const opts = readCommandLine('lesson:check', USAGE, parseLessonCheck);
  // TF.js loads only once the command line is known to be good.
  const { runLessonCheck } = await import('../../lib/lessonCheck/run');
  process.exit((await runLessonCheck(opts)) ? 0 : 1);
}

void main();
