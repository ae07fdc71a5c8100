/**
 * The claims C1..C9: each one a statement, the training conditions it needs (declared as config
 * overrides, shared between claims through the runner's cache), and an evaluation that turns the
 * measured numbers into a table, plots and a verdict by the rules of `rules.ts`.
 */
import type { OrgSummary } from '../../src/rl/compare';
import { costsOf, FORMER_DEFAULTS, type Config } from '../../src/rl/config';
import type { SprintCosts } from '../../src/sim/costs';
import type { UpdateMetrics } from '../../src/rl/metrics';
import { mean, std, type WorkSummary } from '../../src/sim/evaluate';
import { raceHorizon, raceOrganisations, scaleOrganisations, type RaceResult, type TimeSummary } from '../../src/sim/race';
import { evaluationTasks } from '../../src/sim/seeds';
import { generateTask, type Family, type Task } from '../../src/sim/task';
import { asNumber, below, exceeds, perSeed, pm, relativeChange, verdictOf, type Outcome, type Part, type Verdict } from './rules';
import { barChart, lineChart, type Series } from './svg';

/** A training condition: config overrides over the defaults, optionally continuing another condition's final weights. */
export interface Condition {
  id: string;
  /** One line: what differs from the default run. */
  label: string;
  overrides: Partial<Config>;
  /** Condition whose trained weights (same seed) this one starts from; its config is the base. */
  from?: string;
}

/** How a policy (or an organisation) did on the evaluation tasks at one deadline. */
export interface EvalNumbers extends WorkSummary {
  /** Mean minutes played per episode (all tests passing, or the deadline). */
  minutes: number;
  /** Useful agent-minutes per minute played: agents doing useful work at once. */
  parallelism: number;
  /** Minutes to 90% of the tests over the evaluation tasks (median etc.). */
  time90: TimeSummary;
  /** Mean anytime curve (share of tests passing after each minute). */
  curve: number[];
}

/** One update of the training curve, as cached. */
export type CurvePoint = Pick<
  UpdateMetrics,
  'update' | 'phase' | 'tmax' | 'ret' | 'messages' | 'messageRate' | 'handoffs' | 'useful' | 'duplicate' | 'claims' | 'entropy'
>;

/** Everything measured for one condition and seed: the cache record. */
export interface ConditionRun {
  version: number;
  key: string;
  condition: string;
  seed: number;
  config: Config;
  /** Cache key of the run this one continued, if any. */
  parentKey: string | null;
  trainSeconds: number;
  curve: CurvePoint[];
  /** Evaluations during training at the final deadline; `update` counts RLCR updates done (0 = before RLCR, after any prior). */
  checkpoints: { update: number; eval: EvalNumbers }[];
  /** The trained swarm at the final deadline. */
  final: EvalNumbers;
  /** The same policy with messages (DMs, posts, reads) masked out. */
  muted: EvalNumbers;
  /** Minutes to 90% with a horizon of 3 x the final deadline (the policy sees that horizon as its deadline). */
  race: { time: TimeSummary; curve: number[] };
}

/** The reference organisations for one condition's setting and seed. */
export interface Baseline {
  /** random, single chain, best-of-N, scripted organisation at the condition's final deadline. */
  orgs: OrgSummary[];
  /** single chain, best-of-N, scripted organisation: minutes to 90% at equal compute, horizon 3 x deadline. */
  race: RaceResult[];
}

/** What a claim's evaluation can read. */
export interface ClaimContext {
  seeds: number[];
  scale: { name: string; evalTasks: number; checkpointTasks: number };
  /** The (scaled) config of a condition. */
  config(id: string): Config;
  /** The condition's runs, one per seed, in seed order. */
  runs(id: string): ConditionRun[];
  /** Reference organisations at the condition's family, agents and final deadline, one per seed. */
  baselines(id: string): Promise<Baseline[]>;
  /** Single chain and scripted organisation at any deadline on the checkpoint tasks (for per-update references). */
  /** The single chain and the scripted organisation on the checkpoint tasks, under `costs` (the condition's costs of talk). */
  reference(family: Family, agents: number, tmax: number, seed: number, costs?: SprintCosts): Promise<{ chain: WorkSummary; scripted: WorkSummary }>;
}

/** A plot of a report: file name (in the claim's folder) and SVG text. */
export interface Plot {
  file: string;
  caption: string;
  svg: string;
}

/** A titled table of a report. */
export interface Table {
  caption: string;
  header: string[];
  rows: string[][];
}

/** A claim's measured outcome. */
export interface ClaimReport {
  id: string;
  title: string;
  statement: string;
  conditions: string[];
  tables: Table[];
  parts: Part[];
  verdict: Verdict;
  plots: Plot[];
  notes: string[];
}

/** A claim: statement, conditions and evaluation. */
export interface Claim {
  id: string;
  title: string;
  statement: string;
  conditions: string[];
  evaluate(ctx: ClaimContext): Promise<Omit<ClaimReport, 'id' | 'title' | 'statement' | 'conditions' | 'verdict'>>;
}

/**
 * A setting the nine claims run on: the task families, deadlines and budgets. `long` (the default)
 * runs them on the long-horizon families under the handoff rule and today's defaults (the costs of
 * talk, the annealed entropy bonus); `second-round` on the same families under the rules before
 * those (no cost, a constant bonus: the second and third rounds' verdicts); `short` is the first
 * round's setting. The older ones are kept so their results stay reproducible (`--claim-suite`).
 */
export interface Suite {
  name: SuiteName;
  /** The families playing the coupled, parallel and search roles. */
  coupled: Family;
  parallel: Family;
  search: Family;
  /** The deadline schedule of the default run: start -> end (the evaluation deadline). */
  start: number;
  end: number;
  /** RLCR updates of the default run (and of the conditions compared with it). */
  updates: number;
  /** Updates of the parallel and search swarms. */
  sideUpdates: number;
  /** Imitation updates of the prior condition. */
  prior: number;
  /** C4: agents, updates and the two fixed deadlines. */
  latency: { agents: number; updates: number; short: number; long: number };
  /** C5: updates of the critic continuations. */
  continueUpdates: number;
  /** The entropy bonus of every condition. */
  entropy: number;
  /** Settings every condition pins beyond these (the former rules, FORMER_DEFAULTS, for `second-round` and `short`). */
  rules: Partial<Config>;
}

export const SUITE_NAMES = ['long', 'second-round', 'short'] as const;
export type SuiteName = (typeof SUITE_NAMES)[number];

/** The long families under today's defaults. */
const LONG: Suite = {
  name: 'long',
  coupled: 'long-coupled',
  parallel: 'long-parallel',
  search: 'long-search',
  start: 20,
  end: 80,
  updates: 300,
  sideUpdates: 200,
  prior: 100,
  latency: { agents: 4, updates: 200, short: 80, long: 160 },
  continueUpdates: 50,
  entropy: 0.0002,
  rules: {},
};

export const SUITES: Record<SuiteName, Suite> = {
  long: LONG,
  // The same families under the rules before the costs of talk became the default.
  'second-round': { ...LONG, name: 'second-round', rules: FORMER_DEFAULTS },
  short: {
    name: 'short',
    coupled: 'coupled',
    parallel: 'parallel',
    search: 'search',
    start: 8,
    end: 24,
    updates: 600,
    sideUpdates: 300,
    prior: 150,
    latency: { agents: 4, updates: 250, short: 40, long: 80 },
    continueUpdates: 100,
    entropy: 0.001,
    rules: FORMER_DEFAULTS,
  },
};

