import { useMemo, useState } from 'react';
import type { RunFile } from '../core/runFormat';
import type { References } from '../rl/compare';
import type { Config } from '../rl/config';
import type { StructureMetric, UpdateMetrics } from '../rl/metrics';
import { selectChangeRecord, selectConfig, selectMetrics, selectReferences, selectReplay, selectRuns, selectShownTalk, useApp } from '../store/store';
import { firstCoordinated } from '../store/talkHistory';
import { coordinationMark, type CoordinationMark } from './coordinationText';
import { activeAblations } from './AblationsPanel';
import { SelectField } from './Fields';
import { runs as library } from '../app/page';
import { AppendFold } from './appendFold';
import { ChunkedPath, chunkedLine } from './ChunkedPath';
import type { MinMaxSeries } from './minMaxSeries';
import { Explain } from './Explain';
import { gloss } from './glossary';
import { TrainingRate } from './TrainingRate';
import { useBoxSize } from './useBoxSize';
import { chartScales, placeLabels, textWidth, type Frame } from './geometry';
import { markerIndex, phaseMarkers, recordedMarkers, type CurveMarker } from '../store/markers';
import type { CurveView } from '../store/view';

/** The curve's margins: room on the left and below for the axis titles, above for the markers' labels. */
const MARGIN: Frame['margin'] = { top: 30, right: 16, bottom: 38, left: 54 };
/**
 * Presenter mode's margins: its labels are 16.5 px (stage.css), so two rows of markers' labels need
 * more room above, and a signed tick ("+0.10") beside the rotated axis title more room on the left.
 */
const PRESENTER_MARGIN: Frame['margin'] = { top: 44, right: 16, bottom: 42, left: 80 };
/** The size drawn before the box is measured (and the least it is drawn at). */
const INITIAL = { width: 640, height: 224 };
const MIN = { width: 320, height: 150 };
const PRESENTER_MIN = { width: 200, height: 150 };

/** The value plotted for a return at a deadline: itself, or its lead over the scripted organisation there. */
function plotted(view: CurveView, value: number, scripted: number | undefined): number | null {
  if (view === 'return') return value;
  return scripted === undefined ? null : value - scripted;
}

/** The markers on screen: the recorded setting changes of the run on screen (replayed or live) and its phase changes. */
function useMarkers(metrics: readonly UpdateMetrics[]): CurveMarker[] {
  const changes = useApp(selectChangeRecord);
  // The phase changes, found among the new updates only.
  const [fold] = useState(() => new AppendFold<UpdateMetrics, CurveMarker[]>());
  const phases = fold.of(
    metrics,
    [],
    () => [],
    (out, m, i, ms) => {
      if (i > 0) out.push(...phaseMarkers([ms[i - 1], m]));
    },
  );
  const settings = changes ? recordedMarkers(changes.config, changes.configChanges) : [];
  return [...phases, ...settings].sort((a, b) => a.update - b.update);
}

type RefKey = 'scripted' | 'bestOfN' | 'chain';

const REFS: { key: RefKey; label: string; className: string }[] = [
  { key: 'scripted', label: 'scripted organisation', className: 'ref-scripted' },
  { key: 'bestOfN', label: 'best-of-N', className: 'ref-best' },
  { key: 'chain', label: 'single chain', className: 'ref-chain' },
];

/** The plain words shown beside a reference's name in the readout (glossary.ts). */
const REF_PLAIN: Record<RefKey, string> = {
  scripted: gloss('scripted organisation').plain,
  bestOfN: gloss('best-of-N').plain,
  chain: gloss('single chain').plain,
};

/** The structure's numbers, shown when the run has them (CEO, islands, orchestrator). */
const STRUCTURE_READOUT: { key: StructureMetric; label: string; digits: number }[] = [
  { key: 'headCount', label: 'head count', digits: 1 },
  { key: 'budgetSpent', label: 'budget spent', digits: 0 },
  { key: 'islandBest', label: 'best island', digits: 3 },
  { key: 'islandMean', label: 'island mean', digits: 3 },
  { key: 'assigns', label: 'assignments', digits: 1 },
  { key: 'criticalSteps', label: 'critical steps', digits: 1 },
];

