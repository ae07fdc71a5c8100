import { SCHEDULE_SHAPES } from '../rl/schedule';
import { SCHEMA } from '../rl/config';
import { calibratedSchedule } from '../sim/task';
import { selectActions, selectConfig, selectMetrics, useApp } from '../store/store';
import { Explain } from './Explain';
import { SelectField } from './Fields';
import { chartScales, scheduleSeries, seriesPath, type Frame } from './geometry';

const FRAME: Frame = { width: 320, height: 160, margin: { top: 10, right: 10, bottom: 24, left: 34 } };

function Slider({ label, value, min, max, onChange, testId }: { label: string; value: number; min: number; max: number; onChange: (v: number) => void; testId: string }) {
  return (
    <label className="slider">
      <span>
        {label} <output>{value}</output>
      </span>
      <input type="range" min={min} max={max} step={1} value={value} data-testid={testId} onChange={(e) => onChange(Number(e.currentTarget.value))} />
    </label>
  );
}

/** Sliders for the deadline schedule, with Tmax per update redrawn as they move. */
export function ScheduleEditor() {
  const controls = useApp(selectActions);
  const c = useApp(selectConfig);
  const done = useApp(selectMetrics).filter((m) => m.phase === 'rlcr').length;
  const pts = scheduleSeries(c);
  const { x, y } = chartScales(FRAME, c.updates, 0, Math.max(c.tmaxStart, c.tmaxEnd));
  // The sliders reach at least an hour, twice the family's calibrated final deadline (160 min on the
  // long families), and always the current values.
  const maxT = Math.min((SCHEMA.tmaxEnd as { max: number }).max, Math.max(60, 2 * calibratedSchedule(c.family).end, c.tmaxStart, c.tmaxEnd));
  return (
    <section className="panel" aria-labelledby="schedule-title" data-testid="schedule">
      <h2 id="schedule-title">
        Deadline schedule <Explain>The deadline Tmax is the only time pressure. It starts short, so the swarm first learns quick wins, and grows over training, so longer coordination (finish a module, hand its interface over, let the next agent build on it) starts to pay. Drag the sliders: the running trainer uses the new deadline from its next update.</Explain>
      </h2>
      <svg viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} role="img" aria-label={`Deadline grows from ${c.tmaxStart} to ${c.tmaxEnd} minutes`}>
        {y.ticks(4).map((t) => (
          <text key={t} className="tick" x={FRAME.margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
            {t}
          </text>
        ))}
        <text className="tick" x={FRAME.width - FRAME.margin.right} y={FRAME.height - 6} textAnchor="end">
          updates
        </text>
        <path className="series-schedule" d={seriesPath(pts, x, y)} data-testid="schedule-path" />
        {done > 0 && <line className="cursor" x1={x(Math.min(done, c.updates - 1))} x2={x(Math.min(done, c.updates - 1))} y1={FRAME.margin.top} y2={FRAME.height - FRAME.margin.bottom} data-testid="schedule-marker" />}
      </svg>
      <div className="sliders">
        <Slider label="start (min)" testId="tmax-start" value={c.tmaxStart} min={1} max={maxT} onChange={(v) => controls.configure({ tmaxStart: v })} />
        <Slider label="end (min)" testId="tmax-end" value={c.tmaxEnd} min={1} max={maxT} onChange={(v) => controls.configure({ tmaxEnd: v })} />
        <Slider label="warm-up (updates)" testId="tmax-warmup" value={c.tmaxWarmup} min={0} max={Math.max(0, c.updates - 1)} onChange={(v) => controls.configure({ tmaxWarmup: v })} />
        <SelectField label="shape" value={c.tmaxShape} options={SCHEDULE_SHAPES} onChange={(tmaxShape) => controls.configure({ tmaxShape })} />
      </div>
    </section>
  );
}