/** Every training condition the claims of `suite` use, by id. Every condition pins its family, schedule and updates, so a change of the defaults leaves it alone. */
export function conditionsOf(S: Suite): Record<string, Condition> {
  const base: Partial<Config> = { ...S.rules, family: S.coupled, agents: 8, updates: S.updates, tmaxStart: S.start, tmaxEnd: S.end, entropy: S.entropy };
  const fixed = { tmaxStart: S.end, tmaxEnd: S.end };
  const L = S.latency;
  const latency = { ...S.rules, family: S.coupled, agents: L.agents, updates: L.updates, entropy: S.entropy };
  const cont = { ...fixed, updates: S.continueUpdates, critic: true };
  return {
    coupled: { id: 'coupled', label: `default: ${S.coupled}, 8 agents, ${S.updates} updates, deadline ${S.start} -> ${S.end}`, overrides: base },
    'coupled-fixed': { id: 'coupled-fixed', label: `fixed deadline ${S.end} from the start`, overrides: { ...base, ...fixed } },
    'coupled-individual': {
      id: 'coupled-individual',
      label: 'individual rewards (each agent: the tests its own work passed)',
      overrides: { ...base, rewards: 'individual' },
    },
    'coupled-prior': {
      id: 'coupled-prior',
      label: `${S.prior} imitation updates, then the default ${S.updates} RLCR updates`,
      overrides: { ...base, prior: S.prior },
    },
    parallel: {
      id: 'parallel',
      label: `${S.parallel} tasks, ${S.sideUpdates} updates, deadline ${S.start} -> ${S.end}`,
      overrides: { ...base, family: S.parallel, updates: S.sideUpdates },
    },
    search: {
      id: 'search',
      label: `${S.search} tasks, ${S.sideUpdates} updates, deadline ${S.start} -> ${S.end}`,
      overrides: { ...base, family: S.search, updates: S.sideUpdates },
    },
    [`deadline-${L.short}`]: {
      id: `deadline-${L.short}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.short}, no penalty`,
      overrides: { ...latency, tmaxStart: L.short, tmaxEnd: L.short },
    },
    [`penalty-${L.short}`]: {
      id: `penalty-${L.short}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.short}, latency penalty c = 1`,
      overrides: { ...latency, tmaxStart: L.short, tmaxEnd: L.short, latencyPenalty: 1 },
    },
    [`penalty-${L.long}`]: {
      id: `penalty-${L.long}`,
      label: `${L.agents} agents, ${L.updates} updates, fixed deadline ${L.long}, latency penalty c = 1`,
      overrides: { ...latency, tmaxStart: L.long, tmaxEnd: L.long, latencyPenalty: 1 },
    },
    'critic-1-1': {
      id: 'critic-1-1',
      label: `continues \`coupled\` for ${S.continueUpdates} updates at deadline ${S.end} with critic + GAE, gamma = lambda = 1`,
      from: 'coupled',
      overrides: { ...cont, gamma: 1, lambda: 1 },
    },
    'critic-lambda': { id: 'critic-lambda', label: 'as critic-1-1 with lambda = 0.95', from: 'coupled', overrides: { ...cont, gamma: 1, lambda: 0.95 } },
    'critic-gamma': { id: 'critic-gamma', label: 'as critic-1-1 with gamma = 0.95', from: 'coupled', overrides: { ...cont, gamma: 0.95, lambda: 1 } },
  };
}

// ---------- helpers ----------

const org = (b: Baseline, name: OrgSummary['org']): OrgSummary => {
  const o = b.orgs.find((x) => x.org === name);
  if (!o) throw new Error(`missing baseline ${name}`);
  return o;
};
const raceOf = (b: Baseline, name: RaceResult['org']): RaceResult => {
  const r = b.race.find((x) => x.org === name);
  if (!r) throw new Error(`missing race ${name}`);
  return r;
};
const median = (t: TimeSummary) => asNumber(t.median);
const fmtTime = (xs: number[]) => pm(xs, 1);
const vs = (la: string, a: number[], lb: string, b: number[], digits = 3) =>
  `${la} ${pm(a, digits)} (${perSeed(a, digits)}) vs ${lb} ${pm(b, digits)} (${perSeed(b, digits)})`;

/** Rolling mean over the last `w` values. */
export function rolling(xs: readonly number[], w: number): number[] {
  const out: number[] = [];
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    s += xs[i];
    if (i >= w) s -= xs[i - w];
    out.push(s / Math.min(i + 1, w));
  }
  return out;
}

/** Mean over seeds of equally indexed series (shorter series end early). */
export function meanSeries(series: readonly (readonly number[])[]): number[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: n }, (_, i) => mean(series.filter((s) => i < s.length).map((s) => s[i])));
}

/** sd over seeds of equally indexed series. */
function sdSeries(series: readonly (readonly number[])[]): number[] {
  const n = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: n }, (_, i) => std(series.filter((s) => i < s.length).map((s) => s[i])));
}

/** A mean-over-seeds line with a ± sd band. */
function seedSeries(name: string, x: readonly number[], per: readonly (readonly number[])[], dashed = false): Series {
  const m = meanSeries(per);
  const s = sdSeries(per);
  return { name, x, y: m, lo: m.map((v, i) => v - s[i]), hi: m.map((v, i) => v + s[i]), dashed };
}

const rlcr = (run: ConditionRun) => run.curve.filter((p) => p.phase === 'rlcr');

/**
 * Coordination discovered: the first update (counting imitation updates too) from which the rolling
 * mean (`window` RLCR updates) of unblocking handoffs per episode stays at or above `ratio` times the
 * scripted organisation's handoffs at that update's deadline until the end. Returns the number of
 * updates done by then, or null if it never settles there.
 */
export function discoveryUpdate(curve: readonly CurvePoint[], scriptedHandoffs: (tmax: number) => number, window = 25, ratio = 0.5): number | null {
  const pts = curve.filter((p) => p.phase === 'rlcr');
  const roll = rolling(
    pts.map((p) => p.handoffs),
    window,
  );
  let first: number | null = null;
  for (let i = pts.length - 1; i >= 0; i--) {
    if (roll[i] >= ratio * scriptedHandoffs(pts[i].tmax)) first = i;
    else break;
  }
  return first === null ? null : pts[first].update + 1;
}

/** The first update (counted from 1) at which the rolling mean return reaches `reference(tmax)`, or null. */
export function crossoverUpdate(curve: readonly CurvePoint[], reference: (tmax: number) => number, window = 25): number | null {
  const pts = curve.filter((p) => p.phase === 'rlcr');
  const roll = rolling(
    pts.map((p) => p.ret),
    window,
  );
  for (let i = 0; i < pts.length; i++) if (roll[i] >= reference(pts[i].tmax)) return pts[i].update + 1;
  return null;
}

/** References at every distinct deadline of a set of runs, per seed index. */
async function referencesAt(ctx: ClaimContext, id: string): Promise<Map<number, { chain: WorkSummary; scripted: WorkSummary }>[]> {
  const c = ctx.config(id);
  const runs = ctx.runs(id);
  const out: Map<number, { chain: WorkSummary; scripted: WorkSummary }>[] = [];
  for (const run of runs) {
    const m = new Map<number, { chain: WorkSummary; scripted: WorkSummary }>();
    for (const t of new Set(run.curve.map((p) => p.tmax))) m.set(t, await ctx.reference(c.family, c.agents, t, run.seed, costsOf(c)));
    out.push(m);
  }
  return out;
}

function part(name: string, rule: string, numbers: string, outcome: Outcome): Part {
  return { name, rule, numbers, outcome };
}

