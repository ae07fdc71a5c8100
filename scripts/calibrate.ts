/**
 * How a task family's deadline binds: the reference organisations' mean return at chosen deadlines
 * on fresh evaluation tasks (simulation only, no training; a fraction of a second). The numbers of
 * docs/ENGINE.md's calibration come from here.
 *
 *   npm run calibrate -- [--family long-coupled] [--agents 8] [--deadlines 40,70,80] [--tasks 64] [--seed 1]
 */
import { randomPolicy, scriptedOrganisation, singleChain } from '../src/sim/baselines';
import { bestOfN, mean, runEpisodes } from '../src/sim/evaluate';
import { FAMILIES, generateTask, MAX_AGENTS } from '../src/sim/task';
import { evaluationSeed } from '../src/sim/seeds';
import { choiceFlag, intFlag, intListFlag, parseFlags, readCommandLine } from './lib/cli';
import { formatTable } from './lib/table';

const USAGE = `usage: npm run calibrate -- [--family ${FAMILIES.join('|')}] [--agents 1-${MAX_AGENTS}] [--deadlines 40,70,80] [--tasks 64] [--seed 1]`;

function parseOptions(argv: string[]) {
  const v = parseFlags(argv, {
    family: { type: 'string', default: 'long-coupled' },
    agents: { type: 'string', default: '8' },
    deadlines: { type: 'string', default: '40,70,80' },
    tasks: { type: 'string', default: '64' },
    seed: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help' as const;
  return {
    family: choiceFlag('family', v.family, FAMILIES),
    agents: intFlag('agents', v.agents, 1, MAX_AGENTS),
    deadlines: intListFlag('deadlines', v.deadlines, 1, 1000),
    tasks: intFlag('tasks', v.tasks, 1, 10000),
    seed: intFlag('seed', v.seed, 0, 2147483647),
  };
}

async function main(): Promise<void> {
  const o = readCommandLine('calibrate', USAGE, parseOptions);
  const tasks = Array.from({ length: o.tasks }, (_, i) => generateTask(o.family, evaluationSeed(i)));
  const rows: string[][] = [];
  for (const tmax of o.deadlines) {
    const ret = async (src: Parameters<typeof runEpisodes>[0]) => (await runEpisodes(src, tasks, o.agents, o.seed, tmax)).stats;
    const scripted = await ret(scriptedOrganisation);
    rows.push([
      String(tmax),
      mean((await ret(randomPolicy(o.seed))).map((s) => s.ret)).toFixed(3),
      mean((await ret(singleChain)).map((s) => s.ret)).toFixed(3),
      mean((await bestOfN(tasks, o.agents, o.seed, tmax)).map((s) => s.ret)).toFixed(3),
      mean(scripted.map((s) => s.ret)).toFixed(3),
      mean(scripted.map((s) => s.t90 ?? tmax)).toFixed(1),
    ]);
  }
  console.log(`${o.family}, ${o.agents} agents, ${o.tasks} fresh evaluation tasks, seed ${o.seed}: mean return at each deadline`);
  console.log(formatTable(['deadline', 'random', 'single chain', 'best-of-N', 'scripted organisation', 'scripted: min to 90% (deadline if never)'], rows));
}

void main();
