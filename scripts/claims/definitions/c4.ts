/** C4: The latency penalty also teaches speed, but its result changes strongly with Tmax */
import { mean, std } from '../../../src/sim/evaluate';
import { exceeds, type Outcome, perSeed, pm } from '../rules';
import { barChart } from '../svg';
import { fmtTime, median, part, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim } from './types';

const SPEED_CHANGE = 0.15;

/** C4 on the setting `S`. */
export function c4(S: Suite): Claim {
  const L = S.latency;
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
  return C4;
}
