/** C1: On coupled tasks the trained swarm beats the single chain and best-of-N at the deadline */
import { mean, std } from '../../../src/sim/evaluate';
import { raceHorizon } from '../../../src/sim/race';
import { exceeds } from '../rules';
import { barChart, lineChart, type Series } from '../svg';
import { median, org, ORG_HEADER, orgRow, part, raceOf, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim } from './types';

/** C1 on the setting `S`. */
export function c1(S: Suite): Claim {
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
  return C1;
}
