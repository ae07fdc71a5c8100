import { useState } from 'react';
import { SCHEDULE_SHAPES } from '../rl/schedule';
import type { UpdateMetrics } from '../rl/metrics';
import { SCHEMA } from '../rl/config';
import { calibratedSchedule } from '../sim/task';
import { selectActions, selectConfig, selectMetrics, useApp } from '../store/store';
import { AppendFold } from './appendFold';
import { Explain } from './Explain';
import { useAppWhileShown, usePanelShown } from './usePanelShown';
import { SelectField, Slider } from './Fields';
import { ReplaySettingsNote } from './ReplaySettingsNote';
import { chartScales, scheduleSeries, seriesPath, type Frame } from './geometry';

const FRAME: Frame = { width: 320, height: 170, margin: { top: 12, right: 12, bottom: 34, left: 50 } };

/** What the schedule does, in words, for screen readers. */
export function scheduleLabel(start: number, end: number, updates: number): string {
  const how = start === end ? `is fixed at ${end} minutes` : start < end ? `grows from ${start} to ${end} minutes` : `shrinks from ${start} to ${end} minutes`;
  return `The deadline ${how} over ${updates} updates`;
}

/** Sliders for the deadline schedule, with Tmax per update redrawn as they move. */
export function ScheduleEditor() {
  const [panel, shown] = usePanelShown();
  const controls = useApp(selectActions);
  const live = useApp(selectConfig);
  // A slider being dragged previews its value on the chart; the change goes to the trainer once, at the drag's end.
  const [preview, setPreview] = useState<{ tmaxStart?: number; tmaxEnd?: number; tmaxWarmup?: number }>({});
  const draft = (key: 'tmaxStart' | 'tmaxEnd' | 'tmaxWarmup') => (v: number | null) =>
    setPreview((p) => {
      const next = { ...p };
      if (v === null) delete next[key];
      else next[key] = v;
      return next;
    });
  const c = { ...live, ...preview };
  // RLCR updates so far, counted among the new updates only.
  const [rlcr] = useState(() => new AppendFold<UpdateMetrics, { n: number }>());
  // Out of sight, the count of updates done holds still instead of redrawing for every update.
  const done = rlcr.of(
    useAppWhileShown(selectMetrics, shown),
    [],
    () => ({ n: 0 }),
    (s, m) => {
      if (m.phase === 'rlcr') s.n += 1;
    },
  ).n;
  const pts = scheduleSeries(c);
  // Headroom above the longest deadline, so its line and its number are never at the edge.
  const top = Math.max(c.tmaxStart, c.tmaxEnd);
  const { x, y } = chartScales(FRAME, c.updates, 0, top * 1.12);
  const yTicks = [...new Set([...y.ticks(4).filter((t) => Math.abs(y(t) - y(top)) > 12), top])];
  // The sliders reach at least an hour, twice the family's calibrated final deadline (160 min on the
  // long families), and always the current values.
  const maxT = Math.min((SCHEMA.tmaxEnd as { max: number }).max, Math.max(60, 2 * calibratedSchedule(c.family).end, c.tmaxStart, c.tmaxEnd));
  return (
    <section ref={panel} className="panel" aria-labelledby="schedule-title" data-testid="schedule">
      <h2 id="schedule-title">
        Deadline schedule{' '}
        <Explain>
          The deadline Tmax is the only time pressure. It starts short, so the swarm first learns quick wins, and grows over training, so longer coordination
          (finish a module, hand its interface over, let the next agent build on it) starts to pay. Drag the sliders: the running trainer uses the new deadline
          from its next update.
        </Explain>
      </h2>
      <ReplaySettingsNote part="schedule" />
      <svg viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} role="img" aria-label={scheduleLabel(c.tmaxStart, c.tmaxEnd, c.updates)} data-testid="schedule-chart">
        {yTicks.map((t) => (
          <g key={t}>
            <line className="grid" x1={FRAME.margin.left} x2={FRAME.width - FRAME.margin.right} y1={y(t)} y2={y(t)} />
            <text className="tick" x={FRAME.margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {t}
            </text>
          </g>
        ))}
        {x.ticks(5).map((t) => (
          <text key={t} className="tick" x={x(t)} y={FRAME.height - FRAME.margin.bottom + 13} textAnchor="middle" data-testid="schedule-x-tick">
            {t}
          </text>
        ))}
        <text className="axis-title" x={(FRAME.margin.left + FRAME.width - FRAME.margin.right) / 2} y={FRAME.height - 3} textAnchor="middle">
          RLCR update (training step)
        </text>
        <text className="axis-title" transform={`translate(14 ${(FRAME.margin.top + FRAME.height - FRAME.margin.bottom) / 2}) rotate(-90)`} textAnchor="middle">
          deadline (min)
        </text>
        <path className="series-schedule" d={seriesPath(pts, x, y)} data-testid="schedule-path" />
        {done > 0 && (
          <line
            className="cursor"
            x1={x(Math.min(done, c.updates - 1))}
            x2={x(Math.min(done, c.updates - 1))}
            y1={FRAME.margin.top}
            y2={FRAME.height - FRAME.margin.bottom}
            data-testid="schedule-marker"
          />
        )}
      </svg>
      <div className="sliders">
        {(
          [
            { key: 'tmaxStart', label: 'start (min)', testId: 'tmax-start', min: 1, max: maxT },
            { key: 'tmaxEnd', label: 'end (min)', testId: 'tmax-end', min: 1, max: maxT },
            { key: 'tmaxWarmup', label: 'warm-up (updates)', testId: 'tmax-warmup', min: 0, max: Math.max(0, c.updates - 1) },
          ] as const
        ).map((f) => (
          <Slider
            key={f.key}
            label={f.label}
            testId={f.testId}
            value={live[f.key]}
            min={f.min}
            max={f.max}
            onChange={(v) => controls.configure({ [f.key]: v })}
            onDraft={draft(f.key)}
          />
        ))}
        <SelectField label="shape" value={c.tmaxShape} options={SCHEDULE_SHAPES} onChange={(tmaxShape) => controls.configure({ tmaxShape })} />
      </div>
    </section>
  );
}
