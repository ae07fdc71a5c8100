/** C5: Discounting (gamma < 1 or lambda < 1) collapses long coordination; gamma = lambda = 1 does not */
import { mean } from '../../../src/sim/evaluate';
import { below, exceeds, perSeed, pm, relativeChange } from '../rules';
import { lineChart } from '../svg';
import { part, rlcr, rolling, seedSeries } from './helpers';
import type { Suite } from './suites';
import type { Claim, CurvePoint, EvalNumbers } from './types';

const COLLAPSE = -0.25;

/** C5 on the setting `S`. */
export function c5(S: Suite): Claim {
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
  return C5;
}
