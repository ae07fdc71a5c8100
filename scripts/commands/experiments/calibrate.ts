/**
 * How a task family's deadline binds: the reference organisations' mean return at chosen deadlines
 * on fresh evaluation tasks (simulation only, no training; a fraction of a second), and the bound no
 * team can beat on minutes to 90% of the tests (src/sim/pathAudit.ts). The numbers of
 * docs/ENGINE.md's calibration come from here.
 *
 *   npm run calibrate -- [--family long-coupled] [--agents 8] [--deadlines 40,70,80] [--tasks 64] [--seed 1]
 *                        [--costs interruptions,broadcasts,conflicts,merges] [--effort 1.4] [--json <file>]
 *
 * `--json` also writes the numbers unrounded, a row per deadline (docs/RESULTS.md's calibration
 * figures are read from such files in results/headline/: `npm run results -- --check`).
 */
import { writeFileSync } from 'node:fs';
import { randomPolicy, scriptedOrganisation, singleChain } from '../../../src/sim/baselines';
import { bestOfN, mean, runEpisodes } from '../../../src/sim/evaluate';
import { FAMILIES, generateTask, MAX_AGENTS, totalWork } from '../../../src/sim/task';
import { evaluationSeed } from '../../../src/sim/seeds';
import { NO_COSTS, tasksWithCosts, type SprintCosts } from '../../../src/sim/costs';
import { SprintEnv } from '../../../src/sim/env';
import { boundTo90 } from '../../../src/sim/pathAudit';
import { choiceFlag, intFlag, intListFlag, numberFlag, parseFlags, pathFlag, readCommandLine } from '../../lib/cli';
import { requireOutput } from '../../lib/outputFolder';
import { formatTable } from '../../lib/table';

/** The optional costs by their setting names (docs/ENGINE.md, "Costs of talk and of piling on"). */
const COSTS = { interruptions: 'interrupt', broadcasts: 'broadcast', conflicts: 'conflict', merges: 'merge' } as const satisfies Record<
  string,
  keyof SprintCosts
>;
const COST_NAMES = Object.keys(COSTS) as (keyof typeof COSTS)[];

const USAGE = `usage: npm run calibrate -- [--family ${FAMILIES.join('|')}] [--agents 1-${MAX_AGENTS}] [--deadlines 40,70,80] [--tasks 64] [--seed 1] [--costs ${COST_NAMES.join(',')}] [--effort 0-10] [--json <file>]`;

/** `--costs`'s comma-separated rule names as the environment's costs (empty: none). */
function costsFlag(text: string): SprintCosts {
  const costs = { ...NO_COSTS };
  for (const name of text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== ''))
    costs[COSTS[choiceFlag('costs', name, COST_NAMES)]] = true;
  return costs;
}

/** `--effort`: the booked effort as a multiple of each task's nominal work (0: unlimited, the field absent). */
function effortFlag(text: string): Pick<SprintCosts, 'effort'> {
  const effort = numberFlag('effort', text, { kind: 'float', min: 0, max: 10 });
  return effort > 0 ? { effort } : {};
}

