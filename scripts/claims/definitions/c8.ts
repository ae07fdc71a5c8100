/** C8: Which organisation is fastest depends on the task: the article’s ordering on a task mix chosen for it, another on coupled tasks */
import { mean, std } from '../../../src/sim/evaluate';
import { raceHorizon, raceOrganisations, scaleOrganisations } from '../../../src/sim/race';
import { evaluationTasks } from '../../../src/sim/seeds';
import { generateTask, type Task } from '../../../src/sim/task';
import { asNumber, exceeds, type Outcome } from '../rules';
import { barChart, lineChart, type Series } from '../svg';
import { fmtTime, median, part, seedSeries, vs } from './helpers';
import type { Suite } from './suites';
import type { Claim } from './types';

/** Seeds of the calibration tasks used to choose C8's task mix: disjoint from training and evaluation seeds. */
const CALIBRATION_SEED_BASE = 1_500_000_000;

const MIX_SHARES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

const C8_ORGS = ['single chain', 'best-of-N', 'scripted organisation'] as const;

/** A mix of `n` tasks: round(share x n) search tasks, the rest coupled. */
export function taskMix(share: number, search: readonly Task[], coupled: readonly Task[], n: number): Task[] {
  const k = Math.round(share * n);
  return [...search.slice(0, k), ...coupled.slice(0, n - k)];
}

async function medians(tasks: readonly Task[], seed: number, horizon: number): Promise<Record<(typeof C8_ORGS)[number], number>> {
  const r = await raceOrganisations({ tasks, agents: 8, seed, horizon });
  const m = (o: (typeof C8_ORGS)[number]) => median(r.find((x) => x.org === o)!.time);
  return { 'single chain': m('single chain'), 'best-of-N': m('best-of-N'), 'scripted organisation': m('scripted organisation') };
}

const articleOrder = (m: Record<(typeof C8_ORGS)[number], number>) =>
  m['best-of-N'] < m['scripted organisation'] && m['scripted organisation'] < m['single chain'];

