/** C9: A stronger base (the imitation prior) lets RLCR discover coordination in far fewer updates, and RLCR then improves on what it imitated */
import { mean, std } from '../../../src/sim/evaluate';
import { asNumber, exceeds, pm } from '../rules';
import { barChart, lineChart } from '../svg';
import { discoveryUpdate, org, part, referencesAt, rlcr, rolling, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim, ConditionRun } from './types';

const DISCOVERY_RATIO = 0.5;

/** C9 on the setting `S`. */
export function c9(S: Suite): Claim {
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
  return C9;
}
