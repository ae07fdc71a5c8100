/**
 * Trains the swarm with RLCR on one setting and a list of seeds, then plays the trained swarm and the
 * reference organisations on fresh tasks at the final deadline and prints the comparison.
 * Run `npm run experiment -- --help`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean, std } from '../src/sim/evaluate';
import { ORGANISATIONS, compareOrganisations, evaluatePolicy, type OrgSummary } from '../src/rl/compare';
import { CONFIG_KEYS, SCHEMA, configFromStrings, type Config } from '../src/rl/config';
import { SwarmPolicy } from '../src/rl/policy';
import { STRUCTURE_METRICS, type UpdateMetrics } from '../src/rl/metrics';
import { Trainer } from '../src/rl/trainer';
import { checkSettings } from '../src/rl/settingsCheck';
import { NODE_BACKENDS, useBackend, type NodeBackend } from './lib/backend';
import { choiceFlag, collect, intFlag, intListFlag, kebab, pathFlag, readFlags, type FlagOptions } from './lib/cli';
import { ProgressBar, formatDuration } from './lib/progress';
import { TrainingRecording, runFileCheckpoint } from './lib/runfile';
import { runClaimsFromArgs } from './claims/runner';
import { talkSummary } from './lib/talk';
import { formatTable, toCsv } from './lib/table';

const RUNNER_FLAGS: Record<string, string> = {
  seeds: 'comma-separated training seeds, e.g. 1,2,3 (default: --seed)',
  'eval-tasks': 'fresh evaluation tasks per seed, 1..10000 (default 64)',
  'eval-greedy': 'evaluate the trained swarm with its most likely action instead of sampling',
  backend: `TF.js backend: ${NODE_BACKENDS.join(' or ')} (default wasm)`,
  out: 'output folder (default results/<family>-<agents>a-<time>)',
  'load-policy': 'start from the weights in this JSON file (written by an earlier run)',
  'init-from': 'start from the last checkpoint of this run file (run-seed*.swarmrun.json.gz)',
  quiet: 'no progress bar',
  claim: 'run a claim instead: C1..C9, a comma-separated list, or all (see docs/EXPERIMENTS.md)',
  'claim-scale': 'budget of --claim: smoke (seconds) or full (the reproduction, default)',
  help: 'show this help',
};

function usage(): string {
  const lines = ['Usage: npm run experiment -- [flags]', '', 'Training settings (the shared config schema):'];
  for (const k of CONFIG_KEYS) {
    const f = SCHEMA[k];
    const range = f.kind === 'enum' ? f.values.join('|') : f.kind === 'bool' ? 'flag' : `${f.min}..${f.max}`;
    lines.push(`  --${kebab(k).padEnd(17)} ${f.help} [${range}, default ${String(f.default)}]`);
  }
  lines.push('', 'Runner:');
  for (const [k, h] of Object.entries(RUNNER_FLAGS)) lines.push(`  --${k.padEnd(17)} ${h}`);
  lines.push('', 'Example: npm run experiment -- --family coupled --agents 8 --seeds 1,2,3');
  return lines.join('\n');
}

function fail(messages: string[]): never {
  for (const m of messages) process.stderr.write(`error: ${m}\n`);
  process.stderr.write('Run with --help to see every flag and its range.\n');
  process.exit(2);
}

interface Options {
  config: Config;
  seeds: number[];
  evalTasks: number;
  greedy: boolean;
  backend: NodeBackend;
  out: string;
  loadPolicy: string | null;
  initFrom: string | null;
  quiet: boolean;
}

/** The runner's flags that take no value. */
const RUNNER_SWITCHES = new Set(['eval-greedy', 'quiet', 'help']);

/** The declared flags, the same as the help lists: one per config key (bare for a yes/no setting), then the runner's. */
const FLAGS: FlagOptions = Object.fromEntries([
  ...CONFIG_KEYS.map((k) => [kebab(k), { type: SCHEMA[k].kind === 'bool' ? 'boolean' : 'string' }] as const),
  ...Object.keys(RUNNER_FLAGS).map((f) => [f, { type: RUNNER_SWITCHES.has(f) ? 'boolean' : 'string' }] as const),
]);

