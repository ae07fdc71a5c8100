/** C2: On parallel and search tasks talk does not pay, and the swarm talks less there */
import { mean, std } from '../../../src/sim/evaluate';
import { below, exceeds, perSeed, pm } from '../rules';
import { barChart } from '../svg';
import { part, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim, ConditionRun } from './types';

const TALK_LIMIT = 0.02;

/** C2 on the setting `S`. */
export function c2(S: Suite): Claim {
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
  return C2;
}
