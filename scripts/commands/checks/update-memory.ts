/**
 * The memory one training update takes: runs a single update (one epoch) on the wasm backend with the
 * given sizes and prints the settings, the seconds it took and the estimate `estimateUpdateBytes`
 * gives. Measure the peak from outside, e.g. `/usr/bin/time -f "maxrss %M KB"`. The estimate's
 * constants (src/rl/settingsCheck.ts) were fitted to such peaks.
 *
 *   /usr/bin/time -f "maxrss %M KB" npx tsx scripts/commands/checks/update-memory.ts --agents 16 --tasks-per-update 2 --group-size 4 --hidden 64 --scorer 32 --tmax 200
 */
import { configFromStrings, defaultConfig } from '../../../src/rl/config';
import { estimateUpdateBytes } from '../../../src/rl/settingsCheck';
import { Trainer } from '../../../src/rl/trainer';
import { useBackend } from '../../lib/backend';
import { parseFlags, readCommandLine, UsageError } from '../../lib/cli';

const USAGE =
  'usage: npx tsx scripts/commands/checks/update-memory.ts [--agents 16] [--tasks-per-update 2] [--group-size 4] [--hidden 64] [--scorer 32] [--tmax 200]';

function parseOptions(argv: string[]) {
  const v = parseFlags(argv, {
    agents: { type: 'string', default: '16' },
    'tasks-per-update': { type: 'string', default: '2' },
    'group-size': { type: 'string', default: '4' },
    hidden: { type: 'string', default: '64' },
    scorer: { type: 'string', default: '32' },
    tmax: { type: 'string', default: '200' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help' as const;
  const { config, issues } = configFromStrings(
    {
      family: 'long-coupled',
      agents: v.agents,
      tasksPerUpdate: v['tasks-per-update'],
      groupSize: v['group-size'],
      hidden: v.hidden,
      scorer: v.scorer,
      tmaxStart: v.tmax,
      tmaxEnd: v.tmax,
      epochs: '1',
    },
    'strict',
    defaultConfig(),
  );
  if (issues.length) throw new UsageError(issues.map((i) => `--${i.key}: ${i.message}`).join('; '));
  return config;
}

async function main(): Promise<void> {
  const config = readCommandLine('update-memory', USAGE, parseOptions);
  await useBackend('wasm');
  const trainer = new Trainer(config);
  const t0 = performance.now();
  await trainer.step();
  const { agents, tasksPerUpdate, groupSize, hidden, scorer, tmaxEnd } = config;
  const estimate = estimateUpdateBytes(config) / 2 ** 30;
  console.log(
    JSON.stringify({
      agents,
      tasksPerUpdate,
      groupSize,
      hidden,
      scorer,
      tmax: tmaxEnd,
      seconds: +((performance.now() - t0) / 1000).toFixed(1),
      estimateGB: +estimate.toFixed(2),
      rssGB: +(process.memoryUsage().rss / 2 ** 30).toFixed(2),
    }),
  );
  trainer.dispose();
}

void main();
