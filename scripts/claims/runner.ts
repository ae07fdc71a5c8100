/**
 * The claims runner behind `npm run experiment -- --claim C1|...|C9|all [--claim-scale smoke|full]`.
 * It trains every condition the chosen claims need once per seed (a condition shared by several
 * claims is trained once; each run is cached as `<out>/cache/<key>.json`, so a re-run resumes),
 * evaluates the claims, and writes one folder per claim (README.md with the tables and the verdict,
 * SVG plots) plus a summary `<out>/README.md`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PolicyActor } from '../../src/rl/actor';
import { compareOrganisations, evaluationTasks } from '../../src/rl/compare';
import { configToStrings, defaultConfig, type Config } from '../../src/rl/config';
import { MutedActor } from '../../src/rl/muted';
import { SwarmPolicy } from '../../src/rl/policy';
import { Trainer } from '../../src/rl/trainer';
import { scriptedOrganisation, singleChain } from '../../src/sim/baselines';
import { mean, runEpisodes, summariseWork, type EpisodeStats, type WorkSummary } from '../../src/sim/evaluate';
import { raceOrganisations, summariseTimes, timeToThreshold } from '../../src/sim/organisations';
import type { ActionSource } from '../../src/sim/policy';
import type { Family } from '../../src/sim/task';
import { parseArgs } from '../lib/args';
import { NODE_BACKENDS, useBackend, type NodeBackend } from '../lib/backend';
import { formatDuration, ProgressBar } from '../lib/progress';
import { formatTable } from '../lib/table';
import { CLAIM_IDS, CLAIMS, CONDITIONS, evaluateClaim, type Baseline, type ClaimContext, type ClaimReport, type ConditionRun, type CurvePoint, type EvalNumbers } from './definitions';
import { RULES_TEXT, type Verdict } from './rules';

/** Bumped whenever training or evaluation changes what a cached run would contain. */
export const CACHE_VERSION = 1;

/** Share of the RLCR updates after which a checkpoint is evaluated (0 = before RLCR, 1 = the end). */
export const CHECKPOINTS = [0, 0.1, 0.25, 0.5, 0.75, 1];

/** A compute budget for the claims. */
export interface Scale {
  name: ScaleName;
  /** Training seeds (also the evaluation seeds of the work draws). */
  seeds: number[];
  /** Fresh evaluation tasks per seed for the final evaluation. */
  evalTasks: number;
  /** Fresh evaluation tasks per seed at each checkpoint and for per-deadline references. */
  checkpointTasks: number;
  /** Maps a condition's full-size config to this budget's. */
  config(c: Config): Config;
}

export const SCALE_NAMES = ['smoke', 'full'] as const;
export type ScaleName = (typeof SCALE_NAMES)[number];

const smallDeadline = (t: number) => Math.max(3, Math.round(t / 4));

/**
 * The budgets. `full`: every condition as declared in `definitions.ts` (see docs/EXPERIMENTS.md for
 * the settings and their cost), 64 evaluation tasks. `smoke`: the same claims on a toy scale (2
 * agents, 2 updates, deadlines / 4, a tiny network): seconds, for tests of the machinery only.
 */
export const SCALES: Record<ScaleName, Scale> = {
  full: { name: 'full', seeds: [1, 2, 3], evalTasks: 64, checkpointTasks: 32, config: (c) => ({ ...c }) },
  smoke: {
    name: 'smoke',
    seeds: [1, 2, 3],
    evalTasks: 2,
    checkpointTasks: 2,
    config: (c) => ({
      ...c,
      agents: Math.min(c.agents, 2),
      updates: Math.min(c.updates, 2),
      prior: Math.min(c.prior, 1),
      tasksPerUpdate: 1,
      groupSize: 2,
      epochs: 1,
      hidden: 8,
      scorer: 4,
      tmaxStart: smallDeadline(c.tmaxStart),
      tmaxEnd: smallDeadline(c.tmaxEnd),
    }),
  },
};

/** A condition's config at full size: the defaults (or its parent's config) with its overrides. */
export function fullConfig(id: string): Config {
  const cond = CONDITIONS[id];
  if (!cond) throw new Error(`unknown condition ${id}`);
  const base = cond.from ? { ...fullConfig(cond.from), prior: 0 } : defaultConfig();
  return { ...base, ...cond.overrides };
}

/** Conditions needed by `claims`, parents before children. */
export function conditionsFor(claimIds: readonly string[]): string[] {
  const out: string[] = [];
  const add = (id: string) => {
    if (out.includes(id)) return;
    const from = CONDITIONS[id].from;
    if (from) add(from);
    out.push(id);
  };
  for (const c of CLAIMS.filter((c) => claimIds.includes(c.id))) for (const id of c.conditions) add(id);
  return out;
}