function readOptions(argv: string[]): Options {
  const { values, problems } = readFlags(argv, FLAGS);
  if (values.help === true) {
    process.stdout.write(usage() + '\n');
    process.exit(0);
  }
  const errors = problems.map((p) => p.message);
  const text = (flag: string) => values[flag] as string | undefined;
  const configText: Record<string, string> = {};
  for (const k of CONFIG_KEYS) {
    const v = values[kebab(k)];
    if (v !== undefined) configText[k] = v === true ? 'true' : String(v);
  }
  const { config, issues } = configFromStrings(configText, 'strict');
  for (const i of issues) errors.push(`--${kebab(i.key)}: ${i.message}`);
  const check = checkSettings(config, (k) => `--${kebab(k)}`);
  errors.push(...check.errors);
  for (const w of check.warnings) process.stderr.write(`warning: ${w}\n`);
  const seedsText = text('seeds');
  const seeds = (seedsText === undefined ? undefined : collect(errors, () => intListFlag('seeds', seedsText, 0, 2147483647))) ?? [config.seed];
  const evalTasks = collect(errors, () => intFlag('eval-tasks', text('eval-tasks') ?? '64', 1, 10000)) ?? 64;
  const backend = collect(errors, () => choiceFlag('backend', text('backend') ?? 'wasm', NODE_BACKENDS)) ?? 'wasm';
  const path = (flag: string) => {
    const v = text(flag);
    return v === undefined ? null : (collect(errors, () => pathFlag(flag, v, 'a path')) ?? null);
  };
  const out = path('out');
  const loadPolicy = path('load-policy');
  const initFrom = path('init-from');
  if (loadPolicy !== null && initFrom !== null) errors.push('--load-policy and --init-from both give starting weights: use one');
  if (errors.length) fail(errors);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return {
    config,
    seeds,
    evalTasks,
    greedy: values['eval-greedy'] === true,
    backend,
    out: out ?? join('results', `${config.family}-${config.agents}a-${stamp}`),
    loadPolicy,
    initFrom,
    quiet: values.quiet === true,
  };
}

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
];

interface SeedResult {
  seed: number;
  trainSeconds: number;
  updatesPerSecond: number;
  curve: UpdateMetrics[];
  orgs: OrgSummary[];
}

async function runSeed(opts: Options, seed: number, index: number): Promise<SeedResult> {
  const config = { ...opts.config, seed };
  const start = opts.loadPolicy ? loadPolicy(opts.loadPolicy) : undefined;
  const trainer = new Trainer(config, start);
  if (opts.initFrom) initFrom(trainer, opts.initFrom);
  const recording = new TrainingRecording(config, { name: `${config.family}, ${config.agents} agents, seed ${seed} (CLI)` });
  const bar = opts.quiet ? null : new ProgressBar(`seed ${seed} (${index + 1}/${opts.seeds.length})`, trainer.totalUpdates);
  const curve: UpdateMetrics[] = [];
  const evalOpts = { family: config.family, agents: config.agents, tmax: config.tmaxEnd, tasks: opts.evalTasks, seed, greedy: opts.greedy };
  let imitation: OrgSummary | null = null;
  let evalSeconds = 0;
  const t0 = performance.now();
  while (!trainer.finished) {
    const result = await trainer.step();
    const { metrics } = result;
    await recording.record(trainer, result);
    curve.push(metrics);
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
  trainer.dispose();
  return { seed, trainSeconds, updatesPerSecond: trainer.totalUpdates / trainSeconds, curve, orgs };
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

const pm = (xs: number[], digits: number) => (xs.length > 1 ? `${mean(xs).toFixed(digits)} ± ${std(xs).toFixed(digits)}` : mean(xs).toFixed(digits));

async function main(): Promise<void> {
  if (process.argv.slice(2).some((a) => a === '--claim' || a.startsWith('--claim='))) return runClaimsFromArgs(process.argv.slice(2));
  const opts = readOptions(process.argv.slice(2));
  mkdirSync(opts.out, { recursive: true });
  await useBackend(opts.backend);
  const c = opts.config;
  process.stderr.write(
    `RLCR on ${c.family} tasks, ${c.agents} agents, ${c.updates} updates${c.prior ? ` after ${c.prior} imitation updates` : ''}, ` +
      `${c.tasksPerUpdate} tasks x ${c.groupSize} rollouts per update, deadline ${c.tmaxStart} -> ${c.tmaxEnd} min (${c.tmaxShape}), ` +
      `${c.advantage}, ${describeStructure(c)}backend ${opts.backend}, seeds ${opts.seeds.join(',')}\n`,
  );
  const results: SeedResult[] = [];
  for (const [i, seed] of opts.seeds.entries()) results.push(await runSeed(opts, seed, i));

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
  const secs = results.map((r) => r.trainSeconds);
  const rates = results.map((r) => r.updatesPerSecond);
  const structureNote = structureLine(results);
  const report = [
    '',
    `Evaluation: ${opts.evalTasks} fresh ${c.family} tasks per seed, deadline ${c.tmaxEnd} min, ${c.agents} agents; ± is the spread (sd) over ${opts.seeds.length} seed(s).`,
    formatTable(header, rows),
    ...(talkLine ? ['', talkLine] : []),
    '',
    `Training wall-clock per seed: ${secs.map((s) => formatDuration(s)).join(', ')} (${pm(rates, 2)} updates/s, backend ${opts.backend})`,
    `Per-seed trained return: ${results.map((r) => `${r.seed}: ${r.orgs.find((o) => o.org === 'trained swarm')?.ret.toFixed(3)}`).join(', ')}`,
    ...(structureNote ? [structureNote] : []),
    `Written to ${opts.out}/ (summary.json, summary.csv, training-seed*.csv, policy-seed*.json, run-seed*.swarmrun.json.gz)`,
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

main().catch((e: unknown) => {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
