import { area, line, scaleLinear, scaleLog, type ScaleLinear } from 'd3';
import { useState } from 'react';
import { type RaceOrganisation, type RaceResult, type ScalingPoint } from '../sim/race';
import { selectActions, selectMetrics, useApp } from '../store/store';
import type { RaceReport } from '../worker/protocol';
import { Explain } from './Explain';
import { SelectField } from './Fields';
import { seriesPath } from './geometry';
import { InferenceCurve, inferenceDomain, inferenceSeries } from './inferenceCurve';
import { useAppWhileShown, usePanelShown } from './usePanelShown';

/** One colour per organisation (Okabe-Ito, as the reference lines of the training curve). */
export const ORG_COLOURS: Record<RaceOrganisation, string> = {
  'single chain': '#cc79a7',
  'best-of-N': '#e69f00',
  'scripted organisation': '#009e73',
  'trained swarm': '#0072b2',
};

const W = 640;
const H = 220;
const M = { top: 12, right: 16, bottom: 30, left: 44 };

/** The x range of the anytime chart: long enough for every organisation that got there, not the whole chain budget. */
export function anytimeSpan(race: readonly RaceResult[]): number {
  const times = race.map((r) => r.time.q75 ?? r.time.median).filter((t): t is number => t !== null);
  const shortest = Math.min(...race.map((r) => r.horizon));
  return Math.max(10, Math.ceil(Math.max(shortest, ...times) * 1.1));
}

/** Horizontal grid lines with their values on the left. */
function YGrid({ y, digits }: { y: ScaleLinear<number, number>; digits?: number }) {
  return (
    <>
      {y.ticks(5).map((t) => (
        <g key={t}>
          <line className="grid" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
          <text className="tick" x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {digits === undefined ? t : t.toFixed(digits)}
          </text>
        </g>
      ))}
    </>
  );
}

/** Values under the x axis, and the axis' name at its right end. */
function XAxis({ ticks, x, label, show = (t) => String(t) }: { ticks: number[]; x: (v: number) => number; label?: string; show?: (t: number) => string }) {
  return (
    <>
      {ticks.map((t) => (
        <text key={t} className="tick" x={x(t)} y={H - 10} textAnchor="middle">
          {show(t)}
        </text>
      ))}
      {label && (
        <text className="tick" x={W - M.right} y={H - 10} textAnchor="end" dy="-1.2em">
          {label}
        </text>
      )}
    </>
  );
}