function orgRow(
  name: string,
  ret: number[],
  t90: (number | null)[],
  reached: number[],
  raceMed: number[],
  raceReached: number[],
  msgs: number[],
  handoffs: number[],
): string[] {
  const t = t90.filter((x): x is number => x !== null);
  return [
    name,
    pm(ret),
    t.length ? mean(t).toFixed(1) : '-',
    `${(100 * mean(reached)).toFixed(0)}%`,
    fmtTime(raceMed),
    `${(100 * mean(raceReached)).toFixed(0)}%`,
    mean(msgs).toFixed(1),
    mean(handoffs).toFixed(1),
  ];
}

const ORG_HEADER = [
  'organisation',
  'return at deadline',
  'min to 90% (reached)',
  'reached 90% by deadline',
  'median min to 90%, equal compute',
  'reached in horizon',
  'msgs/episode',
  'handoffs',
];

// ---------- the claims ----------

const TALK_LIMIT = 0.02;

const SPEED_CHANGE = 0.15;

const COLLAPSE = -0.25;

/** Seeds of the calibration tasks used to choose C8's task mix: disjoint from training and evaluation seeds. */
const CALIBRATION_SEED_BASE = 1_500_000_000;
const MIX_SHARES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
const C8_ORGS = ['single chain', 'best-of-N', 'scripted organisation'] as const;

/** A mix of `n` tasks: round(share x n) search tasks, the rest coupled. */
export function taskMix(share: number, search: readonly Task[], coupled: readonly Task[], n: number): Task[] {
  const k = Math.round(share * n);
  return [...search.slice(0, k), ...coupled.slice(0, n - k)];
}

async function medians(tasks: readonly Task[], seed: number, horizon: number): Promise<Record<(typeof C8_ORGS)[number], number>> {
  const r = await raceOrganisations({ tasks, agents: 8, seed, horizon });
  const m = (o: (typeof C8_ORGS)[number]) => median(r.find((x) => x.org === o)!.time);
  return { 'single chain': m('single chain'), 'best-of-N': m('best-of-N'), 'scripted organisation': m('scripted organisation') };
}

const articleOrder = (m: Record<(typeof C8_ORGS)[number], number>) =>
  m['best-of-N'] < m['scripted organisation'] && m['scripted organisation'] < m['single chain'];

const DISCOVERY_RATIO = 0.5;

