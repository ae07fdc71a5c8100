/**
 * The training and the report of `npm run experiment`: each seed trained (or taken from the output
 * folder, where an earlier run kept it), the trained swarm and the reference organisations played on
 * fresh tasks at the final deadline, the table printed and the summary written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean, std } from '../../../src/sim/evaluate';
import { ORGANISATIONS, compareOrganisations, evaluatePolicy, type OrgSummary } from '../../../src/rl/compare';
import { costsOf, teamAt, type Config } from '../../../src/rl/config';
import { CHANNEL_TEXT } from '../../../src/sim/channels';
import { atLast, tenths } from '../sideBoard';
import { SwarmPolicy, type PolicyJSON } from '../../../src/rl/policy';
import { STRUCTURE_METRICS, type UpdateMetrics } from '../../../src/rl/metrics';
import { Trainer } from '../../../src/rl/trainer';
import { useBackend } from '../backend';
import { startThreaded, type ThreadedTrainer } from '../shardThreads';
import type { ExperimentFolder } from '../experimentFolder';
import { ProgressBar, formatDuration } from '../progress';
import { reportProgress } from '../childProgress';
import { TrainingRecording, runFileCheckpoint } from '../runfile';
import { speedSummary } from '../speed';
import { talkSummary } from '../talk';
import { formatTable, toCsv } from '../table';
import { fail, resumeCommand, type Options } from './options';
import type { SeedResult } from './seedResult';

function loadPolicy(path: string): SwarmPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    fail([`--load-policy: cannot read ${path}: ${(e as Error).message}`]);
  }
  try {
    return SwarmPolicy.fromJSON(JSON.parse(text));
  } catch (e) {
    fail([`--load-policy: ${path} is not a usable policy: ${(e as Error).message}`]);
  }
}

function initFrom(trainer: Trainer, path: string): void {
  try {
    trainer.loadWeights(runFileCheckpoint(path).weights);
  } catch (e) {
    fail([`--init-from: ${(e as Error).message}`]);
  }
}

/** A seed's trainer on `opts.threads` threads, starting from --load-policy's or --init-from's weights if given. */
async function threadedTrainer(config: Config, opts: Options, start: SwarmPolicy | undefined): Promise<ThreadedTrainer> {
  let weights: PolicyJSON | undefined;
  if (start) {
    weights = start.toJSON();
    start.dispose();
  } else if (opts.initFrom) {
    try {
      weights = runFileCheckpoint(opts.initFrom).weights;
    } catch (e) {
      fail([`--init-from: ${(e as Error).message}`]);
    }
  }
  try {
    return await startThreaded(config, opts.threads, weights, opts.backend);
  } catch (e) {
    fail([`${opts.initFrom ? '--init-from' : '--load-policy'}: ${(e as Error).message}`]);
  }
}

const CURVE_COLUMNS: (keyof UpdateMetrics)[] = [
  'update',
  'phase',
  'tmax',
  'ret',
  'retStd',
  'messages',
  'messageRate',
  'handoffs',
  'useful',
  'duplicate',
  'blocked',
  'emptyReads',
  'idle',
  'claims',
  'entropy',
  'loss',
  'gradNorm',
  'collectMs',
  'learnMs',
  'wastedMessages',
  'neededShare',
  'interrupted',
  'conflicts',
  'sidePosts',
  'sideShare',
  'caught',
  'attempts',
];

