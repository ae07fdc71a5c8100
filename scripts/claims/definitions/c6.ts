/** C6: The flat collective advantage produces more helping than individual rewards */
import { exceeds, pm } from '../rules';
import { lineChart } from '../svg';
import { part, rlcr, rolling, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim, ConditionRun } from './types';

/** C6 on the setting `S`. */
export function c6(S: Suite): Claim {
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
  return C6;
}