const NONE = 'none';

/** The curve's lines as drawn: the swarm's return and each reference's, one point per update that has a value. */
interface Lines {
  ret: MinMaxSeries;
  refs: Record<RefKey, MinMaxSeries>;
}

function newLines(): Lines {
  return { ret: chunkedLine(), refs: { scripted: chunkedLine(), bestOfN: chunkedLine(), chain: chunkedLine() } };
}

/** Adds update `m` (at position `i`) to the lines, as plotted in `view` against the references `refs`. */
function addUpdate(lines: Lines, m: UpdateMetrics, i: number, view: CurveView, refs: Record<number, References>): void {
  const ref = refs[m.tmax];
  const add = (line: MinMaxSeries, v: number | undefined) => {
    const p = v === undefined ? null : plotted(view, v, ref?.scripted);
    if (p !== null) line.push(i, p);
  };
  add(lines.ret, m.ret);
  for (const r of REFS) add(lines.refs[r.key], ref?.[r.key]);
}

/** Decimals that tell ticks `ticks` (evenly spaced) apart: at least one, more for a step under 0.1. */
export function tickDigits(ticks: readonly number[]): number {
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  return Math.max(1, Math.ceil(-Math.log10(step) - 1e-9));
}

/** A lead as the relative view's readout writes it: "+0.052", "−0.154", "0.000" (what the curve plots, not the return). */
export function signed(v: number): string {
  const t = v.toFixed(3);
  return Number(t) > 0 ? `+${t}` : Number(t) < 0 ? `−${t.slice(1)}` : '0.000';
}

/** What the curve says, for screen readers: the update shown and every marker's change. */
/** The settings a recorded run trained with at replay position `index` (its last change at or before that update). */
function replayedConfig(run: RunFile, index: number): Config {
  const update = run.metrics[Math.min(index, run.metrics.length - 1)]?.update ?? 0;
  return run.configChanges.filter((c) => c.update <= update).at(-1)?.config ?? run.config;
}

function curveLabel(
  shown: UpdateMetrics | undefined,
  ref: References | undefined,
  relative: boolean,
  marks: readonly CurveMarker[],
  coordinated: CoordinationMark | null,
): string {
  if (!shown) return 'No updates yet';
  const lead = ref ? `, ${(shown.ret - ref.scripted >= 0 ? '+' : '') + (shown.ret - ref.scripted).toFixed(2)} against the scripted organisation` : '';
  const head = relative
    ? `After update ${shown.update + 1} the swarm's return is ${shown.ret.toFixed(2)}${lead}`
    : `Return at the deadline ${shown.ret.toFixed(2)} after update ${shown.update + 1}${lead}`;
  const marked = marks.length ? `${head}. Marked: ${marks.map((m) => `update ${m.update + 1}, ${m.label}`).join('; ')}.` : head;
  return coordinated ? `${marked}${marks.length ? '' : '.'} ${coordinated.title}` : marked;
}