/** The nine claims on the setting `S`. */
export function claimsOf(S: Suite): readonly Claim[] {
  const L = S.latency;
  /** Horizon of the races at equal compute. */
  const H = raceHorizon(S.end);

  const C1: Claim = {
    id: 'C1',
    title: 'On coupled tasks the trained swarm beats the single chain and best-of-N at the deadline',
    statement: `Trained with RLCR on coupled tasks (${S.coupled}: dependency trees, handoffs needed), the swarm of 8 agents reaches a higher share of passing tests at the ${S.end}-minute deadline than one agent working alone and than the best of 8 independent single-agent attempts.`,
    conditions: ['coupled'],
    async evaluate(ctx) {
      const runs = ctx.runs('coupled');
      const base = await ctx.baselines('coupled');
      const c = ctx.config('coupled');
      const trained = runs.map((r) => r.final.ret);
      const chain = base.map((b) => org(b, 'single chain').ret);
      const best = base.map((b) => org(b, 'best-of-N').ret);
      const rows = (['single chain', 'best-of-N', 'scripted organisation'] as const).map((name) =>
        orgRow(
          name,
          base.map((b) => org(b, name).ret),
          base.map((b) => org(b, name).t90),
          base.map((b) => org(b, name).reached90),
          base.map((b) => median(raceOf(b, name).time)),
          base.map((b) => raceOf(b, name).time.reached),
          base.map((b) => org(b, name).messages),
          base.map((b) => org(b, name).handoffs),
        ),
      );
      rows.push(
        orgRow(
          'trained swarm',
          trained,
          runs.map((r) => r.final.time90.meanReached),
          runs.map((r) => r.final.time90.reached),
          runs.map((r) => median(r.race.time)),
          runs.map((r) => r.race.time.reached),
          runs.map((r) => r.final.messages),
          runs.map((r) => r.final.handoffs),
        ),
      );
      const minutes = Array.from({ length: c.tmaxEnd + 1 }, (_, t) => t);
      const curves: Series[] = [
        ...(['single chain', 'best-of-N', 'scripted organisation'] as const).map((name) =>
          seedSeries(
            name,
            minutes,
            base.map((b) => org(b, name).curve),
          ),
        ),
        seedSeries(
          'trained swarm',
          minutes,
          runs.map((r) => r.final.curve),
        ),
      ];
      const bars = barChart({
        title: `Return at the ${c.tmaxEnd}-minute deadline (${c.family}, ${c.agents} agents; ± sd over seeds)`,
        yLabel: 'share of tests passing',
        series: ['single chain', 'best-of-N', 'scripted organisation', 'trained swarm'],
        groups: [
          {
            label: 'coupled tasks',
            values: {
              'single chain': { mean: mean(chain), sd: std(chain) },
              'best-of-N': { mean: mean(best), sd: std(best) },
              'scripted organisation': {
                mean: mean(base.map((b) => org(b, 'scripted organisation').ret)),
                sd: std(base.map((b) => org(b, 'scripted organisation').ret)),
              },
              'trained swarm': { mean: mean(trained), sd: std(trained) },
            },
          },
        ],
        yDomain: [0, 1],
      });
      return {
        tables: [
          {
            caption: `Evaluation on ${ctx.scale.evalTasks} fresh ${c.family} tasks per seed, ${c.agents} agents, deadline ${c.tmaxEnd} min; "equal compute": the N-agent organisations get ${raceHorizon(c.tmaxEnd)} minutes, the single chain ${raceHorizon(c.tmaxEnd) * c.agents}.`,
            header: ORG_HEADER,
            rows,
          },
        ],
        parts: [
          part(
            'trained swarm > single chain',
            'return at the deadline, trained - single chain > 0',
            vs('trained', trained, 'chain', chain),
            exceeds(trained, chain),
          ),
          part(
            'trained swarm > best-of-N',
            'return at the deadline, trained - best-of-N > 0',
            vs('trained', trained, 'best-of-N', best),
            exceeds(trained, best),
          ),
        ],
        plots: [
          { file: 'returns.svg', caption: 'Return at the deadline', svg: bars },
          {
            file: 'anytime.svg',
            caption: 'Anytime curves up to the deadline (mean over tasks; band: ± sd over seeds)',
            svg: lineChart({
              title: `Share of tests passing against minutes (${S.coupled})`,
              xLabel: 'minutes',
              yLabel: 'share of tests passing',
              series: curves,
              yDomain: [0, 1],
              refLines: [{ y: 0.9, label: '90% of tests' }],
            }),
          },
        ],
        notes: [
          'The "equal compute" column lets each organisation run past the deadline; the trained swarm then sees the longer horizon as its deadline, which it never saw in training.',
        ],
      };
    },
  };

  const C2: Claim = {
    id: 'C2',
    title: 'On parallel and search tasks talk does not pay, and the swarm talks less there',
    statement:
      'On parallel tasks (independent modules) and search tasks (luck), messages do not raise the return, and the trained swarm sends fewer messages per agent-minute there than on coupled tasks.',
    conditions: ['parallel', 'search', 'coupled'],
    async evaluate(ctx) {
      const fams = ['parallel', 'search', 'coupled'] as const;
      const famName = { parallel: S.parallel, search: S.search, coupled: S.coupled };
      const gain = (id: string) => ctx.runs(id).map((r) => r.final.ret - r.muted.ret);
      const rate = (id: string) => ctx.runs(id).map((r) => r.final.messageRate);
      const rows = fams.map((f) => {
        const runs = ctx.runs(f);
        return [
          famName[f],
          String(ctx.config(f).updates),
          pm(runs.map((r) => r.final.ret)),
          pm(runs.map((r) => r.muted.ret)),
          pm(gain(f)),
          pm(
            runs.map((r) => r.final.messages),
            1,
          ),
          pm(rate(f)),
          pm(
            runs.map((r) => r.final.handoffs),
            1,
          ),
        ];
      });
      const parts = [
        part(
          'talk does not pay on parallel tasks',
          `return with messages - return with messages masked out < ${TALK_LIMIT}`,
          `gain ${pm(gain('parallel'))} (${perSeed(gain('parallel'))})`,
          below(gain('parallel'), TALK_LIMIT),
        ),
        part(
          'talk does not pay on search tasks',
          `return with messages - return with messages masked out < ${TALK_LIMIT}`,
          `gain ${pm(gain('search'))} (${perSeed(gain('search'))})`,
          below(gain('search'), TALK_LIMIT),
        ),
        part(
          'fewer messages on parallel than on coupled tasks',
          'messages per agent-minute, coupled - parallel > 0',
          vs('coupled', rate('coupled'), 'parallel', rate('parallel')),
          exceeds(rate('coupled'), rate('parallel')),
        ),
        part(
          'fewer messages on search than on coupled tasks',
          'messages per agent-minute, coupled - search > 0',
          vs('coupled', rate('coupled'), 'search', rate('search')),
          exceeds(rate('coupled'), rate('search')),
        ),
      ];
      const bars = (title: string, yLabel: string, pick: (r: ConditionRun) => number, muted?: (r: ConditionRun) => number) =>
        barChart({
          title,
          yLabel,
          series: muted ? ['with messages', 'messages masked out'] : ['trained swarm'],
          groups: fams.map((f) => {
            const a = ctx.runs(f).map(pick);
            const values: Record<string, { mean: number; sd: number }> = muted
              ? { 'with messages': { mean: mean(a), sd: std(a) } }
              : { 'trained swarm': { mean: mean(a), sd: std(a) } };
            if (muted) {
              const b = ctx.runs(f).map(muted);
              values['messages masked out'] = { mean: mean(b), sd: std(b) };
            }
            return { label: famName[f], values };
          }),
        });
      return {
        tables: [
          {
            caption: `Trained swarms, ${ctx.config('coupled').agents} agents, evaluated at the final deadline on ${ctx.scale.evalTasks} fresh tasks per seed; "masked": the same policy with DMs, posts and reads masked out (claims stay).`,
            header: ['family', 'updates', 'return', 'return, messages masked', 'gain from talk', 'msgs/episode', 'msgs/agent-min', 'handoffs'],
            rows,
          },
        ],
        parts,
        plots: [
          {
            file: 'message-rate.svg',
            caption: 'Messages per agent-minute by family',
            svg: bars('Messages per agent-minute of the trained swarm', 'messages per agent-minute', (r) => r.final.messageRate),
          },
          {
            file: 'talk-value.svg',
            caption: 'Return with and without messages',
            svg: bars(
              'Return at the deadline, with and without messages',
              'share of tests passing',
              (r) => r.final.ret,
              (r) => r.muted.ret,
            ),
          },
        ],
        notes: [
          `The parallel and search swarms train for ${S.sideUpdates} updates (the coupled one for ${S.updates}) to fit the compute budget; the schedule still grows ${S.start} -> ${S.end} minutes over their run.`,
        ],
      };
    },
  };

  const C3: Claim = {
    id: 'C3',
    title: 'A growing deadline learns coordination better than a fixed long one; early on a lone agent out-progresses the swarm',
    statement: `Training with Tmax growing ${S.start} -> ${S.end} gives a higher return and more unblocking handoffs at the ${S.end}-minute deadline than training at Tmax = ${S.end} throughout; and early in training the single chain reaches more than the swarm at the same deadline.`,
    conditions: ['coupled', 'coupled-fixed'],
    async evaluate(ctx) {
      const grow = ctx.runs('coupled');
      const fixed = ctx.runs('coupled-fixed');
      const refs = await referencesAt(ctx, 'coupled');
      const refsFixed = await referencesAt(ctx, 'coupled-fixed');
      const early = grow.map((run, s) => {
        const pts = rlcr(run);
        const n = Math.max(1, Math.ceil(0.1 * pts.length));
        const head = pts.slice(0, n);
        return { swarm: mean(head.map((p) => p.ret)), chain: mean(head.map((p) => refs[s].get(p.tmax)!.chain.ret)) };
      });
      const cross = grow.map((run, s) => asNumber(crossoverUpdate(run.curve, (t) => refs[s].get(t)!.chain.ret)));
      const crossFixed = fixed.map((run, s) => asNumber(crossoverUpdate(run.curve, (t) => refsFixed[s].get(t)!.chain.ret)));
      const gRet = grow.map((r) => r.final.ret);
      const fRet = fixed.map((r) => r.final.ret);
      const gH = grow.map((r) => r.final.handoffs);
      const fH = fixed.map((r) => r.final.handoffs);
      const swarmEarly = early.map((e) => e.swarm);
      const chainEarly = early.map((e) => e.chain);
      const row = (name: string, runs: ConditionRun[], cr: number[]) => [
        name,
        pm(runs.map((r) => r.final.ret)),
        pm(
          runs.map((r) => r.final.handoffs),
          1,
        ),
        pm(
          runs.map((r) => r.final.messages),
          1,
        ),
        pm(
          runs.map((r) => r.final.duplicate),
          1,
        ),
        pm(cr, 0),
        pm(
          runs.map((r) => r.trainSeconds / 60),
          1,
        ),
      ];
      const x = (runs: ConditionRun[]) => rlcr(runs[0]).map((p) => p.update + 1);
      const ret = (runs: ConditionRun[]) =>
        runs.map((r) =>
          rolling(
            rlcr(r).map((p) => p.ret),
            25,
          ),
        );
      const chainLine = meanSeries(grow.map((run, s) => rlcr(run).map((p) => refs[s].get(p.tmax)!.chain.ret)));
      return {
        tables: [
          {
            caption: `${S.coupled} tasks, ${ctx.config('coupled').agents} agents, ${ctx.config('coupled').updates} updates; evaluation at the ${S.end}-minute deadline on ${ctx.scale.evalTasks} fresh tasks per seed. "crossover": first update at which the rolling mean (25 updates) training return reaches the single chain's return at that update's deadline.`,
            header: ['schedule', 'return', 'handoffs', 'msgs/episode', 'duplicate work', 'crossover update', 'training min/seed'],
            rows: [row(`growing ${S.start} -> ${S.end}`, grow, cross), row(`fixed ${S.end}`, fixed, crossFixed)],
          },
          {
            caption: 'First 10% of the growing run: mean training return against the single chain at the same deadlines.',
            header: ['seed', 'swarm', 'single chain'],
            rows: early.map((e, s) => [String(grow[s].seed), e.swarm.toFixed(3), e.chain.toFixed(3)]),
          },
        ],
        parts: [
          part('growing deadline: higher return', `return at ${S.end} min, growing - fixed > 0`, vs('growing', gRet, 'fixed', fRet), exceeds(gRet, fRet)),
          part(
            'growing deadline: more unblocking handoffs',
            `handoffs per episode at ${S.end} min, growing - fixed > 0`,
            vs('growing', gH, 'fixed', fH, 1),
            exceeds(gH, fH),
          ),
          part(
            'early on a lone agent out-progresses the swarm',
            'mean over the first 10% of updates: single chain return - swarm training return > 0 (same deadlines)',
            vs('chain', chainEarly, 'swarm', swarmEarly),
            exceeds(chainEarly, swarmEarly),
          ),
        ],
        plots: [
          {
            file: 'training.svg',
            caption: 'Training return (rolling mean of 25 updates; band ± sd over seeds); dashed: the single chain at the growing run’s deadline',
            svg: lineChart({
              title: 'Training return: growing against fixed deadline',
              xLabel: 'update',
              yLabel: 'return at the training deadline',
              series: [
                seedSeries(`growing ${S.start} -> ${S.end}`, x(grow), ret(grow)),
                seedSeries(`fixed ${S.end}`, x(fixed), ret(fixed)),
                { name: 'single chain (growing deadline)', x: x(grow), y: chainLine, dashed: true },
              ],
              yDomain: [0, 1],
            }),
          },
        ],
        notes: [],
      };
    },
  };

  const C4: Claim = {
    id: 'C4',
    title: 'The latency penalty also teaches speed, but its result changes strongly with Tmax',
    statement: `With R' = R - c s t_end / Tmax (c = 1) at a fixed deadline, the swarm reaches 90% of the tests sooner than with the deadline alone; but the same penalty at Tmax = ${L.long} instead of ${L.short} gives a clearly different speed.`,
    conditions: [`deadline-${L.short}`, `penalty-${L.short}`, `penalty-${L.long}`],
    async evaluate(ctx) {
      const ids = [`deadline-${L.short}`, `penalty-${L.short}`, `penalty-${L.long}`];
      const speed = (id: string) => ctx.runs(id).map((r) => median(r.final.time90));
      const s40 = speed(`penalty-${L.short}`);
      const s80 = speed(`penalty-${L.long}`);
      const ratio = s80.map((v, i) => v / s40[i] - 1);
      const r = ratio.map((v) => (Number.isNaN(v) ? 0 : v));
      const strong = r.every((v) => Math.abs(v) >= SPEED_CHANGE) && (r.every((v) => v > 0) || r.every((v) => v < 0));
      const tmaxOutcome: Outcome = strong ? 'pass' : Math.abs(mean(r)) >= SPEED_CHANGE ? 'mixed' : 'fail';
      const rows = ids.map((id) => {
        const runs = ctx.runs(id);
        return [
          id,
          String(ctx.config(id).tmaxEnd),
          fmtTime(speed(id)),
          pm(runs.map((r) => r.final.time90.reached)),
          pm(runs.map((r) => r.final.ret)),
          pm(
            runs.map((r) => r.final.minutes),
            1,
          ),
          pm(
            runs.map((r) => r.final.messages),
            1,
          ),
        ];
      });
      return {
        tables: [
          {
            caption: `${S.coupled} tasks, ${ctx.config(`penalty-${L.short}`).agents} agents, ${ctx.config(`penalty-${L.short}`).updates} updates at a fixed deadline; each evaluated at its own deadline on ${ctx.scale.evalTasks} fresh tasks per seed. Speed: median over tasks of the minutes to 90% of the tests.`,
            header: ['condition', 'deadline', 'median min to 90%', 'reached 90%', 'return at deadline', 'minutes played', 'msgs/episode'],
            rows,
          },
        ],
        parts: [
          part(
            'the penalty teaches speed',
            `median minutes to 90% at deadline ${L.short}: no penalty - penalty > 0`,
            vs('no penalty', speed(`deadline-${L.short}`), 'penalty', s40, 1),
            exceeds(speed(`deadline-${L.short}`), s40),
          ),
          part(
            'its result changes strongly with Tmax',
            `|median minutes to 90% at Tmax ${L.long} / at Tmax ${L.short} - 1| >= ${SPEED_CHANGE} in every seed, same direction (mixed: only the mean ratio)`,
            `ratio - 1: ${perSeed(ratio, 3)} (${vs(`Tmax ${L.long}`, s80, `Tmax ${L.short}`, s40, 1)})`,
            tmaxOutcome,
          ),
        ],
        plots: [
          {
            file: 'speed.svg',
            caption: 'Median minutes to 90% of the tests (± sd over seeds)',
            svg: barChart({
              title: 'Minutes to 90% of the tests (lower is faster)',
              yLabel: 'median minutes to 90%',
              series: ['minutes to 90%'],
              groups: ids.map((id) => ({
                label: id,
                values: { 'minutes to 90%': { mean: mean(speed(id).filter(Number.isFinite)), sd: std(speed(id).filter(Number.isFinite)) } },
              })),
            }),
          },
        ],
        notes: ['The penalty only separates rollouts that pass every test before the deadline (t_end < Tmax); rollouts that do not finish all pay the same.'],
      };
    },
  };

  const C5: Claim = {
    id: 'C5',
    title: 'Discounting (gamma < 1 or lambda < 1) collapses long coordination; gamma = lambda = 1 does not',
    statement: `Continuing the trained coupled swarm (${S.coupled}) with a value critic and GAE, lambda = 0.95 or gamma = 0.95 makes its unblocking handoffs fall by a quarter or more within ${S.continueUpdates} updates, while gamma = lambda = 1 keeps them.`,
    conditions: ['coupled', 'critic-1-1', 'critic-lambda', 'critic-gamma'],
    async evaluate(ctx) {
      const parent = ctx.runs('coupled');
      const ids = ['critic-1-1', 'critic-lambda', 'critic-gamma'];
      const change = (id: string, pick: (e: EvalNumbers) => number) =>
        relativeChange(
          parent.map((r) => pick(r.final)),
          ctx.runs(id).map((r) => pick(r.final)),
        );
      const rows = ids.map((id) => {
        const runs = ctx.runs(id);
        const c = ctx.config(id);
        return [
          `${id} (gamma ${c.gamma}, lambda ${c.lambda})`,
          `${pm(parent.map((r) => r.final.ret))} -> ${pm(runs.map((r) => r.final.ret))}`,
          `${pm(
            parent.map((r) => r.final.handoffs),
            1,
          )} -> ${pm(
            runs.map((r) => r.final.handoffs),
            1,
          )}`,
          pm(
            change(id, (e) => e.handoffs).map((x) => 100 * x),
            0,
          ) + ' %',
          `${pm(
            parent.map((r) => r.final.messages),
            1,
          )} -> ${pm(
            runs.map((r) => r.final.messages),
            1,
          )}`,
        ];
      });
      const hChange = (id: string) => change(id, (e) => e.handoffs);
      const x = (id: string) => rlcr(ctx.runs(id)[0]).map((_, i) => i + 1);
      const series = (pick: (p: CurvePoint) => number) =>
        ids.map((id) =>
          seedSeries(
            id,
            x(id),
            ctx.runs(id).map((r) => rolling(rlcr(r).map(pick), 10)),
          ),
        );
      const start = mean(parent.map((r) => r.final.handoffs));
      return {
        tables: [
          {
            caption: `From the trained \`coupled\` swarm (same seed), ${S.continueUpdates} more updates at deadline ${S.end} with a critic; evaluation at ${S.end} minutes on ${ctx.scale.evalTasks} fresh tasks per seed (start -> end).`,
            header: ['continuation', 'return', 'handoffs', 'handoff change', 'msgs/episode'],
            rows,
          },
        ],
        parts: [
          part(
            'lambda < 1 collapses handoffs',
            `relative change of handoffs per episode <= ${COLLAPSE}`,
            `change ${perSeed(hChange('critic-lambda'))}`,
            below(hChange('critic-lambda'), COLLAPSE + 1e-12),
          ),
          part(
            'gamma < 1 collapses handoffs',
            `relative change of handoffs per episode <= ${COLLAPSE}`,
            `change ${perSeed(hChange('critic-gamma'))}`,
            below(hChange('critic-gamma'), COLLAPSE + 1e-12),
          ),
          part(
            'gamma = lambda = 1 keeps them',
            `relative change of handoffs per episode > ${COLLAPSE}`,
            `change ${perSeed(hChange('critic-1-1'))}`,
            exceeds(
              hChange('critic-1-1'),
              hChange('critic-1-1').map(() => COLLAPSE),
            ),
          ),
        ],
        plots: [
          {
            file: 'handoffs.svg',
            caption:
              'Unblocking handoffs per episode during the continuation (training batches, rolling mean of 10; band ± sd over seeds); dotted: the trained swarm before it',
            svg: lineChart({
              title: 'Handoffs per episode under critic + GAE',
              xLabel: 'continuation update',
              yLabel: 'handoffs per episode',
              series: series((p) => p.handoffs),
              refLines: [{ y: start, label: 'before (evaluation)' }],
            }),
          },
          {
            file: 'return.svg',
            caption: 'Training return during the continuation',
            svg: lineChart({
              title: 'Return under critic + GAE',
              xLabel: 'continuation update',
              yLabel: `return at ${S.end} min`,
              series: series((p) => p.ret),
              yDomain: [0, 1],
              refLines: [{ y: mean(parent.map((r) => r.final.ret)), label: 'before (evaluation)' }],
            }),
          },
        ],
        notes: ['The value head starts untrained when the continuation begins; the critic conditions differ only in gamma and lambda.'],
      };
    },
  };

  const C6: Claim = {
    id: 'C6',
    title: 'The flat collective advantage produces more helping than individual rewards',
    statement:
      'Trained with one team return per rollout, the swarm makes more unblocking handoffs than when each agent is rewarded for the tests its own work passed.',
    conditions: ['coupled', 'coupled-individual'],
    async evaluate(ctx) {
      const col = ctx.runs('coupled');
      const ind = ctx.runs('coupled-individual');
      const h = (runs: ConditionRun[]) => runs.map((r) => r.final.handoffs);
      const row = (name: string, runs: ConditionRun[]) => [
        name,
        pm(runs.map((r) => r.final.ret)),
        pm(h(runs), 1),
        pm(
          runs.map((r) => r.final.messages),
          1,
        ),
        pm(
          runs.map((r) => r.final.duplicate),
          1,
        ),
      ];
      const x = rlcr(col[0]).map((p) => p.update + 1);
      const roll = (runs: ConditionRun[]) =>
        runs.map((r) =>
          rolling(
            rlcr(r).map((p) => p.handoffs),
            25,
          ),
        );
      return {
        tables: [
          {
            caption: `${S.coupled} tasks, ${ctx.config('coupled').agents} agents, ${S.updates} updates; evaluation at ${S.end} minutes on ${ctx.scale.evalTasks} fresh tasks per seed.`,
            header: ['rewards', 'return', 'handoffs', 'msgs/episode', 'duplicate work'],
            rows: [row('collective (flat)', col), row('individual', ind)],
          },
        ],
        parts: [
          part(
            'collective rewards: more unblocking handoffs',
            'handoffs per episode, collective - individual > 0',
            vs('collective', h(col), 'individual', h(ind), 1),
            exceeds(h(col), h(ind)),
          ),
        ],
        plots: [
          {
            file: 'handoffs.svg',
            caption: 'Unblocking handoffs per episode in training (rolling mean of 25; band ± sd over seeds)',
            svg: lineChart({
              title: 'Handoffs: collective against individual rewards',
              xLabel: 'update',
              yLabel: 'handoffs per episode (training)',
              series: [seedSeries('collective', x, roll(col)), seedSeries('individual', x, roll(ind))],
            }),
          },
        ],
        notes: [],
      };
    },
  };

  const C7: Claim = {
    id: 'C7',
    title: 'Useful parallel work and messages grow with training (collective inference-time scaling)',
    statement: `Evaluated at the fixed ${S.end}-minute deadline at checkpoints during training, the swarm does more useful work at once and sends more messages (and more unblocking handoffs) at the end of training than early on.`,
    conditions: ['coupled'],
    async evaluate(ctx) {
      const runs = ctx.runs('coupled');
      const cps = runs[0].checkpoints.map((c) => c.update);
      const at = (i: number, pick: (e: EvalNumbers) => number) => runs.map((r) => pick(r.checkpoints[i].eval));
      const last = cps.length - 1;
      const tenth = Math.max(
        0,
        Math.min(
          last,
          cps.findIndex((u) => u >= 0.1 * cps[last]),
        ),
      );
      const par = (e: EvalNumbers) => e.parallelism;
      const msg = (e: EvalNumbers) => e.messages;
      const hand = (e: EvalNumbers) => e.handoffs;
      const rows = cps.map((u, i) => [
        String(u),
        pm(at(i, (e) => e.ret)),
        pm(at(i, par), 2),
        pm(at(i, msg), 1),
        pm(at(i, hand), 1),
        pm(
          at(i, (e) => e.duplicate),
          1,
        ),
      ]);
      const perRun = (pick: (e: EvalNumbers) => number) => runs.map((r) => r.checkpoints.map((c) => pick(c.eval)));
      const x = rlcr(runs[0]).map((p) => p.update + 1);
      const train = (pick: (p: CurvePoint) => number) => runs.map((r) => rolling(rlcr(r).map(pick), 25));
      return {
        tables: [
          {
            caption: `Checkpoints of the default coupled run (RLCR updates done), each evaluated at the ${S.end}-minute deadline on ${ctx.scale.checkpointTasks} fresh tasks per seed. Useful work at once: useful agent-minutes per minute played.`,
            header: ['update', 'return', 'useful work at once', 'msgs/episode', 'handoffs', 'duplicate work'],
            rows,
          },
        ],
        parts: [
          part(
            'useful parallel work grows',
            `useful work at once, update ${cps[last]} - update 0 > 0`,
            vs(`update ${cps[last]}`, at(last, par), 'update 0', at(0, par), 2),
            exceeds(at(last, par), at(0, par)),
          ),
          part(
            'messages grow',
            `messages per episode, update ${cps[last]} - update ${cps[tenth]} > 0 (from the first checkpoint after the uniform random start)`,
            vs(`update ${cps[last]}`, at(last, msg), `update ${cps[tenth]}`, at(tenth, msg), 1),
            exceeds(at(last, msg), at(tenth, msg)),
          ),
          part(
            'unblocking handoffs grow',
            `handoffs per episode, update ${cps[last]} - update 0 > 0`,
            vs(`update ${cps[last]}`, at(last, hand), 'update 0', at(0, hand), 1),
            exceeds(at(last, hand), at(0, hand)),
          ),
        ],
        plots: [
          {
            file: 'parallel-work.svg',
            caption: `Useful work at once at the fixed ${S.end}-minute deadline, at checkpoints`,
            svg: lineChart({
              title: 'Useful parallel work against training',
              xLabel: 'update',
              yLabel: 'useful agent-minutes per minute',
              series: [seedSeries('useful work at once', cps, perRun(par))],
            }),
          },
          {
            file: 'messages.svg',
            caption: 'Messages and unblocking handoffs per episode at the fixed deadline, at checkpoints',
            svg: lineChart({
              title: 'Communication against training',
              xLabel: 'update',
              yLabel: 'per episode',
              series: [seedSeries('messages', cps, perRun(msg)), seedSeries('unblocking handoffs', cps, perRun(hand))],
            }),
          },
          {
            file: 'training-scaling.svg',
            caption: `The same from the training batches (rolling mean of 25 updates; the deadline grows ${S.start} -> ${S.end} meanwhile, so these also grow with the deadline)`,
            svg: lineChart({
              title: 'Per-update training metrics',
              xLabel: 'update',
              yLabel: 'per episode',
              series: [
                seedSeries(
                  'useful agent-minutes',
                  x,
                  train((p) => p.useful),
                ),
                seedSeries(
                  'messages',
                  x,
                  train((p) => p.messages),
                ),
                seedSeries(
                  'handoffs',
                  x,
                  train((p) => p.handoffs),
                ),
              ],
            }),
          },
        ],
        notes: [
          'The untrained policy (update 0) picks actions almost uniformly and so sends many random messages; the message rule therefore starts at the first checkpoint after it.',
        ],
      };
    },
  };

  const C8: Claim = {
    id: 'C8',
    title: 'Which organisation is fastest depends on the task: the article’s ordering on a task mix chosen for it, another on coupled tasks',
    statement:
      'At equal compute (8 agents), on a mix of search and coupled tasks chosen for it, best-of-N reaches 90% of the tests first, the communicating (scripted) organisation second and the single chain last, as in the article (28 / 46 / 100 minutes); on coupled tasks the ordering changes.',
    conditions: [],
    async evaluate(ctx) {
      const n = ctx.scale.evalTasks;
      const calSearch = Array.from({ length: n }, (_, i) => generateTask(S.search, CALIBRATION_SEED_BASE + i));
      const calCoupled = Array.from({ length: n }, (_, i) => generateTask(S.coupled, CALIBRATION_SEED_BASE + i));
      const grid: { share: number; m: Record<(typeof C8_ORGS)[number], number>; margin: number }[] = [];
      for (const share of MIX_SHARES) {
        const m = await medians(taskMix(share, calSearch, calCoupled, n), 0, H);
        const margin = articleOrder(m)
          ? Math.min(m['scripted organisation'] - m['best-of-N'], m['single chain'] - m['scripted organisation']) / m['single chain']
          : -Infinity;
        grid.push({ share, m, margin });
      }
      const chosen = grid.reduce((a, b) => (b.margin > a.margin ? b : a));
      const share = chosen.margin > -Infinity ? chosen.share : null;
      const evSearch = evaluationTasks(S.search, n);
      const evCoupled = evaluationTasks(S.coupled, n);
      const mix: Record<string, number>[] = [];
      const coupled: Record<string, number>[] = [];
      const search: Record<string, number>[] = [];
      const evalGrid: Record<string, number>[][] = [];
      for (const seed of ctx.seeds) {
        if (share !== null) mix.push(await medians(taskMix(share, evSearch, evCoupled, n), seed, H));
        coupled.push(await medians(evCoupled, seed, H));
        search.push(await medians(evSearch, seed, H));
        const row: Record<string, number>[] = [];
        for (const s of MIX_SHARES) row.push(await medians(taskMix(s, evSearch, evCoupled, n), seed, H));
        evalGrid.push(row);
      }
      const col = (rs: Record<string, number>[], o: string) => rs.map((r) => r[o]);
      const setRow = (name: string, rs: Record<string, number>[]) => [
        name,
        ...C8_ORGS.map((o) => fmtTime(col(rs, o))),
        rs.length ? `${rs.filter((r) => articleOrder(r as Record<(typeof C8_ORGS)[number], number>)).length}/${rs.length}` : '-',
      ];
      const none: Outcome = 'fail';
      const parts = [
        part(
          'on the mix, best-of-N is faster than the communicating organisation',
          'median minutes to 90%, organisation - best-of-N > 0',
          share === null
            ? 'no mix on the calibration grid gives the ordering'
            : vs('organisation', col(mix, 'scripted organisation'), 'best-of-N', col(mix, 'best-of-N'), 1),
          share === null ? none : exceeds(col(mix, 'scripted organisation'), col(mix, 'best-of-N')),
        ),
        part(
          'on the mix, the communicating organisation is faster than the single chain',
          'median minutes to 90%, single chain - organisation > 0',
          share === null
            ? 'no mix on the calibration grid gives the ordering'
            : vs('chain', col(mix, 'single chain'), 'organisation', col(mix, 'scripted organisation'), 1),
          share === null ? none : exceeds(col(mix, 'single chain'), col(mix, 'scripted organisation')),
        ),
        part(
          'on coupled tasks the ordering changes: the organisation beats best-of-N',
          'median minutes to 90% on coupled tasks, best-of-N - organisation > 0',
          vs('best-of-N', col(coupled, 'best-of-N'), 'organisation', col(coupled, 'scripted organisation'), 1),
          exceeds(col(coupled, 'best-of-N'), col(coupled, 'scripted organisation')),
        ),
      ];
      const scaling = await scaleOrganisations({ tasks: S.coupled, count: Math.min(n, 32), horizon: H, seed: ctx.seeds[0] });
      const counts = [...new Set(scaling.map((p) => p.agents))];
      const scalingSeries: Series[] = C8_ORGS.map((o) => ({
        name: o,
        x: counts,
        y: counts.map((a) => asNumber(scaling.find((p) => p.org === o && p.agents === a)!.time.median)),
      }));
      const gridSeries: Series[] = C8_ORGS.map((o) =>
        seedSeries(
          o,
          MIX_SHARES,
          evalGrid.map((row) => row.map((r) => r[o])),
        ),
      );
      const barGroup = (label: string, rs: Record<string, number>[]) => ({
        label,
        values: Object.fromEntries(C8_ORGS.map((o) => [o, { mean: mean(col(rs, o).filter(Number.isFinite)), sd: std(col(rs, o).filter(Number.isFinite)) }])),
      });
      return {
        tables: [
          {
            caption: `Median minutes to 90% of the tests over ${n} fresh tasks per seed (± sd over ${ctx.seeds.length} seeds of the work draws); 8 agents; equal compute: ${H} minutes for the 8-agent organisations, ${8 * H} for the single chain. Last column: seeds with the article's ordering (best-of-N < organisation < chain).`,
            header: ['task set', ...C8_ORGS, 'article ordering'],
            rows: [
              setRow(share === null ? 'mix: none found' : `mix: ${Math.round(100 * share)}% search, rest coupled`, mix),
              setRow('search only', search),
              setRow('coupled only', coupled),
            ],
          },
          {
            caption: `Choosing the mix: median minutes to 90% on ${n} calibration tasks (seeds disjoint from evaluation); the share with the largest margin of the article's ordering is used.`,
            header: ['search share', ...C8_ORGS, 'article ordering', 'margin'],
            rows: grid.map((g) => [
              `${Math.round(100 * g.share)}%`,
              ...C8_ORGS.map((o) => (Number.isFinite(g.m[o]) ? g.m[o].toFixed(1) : 'never')),
              articleOrder(g.m) ? 'yes' : 'no',
              Number.isFinite(g.margin) ? g.margin.toFixed(3) : '-',
            ]),
          },
          {
            caption: `Scaling: median minutes to 90% on coupled tasks against the number of agents (seed ${ctx.seeds[0]}; budget agents x ${H} agent-minutes).`,
            header: ['agents', ...C8_ORGS],
            rows: counts.map((a) => [
              String(a),
              ...C8_ORGS.map((o) => {
                const v = scaling.find((p) => p.org === o && p.agents === a)!.time.median;
                return v === null ? 'never' : v.toFixed(1);
              }),
            ]),
          },
        ],
        parts,
        plots: [
          {
            file: 'time-to-90.svg',
            caption: 'Median minutes to 90% of the tests',
            svg: barChart({
              title: 'Minutes to 90% of the tests at equal compute (8 agents)',
              yLabel: 'median minutes to 90%',
              series: [...C8_ORGS],
              groups: [
                ...(share === null ? [] : [barGroup(`mix (${Math.round(100 * share)}% search)`, mix)]),
                barGroup('search', search),
                barGroup('coupled', coupled),
              ],
            }),
          },
          {
            file: 'mix-grid.svg',
            caption: 'Median minutes to 90% against the share of search tasks in the mix (evaluation tasks, ± sd over seeds)',
            svg: lineChart({
              title: 'Which organisation is fastest depends on the task mix',
              xLabel: 'share of search tasks',
              yLabel: 'median minutes to 90%',
              series: gridSeries,
            }),
          },
          {
            file: 'scaling.svg',
            caption: `Minutes to 90% against the number of agents (${S.coupled})`,
            svg: lineChart({ title: `Minutes to 90% against agents (${S.coupled})`, xLabel: 'agents', yLabel: 'median minutes to 90%', series: scalingSeries }),
          },
        ],
        notes: [
          "The communicating organisation here is the scripted one (claims, DMs, posts); it needs no training. The trained swarm's minutes to 90% at equal compute are in C1.",
          'A luck module draws once per minute however many agents work on it, so on search tasks only independent attempts (best-of-N) gain from more agents; the organisation is second on the mix only thanks to its coupled share.',
        ],
      };
    },
  };

  const C9: Claim = {
    id: 'C9',
    title: 'A stronger base (the imitation prior) lets RLCR discover coordination in far fewer updates, and RLCR then improves on what it imitated',
    statement: `Starting from ${S.prior} imitation updates of the scripted organisation, RLCR settles into handing interfaces over in at most half the updates (imitation included) that it needs from scratch; and the trained swarm ends above the scripted organisation it imitated.`,
    conditions: ['coupled', 'coupled-prior'],
    async evaluate(ctx) {
      const scratch = ctx.runs('coupled');
      const prior = ctx.runs('coupled-prior');
      const refs = await referencesAt(ctx, 'coupled');
      const base = await ctx.baselines('coupled-prior');
      const scripted = base.map((b) => org(b, 'scripted organisation').ret);
      const disc = (runs: ConditionRun[]) =>
        runs.map((r, s) => asNumber(discoveryUpdate(r.curve, (t) => refs[s].get(t)!.scripted.handoffs, 25, DISCOVERY_RATIO)));
      const dScratch = disc(scratch);
      const dPrior = disc(prior);
      const pRet = prior.map((r) => r.final.ret);
      const imitation = prior.map((r) => r.checkpoints[0].eval.ret);
      const row = (name: string, runs: ConditionRun[], d: number[]) => [
        name,
        pm(d, 0),
        pm(runs.map((r) => r.checkpoints[0].eval.ret)),
        pm(runs.map((r) => r.final.ret)),
        pm(
          runs.map((r) => r.final.handoffs),
          1,
        ),
        pm(
          runs.map((r) => r.trainSeconds / 60),
          1,
        ),
      ];
      const ratioSeries = (runs: ConditionRun[]) =>
        runs.map((r, s) => {
          const pts = rlcr(r);
          const roll = rolling(
            pts.map((p) => p.handoffs),
            25,
          );
          return roll.map((v, i) => v / Math.max(1e-9, refs[s].get(pts[i].tmax)!.scripted.handoffs));
        });
      return {
        tables: [
          {
            caption: `${S.coupled} tasks, 8 agents. "discovered": updates done (imitation included) when the rolling mean (25 RLCR updates) of unblocking handoffs per episode reaches ${DISCOVERY_RATIO} x the scripted organisation's at the same deadline and stays there. "at RLCR start": evaluation before the first RLCR update (after the prior, if any). Scripted organisation at ${S.end} min: ${pm(scripted)}.`,
            header: ['start', 'discovered after (updates)', 'return at RLCR start', 'final return', 'handoffs', 'training min/seed'],
            rows: [row('from scratch', scratch, dScratch), row(`imitation prior (${S.prior})`, prior, dPrior)],
          },
        ],
        parts: [
          part(
            'the prior discovers coordination in far fewer updates',
            `updates to discovery: ${DISCOVERY_RATIO} x scratch - prior > 0 (at most half)`,
            vs('prior', dPrior, 'scratch', dScratch, 0),
            exceeds(
              dScratch.map((d) => DISCOVERY_RATIO * d),
              dPrior,
            ),
          ),
          part(
            'RLCR improves on the imitated behaviour',
            `return at ${S.end} min, prior + RLCR - scripted organisation > 0`,
            `${vs('prior + RLCR', pRet, 'scripted', scripted)}; imitation alone ${pm(imitation)}`,
            exceeds(pRet, scripted),
          ),
        ],
        plots: [
          {
            file: 'discovery.svg',
            caption:
              'Handoffs relative to the scripted organisation at the same deadline (rolling mean of 25 RLCR updates; band ± sd over seeds), against RLCR updates',
            svg: lineChart({
              title: 'Coordination: handoffs / scripted organisation’s handoffs',
              xLabel: 'RLCR update',
              yLabel: 'handoff ratio',
              series: [
                seedSeries(
                  'from scratch',
                  rlcr(scratch[0]).map((_, i) => i + 1),
                  ratioSeries(scratch),
                ),
                seedSeries(
                  'imitation prior',
                  rlcr(prior[0]).map((_, i) => i + 1),
                  ratioSeries(prior),
                ),
              ],
              refLines: [{ y: DISCOVERY_RATIO, label: 'discovery threshold' }],
            }),
          },
          {
            file: 'returns.svg',
            caption: `Return at the ${S.end}-minute deadline`,
            svg: barChart({
              title: `Return at ${S.end} minutes (± sd over seeds)`,
              yLabel: 'share of tests passing',
              series: ['imitation alone', 'from scratch', 'prior + RLCR', 'scripted organisation'],
              groups: [
                {
                  label: 'coupled tasks',
                  values: {
                    'imitation alone': { mean: mean(imitation), sd: std(imitation) },
                    'from scratch': { mean: mean(scratch.map((r) => r.final.ret)), sd: std(scratch.map((r) => r.final.ret)) },
                    'prior + RLCR': { mean: mean(pRet), sd: std(pRet) },
                    'scripted organisation': { mean: mean(scripted), sd: std(scripted) },
                  },
                },
              ],
              yDomain: [0, 1],
            }),
          },
        ],
        notes: ['The imitation updates count as updates in the discovery rule (they cost compute too).'],
      };
    },
  };

  return [C1, C2, C3, C4, C5, C6, C7, C8, C9];
}