/** C8 on the setting `S`. */
export function c8(S: Suite): Claim {
  /** Horizon of the races at equal compute. */
  const H = raceHorizon(S.end);
  const C8: Claim = {
    id: 'C8',
    title: 'Which organisation is fastest depends on the task: the article’s ordering on a task mix chosen for it, another on coupled tasks',
    statement:
      'At equal compute (8 agents), on a mix of search and coupled tasks chosen for it, best-of-N reaches 90% of the tests first, the communicating (scripted) organisation second and the single chain last, as in the article (28 / 46 / 100 minutes); on coupled tasks the ordering changes.',
    conditions: [],
    async evaluate(ctx) {
      const n = ctx.scale.evalTasks;
      const calSearch = Array.from({ length: n }, (_, i) => generateTask(S.search, CALIBRATION_SEED_BASE + i));
      const calCoupled = Array.from({ length: n }, (_, i) => generateTask(S.coupled, CALIBRATION_SEED_BASE + i));
      const grid: { share: number; m: Record<(typeof C8_ORGS)[number], number>; margin: number }[] = [];
      for (const share of MIX_SHARES) {
        const m = await medians(taskMix(share, calSearch, calCoupled, n), 0, H);
        const margin = articleOrder(m)
          ? Math.min(m['scripted organisation'] - m['best-of-N'], m['single chain'] - m['scripted organisation']) / m['single chain']
          : -Infinity;
        grid.push({ share, m, margin });
      }
      const chosen = grid.reduce((a, b) => (b.margin > a.margin ? b : a));
      const share = chosen.margin > -Infinity ? chosen.share : null;
      const evSearch = evaluationTasks(S.search, n);
      const evCoupled = evaluationTasks(S.coupled, n);
      const mix: Record<string, number>[] = [];
      const coupled: Record<string, number>[] = [];
      const search: Record<string, number>[] = [];
      const evalGrid: Record<string, number>[][] = [];
      for (const seed of ctx.seeds) {
        if (share !== null) mix.push(await medians(taskMix(share, evSearch, evCoupled, n), seed, H));
        coupled.push(await medians(evCoupled, seed, H));
        search.push(await medians(evSearch, seed, H));
        const row: Record<string, number>[] = [];
        for (const s of MIX_SHARES) row.push(await medians(taskMix(s, evSearch, evCoupled, n), seed, H));
        evalGrid.push(row);
      }
      const col = (rs: Record<string, number>[], o: string) => rs.map((r) => r[o]);
      const setRow = (name: string, rs: Record<string, number>[]) => [
        name,
        ...C8_ORGS.map((o) => fmtTime(col(rs, o))),
        rs.length ? `${rs.filter((r) => articleOrder(r as Record<(typeof C8_ORGS)[number], number>)).length}/${rs.length}` : '-',
      ];
      const none: Outcome = 'fail';
      const parts = [
        part(
          'on the mix, best-of-N is faster than the communicating organisation',
          'median minutes to 90%, organisation - best-of-N > 0',
          share === null
            ? 'no mix on the calibration grid gives the ordering'
            : vs('organisation', col(mix, 'scripted organisation'), 'best-of-N', col(mix, 'best-of-N'), 1),
          share === null ? none : exceeds(col(mix, 'scripted organisation'), col(mix, 'best-of-N')),
        ),
        part(
          'on the mix, the communicating organisation is faster than the single chain',
          'median minutes to 90%, single chain - organisation > 0',
          share === null
            ? 'no mix on the calibration grid gives the ordering'
            : vs('chain', col(mix, 'single chain'), 'organisation', col(mix, 'scripted organisation'), 1),
          share === null ? none : exceeds(col(mix, 'single chain'), col(mix, 'scripted organisation')),
        ),
        part(
          'on coupled tasks the ordering changes: the organisation beats best-of-N',
          'median minutes to 90% on coupled tasks, best-of-N - organisation > 0',
          vs('best-of-N', col(coupled, 'best-of-N'), 'organisation', col(coupled, 'scripted organisation'), 1),
          exceeds(col(coupled, 'best-of-N'), col(coupled, 'scripted organisation')),
        ),
      ];
      const scaling = await scaleOrganisations({ tasks: S.coupled, count: Math.min(n, 32), horizon: H, seed: ctx.seeds[0] });
      const counts = [...new Set(scaling.map((p) => p.agents))];
      const scalingSeries: Series[] = C8_ORGS.map((o) => ({
        name: o,
        x: counts,
        y: counts.map((a) => asNumber(scaling.find((p) => p.org === o && p.agents === a)!.time.median)),
      }));
      const gridSeries: Series[] = C8_ORGS.map((o) =>
        seedSeries(
          o,
          MIX_SHARES,
          evalGrid.map((row) => row.map((r) => r[o])),
        ),
      );
      const barGroup = (label: string, rs: Record<string, number>[]) => ({
        label,
        values: Object.fromEntries(C8_ORGS.map((o) => [o, { mean: mean(col(rs, o).filter(Number.isFinite)), sd: std(col(rs, o).filter(Number.isFinite)) }])),
      });
      return {
        tables: [
          {
            caption: `Median minutes to 90% of the tests over ${n} fresh tasks per seed (± sd over ${ctx.seeds.length} seeds of the work draws); 8 agents; equal compute: ${H} minutes for the 8-agent organisations, ${8 * H} for the single chain. Last column: seeds with the article's ordering (best-of-N < organisation < chain).`,
            header: ['task set', ...C8_ORGS, 'article ordering'],
            rows: [
              setRow(share === null ? 'mix: none found' : `mix: ${Math.round(100 * share)}% search, rest coupled`, mix),
              setRow('search only', search),
              setRow('coupled only', coupled),
            ],
          },
          {
            caption: `Choosing the mix: median minutes to 90% on ${n} calibration tasks (seeds disjoint from evaluation); the share with the largest margin of the article's ordering is used.`,
            header: ['search share', ...C8_ORGS, 'article ordering', 'margin'],
            rows: grid.map((g) => [
              `${Math.round(100 * g.share)}%`,
              ...C8_ORGS.map((o) => (Number.isFinite(g.m[o]) ? g.m[o].toFixed(1) : 'never')),
              articleOrder(g.m) ? 'yes' : 'no',
              Number.isFinite(g.margin) ? g.margin.toFixed(3) : '-',
            ]),
          },
          {
            caption: `Scaling: median minutes to 90% on coupled tasks against the number of agents (seed ${ctx.seeds[0]}; budget agents x ${H} agent-minutes).`,
            header: ['agents', ...C8_ORGS],
            rows: counts.map((a) => [
              String(a),
              ...C8_ORGS.map((o) => {
                const v = scaling.find((p) => p.org === o && p.agents === a)!.time.median;
                return v === null ? 'never' : v.toFixed(1);
              }),
            ]),
          },
        ],
        parts,
        plots: [
          {
            file: 'time-to-90.svg',
            caption: 'Median minutes to 90% of the tests',
            svg: barChart({
              title: 'Minutes to 90% of the tests at equal compute (8 agents)',
              yLabel: 'median minutes to 90%',
              series: [...C8_ORGS],
              groups: [
                ...(share === null ? [] : [barGroup(`mix (${Math.round(100 * share)}% search)`, mix)]),
                barGroup('search', search),
                barGroup('coupled', coupled),
              ],
            }),
          },
          {
            file: 'mix-grid.svg',
            caption: 'Median minutes to 90% against the share of search tasks in the mix (evaluation tasks, ± sd over seeds)',
            svg: lineChart({
              title: 'Which organisation is fastest depends on the task mix',
              xLabel: 'share of search tasks',
              yLabel: 'median minutes to 90%',
              series: gridSeries,
            }),
          },
          {
            file: 'scaling.svg',
            caption: `Minutes to 90% against the number of agents (${S.coupled})`,
            svg: lineChart({ title: `Minutes to 90% against agents (${S.coupled})`, xLabel: 'agents', yLabel: 'median minutes to 90%', series: scalingSeries }),
          },
        ],
        notes: [
          "The communicating organisation here is the scripted one (claims, DMs, posts); it needs no training. The trained swarm's minutes to 90% at equal compute are in C1.",
          'A luck module draws once per minute however many agents work on it, so on search tasks only independent attempts (best-of-N) gain from more agents; the organisation is second on the mix only thanks to its coupled share.',
        ],
      };
    },
  };
  return C8;
}
