import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStructure } from '../sim/presets';
import { generateTask } from '../sim/task';
import { PolicyActor } from './actor';
import { compareOrganisations } from './compare';
import { defaultConfig, STRUCTURAL_KEYS, type Config } from './config';
import type { StructureMetric } from './metrics';
import { BatchBuffers, collect } from './rollout';
import { Trainer } from './trainer';
import { FrozenWorkers } from './frozenWorkers';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny: Config = {
  ...defaultConfig(),
  family: 'coupled',
  agents: 4,
  tasksPerUpdate: 2,
  groupSize: 3,
  updates: 2,
  tmaxStart: 8,
  tmaxEnd: 10,
  epochs: 1,
  hidden: 16,
  scorer: 8,
};

const weights = (t: { vars: Record<string, tf.Variable> }) => Object.values(t.vars).map((v) => Array.from(v.dataSync()));

describe('Trainer under each structure', () => {
  type Metrics = Awaited<ReturnType<Trainer['step']>>['metrics'];
  /** What each structure's own numbers must satisfy in an update (the config is the test's). */
  const cases: [Partial<Config>, string[], (m: Metrics, t: Trainer, u: number) => void][] = [
    [
      { structure: 'ceo', budget: 30 },
      ['headCount', 'budgetSpent', 'hires', 'fires'],
      (m) => {
        expect(m.structure!.headCount!).toBeGreaterThanOrEqual(1);
        expect(m.structure!.headCount!).toBeLessThanOrEqual(tiny.agents);
        expect(m.structure!.budgetSpent!).toBeGreaterThan(0);
        expect(m.structure!.budgetSpent!).toBeLessThanOrEqual(30);
        // Agent 0 starts alone and stays; a hire adds an agent, a fire takes one away.
        expect(m.structure!.hires! - m.structure!.fires!).toBeGreaterThanOrEqual(0);
        expect(m.structure!.hires! - m.structure!.fires!).toBeLessThanOrEqual(tiny.agents - 1);
        expect(m.structure!.hires! > 0).toBe(m.structure!.headCount! > 1);
      },
    ],
    [
      { structure: 'islands', islands: 3 },
      ['islandBest', 'islandMean'],
      (m) => {
        expect(m.structure!.islandBest!).toBeCloseTo(m.ret, 6);
        expect(m.structure!.islandMean!).toBeLessThanOrEqual(m.structure!.islandBest! + 1e-9);
        expect(m.structure!.islandMean!).toBeGreaterThanOrEqual(0);
      },
    ],
    [
      { structure: 'orchestrator' },
      ['criticalSteps', 'assigns', 'parallelShare', 'finishShare', 'shapingWeight'],
      (m, t, u) => {
        expect(m.structure!.criticalSteps!).toBeGreaterThan(0);
        // Every worker that got work got at least one assignment.
        expect(m.structure!.assigns!).toBeGreaterThanOrEqual(m.structure!.parallelShare! * (tiny.agents - 1) - 1e-9);
        expect(m.structure!.finishShare! > 0 ? m.structure!.assigns! > 0 : true).toBe(true);
        for (const share of [m.structure!.parallelShare!, m.structure!.finishShare!]) {
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(1);
        }
        expect(m.structure!.shapingWeight!).toBe(t.shapingWeight(u));
      },
    ],
    [
      { structure: 'orchestrator', workerPolicy: 'snapshot', shaping: 0.5 },
      ['criticalSteps', 'shapingWeight'],
      (m, t, u) => {
        expect(m.structure!.criticalSteps!).toBeGreaterThan(0);
        // Shaping on: the weight of this update's schedule, and not zero while it anneals.
        expect(m.structure!.shapingWeight!).toBe(t.shapingWeight(u));
        expect(m.structure!.shapingWeight!).toBeGreaterThan(0);
      },
    ],
  ];
  // The flat swarm's showcase rollouts under the same settings and seed: a structure must change them.
  let flatEvents: unknown[] | null = null;
  const flat = async () => {
    if (flatEvents) return flatEvents;
    const t = new Trainer({ ...tiny, prior: 1, updates: 1 });
    flatEvents = [(await t.step()).events, (await t.step()).events];
    t.dispose();
    return flatEvents;
  };
  for (const [setting, keys, bounds] of cases) {
    it(`trains ${JSON.stringify(setting)} with a prior update and an RLCR update, its numbers within their bounds`, async () => {
      const t = new Trainer({ ...tiny, prior: 1, updates: 1, ...setting });
      const played: unknown[] = [];
      for (let u = 0; u < 2; u++) {
        const { metrics, structure, events } = await t.step();
        expect(metrics.phase).toBe(u === 0 ? 'prior' : 'rlcr');
        expect(Number.isFinite(metrics.loss)).toBe(true);
        expect(Number.isFinite(metrics.gradNorm)).toBe(true);
        // A return is the share of the tests passed.
        expect(metrics.ret).toBeGreaterThanOrEqual(0);
        expect(metrics.ret).toBeLessThanOrEqual(1);
        for (const k of keys) expect(Number.isFinite(metrics.structure?.[k as StructureMetric]), k).toBe(true);
        bounds(metrics, t, u);
        expect(structure?.kind).toBe(setting.structure);
        expect(events.length).toBeGreaterThan(0);
        played.push(events);
      }
      expect(played[0]).not.toEqual((await flat())[0]);
      expect(played[1]).not.toEqual((await flat())[1]);
      t.dispose();
    });
  }

  it('adds nothing to the metrics of a flat run', async () => {
    const t = new Trainer({ ...tiny, updates: 1 });
    const r = await t.step();
    expect(r.structure).toBeUndefined();
    expect(r.metrics.structure).toBeUndefined();
    t.dispose();
  });

  it('CEO: the budget bounds the spend of every rollout, and the head count is drawn per minute', async () => {
    const t = new Trainer({ ...tiny, structure: 'ceo', budget: 12 });
    const r = await t.step();
    expect(r.metrics.structure?.budgetSpent).toBeLessThanOrEqual(12);
    expect(r.metrics.structure?.headCount).toBeGreaterThanOrEqual(1);
    expect(r.structure?.headCount?.[0]).toBe(1);
    expect(t.reconfigure({ ...t.config, budget: 20 })).toBe(true);
    expect(t.reconfigure({ ...t.config, structure: 'flat' })).toBe(false);
    t.dispose();
  });

  it('islands: the events and the view cover every island with swarm-wide ids', async () => {
    const t = new Trainer({ ...tiny, agents: 5, structure: 'islands', islands: 2 });
    const r = await t.step();
    expect(r.structure?.islandOf).toEqual([0, 0, 0, 1, 1]);
    expect(r.structure?.islandTasks).toHaveLength(2);
    expect(r.structure?.islandTasks?.[0]).toBe(r.showcaseTask);
    const agents = new Set(r.events.map((e) => e.agent));
    expect(Math.max(...agents)).toBe(4);
    expect(r.metrics.structure?.islandBest).toBeCloseTo(r.metrics.ret, 6);
    expect(r.metrics.structure?.islandMean).toBeLessThanOrEqual(r.metrics.ret + 1e-6);
    t.dispose();
  });
});

