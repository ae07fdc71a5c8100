/**
 * The work of `npm run lesson:check` (the command line is scripts/lib/lessonCheck/options.ts): every
 * selected step's setup trained per seed, every claim measured and judged, a table per step.
 */
import { LESSON_CONTENT, type LessonContent } from '../../../src/core/lesson';
import {
  describeMeasure,
  judgeClaim,
  overtakesAt,
  windowStat,
  windowUpdates,
  type ClaimVerdict,
  type LessonDrag,
  type LessonMeasure,
  type LessonPlayer,
} from '../../../src/core/lessonClaims';
import { pretrainedConfig } from '../../../src/core/pretrained';
import { PolicyActor } from '../../../src/rl/actor';
import { compareOrganisations, evaluatePolicy, referenceReturns, type OrgSummary, type References } from '../../../src/rl/compare';
import { defaultConfig, type Config } from '../../../src/rl/config';
import { SwarmPolicy } from '../../../src/rl/policy';
import { raceHorizon, raceOrganisations, type RaceResult } from '../../../src/sim/race';
import { useBackend } from '../backend';
import { cacheKey } from '../cache';
import { trainLessonRun, type LessonRun } from '../lessonRuns';
import type { NodeBackend } from '../nodeBackends';
import { pageShards } from '../../../src/worker/shardedTrainer';
import { formatTable } from '../table';
import type { LessonCheckOptions } from './options';

/** The settings a step trains on `seed` (with a claim's `variant`), at the check's scale, and how many updates the app runs of it. */
export function stepConfig(
  step: LessonContent,
  seed: number,
  variant: Partial<Config> | undefined,
  opts: Pick<LessonCheckOptions, 'updates' | 'quick'>,
): { config: Config; stopAfter: number | null } {
  const base = step.setup.kind === 'live' ? { ...defaultConfig(), ...step.setup.config, seed } : pretrainedConfig(step.setup.family, { seed });
  let config: Config = { ...base, ...variant };
  if (opts.quick) config = { ...config, updates: 4, prior: Math.min(config.prior, 1), tasksPerUpdate: 1, groupSize: 2 };
  else if (opts.updates !== null) config = { ...config, updates: opts.updates, prior: Math.min(config.prior, Math.floor(opts.updates / 3)) };
  return { config, stopAfter: step.setup.kind === 'live' && step.setup.run === 'step' ? 1 : null };
}

/** What a step's setup is, in a line: "live: coupled, 4 agents, 300 updates, 2 x 4 rollouts, 8 -> 24 min". */
function describeSetup(step: LessonContent, c: Config, stopAfter: number | null, backend: NodeBackend): string {
  const what =
    step.setup.kind === 'live'
      ? `live (${step.setup.run === 'step' ? 'one update' : step.setup.run === 'train' ? 'trained at once' : 'the class presses Train'})`
      : `pretrained ${step.setup.family} (as npm run pretrain made it)`;
  const updates = stopAfter ? `${stopAfter} of ${c.updates} updates` : `${c.prior ? `${c.prior} imitation + ` : ''}${c.updates} updates`;
  const shards = step.setup.kind === 'live' ? pageShards(c, backend) : 1;
  const how = shards > 1 ? `, in ${shards} shards as the page trains it on ${backend}` : '';
  return `${what}: ${c.family}, ${c.agents} agents, ${updates}, ${c.tasksPerUpdate} x ${c.groupSize} rollouts per update, deadline ${c.tmaxStart} -> ${c.tmaxEnd} min${how}`;
}

class Measurer {
  private readonly runs = new Map<string, Promise<LessonRun>>();
  private readonly evaluations = new Map<string, Promise<OrgSummary[]>>();
  private readonly races = new Map<string, Promise<RaceResult[]>>();
  private readonly references = new Map<string, Promise<References>>();

  constructor(private readonly opts: LessonCheckOptions) {}

  private tasks(n: number): number {
    return this.opts.quick ? Math.min(n, 2) : n;
  }

  run(step: LessonContent, seed: number, variant: Partial<Config> | undefined, asked: LessonDrag | undefined): { key: string; run: Promise<LessonRun> } {
    const { config, stopAfter } = stepConfig(step, seed, variant, this.opts);
    // At a smoke scale the drag comes halfway through the shorter run.
    const drag = asked ? { at: Math.min(asked.at, Math.floor(config.prior + config.updates / 2)), patch: asked.patch } : null;
    const key = cacheKey({ config, stopAfter, drag });
    let run = this.runs.get(key);
    if (!run) {
      const label = `step ${LESSON_CONTENT.indexOf(step) + 1} seed ${seed}${variant ? ' ' + JSON.stringify(variant) : ''}${drag ? ' drag ' + JSON.stringify(drag) : ''}`;
      run = trainLessonRun(config, this.opts.cache, false, label, stopAfter, drag, step.setup.kind === 'live' ? 'page' : 'pretrain');
      this.runs.set(key, run);
    }
    return { key, run };
  }

  private async reference(run: LessonRun, tmax: number): Promise<References> {
    const c = run.config;
    const key = JSON.stringify([c.family, c.agents, tmax, run.evaluation.costs ?? null]);
    let r = this.references.get(key);
    if (!r) this.references.set(key, (r = referenceReturns(c.family, c.agents, tmax, 16, run.evaluation.costs)));
    return r;
  }

  private async referenceLine(run: LessonRun, who: 'single chain' | 'best-of-N' | 'scripted organisation'): Promise<number[]> {
    const pick = (r: References) => (who === 'single chain' ? r.chain : who === 'best-of-N' ? r.bestOfN : r.scripted);
    return Promise.all(run.curve.map(async (m) => pick(await this.reference(run, m.tmax))));
  }

