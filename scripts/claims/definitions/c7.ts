/** C7: Useful parallel work and messages grow with training (collective inference-time scaling) */
import { exceeds, pm } from '../rules';
import { lineChart } from '../svg';
import { part, rlcr, rolling, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim, CurvePoint, EvalNumbers } from './types';

/** C7 on the setting `S`. */
export function c7(S: Suite): Claim {
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
  return C7;
}
