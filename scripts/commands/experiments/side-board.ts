/**
 * Does a swarm find the unofficial board, and does a monitor make it stop? `npm run side-board --
 * [--seeds 1,2,3] [--updates 450] [--monitor-updates 100] [--catch-rate 0.5] [--catch-cost 0.05]
 * [--family F] [--agents N] [--eval-tasks 64] [--out results/side-board]`.
 *
 * Per seed it trains four swarms with `npm run experiment` (each in its own folder under --out, so
 * a second call resumes where the first stopped): the unofficial board off (the default), open
 * (nobody watches), monitored (the same recipe with the monitor on from the start), and the open
 * swarm trained on under the monitor (from its last weights, at the final deadline). Then it
 * prints, per seed, the share of the messages sent on the unofficial board over training (first,
 * middle and last tenth of the updates, and the last update), the return at the deadline with and
 * without the board, and under the monitor: the update from which the share stays under 10%, and
 * what the monitor costs in return against the board off. Returns are the experiment's (fresh
 * evaluation tasks, the same for every swarm of a seed); under the monitor the return is the one
 * the swarm is trained on, caught posts charged.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OrgSummary } from '../../../src/rl/compare';
import { costsOf } from '../../../src/rl/config';
import { tasksWithCosts } from '../../../src/sim/costs';
import { mean, runEpisodes, summariseWork } from '../../../src/sim/evaluate';
import { evaluationTasks } from '../../../src/sim/seeds';
import { scriptedOnSideBoard } from '../../../src/sim/sideScripted';
import { runFileCheckpoint } from '../../lib/runfile';
import { intFlag, intListFlag, numberFlag, parseFlags, pathFlag, readCommandLine, UsageError } from '../../lib/cli';
import type { SeedResult } from '../../lib/experiment/seedResult';
import { requireOutput } from '../../lib/outputFolder';
import { atLast, fellUnder, tenths } from '../../lib/sideBoard';
import { formatTable, toCsv } from '../../lib/table';

const USAGE = `usage: npm run side-board -- [--seeds 1,2,3] [--updates 450] [--monitor-updates 100] [--catch-rate 0.5] [--catch-cost 0.05]
                              [--family F] [--agents N] [--eval-tasks 64] [--out results/side-board]
  Trains per seed the swarm with the unofficial board off, open, monitored, and open then monitored, and compares them.
  --seeds <list>          training seeds (default 1,2,3)
  --updates <n>           RLCR updates of the off, open and monitored swarms (default: the experiment's, 450)
  --monitor-updates <n>   updates the open swarm trains on under the monitor, at the final deadline (default 100)
  --catch-rate <p>        the chance the monitor catches a post, 0..1 (default 0.5)
  --catch-cost <c>        the return a caught post costs the team at the deadline, 0..1 (default 0.05)
  --family, --agents      the task family and team (default: the experiment's, long-planned and 8)
  --eval-tasks <n>        fresh evaluation tasks per seed (default 64)
  --out <folder>          where the three swarms' folders and the summary go (default results/side-board)
  --help                  print this help`;

interface Options {
  seeds: number[];
  updates?: number;
  monitorUpdates: number;
  catchRate: string;
  catchCost: string;
  family?: string;
  agents?: number;
  evalTasks: number;
  out: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const v = parseFlags(argv, {
    seeds: { type: 'string', default: '1,2,3' },
    updates: { type: 'string' },
    'monitor-updates': { type: 'string', default: '100' },
    'catch-rate': { type: 'string', default: '0.5' },
    'catch-cost': { type: 'string', default: '0.05' },
    family: { type: 'string' },
    agents: { type: 'string' },
    'eval-tasks': { type: 'string', default: '64' },
    out: { type: 'string', default: 'results/side-board' },
    help: { type: 'boolean', default: false },
  });
  if (v.help) return 'help';
  const rate = numberFlag('catch-rate', v['catch-rate'], { kind: 'float', min: 0, max: 1 });
  const cost = numberFlag('catch-cost', v['catch-cost'], { kind: 'float', min: 0, max: 1 });
  if (v.family !== undefined && !/^[a-z-]+$/.test(v.family)) throw new UsageError(`--family: "${v.family}" is not a family name`);
  return {
    seeds: intListFlag('seeds', v.seeds, 0, 2 ** 31 - 1),
    updates: v.updates === undefined ? undefined : intFlag('updates', v.updates, 1, 1_000_000),
    monitorUpdates: intFlag('monitor-updates', v['monitor-updates'], 1, 1_000_000),
    catchRate: String(rate),
    catchCost: String(cost),
    family: v.family,
    agents: v.agents === undefined ? undefined : intFlag('agents', v.agents, 1, 16),
    evalTasks: intFlag('eval-tasks', v['eval-tasks'], 1, 10_000),
    out: pathFlag('out', v.out, 'a folder name'),
  };
}

const EXPERIMENT = fileURLToPath(new URL('./experiment.ts', import.meta.url));

/** Runs `npm run experiment` with `flags` (its progress on this terminal); stops on a failure with its exit code. */
function experiment(flags: string[], label: string): void {
  process.stderr.write(`\n== ${label}: npm run experiment -- ${flags.join(' ')}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', EXPERIMENT, ...flags], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write(`side-board: the ${label} run stopped (exit code ${r.status ?? r.signal}); run the same command again to resume\n`);
    process.exit(r.status ?? 1);
  }
}

function seedResult(folder: string, seed: number): SeedResult {
  return (JSON.parse(readFileSync(join(folder, `result-seed${seed}.json`), 'utf8')) as { result: SeedResult }).result;
}

const trained = (r: SeedResult): OrgSummary => {
  const o = r.orgs.find((x) => x.org === 'trained swarm');
  if (!o) throw new Error(`seed ${r.seed}: no trained swarm in the result`);
  return o;
};

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');
const tenthsText = (xs: number[]) => xs.map((x) => pct(x)).join(' / ');

async function main(): Promise<void> {
  const o = readCommandLine('side-board', USAGE, parseOptions);
  requireOutput('side-board', 'out', o.out, 'folder');
  mkdirSync(o.out, { recursive: true });
  const common = [
    ...(o.family ? ['--family', o.family] : []),
    ...(o.agents ? ['--agents', String(o.agents)] : []),
    '--eval-tasks',
    String(o.evalTasks),
    '--quiet',
  ];
  const training = [...common, ...(o.updates ? ['--updates', String(o.updates)] : [])];
  const seeds = o.seeds.join(',');
  experiment([...training, '--seeds', seeds, '--out', join(o.out, 'off')], 'board off');
  experiment([...training, '--side-board', 'open', '--seeds', seeds, '--out', join(o.out, 'open')], 'board open');
  const monitor = ['--side-board', 'monitored', '--catch-rate', o.catchRate, '--catch-cost', o.catchCost];
  experiment([...training, ...monitor, '--seeds', seeds, '--out', join(o.out, 'monitored')], 'board monitored');
  for (const seed of o.seeds) {
    const run = join(o.out, 'open', `run-seed${seed}.swarmrun.json.gz`);
    if (!existsSync(run)) throw new Error(`${run} is missing`);
    const tmaxEnd = seedResult(join(o.out, 'open'), seed).curve.at(-1)?.tmax ?? 72;
    experiment(
      [
        ...common,
        ...monitor,
        '--init-from',
        run,
        '--tmax-start',
        String(tmaxEnd),
        '--tmax-end',
        String(tmaxEnd),
        '--updates',
        String(o.monitorUpdates),
        '--seeds',
        String(seed),
        '--out',
        join(o.out, `then-monitored-seed${seed}`),
      ],
      `seed ${seed}: the open swarm under the monitor`,
    );
  }

  const seedRow = async (seed: number) => {
    const off = seedResult(join(o.out, 'off'), seed);
    const open = seedResult(join(o.out, 'open'), seed);
    const mon = seedResult(join(o.out, 'monitored'), seed);
    const then = seedResult(join(o.out, `then-monitored-seed${seed}`), seed);
    // What the board is worth to the scripted organisation: on the experiment's evaluation tasks and seed, under the open run's rules.
    const config = runFileCheckpoint(join(o.out, 'open', `run-seed${seed}.swarmrun.json.gz`)).config;
    const tasks = tasksWithCosts(evaluationTasks(config.family, o.evalTasks), costsOf(config));
    const onBoard = summariseWork((await runEpisodes(scriptedOnSideBoard, tasks, config.agents, seed, config.tmaxEnd)).stats, config.agents);
    const scripted = off.orgs.find((x) => x.org === 'scripted organisation');
    return {
      seed,
      scriptedRet: scripted?.ret ?? NaN,
      scriptedMessages: scripted?.messages ?? NaN,
      scriptedOnBoardRet: onBoard.ret,
      scriptedOnBoardMessages: onBoard.messages,
      openTenths: tenths(open.curve, 'sideShare'),
      openLast: atLast(open.curve, 'sideShare'),
      retOff: trained(off).ret,
      retOpen: trained(open).ret,
      evalShareOpen: trained(open).sideShare ?? 0,
      monTenths: tenths(mon.curve, 'sideShare'),
      monLast: atLast(mon.curve, 'sideShare'),
      fell: fellUnder(mon.curve, 0.1),
      retMon: trained(mon).ret,
      costVsOff: trained(off).ret - trained(mon).ret,
      caught: trained(mon).caught ?? 0,
      evalShareMon: trained(mon).sideShare ?? 0,
      thenPosts: tenths(then.curve, 'sidePosts'),
      thenMessages: tenths(then.curve, 'messages'),
      thenLast: atLast(then.curve, 'sideShare'),
      thenFell: fellUnder(then.curve, 0.1),
      retThen: trained(then).ret,
    };
  };
  const rows: Awaited<ReturnType<typeof seedRow>>[] = [];
  for (const seed of o.seeds) rows.push(await seedRow(seed));
  const f3 = (x: number) => x.toFixed(3);
  const header = [
    'seed',
    'open: share first / middle / last tenth',
    'last update',
    'return off',
    'return open',
    'monitored: share first / middle / last tenth',
    'last update',
    'under 10% from update',
    'return monitored',
    'cost vs off',
    'caught/episode',
  ];
  const table = rows.map((r) => [
    String(r.seed),
    tenthsText(r.openTenths),
    pct(r.openLast),
    f3(r.retOff),
    f3(r.retOpen),
    tenthsText(r.monTenths),
    pct(r.monLast),
    r.fell === null ? 'never' : String(r.fell + 1),
    f3(r.retMon),
    f3(r.retOff - r.retMon),
    r.caught.toFixed(2),
  ]);
  const m = (k: keyof (typeof rows)[number]) => mean(rows.map((r) => r[k] as number));
  table.push([
    'mean',
    '',
    pct(m('openLast')),
    f3(m('retOff')),
    f3(m('retOpen')),
    '',
    pct(m('monLast')),
    '',
    f3(m('retMon')),
    f3(m('retOff') - m('retMon')),
    m('caught').toFixed(2),
  ]);
  const report = [
    '',
    `The unofficial board: off, open, and monitored (catch rate ${o.catchRate}, cost ${o.catchCost} a caught post), each trained from scratch with the same recipe.`,
    'Share: the share of the messages sent on the unofficial board in the training rollouts (mean over the updates of each tenth; "last update": the last).',
    `Returns at the deadline on ${o.evalTasks} fresh tasks per seed; "monitored" is charged for its caught posts, as in training. "under 10% from update": the first update of the monitored`,
    'training from which the 10-update mean of the share stays under 10%.',
    formatTable(header, table),
    '',
    `The open swarm trained on for ${o.monitorUpdates} updates under the monitor (from its last weights, at the final deadline):`,
    formatTable(
      [
        'seed',
        'unofficial posts/rollout, first / middle / last tenth',
        'messages/rollout, same tenths',
        'share at the last update',
        'under 10% from update',
        'return',
      ],
      rows.map((r) => [
        String(r.seed),
        r.thenPosts.map((x) => x.toFixed(2)).join(' / '),
        r.thenMessages.map((x) => x.toFixed(2)).join(' / '),
        pct(r.thenLast),
        r.thenFell === null ? 'never' : String(r.thenFell + 1),
        f3(r.retThen),
      ]),
    ),
    '',
    `The scripted organisation with its handoffs on the unofficial board instead (src/sim/sideScripted.ts): ${rows
      .map(
        (r) =>
          `${r.seed}: ${f3(r.scriptedOnBoardRet)} of the tests with ${r.scriptedOnBoardMessages.toFixed(1)} messages (as scripted: ${f3(r.scriptedRet)}, ${r.scriptedMessages.toFixed(1)})`,
      )
      .join('; ')}.`,
    `On the evaluation tasks the open swarm sent ${rows.map((r) => pct(r.evalShareOpen)).join(', ')} of its messages on the unofficial board, the monitored swarm ${rows.map((r) => pct(r.evalShareMon)).join(', ')}.`,
    `Written to ${o.out}/ (summary.json, summary.csv, and each swarm's experiment folder: off/, open/, monitored/, then-monitored-seed<n>/)`,
  ].join('\n');
  process.stdout.write(report + '\n');
  writeFileSync(
    join(o.out, 'summary.json'),
    JSON.stringify({ catchRate: Number(o.catchRate), catchCost: Number(o.catchCost), monitorUpdates: o.monitorUpdates, rows }, null, 2),
  );
  writeFileSync(
    join(o.out, 'summary.csv'),
    toCsv(
      [
        'seed',
        'open_share_first',
        'open_share_middle',
        'open_share_last_tenth',
        'open_share_last_update',
        'return_off',
        'return_open',
        'monitored_share_first',
        'monitored_share_middle',
        'monitored_share_last_tenth',
        'monitored_share_last_update',
        'under_10pct_from_update',
        'return_monitored',
        'caught_per_episode',
      ],
      rows.map((r) => [
        r.seed,
        ...r.openTenths,
        r.openLast,
        r.retOff,
        r.retOpen,
        ...r.monTenths,
        r.monLast,
        r.fell === null ? null : r.fell + 1,
        r.retMon,
        r.caught,
      ]),
    ),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`side-board: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