function TimeBars({ race }: { race: RaceResult[] }) {
  const rowH = 30;
  const left = 250;
  const height = race.length * rowH + 26;
  const max = Math.max(1, ...race.map((r) => r.time.q75 ?? r.time.median ?? 0), ...race.filter((r) => r.time.median === null).map(() => 1));
  const x = scaleLinear()
    .domain([0, max * 1.1])
    .nice()
    .range([left, W - 170]);
  return (
    <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-label="Minutes to an acceptable result per organisation" data-testid="race-times">
      {x.ticks(6).map((t) => (
        <g key={t}>
          <line className="grid" x1={x(t)} x2={x(t)} y1={0} y2={race.length * rowH} />
          <text className="tick" x={x(t)} y={height - 6} textAnchor="middle">
            {t}
          </text>
        </g>
      ))}
      {race.map((r, i) => {
        const y = i * rowH + 6;
        const m = r.time.median;
        return (
          <g key={r.org}>
            <text className="tick" x={left - 8} y={y + 9} dy="0.32em" textAnchor="end">
              {r.org} ({r.parallel === 1 ? '1 agent' : `${r.parallel} agents`})
            </text>
            {m !== null ? (
              <>
                <rect x={left} y={y} width={x(m) - left} height={18} fill={ORG_COLOURS[r.org]} />
                {r.time.q25 !== null && r.time.q75 !== null && <line className="whisker" x1={x(r.time.q25)} x2={x(r.time.q75)} y1={y + 9} y2={y + 9} />}
                <text className="tick" x={x(r.time.q75 ?? m) + 6} y={y + 9} dy="0.32em">
                  {m.toFixed(0)} min{r.compute !== null ? ` · ${Math.round(r.compute)} agent-min` : ''}
                </text>
              </>
            ) : (
              <text className="tick" x={left + 4} y={y + 9} dy="0.32em">
                not reached by most tasks ({Math.round(r.time.reached * 100)}% in {r.horizon} min)
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function Anytime({ race, threshold }: { race: RaceResult[]; threshold: number }) {
  const span = anytimeSpan(race);
  const x = scaleLinear()
    .domain([0, span])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, 1])
    .range([H - M.bottom, M.top]);
  const cut = (a: number[]) => a.slice(0, span + 1);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Share of tests passing against minutes, up to ${span} minutes`} data-testid="race-anytime">
      <YGrid y={y} digits={1} />
      <XAxis ticks={x.ticks(8)} x={x} label="minutes" />
      <line className="threshold" x1={M.left} x2={W - M.right} y1={y(threshold)} y2={y(threshold)} />
      {race.map((r) => {
        const lo = cut(r.curve.q25);
        const hi = cut(r.curve.q75);
        const band = area<number>()
          .x((_, i) => x(i))
          .y0((_, i) => y(lo[i]))
          .y1((_, i) => y(hi[i]))(lo);
        const mid = line<number>()
          .x((_, i) => x(i))
          .y((v) => y(v))(cut(r.curve.mean));
        return (
          <g key={r.org}>
            <path d={band ?? ''} fill={ORG_COLOURS[r.org]} opacity={0.15} />
            <path d={mid ?? ''} fill="none" stroke={ORG_COLOURS[r.org]} strokeWidth={2} />
          </g>
        );
      })}
    </svg>
  );
}

function Scaling({ points }: { points: ScalingPoint[] }) {
  const counts = [...new Set(points.map((p) => p.agents))].sort((a, b) => a - b);
  const times = points.map((p) => p.time.median).filter((t): t is number => t !== null);
  const x = scaleLog()
    .base(2)
    .domain([counts[0] ?? 1, Math.max(2, counts[counts.length - 1] ?? 2)])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...times) * 1.1])
    .nice()
    .range([H - M.bottom, M.top]);
  const orgs = [...new Set(points.map((p) => p.org))];
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Minutes to an acceptable result against the number of agents" data-testid="race-scaling">
      <YGrid y={y} />
      <XAxis ticks={counts} x={x} label="agents" />
      {orgs.map((org) => {
        const pts = points.filter((p) => p.org === org && p.time.median !== null).map((p) => [x(p.agents), y(p.time.median!)] as [number, number]);
        return (
          <g key={org}>
            <path d={line()(pts) ?? ''} fill="none" stroke={ORG_COLOURS[org]} strokeWidth={2} />
            {pts.map(([px, py], i) => (
              <circle key={i} cx={px} cy={py} r={3.5} fill={ORG_COLOURS[org]} />
            ))}
          </g>
        );
      })}
    </svg>
  );
}

function InferenceScaling({ shown }: { shown: boolean }) {
  // Out of sight, the chart holds still instead of redrawing for every update.
  const metrics = useAppWhileShown(selectMetrics, shown);
  // About 150 rolling means over the run, each computed once (InferenceCurve).
  const [curve] = useState(() => new InferenceCurve());
  const pts = curve.of(metrics, 25, Math.max(1, Math.floor(metrics.length / 150)));
  if (pts.length < 2) return <p className="empty">Train a few updates to see parallel work and messages grow.</p>;
  const x = scaleLinear()
    .domain([pts[0].update, pts[pts.length - 1].update])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain(inferenceDomain(pts))
    .nice()
    .range([H - M.bottom, M.top]);
  const path = (f: (p: (typeof pts)[number]) => number) => seriesPath(inferenceSeries(pts, f), x, y);
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Useful parallel work and messages per episode against training updates"
      data-testid="inference-scaling"
    >
      <YGrid y={y} />
      <XAxis ticks={x.ticks(6).filter((t) => Number.isInteger(t))} x={x} label="update" show={(t) => String(t + 1)} />
      <path d={path((p) => p.parallelism)} fill="none" stroke="#0072b2" strokeWidth={2} />
      <path d={path((p) => p.messages / 10)} fill="none" stroke="#56b4e9" strokeWidth={2} strokeDasharray="5 3" />
    </svg>
  );
}

const THRESHOLDS = ['0.8', '0.9', '1'] as const;
/** Tasks each organisation plays: a quick race for a slow machine, or the full one. */
const RACE_TASKS = ['6', '24'] as const;

/** The three organisations (and the trained swarm) raced to an acceptable result, and how that scales. */
export function OrganisationsPanel() {
  const [panel, shown] = usePanelShown();
  const controls = useApp(selectActions);
  const [threshold, setThreshold] = useState<(typeof THRESHOLDS)[number]>('0.9');
  const [tasks, setTasks] = useState<(typeof RACE_TASKS)[number]>('24');
  const [report, setReport] = useState<RaceReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      // Equal compute over three times the racing swarm's final deadline (72 minutes at the short families' 24).
      setReport(await controls.race({ threshold: Number(threshold), tasks: Number(tasks), agentCounts: [1, 2, 4, 8, 16] }));
    } catch (e) {
      setError(`The race could not run: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section ref={panel} className="panel organisations" aria-labelledby="orgs-title" data-testid="organisations">
      <h2 id="orgs-title">
        Three ways to organise{' '}
        <Explain>
          The same work done three ways with the same compute: one agent alone for N times as long (single chain), N agents trying independently and keeping the
          best (best-of-N), and N agents who split the work and talk (the scripted organisation, and the swarm as trained so far). The bars show the minutes
          until {Math.round(Number(threshold) * 100)}% of the tests pass (median over tasks; the line spans the middle half). In the article: 100, 28 and 46
          minutes. Talk pays where the work is coupled; on parallel or luck-driven tasks best-of-N is hard to beat.
        </Explain>
      </h2>
      <div className="library-bar">
        <SelectField
          label="acceptable result"
          testId="race-threshold"
          value={threshold}
          options={THRESHOLDS}
          labels={{ '0.8': '80% of tests', '0.9': '90% of tests', '1': 'all tests' }}
          onChange={setThreshold}
        />
        <SelectField label="tasks each" testId="race-tasks" value={tasks} options={RACE_TASKS} labels={{ '6': '6 (quick)', '24': '24' }} onChange={setTasks} />
        <button type="button" onClick={() => void run()} disabled={busy} data-testid="race-run">
          {busy ? 'Racing…' : report ? 'Race again' : 'Race the organisations'}
        </button>
        {report && (
          <span className="library-status" data-testid="race-summary">
            {report.family} tasks, {report.agents} agents, {report.swarm === undefined ? 'swarm' : `replayed swarm "${report.swarm}"`} after {report.updates}{' '}
            updates; {Math.round(report.ms)} ms in the worker
          </span>
        )}
      </div>
      {error && (
        <p className="library-message error" role="alert">
          {error}
        </p>
      )}
      <ul className="legend">
        {(Object.keys(ORG_COLOURS) as RaceOrganisation[]).map((o) => (
          <li key={o}>
            <span className="swatch" style={{ background: ORG_COLOURS[o] }} />
            {o}
          </li>
        ))}
      </ul>
      <div className="orgs-grid">
        {report && (
          <>
            <figure>
              <figcaption>Minutes to {Math.round(Number(threshold) * 100)}% of the tests</figcaption>
              <TimeBars race={report.race} />
            </figure>
            <figure>
              <figcaption>Share of tests passing, minute by minute (line: mean; band: middle half of the tasks)</figcaption>
              <Anytime race={report.race} threshold={Number(threshold)} />
            </figure>
            <figure>
              <figcaption>Minutes to the acceptable result against swarm size (same agent-minutes for the single chain)</figcaption>
              <Scaling points={report.scaling} />
            </figure>
          </>
        )}
        <figure>
          <figcaption>Over training (by update): useful parallel work, agents busy at once (solid), and messages per episode ÷ 10 (dashed)</figcaption>
          <InferenceScaling shown={shown} />
        </figure>
      </div>
    </section>
  );
}