function parseOptions(argv: string[]) {
  const v = parseFlags(argv, {
    family: { type: 'string', default: 'long-coupled' },
    agents: { type: 'string', default: '8' },
    deadlines: { type: 'string', default: '40,70,80' },
    tasks: { type: 'string', default: '64' },
    seed: { type: 'string', default: '1' },
    costs: { type: 'string', default: '' },
    effort: { type: 'string', default: '0' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help' as const;
  return {
    family: choiceFlag('family', v.family, FAMILIES),
    agents: intFlag('agents', v.agents, 1, MAX_AGENTS),
    deadlines: intListFlag('deadlines', v.deadlines, 1, 1000),
    tasks: intFlag('tasks', v.tasks, 1, 10000),
    seed: intFlag('seed', v.seed, 0, 2147483647),
    costs: { ...costsFlag(v.costs), ...effortFlag(v.effort) },
    json: v.json === undefined ? undefined : pathFlag('json', v.json),
  };
}

/** One deadline's numbers, as the table prints them but unrounded (`--json`). */
interface CalibrationRow {
  deadline: number;
  /** Mean return of each reference organisation on the tasks at this deadline. */
  random: number;
  singleChain: number;
  bestOfN: number;
  scripted: number;
  /** The scripted organisation's mean minutes to 90% of the tests (the deadline where it never gets there). */
  scriptedTo90: number;
  /** The bound no team can beat on minutes to 90% (the deadline where later); null on families with luck modules. */
  boundTo90: number | null;
  /** The scripted organisation's DMs and posts per episode, and its interrupted minutes. */
  scriptedMessages: number;
  scriptedInterrupted: number;
  /** The most minutes not idled over a task's nominal work, over the tasks (the scripted organisation). */
  notIdledOverWork: number;
}

async function main(): Promise<void> {
  const o = readCommandLine('calibrate', USAGE, parseOptions);
  if (o.json) requireOutput('calibrate', 'json', o.json, 'file');
  const tasks = tasksWithCosts(
    Array.from({ length: o.tasks }, (_, i) => generateTask(o.family, evaluationSeed(i))),
    o.costs,
  );
  // The bound on minutes to 90% (src/sim/pathAudit.ts) from each rollout's work draws; null with luck modules.
  const drawn = new SprintEnv(tasks.length, o.agents);
  drawn.reset(tasks, o.seed, 1);
  const bounds = tasks.map((_, b) => boundTo90(drawn, b));
  const found: CalibrationRow[] = [];
  for (const tmax of o.deadlines) {
    const ret = async (src: Parameters<typeof runEpisodes>[0]) => (await runEpisodes(src, tasks, o.agents, o.seed, tmax)).stats;
    const scripted = await ret(scriptedOrganisation);
    found.push({
      deadline: tmax,
      random: mean((await ret(randomPolicy(o.seed))).map((s) => s.ret)),
      singleChain: mean((await ret(singleChain)).map((s) => s.ret)),
      bestOfN: mean((await bestOfN(tasks, o.agents, o.seed, tmax)).map((s) => s.ret)),
      scripted: mean(scripted.map((s) => s.ret)),
      scriptedTo90: mean(scripted.map((s) => s.t90 ?? tmax)),
      boundTo90: bounds.every((x) => x !== null) ? mean(bounds.map((x) => Math.min(x as number, tmax))) : null,
      scriptedMessages: mean(scripted.map((s) => s.metrics.dms + s.metrics.posts)),
      scriptedInterrupted: mean(scripted.map((s) => s.metrics.interrupted)),
      notIdledOverWork: Math.max(...scripted.map((s, i) => (s.tEnd * o.agents - s.metrics.idle) / totalWork(tasks[i]))),
    });
  }
  const rows = found.map((r) => [
    String(r.deadline),
    r.random.toFixed(3),
    r.singleChain.toFixed(3),
    r.bestOfN.toFixed(3),
    r.scripted.toFixed(3),
    r.scriptedTo90.toFixed(1),
    r.boundTo90 === null ? '-' : r.boundTo90.toFixed(1),
    r.scriptedMessages.toFixed(1),
    r.scriptedInterrupted.toFixed(2),
    r.notIdledOverWork.toFixed(2),
  ]);
  const rules: string[] = COST_NAMES.filter((n) => o.costs[COSTS[n]]);
  if (o.costs.effort !== undefined) rules.push(`effort ${o.costs.effort} x the nominal work`);
  console.log(
    `${o.family}, ${o.agents} agents, ${o.tasks} fresh evaluation tasks, seed ${o.seed}, costs: ${rules.length ? rules.join(', ') : 'none'}: mean return at each deadline`,
  );
  console.log(
    formatTable(
      [
        'deadline',
        'random',
        'single chain',
        'best-of-N',
        'scripted organisation',
        'scripted: min to 90% (deadline if never)',
        'bound: min to 90% (deadline if later)',
        'scripted: msgs/episode',
        'scripted: interrupted',
        'scripted: most minutes not idled / nominal work',
      ],
      rows,
    ),
  );
  if (o.json) {
    const file = { command: 'calibrate', family: o.family, agents: o.agents, tasks: o.tasks, seed: o.seed, costs: rules, rows: found };
    writeFileSync(o.json, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`wrote ${o.json}`);
  }
}

void main();