/** The default setting: the long-horizon families. */
export const DEFAULT_SUITE: Suite = SUITES.long;

/** The setting this process runs the claims on (`useSuite`; the default unless `--claim-suite`). */
export let ACTIVE_SUITE: Suite = DEFAULT_SUITE;

/** The claims in order, on the active setting. */
export let CLAIMS: readonly Claim[] = claimsOf(DEFAULT_SUITE);

/** The training conditions of the active setting, by id. */
export let CONDITIONS: Record<string, Condition> = conditionsOf(DEFAULT_SUITE);

/** Makes `name` the setting of this process: CLAIMS and CONDITIONS follow it (call before anything reads them). */
export function useSuite(name: SuiteName): void {
  ACTIVE_SUITE = SUITES[name];
  CLAIMS = claimsOf(ACTIVE_SUITE);
  CONDITIONS = conditionsOf(ACTIVE_SUITE);
}

/** Claim ids accepted by `--claim`. */
export const CLAIM_IDS = CLAIMS.map((c) => c.id);

/** Evaluates a claim and decides its verdict. */
export async function evaluateClaim(claim: Claim, ctx: ClaimContext): Promise<ClaimReport> {
  const r = await claim.evaluate(ctx);
  return { id: claim.id, title: claim.title, statement: claim.statement, conditions: claim.conditions, ...r, verdict: verdictOf(r.parts) };
}