async function runSeed(opts: Options, folder: ExperimentFolder<SeedResult>, seed: number, index: number): Promise<SeedResult> {
  const config = { ...opts.config, seed };
  const start = opts.loadPolicy ? loadPolicy(opts.loadPolicy) : undefined;
  const trainer = opts.threads > 1 ? await threadedTrainer(config, opts, start) : new Trainer(config, start);
  if (opts.initFrom && trainer instanceof Trainer) initFrom(trainer, opts.initFrom);
  const recording = new TrainingRecording(config, { name: `${config.family}, ${config.agents} agents, seed ${seed} (CLI)` });
  const bar = opts.quiet ? null : new ProgressBar(`seed ${seed} (${index + 1}/${opts.seeds.length})`, trainer.totalUpdates, process.stderr, { work: config });
  const curve: UpdateMetrics[] = [];
  const evalOpts = { family: config.family, agents: config.agents, tmax: config.tmaxEnd, tasks: opts.evalTasks, seed, greedy: opts.greedy };
  let imitation: OrgSummary | null = null;
  let evalSeconds = 0;
  const t0 = performance.now();
  while (!trainer.finished) {
    // A turn of the event loop between updates, so a Ctrl-C is answered within one update (the step's own awaits never leave the microtask queue).
    await new Promise((resolve) => setImmediate(resolve));
    const result = await trainer.step();
    const { metrics } = result;
    await recording.record(trainer, result);
    curve.push(metrics);
    reportProgress(trainer.update, trainer.totalUpdates);
    bar?.update(trainer.update, `${metrics.phase} Tmax ${metrics.tmax}  return ${metrics.ret.toFixed(2)}  msgs ${metrics.messages.toFixed(1)}`);
    if (config.prior > 0 && trainer.update === config.prior) {
      const e0 = performance.now();
      imitation = await evaluatePolicy(trainer.policy, 'imitation prior', { ...evalOpts, ...trainer.evaluationSetup() });
      evalSeconds += (performance.now() - e0) / 1000;
    }
  }
  const trainSeconds = (performance.now() - t0) / 1000 - evalSeconds - recording.seconds;
  const orgs = await compareOrganisations({ ...evalOpts, policy: trainer.policy, ...trainer.evaluationSetup() });
  if (imitation)
    orgs.splice(
      orgs.findIndex((o) => o.org === 'trained swarm'),
      0,
      imitation,
    );
  const on = orgs.find((o) => o.org === 'trained swarm');
  const off = orgs.find((o) => o.org === 'trained swarm, muted');
  if (on && off)
    recording.recorder.addTalk({
      updates: trainer.update,
      tmax: config.tmaxEnd,
      tasks: opts.evalTasks,
      ret: on.ret,
      muted: off.ret,
      neededShare: on.neededShare,
      messages: on.messages,
    });
  writeFileSync(join(opts.out, `policy-seed${seed}.json`), JSON.stringify(trainer.policy.toJSON()));
  recording.write(join(opts.out, `run-seed${seed}.swarmrun.json.gz`), trainer);
  const structure = STRUCTURE_METRICS.filter((k) => curve.some((m) => m.structure?.[k] !== undefined));
  const cell = (v: number | string | undefined) => (typeof v === 'number' ? +v.toPrecision(6) : (v ?? null));
  const rows = curve.map((m) => [...CURVE_COLUMNS.map((k) => cell(m[k] as number | string)), ...structure.map((k) => cell(m.structure?.[k]))]);
  writeFileSync(join(opts.out, `training-seed${seed}.csv`), toCsv([...CURVE_COLUMNS, ...structure], rows));
  await trainer.dispose();
  const result = { seed, trainSeconds, updatesPerSecond: trainer.totalUpdates / trainSeconds, curve, orgs };
  folder.keep(seed, result);
  return result;
}

const seedList = (seeds: number[]) => `seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')}`;