  private evaluation(key: string, run: LessonRun, tasks: number, player: LessonPlayer): Promise<OrgSummary[]> {
    const idled = player === 'trained swarm, piles idled';
    const k = `${key}/${tasks}${idled ? '/piles idled' : ''}`;
    let e = this.evaluations.get(k);
    if (!e) {
      const policy = SwarmPolicy.fromJSON(run.policy);
      const c = run.config;
      const opts = { family: c.family, agents: c.agents, tmax: c.tmaxEnd, tasks, seed: c.seed, ...run.evaluation };
      // The piles idled are played only where a claim asks for them, as the comparison the app shows has no such row.
      const rows = idled ? evaluatePolicy(policy, player, { ...opts, pilesIdled: true }).then((row) => [row]) : compareOrganisations({ ...opts, policy });
      e = rows.finally(() => policy.dispose());
      this.evaluations.set(k, e);
    }
    return e;
  }

  private race(key: string, run: LessonRun, tasks: number): Promise<RaceResult[]> {
    const k = `${key}/${tasks}`;
    let r = this.races.get(k);
    if (!r) {
      const policy = SwarmPolicy.fromJSON(run.policy);
      const c = run.config;
      // As the organisations panel races: the run's family, its final deadline's horizon, seed 1 of the work draws.
      r = raceOrganisations({
        tasks: c.family,
        agents: c.agents,
        count: tasks,
        seed: 1,
        horizon: raceHorizon(c.tmaxEnd),
        swarm: new PolicyActor(policy, 1),
      }).finally(() => policy.dispose());
      this.races.set(k, r);
    }
    return r;
  }

  /** The value of `m` on `step`'s setup trained with `seed`. */
  async measure(step: LessonContent, seed: number, m: LessonMeasure): Promise<number> {
    const { key, run: pending } = this.run(step, seed, m.variant, m.drag);
    const run = await pending;
    switch (m.of) {
      case 'training': {
        const values = run.curve.map((u) => u[m.stat] ?? NaN);
        const line = m.minus ? await this.referenceLine(run, m.minus) : null;
        const series = line ? values.map((v, i) => v - line[i]) : values;
        const [from, to] = windowUpdates(m.window, run.curve.length, Math.min(run.config.prior, run.curve.length));
        return windowStat(series, from, to, m.spread);
      }
      case 'reference': {
        const line = await this.referenceLine(run, m.reference);
        const [from, to] = windowUpdates(m.window, run.curve.length, Math.min(run.config.prior, run.curve.length));
        return windowStat(line, from, to);
      }
      case 'overtakes':
        return overtakesAt(
          run.curve.map((u) => u.ret),
          await this.referenceLine(run, m.reference),
          m.smooth,
        );
      case 'evaluation': {
        const row = (await this.evaluation(key, run, this.tasks(m.tasks), m.player)).find((o) => o.org === m.player);
        return row ? (row[m.stat] ?? NaN) : NaN;
      }
      case 'race': {
        const row = (await this.race(key, run, this.tasks(m.tasks))).find((r) => r.org === m.racer);
        return row?.time.median ?? Infinity;
      }
    }
  }
}

const show = (x: number) => (x === Infinity ? 'never' : Number.isInteger(x) ? String(x) : x.toFixed(3));
const SIGN = { above: '>', below: '<', about: '≈' } as const;

/** Runs the check; true when every claim of every selected step holds on every seed. */
export async function runLessonCheck(opts: LessonCheckOptions): Promise<boolean> {
  await useBackend(opts.backend);
  const measurer = new Measurer(opts);
  const scale = opts.quick ? ' (--quick: a smoke scale, the verdicts mean little)' : opts.updates !== null ? ` (--updates ${opts.updates}: a smoke scale)` : '';
  console.log(`Lesson check on seeds ${opts.seeds.join(', ')}${scale}: every claim must hold on every seed.\n`);
  let failed = 0;
  let total = 0;
  for (const n of opts.steps) {
    const step = LESSON_CONTENT[n - 1];
    const { config, stopAfter } = stepConfig(step, opts.seeds[0], undefined, opts);
    const verdicts: ClaimVerdict[] = [];
    for (const claim of step.claims) {
      const readings = [];
      for (const seed of opts.seeds) {
        const value = await measurer.measure(step, seed, claim.measure);
        const than = typeof claim.than === 'number' ? claim.than : await measurer.measure(step, seed, claim.than);
        readings.push({ seed, value, than });
      }
      verdicts.push(judgeClaim(claim, readings));
    }
    const header = ['claim', 'measure', ...opts.seeds.map((s) => `seed ${s}`), 'verdict'];
    const rows = verdicts.map((v) => {
      const c = v.claim;
      const than = typeof c.than === 'number' ? '' : ` vs ${describeMeasure(c.than)}`;
      const by = c.by ? ` (by ${c.by})` : '';
      return [
        c.says,
        `${describeMeasure(c.measure)}${than}${by}`,
        ...v.seeds.map((s) => `${show(s.value)} ${SIGN[c.is]} ${show(s.than)}${s.pass ? '' : ' ✗'}`),
        v.pass ? 'pass' : 'FAIL',
      ];
    });
    console.log(`Step ${n}: ${step.title}\n  setup: ${describeSetup(step, config, stopAfter, opts.backend)}`);
    console.log(formatTable(header, rows).replace(/^/gm, '  ') + '\n');
    total += verdicts.length;
    failed += verdicts.filter((v) => !v.pass).length;
  }
  console.log(failed ? `${failed} of ${total} claims failed: the lesson says something the screen may contradict.` : `All ${total} claims hold on every seed.`);
  return failed === 0;
}