const round = (x: number) => (Number.isFinite(x) ? +x.toPrecision(5) : x);

function evalNumbers(stats: EpisodeStats[], agents: number): EvalNumbers {
  const work = summariseWork(stats, agents);
  const minutes = mean(stats.map((s) => s.tEnd));
  return {
    ...work,
    minutes,
    parallelism: work.useful / Math.max(1e-9, minutes),
    time90: summariseTimes(stats.map((s) => timeToThreshold(s.curve, 0.9))),
    curve: stats[0].curve.map((_, t) => round(mean(stats.map((s) => s.curve[t])))),
  };
}

async function evaluateSource(source: ActionSource, c: Config, tasks: number, seed: number): Promise<EvalNumbers> {
  const run = await runEpisodes(source, evaluationTasks(c.family, tasks), c.agents, seed, c.tmaxEnd);
  return evalNumbers(run.stats, c.agents);
}

/** Options of a claims run. */
export interface ClaimsOptions {
  claims: string[];
  scale: ScaleName;
  /** Output folder: one sub-folder per claim, `cache/`, and README.md. */
  out: string;
  quiet?: boolean;
  /** Where progress and the plan go (default stderr). */
  log?: (line: string) => void;
}

/** Trains (or loads from the cache) the runs of conditions and evaluates them. */
export class ConditionStore {
  private readonly runs = new Map<string, ConditionRun[]>();
  private readonly cacheDir: string;

  constructor(
    readonly scale: Scale,
    out: string,
    private readonly quiet = false,
    private readonly log: (line: string) => void = (l) => process.stderr.write(l + '\n'),
  ) {
    this.cacheDir = join(out, 'cache');
    mkdirSync(this.cacheDir, { recursive: true });
  }

  /** The scaled config of a condition. */
  config(id: string): Config {
    return this.scale.config(fullConfig(id));
  }

