/** C3: A growing deadline learns coordination better than a fixed long one; early on a lone agent out-progresses the swarm */
import { mean } from '../../../src/sim/evaluate';
import { asNumber, exceeds, pm } from '../rules';
import { lineChart } from '../svg';
import { crossoverUpdate, meanSeries, part, referencesAt, rlcr, rolling, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim, ConditionRun } from './types';

/** C3 on the setting `S`. */
export function c3(S: Suite): Claim {
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
  return C3;
}