/** On Ctrl-C: one line saying which seeds the folder keeps and the command that resumes, then exit code 130. */
function onInterrupt(opts: Options, state: { current: number | null; kept: number[] }): void {
  process.once('SIGINT', () => {
    const during = state.current === null ? '' : ` during seed ${state.current}`;
    const kept = state.kept.length
      ? `kept ${seedList(state.kept)} in ${opts.out}/ (curve, policy, run file and result of each)`
      : 'no seed had finished, nothing kept';
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}interrupted${during}: ${kept}; resume with: ${resumeCommand(opts)}\n`);
    process.exit(130);
  });
}

/** "ceo (budget 120 agent-minutes), " and the like; empty for flat. */
function describeStructure(c: Config): string {
  switch (c.structure) {
    case 'flat':
      return '';
    case 'ceo':
      return `structure ceo (budget ${c.budget} agent-minutes), `;
    case 'islands':
      return `structure islands (${Math.min(c.islands, c.agents)} islands), `;
    case 'orchestrator':
      return `structure orchestrator (${c.workerPolicy} workers${c.workerPolicy === 'snapshot' ? ` frozen at update ${c.snapshotAt}` : ''}${c.shaping > 0 ? `, shaping ${c.shaping}` : ''}), `;
  }
}

/** The structure's training numbers averaged over the last tenth of the updates of every seed, e.g. "head count 4.20". */
function structureLine(results: SeedResult[]): string | null {
  const parts: string[] = [];
  for (const k of STRUCTURE_METRICS) {
    const xs = results
      .flatMap((r) => r.curve.slice(-Math.max(1, Math.ceil(r.curve.length / 10))).map((m) => m.structure?.[k]))
      .filter((x): x is number => x !== undefined);
    if (xs.length) parts.push(`${k} ${mean(xs).toFixed(2)}`);
  }
  return parts.length ? `Structure numbers in training (last tenth of the updates): ${parts.join(', ')}` : null;
}

/**
 * The channels' numbers, when the run has a policy other than open or an unofficial board: the
 * trained swarm's attempts an episode (training: first and last update; evaluation), and its share of
 * messages on the unofficial board (training: first, middle and last tenth; evaluation) and caught posts.
 */
function channelsLines(results: SeedResult[], c: Config): string[] {
  const costs = costsOf(c);
  const lines: string[] = [];
  const swarm = (r: SeedResult) => r.orgs.find((o) => o.org === 'trained swarm');
  const per = (f: (r: SeedResult) => string) => results.map((r) => `${r.seed}: ${f(r)}`).join('; ');
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  if (costs.channels !== undefined) {
    const first = (r: SeedResult) => r.curve.find((m) => m.phase === 'rlcr')?.attempts ?? 0;
    lines.push(
      `Channels: ${costs.channels} (${CHANNEL_TEXT[costs.channels]}). Attempts per episode, training first -> last update, then evaluation: ` +
        per((r) => `${first(r).toFixed(2)} -> ${atLast(r.curve, 'attempts').toFixed(2)}, ${(swarm(r)?.attempts ?? 0).toFixed(2)}`),
    );
  }
  if (costs.side !== undefined) {
    const watch =
      costs.side.mode === 'monitored'
        ? `monitored: catch rate ${costs.side.catchRate}, ${costs.side.catchCost} of the return a caught post`
        : 'open: nobody watches';
    lines.push(
      `Unofficial board (${watch}). Share of messages on it, training first / middle / last tenth, last update, then evaluation: ` +
        per((r) => `${tenths(r.curve, 'sideShare').map(pct).join(' / ')}, ${pct(atLast(r.curve, 'sideShare'))}, ${pct(swarm(r)?.sideShare ?? 0)}`) +
        (costs.side.mode === 'monitored' ? `. Caught per episode (evaluation): ${per((r) => (swarm(r)?.caught ?? 0).toFixed(2))}` : ''),
    );
  }
  return lines;
}

const pm = (xs: number[], digits: number) => (xs.length > 1 ? `${mean(xs).toFixed(digits)} ± ${std(xs).toFixed(digits)}` : mean(xs).toFixed(digits));

/** Trains the seeds `folder` does not hold yet, evaluates, prints the report and writes the summary. */
export async function runExperiment(opts: Options, folder: ExperimentFolder<SeedResult>): Promise<void> {
  await useBackend(opts.backend);
  const c = opts.config;
  process.stderr.write(
    `RLCR on ${c.family} tasks, ${c.agents} agents${teamAt(c, c.prior) < c.agents ? ` (the team growing from ${c.teamStart} by update ${c.teamRamp})` : ''}, ${c.updates} updates${c.prior ? ` after ${c.prior} imitation updates` : ''}, ` +
      `${c.tasksPerUpdate} tasks x ${c.groupSize} rollouts per update, deadline ${c.tmaxStart} -> ${c.tmaxEnd} min (${c.tmaxShape}), ` +
      `${c.advantage}, ${describeStructure(c)}backend ${opts.backend}, seeds ${opts.seeds.join(',')}\n`,
  );
  const kept = new Map<number, SeedResult>();
  for (const seed of opts.seeds) {
    const r = folder.finished(seed);
    if (r) kept.set(seed, r);
  }
  if (kept.size) {
    const todo = opts.seeds.filter((s) => !kept.has(s));
    process.stderr.write(
      `Resuming in ${opts.out}/: ${seedList([...kept.keys()])} taken from the folder (trained earlier with these settings), ${todo.length ? `training ${seedList(todo)}` : 'nothing left to train'}\n`,
    );
  }
  const state = { current: null as number | null, kept: [...kept.keys()] };
  onInterrupt(opts, state);
  const todo = opts.seeds.filter((s) => !kept.has(s));
  // On a queue the workers train the seeds; each one's files enter the folder as it comes back.
  if (opts.queue && todo.length) await (await import('./queue')).trainSeedsOnQueue(opts, folder, todo, (seed) => state.kept.push(seed));
  const results: SeedResult[] = [];
  for (const [i, seed] of opts.seeds.entries()) {
    const before = kept.get(seed) ?? (opts.queue ? folder.finished(seed) : undefined);
    if (before) {
      results.push(before);
      continue;
    }
    if (opts.queue) throw new Error(`seed ${seed} came back from the queue but is not in ${opts.out}/`);
    state.current = seed;
    results.push(await runSeed(opts, folder, seed, i));
    state.kept.push(seed);
    state.current = null;
  }

  const header = [
    'organisation',
    'return at deadline',
    'min to 90%',
    'reached 90%',
    'msgs/episode',
    'msgs/agent-min',
    'handoffs',
    'needed deliveries',
    'useful work',
    'duplicate work',
  ];
  const rows: string[][] = [];
  const csvRows: (string | number | null)[][] = [];
  for (const org of ORGANISATIONS) {
    const per = results.map((r) => r.orgs.find((o) => o.org === org)).filter((o): o is OrgSummary => !!o);
    if (!per.length) continue;
    const t90s = per.map((o) => o.t90).filter((x): x is number => x !== null);
    const col = (k: keyof OrgSummary) => per.map((o) => o[k] as number);
    rows.push([
      org,
      pm(col('ret'), 3),
      t90s.length ? mean(t90s).toFixed(1) : '-',
      `${(100 * mean(col('reached90'))).toFixed(0)}%`,
      mean(col('messages')).toFixed(1),
      mean(col('messageRate')).toFixed(3),
      mean(col('handoffs')).toFixed(1),
      per.some((o) => o.messages > 0) ? `${(100 * mean(col('neededShare'))).toFixed(0)}%` : '-',
      mean(col('useful')).toFixed(1),
      mean(col('duplicate')).toFixed(1),
    ]);
    csvRows.push([
      org,
      mean(col('ret')),
      std(col('ret')),
      t90s.length ? mean(t90s) : null,
      mean(col('reached90')),
      mean(col('messages')),
      mean(col('messageRate')),
      mean(col('handoffs')),
      mean(col('neededShare')),
      mean(col('useful')),
      mean(col('duplicate')),
      mean(col('blocked')),
    ]);
  }
  const talkLine = talkSummary(results);
  const speedLine = speedSummary(results);
  const secs = results.map((r) => r.trainSeconds);
  const rates = results.map((r) => r.updatesPerSecond);
  const structureNote = structureLine(results);
  const report = [
    '',
    `Evaluation: ${opts.evalTasks} fresh ${c.family} tasks per seed, deadline ${c.tmaxEnd} min, ${c.agents} agents; ± is the spread (sd) over ${opts.seeds.length} seed(s).`,
    formatTable(header, rows),
    ...(talkLine ? ['', talkLine] : []),
    ...(speedLine ? ['', speedLine] : []),
    '',
    `Training wall-clock per seed: ${secs.map((s) => formatDuration(s)).join(', ')} (${pm(rates, 2)} updates/s, backend ${opts.backend})`,
    `Per-seed trained return: ${results.map((r) => `${r.seed}: ${r.orgs.find((o) => o.org === 'trained swarm')?.ret.toFixed(3)}`).join(', ')}`,
    ...(structureNote ? [structureNote] : []),
    ...channelsLines(results, c),
    `Written to ${opts.out}/ (summary.json, summary.csv, training-seed*.csv, policy-seed*.json, run-seed*.swarmrun.json.gz, result-seed*.json, experiment.json)`,
  ].join('\n');
  process.stdout.write(report + '\n');
  writeFileSync(
    join(opts.out, 'summary.csv'),
    toCsv(
      [
        'organisation',
        'return_mean',
        'return_sd',
        'minutes_to_90',
        'reached_90',
        'messages_per_episode',
        'messages_per_agent_minute',
        'handoffs',
        'needed_share',
        'useful_work',
        'duplicate_work',
        'blocked_work',
      ],
      csvRows,
    ),
  );
  writeFileSync(
    join(opts.out, 'summary.json'),
    JSON.stringify({ config: c, seeds: opts.seeds, evalTasks: opts.evalTasks, greedy: opts.greedy, backend: opts.backend, results }, null, 1),
  );
}