/** Return at the deadline per update, with the reference organisations at each update's deadline. */
export function Curves() {
  const metrics = useApp(selectMetrics);
  const config = useApp(selectConfig);
  const refs = useApp(selectReferences);
  const replay = useApp(selectReplay);
  const overlay = useApp((s) => s.overlay);
  const runs = useApp(selectRuns);
  // A replay's badge is the replayed run's (at the update on screen), not the live settings': a step's ablation does not label a pretrained run.
  const ablations = activeAblations(replay ? replayedConfig(replay.run, replay.index) : config);
  const [hover, setHover] = useState<number | null>(null);
  const view = useApp((s) => s.view.curve);
  const setView = useApp((s) => s.setView);
  const markers = useMarkers(metrics);
  // Where the run (live or replayed) first met the definition of coordination (sim/coordination.ts).
  const talk = useApp(selectShownTalk);
  const firstCoord = useMemo(() => firstCoordinated(talk), [talk]);
  const coordinated = coordinationMark(firstCoord, metrics);
  // Kept up to date with each new update (from scratch for another run, view or set of references).
  const [lineFold] = useState(() => new AppendFold<UpdateMetrics, Lines>());
  const lines = lineFold.of(metrics, [view, refs], newLines, (l, m, i) => addUpdate(l, m, i, view, refs));
  const [overlayFold] = useState(() => new AppendFold<UpdateMetrics, MinMaxSeries>());
  const overlayLine = overlayFold.of(overlay?.metrics ?? [], [], chunkedLine, (l, m, i) => l.push(i, m.ret));
  // Drawn in the box's own pixels, so the numbers keep their size however the stage stretches the chart.
  const [box, boxRef] = useBoxSize<SVGSVGElement>(INITIAL);
  const presenter = useApp((s) => s.view.presenter);
  // The markers' labels' size (stage.css): 10 px, or 16.5 px in presenter mode.
  const labelPx = presenter ? 16.5 : 10;
  // Presenter mode draws down to a narrower box (the curve beside the drawer) rather than scaling its 16 px text down.
  const least = presenter ? PRESENTER_MIN : MIN;
  const FRAME: Frame = { width: Math.max(least.width, box.width), height: Math.max(least.height, box.height), margin: presenter ? PRESENTER_MARGIN : MARGIN };
  const lane = (k: number) => (presenter ? (k === 1 ? 16 : 34) : k === 1 ? 10 : 20);

  const total = Math.max(replay ? replay.run.totalUpdates : config.prior + config.updates, metrics.length, 2);
  const relative = view === 'relative';
  const all = [lines.ret, ...REFS.map((r) => lines.refs[r.key])];
  const { x, y } = chartScales(FRAME, total, relative ? Math.min(-0.2, ...all.map((l) => l.min)) : 0, relative ? Math.max(0.1, ...all.map((l) => l.max)) : 1);
  const yTicks = y.ticks(Math.max(2, Math.min(5, Math.floor(FRAME.height / 40))));
  // As many decimals as the ticks' step needs, so no two ticks read the same ("+0.05, +0.10", not "+0.1, +0.1").
  const yDigits = tickDigits(yTicks);
  const scaleKey = `${x.domain()}|${x.range()}|${y.domain()}|${y.range()}`;
  const placed = markers.map((m) => ({ ...m, i: markerIndex(metrics, m.update) })).filter((m) => m.i >= 0);
  // The coordination marker's label is placed first, so a setting's marker beside it never hides it.
  const markLanes = placeLabels(
    [
      ...placed.map((m) => ({ x: x(m.i), width: textWidth(m.label, labelPx) })),
      ...(coordinated ? [{ x: x(coordinated.index), width: textWidth(`✓ ${coordinated.label}`, labelPx) + 4 }] : []),
    ],
    2,
    3,
    coordinated ? [placed.length] : [],
  );
  const coordLane = coordinated ? markLanes[placed.length] : -1;
  const anchor = (px: number) => (px > FRAME.width - 120 ? 'end' : px < 120 ? 'start' : 'middle');
  // Hovering shows an update; in a replay the scrubber's update is shown otherwise.
  // A hovered update the run no longer has (the metrics changed under a still pointer) counts as none.
  const hovered = hover !== null && hover < metrics.length ? hover : null;
  const marked = hovered ?? (replay ? Math.min(replay.index, metrics.length - 1) : null);
  const shown: UpdateMetrics | undefined = marked !== null ? metrics[marked] : metrics[metrics.length - 1];
  const ref = shown ? refs[shown.tmax] : undefined;

  return (
    <section className="panel" aria-labelledby="curves-title" data-testid="curves">
      <h2 id="curves-title">
        Training curve{' '}
        <Explain>
          Each point is one update: the share of tests the swarm passed by the deadline, averaged over that update's rollouts. The dashed lines are what the
          scripted organisation, best-of-N and a single agent reach at the same deadline. Early on the swarm is below the single agent; watch it climb past
          best-of-N as it learns to split the work and hand interfaces over.
        </Explain>
      </h2>
      <svg
        ref={boxRef}
        viewBox={`0 0 ${FRAME.width} ${FRAME.height}`}
        role="img"
        aria-label={curveLabel(shown, ref, relative, placed, coordinated)}
        data-testid="curve-svg"
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          const u = Math.round(x.invert(((e.clientX - box.left) / box.width) * FRAME.width));
          setHover(metrics.length ? Math.min(metrics.length - 1, Math.max(0, u)) : null);
        }}
        onMouseLeave={() => setHover(null)}
      >
        {yTicks.map((t) => (
          <g key={t}>
            <line className={t === 0 && relative ? 'grid zero' : 'grid'} x1={FRAME.margin.left} x2={FRAME.width - FRAME.margin.right} y1={y(t)} y2={y(t)} />
            <text className="tick" x={FRAME.margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {relative && t > 0 ? '+' : ''}
              {t.toFixed(yDigits)}
            </text>
          </g>
        ))}
        {x.ticks(Math.max(2, Math.floor(FRAME.width / 90))).map((t) => (
          <text key={t} className="tick" x={x(t)} y={FRAME.height - FRAME.margin.bottom + 14} textAnchor="middle">
            {t}
          </text>
        ))}
        <text className="axis-title" x={(FRAME.margin.left + FRAME.width - FRAME.margin.right) / 2} y={FRAME.height - 4} textAnchor="middle">
          update
        </text>
        <text
          className="axis-title"
          transform={`translate(${presenter ? 16 : 13} ${(FRAME.margin.top + FRAME.height - FRAME.margin.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          {presenter || FRAME.height < 200 ? (relative ? '− scripted' : 'return') : relative ? 'return − scripted org.' : 'return (share of tests passed)'}
        </text>
        {placed.map((m, k) => (
          <g key={`${m.kind}${m.update}${k}`} className={`curve-marker ${m.kind}`} data-testid="curve-marker">
            <line x1={x(m.i)} x2={x(m.i)} y1={lane(markLanes[k]) + 4} y2={FRAME.height - FRAME.margin.bottom} />
            {markLanes[k] >= 0 && (
              <text className="marker-label" x={x(m.i)} y={lane(markLanes[k])} textAnchor={anchor(x(m.i))}>
                {m.label}
              </text>
            )}
            <title>{`update ${m.update + 1}: ${m.label}`}</title>
          </g>
        ))}
        {coordinated && (
          <g className="curve-marker coordination" data-testid="coordination-marker" data-updates={coordinated.updates}>
            <line x1={x(coordinated.index)} x2={x(coordinated.index)} y1={lane(Math.max(0, coordLane)) + 4} y2={FRAME.height - FRAME.margin.bottom} />
            {/* A wider, unseen line under the pointer, so its tooltip is easy to reach. */}
            <line className="hit" x1={x(coordinated.index)} x2={x(coordinated.index)} y1={FRAME.margin.top} y2={FRAME.height - FRAME.margin.bottom} />
            {coordLane >= 0 && (
              <text className="marker-label" x={x(coordinated.index)} y={lane(coordLane)} textAnchor={anchor(x(coordinated.index))}>
                {`✓ ${coordinated.label}`}
              </text>
            )}
            <title>{coordinated.title}</title>
          </g>
        )}
        {overlay && !relative && <ChunkedPath className="series-overlay" line={overlayLine} x={x} y={y} scaleKey={scaleKey} testId="overlay-path" />}
        <ChunkedPath className="series-return" line={lines.ret} x={x} y={y} scaleKey={scaleKey} testId="return-path" />
        {/* The references are drawn over the swarm's line, dashed, so a swarm level with the scripted organisation leaves both in sight. */}
        {REFS.map((r) => (
          <ChunkedPath key={r.key} className={`ref ${r.className}`} line={lines.refs[r.key]} x={x} y={y} scaleKey={scaleKey} testId={`ref-${r.key}`} />
        ))}
        {marked !== null && (
          <line className="cursor" x1={x(marked)} x2={x(marked)} y1={FRAME.margin.top} y2={FRAME.height - FRAME.margin.bottom} data-testid="curve-cursor" />
        )}
      </svg>
      <div className="curve-compare">
        <div className="curve-view" role="group" aria-label="What the curve shows">
          <button type="button" aria-pressed={!relative} onClick={() => setView({ curve: 'return' })} data-testid="curve-return">
            return
          </button>
          <button
            type="button"
            aria-pressed={relative}
            onClick={() => setView({ curve: 'relative' })}
            title="The swarm's return minus the scripted organisation's at the same deadline: a longer deadline raises both, so it does not look like learning"
            data-testid="curve-relative"
          >
            vs scripted organisation
          </button>
        </div>
        {ablations.length > 0 && (
          <span className="ablation-badge" data-testid="ablation-badge">
            ablations on: {ablations.join('; ')}
          </span>
        )}
        <SelectField
          label="compare with"
          testId="overlay-choice"
          value={overlay ? String(overlay.id) : NONE}
          options={[NONE, ...(runs ?? []).map((r) => String(r.id))]}
          labels={{ [NONE]: 'no other run', ...Object.fromEntries((runs ?? []).map((r) => [String(r.id), `${r.name} (${r.configSummary})`])) }}
          onChange={(v) => void library.compareWith(v === NONE ? null : Number(v))}
        />
        {overlay && (
          <span className="overlay-key" data-testid="overlay-key">
            dotted: {overlay.name}
            {overlay.metrics.at(-1) ? `, ${overlay.metrics.at(-1)!.ret.toFixed(3)} at its last update` : ''}
          </span>
        )}
      </div>
      <dl className="readout" data-testid="readout">
        <div>
          <dt>update</dt>
          <dd data-testid="update-count">{shown ? shown.update + 1 : '–'}</dd>
        </div>
        <TrainingRate />
        <div>
          <dt>deadline</dt>
          <dd>{shown ? `${shown.tmax} min` : '–'}</dd>
        </div>
        {relative && (
          <div className="readout-relative" data-testid="readout-relative">
            <dt>shown</dt>
            <dd>minus the scripted organisation</dd>
          </div>
        )}
        <div>
          <dt className="key-return">swarm</dt>
          <dd data-testid="readout-swarm" title={shown ? `return ${shown.ret.toFixed(3)}` : undefined}>
            {shown ? (relative ? (ref ? signed(shown.ret - ref.scripted) : '–') : shown.ret.toFixed(3)) : '–'}
          </dd>
        </div>
        {REFS.map((r) => (
          <div key={r.key}>
            <dt className={`key-${r.className}`} title={gloss(r.label).line}>
              {r.label} <span className="gloss">({REF_PLAIN[r.key]})</span>
            </dt>
            <dd data-testid={`readout-${r.key}`} title={ref ? `return ${ref[r.key].toFixed(3)}` : undefined}>
              {ref ? (relative ? signed(ref[r.key] - ref.scripted) : ref[r.key].toFixed(3)) : '–'}
            </dd>
          </div>
        ))}
        <div className="readout-extra">
          <dt>messages / episode</dt>
          <dd>{shown ? shown.messages.toFixed(1) : '–'}</dd>
        </div>
        <div className="readout-extra">
          <dt>handoffs</dt>
          <dd>{shown ? shown.handoffs.toFixed(1) : '–'}</dd>
        </div>
        <div className="readout-extra">
          <dt>duplicate work</dt>
          <dd>{shown ? shown.duplicate.toFixed(1) : '–'}</dd>
        </div>
        <div className="readout-extra">
          <dt>blocked work</dt>
          <dd>{shown ? shown.blocked.toFixed(1) : '–'}</dd>
        </div>
        {shown &&
          STRUCTURE_READOUT.flatMap((r) => {
            const v = shown.structure?.[r.key];
            return v === undefined
              ? []
              : [
                  <div key={r.key} data-testid={`readout-${r.key}`}>
                    <dt>{r.label}</dt>
                    <dd>{v.toFixed(r.digits)}</dd>
                  </div>,
                ];
          })}
      </dl>
    </section>
  );
}