  /**
   * Cache key of a condition and seed: a hash of everything that determines the run. The config
   * enters as its differences from the defaults, so a new config field whose default changes nothing
   * leaves the keys (and the cache) valid.
   */
  key(id: string, seed: number): string {
    const parent = CONDITIONS[id].from ? this.key(CONDITIONS[id].from!, seed) : null;
    const what = { v: CACHE_VERSION, config: configToStrings({ ...this.config(id), seed }), parent, evalTasks: this.scale.evalTasks, checkpointTasks: this.scale.checkpointTasks, checkpoints: CHECKPOINTS };
    return createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 16);
  }

  /** Whether the run of a condition and seed is cached. */
  cached(id: string, seed: number): boolean {
    return existsSync(join(this.cacheDir, `${this.key(id, seed)}.json`));
  }

  /** The runs of a condition, one per seed (training what is not cached). */
  async get(id: string): Promise<ConditionRun[]> {
    const have = this.runs.get(id);
    if (have) return have;
    const runs: ConditionRun[] = [];
    for (const seed of this.scale.seeds) runs.push(await this.run(id, seed));
    this.runs.set(id, runs);
    return runs;
  }

  private async run(id: string, seed: number): Promise<ConditionRun> {
    const key = this.key(id, seed);
    const file = join(this.cacheDir, `${key}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ConditionRun;
    const cond = CONDITIONS[id];
    const config: Config = { ...this.config(id), seed };
    let start: SwarmPolicy | undefined;
    let parentKey: string | null = null;
    if (cond.from) {
      await this.get(cond.from);
      parentKey = this.key(cond.from, seed);
      start = SwarmPolicy.fromJSON(JSON.parse(readFileSync(join(this.cacheDir, `${parentKey}.policy.json`), 'utf8')));
    }
    const trainer = new Trainer(config, start);
    const bar = this.quiet ? null : new ProgressBar(`${id} seed ${seed}`, trainer.totalUpdates);
    const marks = [...new Set(CHECKPOINTS.map((f) => Math.round(f * config.updates)))];
    const checkpoints: ConditionRun['checkpoints'] = [];
    const curve: CurvePoint[] = [];
    let evalMs = 0;
    const checkpoint = async () => {
      const done = trainer.update - config.prior;
      if (done < 0 || !marks.includes(done) || checkpoints.some((c) => c.update === done)) return;
      const e0 = performance.now();
      checkpoints.push({ update: done, eval: await evaluateSource(new PolicyActor(trainer.policy, seed), config, this.scale.checkpointTasks, seed) });
      evalMs += performance.now() - e0;
    };
    const t0 = performance.now();
    while (!trainer.finished) {
      await checkpoint();
      const { metrics: m } = await trainer.step();
      curve.push({ update: m.update, phase: m.phase, tmax: m.tmax, ret: round(m.ret), messages: round(m.messages), messageRate: round(m.messageRate), handoffs: round(m.handoffs), useful: round(m.useful), duplicate: round(m.duplicate), claims: round(m.claims), entropy: round(m.entropy) });
      bar?.update(trainer.update, `${m.phase} Tmax ${m.tmax}  return ${m.ret.toFixed(2)}  msgs ${m.messages.toFixed(1)}  handoffs ${m.handoffs.toFixed(1)}`);
    }
    await checkpoint();
    const trainSeconds = (performance.now() - t0 - evalMs) / 1000;
    const final = await evaluateSource(new PolicyActor(trainer.policy, seed), config, this.scale.evalTasks, seed);
    const muted = await evaluateSource(new MutedActor(trainer.policy, seed), config, this.scale.evalTasks, seed);
    const [race] = await raceOrganisations({
      tasks: evaluationTasks(config.family, this.scale.evalTasks),
      agents: config.agents,
      horizon: 3 * config.tmaxEnd,
      seed,
      swarm: new PolicyActor(trainer.policy, seed),
      only: ['trained swarm'],
    });
    const record: ConditionRun = {
      version: CACHE_VERSION,
      key,
      condition: id,
      seed,
      config,
      parentKey,
      trainSeconds,
      curve,
      checkpoints,
      final,
      muted,
      race: { time: race.time, curve: race.curve.mean.map(round) },
    };
    writeAtomic(join(this.cacheDir, `${key}.policy.json`), JSON.stringify(trainer.policy.toJSON()));
    writeAtomic(file, JSON.stringify(record));
    trainer.dispose();
    this.log(`${id} seed ${seed}: trained in ${formatDuration(trainSeconds)}, return ${final.ret.toFixed(3)}, handoffs ${final.handoffs.toFixed(1)}, msgs ${final.messages.toFixed(1)}`);
    return record;
  }
}

function writeAtomic(path: string, text: string): void {
  writeFileSync(path + '.tmp', text);
  renameSync(path + '.tmp', path);
}

/** The context claims evaluate in: cached runs plus memoised reference organisations. */
class Context implements ClaimContext {
  readonly seeds: number[];
  readonly scale: ClaimContext['scale'];
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: ConditionStore,
    private readonly loaded: Map<string, ConditionRun[]>,
  ) {
    this.seeds = store.scale.seeds;
    this.scale = { name: store.scale.name, evalTasks: store.scale.evalTasks, checkpointTasks: store.scale.checkpointTasks };
  }

  config(id: string): Config {
    return this.store.config(id);
  }

  runs(id: string): ConditionRun[] {
    const r = this.loaded.get(id);
    if (!r) throw new Error(`condition ${id} was not run`);
    return r;
  }

  private once<T>(key: string, f: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, f());
    return this.memo.get(key) as Promise<T>;
  }

  baselines(id: string): Promise<Baseline[]> {
    const c = this.config(id);
    return this.once(`base:${c.family}:${c.agents}:${c.tmaxEnd}`, async () => {
      const out: Baseline[] = [];
      for (const seed of this.seeds) {
        const orgs = await compareOrganisations({ family: c.family, agents: c.agents, tmax: c.tmaxEnd, tasks: this.scale.evalTasks, seed });
        const race = await raceOrganisations({ tasks: evaluationTasks(c.family, this.scale.evalTasks), agents: c.agents, horizon: 3 * c.tmaxEnd, seed });
        out.push({ orgs, race });
      }
      return out;
    });
  }

  reference(family: Family, agents: number, tmax: number, seed: number): Promise<{ chain: WorkSummary; scripted: WorkSummary }> {
    return this.once(`ref:${family}:${agents}:${tmax}:${seed}`, async () => {
      const tasks = evaluationTasks(family, this.scale.checkpointTasks);
      const chain = summariseWork((await runEpisodes(singleChain, tasks, agents, seed, tmax)).stats, agents);
      const scripted = summariseWork((await runEpisodes(scriptedOrganisation, tasks, agents, seed, tmax)).stats, agents);
      return { chain, scripted };
    });
  }
}

function mdTable(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

const VERDICT_MARK: Record<Verdict, string> = { reproduced: 'reproduced', partly: 'partly reproduced', 'not reproduced': 'not reproduced' };

/** The markdown page of one claim. */
export function renderReport(r: ClaimReport, scale: Scale, store: ConditionStore, runs: Map<string, ConditionRun[]>): string {
  const lines = [`# ${r.id}: ${r.title}`, '', `**Claim.** ${r.statement}`, '', `**Verdict: ${VERDICT_MARK[r.verdict]}** (scale \`${scale.name}\`, seeds ${scale.seeds.join(', ')}).`, ''];
  lines.push('```sh', `npm run experiment -- --claim ${r.id} --claim-scale ${scale.name}`, '```', '');
  if (r.conditions.length) {
    lines.push('## Training conditions', '');
    const rows = r.conditions.map((id) => {
      const c = store.config(id);
      const secs = (runs.get(id) ?? []).map((x) => x.trainSeconds);
      return [`\`${id}\``, CONDITIONS[id].label, c.family, String(c.agents), String(c.prior ? `${c.prior} + ${c.updates}` : c.updates), `${c.tmaxStart} -> ${c.tmaxEnd}`, secs.length ? formatDuration(mean(secs)) : '-'];
    });
    lines.push(mdTable(['condition', 'what', 'family', 'agents', 'updates', 'deadline', 'training time per seed'], rows), '');
  }
  lines.push('## Results', '');
  for (const t of r.tables) lines.push(t.caption, '', mdTable(t.header, t.rows), '');
  lines.push('## Verdict by part', '', mdTable(['part', 'rule', 'measured (mean ± sd over seeds; per seed)', 'outcome'], r.parts.map((p) => [p.name, p.rule, p.numbers, p.outcome])), '', RULES_TEXT, '');
  if (r.plots.length) {
    lines.push('## Plots', '');
    for (const p of r.plots) lines.push(`![${p.caption}](${p.file})`, '', `*${p.caption}*`, '');
  }
  if (r.notes.length) lines.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** Rewrites `<out>/README.md` from the verdicts of every claim folder present. */
export function writeSummary(out: string, scale: Scale): string {
  const rows: string[][] = [];
  for (const id of CLAIM_IDS) {
    const f = join(out, id, 'verdict.json');
    if (!existsSync(f)) {
      rows.push([`[${id}](${id}/README.md)`, CLAIMS.find((c) => c.id === id)!.title, 'pending', '']);
      continue;
    }
    const v = JSON.parse(readFileSync(f, 'utf8')) as { verdict: Verdict; parts: { outcome: string }[] };
    rows.push([`[${id}](${id}/README.md)`, CLAIMS.find((c) => c.id === id)!.title, VERDICT_MARK[v.verdict], v.parts.map((p) => p.outcome).join(', ')]);
  }
  const text = [`# Claims (scale \`${scale.name}\`)`, '', 'Each claim is run with `npm run experiment -- --claim <id> --claim-scale ' + scale.name + '`; see docs/EXPERIMENTS.md.', '', mdTable(['claim', 'statement', 'verdict', 'parts'], rows), '', RULES_TEXT, ''].join('\n');
  writeFileSync(join(out, 'README.md'), text);
  return text;
}

/** Runs the claims: trains what is missing, evaluates, writes the reports; returns them. */
export async function runClaims(opts: ClaimsOptions): Promise<ClaimReport[]> {
  const scale = SCALES[opts.scale];
  const log = opts.log ?? ((l: string) => process.stderr.write(l + '\n'));
  const store = new ConditionStore(scale, opts.out, opts.quiet, log);
  const needed = conditionsFor(opts.claims);
  const missing = needed.flatMap((id) => scale.seeds.filter((s) => !store.cached(id, s)).map((s) => `${id}/${s}`));
  log(`claims ${opts.claims.join(', ')} at scale ${scale.name}: ${needed.length} condition(s) x ${scale.seeds.length} seeds, ${missing.length} run(s) to train${missing.length ? `: ${missing.join(' ')}` : ''}`);
  const reports: ClaimReport[] = [];
  const failed: string[] = [];
  for (const claim of CLAIMS.filter((c) => opts.claims.includes(c.id))) {
    const loaded = new Map<string, ConditionRun[]>();
    let report: ClaimReport;
    try {
      for (const id of claim.conditions) loaded.set(id, await store.get(id));
      report = await evaluateClaim(claim, new Context(store, loaded));
    } catch (e) {
      log(`${claim.id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      failed.push(claim.id);
      continue;
    }
    const dir = join(opts.out, claim.id);
    mkdirSync(dir, { recursive: true });
    for (const p of report.plots) writeFileSync(join(dir, p.file), p.svg);
    writeFileSync(join(dir, 'README.md'), renderReport(report, scale, store, loaded));
    writeFileSync(join(dir, 'verdict.json'), JSON.stringify({ id: report.id, verdict: report.verdict, parts: report.parts }, null, 1));
    writeSummary(opts.out, scale);
    reports.push(report);
    const lines = [`${report.id}: ${report.title}`, `verdict: ${VERDICT_MARK[report.verdict]}`];
    for (const t of report.tables.slice(0, 1)) lines.push(formatTable(t.header, t.rows));
    for (const p of report.parts) lines.push(`  [${p.outcome}] ${p.name}: ${p.numbers}`);
    process.stdout.write(lines.join('\n') + '\n\n');
  }
  if (failed.length) throw new Error(`claim(s) ${failed.join(', ')} failed (see above); the others were written`);
  return reports;
}

const CLAIM_FLAGS: Record<string, string> = {
  claim: `claim(s) to run: ${CLAIM_IDS.join(', ')}, a comma-separated list, or all`,
  'claim-scale': `compute budget: ${SCALE_NAMES.join(' or ')} (default full)`,
  out: 'output folder (default results/claims, or results/claims-smoke for the smoke scale)',
  backend: `TF.js backend: ${NODE_BACKENDS.join(' or ')} (default wasm)`,
  quiet: 'no progress bars',
};

/** Help text of the claims mode. */
export function claimsUsage(): string {
  return ['Usage: npm run experiment -- --claim <C1..C9|all> [--claim-scale smoke|full] [flags]', '', ...Object.entries(CLAIM_FLAGS).map(([k, h]) => `  --${k.padEnd(17)} ${h}`)].join('\n');
}

/** Reads the claims flags; throws an Error with a message for a bad command line. */
export function parseClaimArgs(argv: string[]): { claims: string[]; scale: ScaleName; out: string; backend: NodeBackend; quiet: boolean } {
  const args = parseArgs(argv);
  const errors: string[] = [];
  for (const flag of args.flags.keys()) if (!(flag in CLAIM_FLAGS)) errors.push(`--${flag} cannot be combined with --claim (claims set their own training settings)`);
  if (args.positional.length) errors.push(`unexpected argument "${args.positional[0]}"`);
  const text = (args.flags.get('claim') ?? '').trim();
  const claims = text.toLowerCase() === 'all' ? [...CLAIM_IDS] : text.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  if (!claims.length) errors.push(`--claim needs one of ${CLAIM_IDS.join(', ')} or all`);
  for (const c of claims) if (!CLAIM_IDS.includes(c)) errors.push(`--claim: unknown claim "${c}" (one of ${CLAIM_IDS.join(', ')} or all)`);
  const scale = (args.flags.get('claim-scale') ?? 'full') as ScaleName;
  if (!SCALE_NAMES.includes(scale)) errors.push(`--claim-scale: "${scale}" is not one of ${SCALE_NAMES.join(', ')}`);
  const backend = (args.flags.get('backend') ?? 'wasm') as NodeBackend;
  if (!NODE_BACKENDS.includes(backend)) errors.push(`--backend: "${backend}" is not one of ${NODE_BACKENDS.join(', ')}`);
  if (args.bare.has('out')) errors.push('--out needs a value');
  if (args.flags.has('quiet') && !args.bare.has('quiet')) errors.push('--quiet takes no value');
  if (errors.length) throw new Error(errors.join('\n'));
  return { claims: CLAIM_IDS.filter((c) => claims.includes(c)), scale, out: args.flags.get('out') ?? (scale === 'full' ? join('results', 'claims') : join('results', 'claims-smoke')), backend, quiet: args.flags.has('quiet') };
}

/** The `--claim` mode of `scripts/experiment.ts`: exits 2 on a bad command line. */
export async function runClaimsFromArgs(argv: string[]): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(claimsUsage() + '\n');
    return;
  }
  let opts: ReturnType<typeof parseClaimArgs>;
  try {
    opts = parseClaimArgs(argv);
  } catch (e) {
    for (const m of (e as Error).message.split('\n')) process.stderr.write(`error: ${m}\n`);
    process.stderr.write(claimsUsage() + '\n');
    process.exit(2);
  }
  await useBackend(opts.backend);
  const t0 = performance.now();
  const reports = await runClaims({ claims: opts.claims, scale: opts.scale, out: opts.out, quiet: opts.quiet });
  writeSummary(opts.out, SCALES[opts.scale]);
  const cpu = process.cpuUsage();
  process.stdout.write(
    `${reports.map((r) => `${r.id}: ${VERDICT_MARK[r.verdict]}`).join('\n')}\n\nWritten to ${opts.out}/ in ${formatDuration((performance.now() - t0) / 1000)} (CPU time of this process ${formatDuration((cpu.user + cpu.system) / 1e6)}).\n`,
  );
}