describe('orchestrator training', () => {
  it("leaves the frozen workers' weights unchanged while the orchestrator learns", async () => {
    const t = new Trainer({ ...tiny, structure: 'orchestrator', workerPolicy: 'snapshot', snapshotAt: 0, lr: 0.05, updates: 3 });
    const start = weights(t.policy);
    await t.step();
    const snapshot = t.workers?.snapshot;
    expect(snapshot).toBeTruthy();
    expect(weights(snapshot!)).toEqual(start);
    while (!t.finished) await t.step();
    expect(weights(snapshot!)).toEqual(start);
    expect(weights(t.policy)).not.toEqual(start);
    expect(t.evaluationSetup().workers).toBe(snapshot);
    t.dispose();
  });

  it('takes the snapshot at the chosen update; until then the workers play and learn with the live policy', async () => {
    const t = new Trainer({ ...tiny, structure: 'orchestrator', workerPolicy: 'snapshot', snapshotAt: 1, lr: 0.05, updates: 3 });
    await t.step();
    expect(t.workers?.snapshot).toBeNull();
    expect(t.evaluationSetup().workers).toBeUndefined();
    const atOne = weights(t.policy);
    await t.step();
    expect(weights(t.workers!.snapshot!)).toEqual(atOne);
    t.dispose();
  });

  it("learns only from the orchestrator's decisions when the workers are frozen", async () => {
    const config = { ...tiny, structure: 'orchestrator' as const };
    const s = createStructure(config, 4);
    const env = s.createEnv(2);
    const t = new Trainer(config);
    const workers = new FrozenWorkers('scripted', 0, t.policy);
    workers.prepare(0, 1);
    const tasks = [generateTask('coupled', 1), generateTask('coupled', 2)];
    const batch = await collect(env, tasks, 1, 10, new PolicyActor(t.policy, 1), new BatchBuffers(), undefined, undefined, {
      workers,
      learners: Uint8Array.of(1, 0, 0, 0),
    });
    let orchestrator = 0;
    for (let r = 0; r < batch.T * batch.R; r++) {
      if (r % 4 !== 0) expect(batch.live[r]).toBe(0);
      else orchestrator += batch.live[r];
    }
    expect(orchestrator).toBeGreaterThan(0);
    // the workers' actions came from the scripted worker: they never claim
    expect(batch.events.filter((e) => e.agent > 0 && e.kind === 'claim')).toEqual([]);
    t.dispose();
  });

  it('anneals the shaping weight to zero over the RLCR updates', () => {
    const t = new Trainer({ ...tiny, structure: 'orchestrator', shaping: 0.5, updates: 10, prior: 2 });
    expect(t.shapingWeight(0)).toBe(0.5);
    expect(t.shapingWeight(2)).toBe(0.5);
    expect(t.shapingWeight(7)).toBeCloseTo(0.25);
    expect(t.shapingWeight(12)).toBe(0);
    t.reconfigure({ ...t.config, shapingAnneal: 4 });
    expect(t.shapingWeight(4)).toBeCloseTo(0.25);
    expect(t.shapingWeight(9)).toBe(0);
    t.dispose();
    const flat = new Trainer({ ...tiny, shaping: 0.5 });
    expect(flat.shapingWeight(0)).toBe(0);
    flat.dispose();
  });
});

describe('structures in config and evaluation', () => {
  it('treats the structure and its shape-changing settings as structural', () => {
    for (const k of ['structure', 'islands', 'workerPolicy', 'snapshotAt'] as const) expect(STRUCTURAL_KEYS).toContain(k);
    expect(STRUCTURAL_KEYS).not.toContain('budget');
    expect(defaultConfig().structure).toBe('flat');
  });

  it('evaluates the trained swarm under its structure next to the scripted version of it', async () => {
    const t = new Trainer({ ...tiny, structure: 'orchestrator', updates: 1 });
    const rows = await compareOrganisations({ family: 'coupled', agents: 4, tmax: 10, tasks: 2, seed: 1, policy: t.policy, ...t.evaluationSetup() });
    expect(rows.map((r) => r.org)).toEqual([
      'random',
      'single chain',
      'best-of-N',
      'scripted organisation',
      'scripted structure',
      'trained swarm',
      'trained swarm, muted',
    ]);
    t.dispose();
  });
});
