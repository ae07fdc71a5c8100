import type { UpdateMetrics } from '../rl/trainer';
import { selectMetrics, useApp } from '../store/store';
import { Explain } from './Explain';
import { chartScales, range, seriesPath, type Frame } from './geometry';

const MINI: Frame = { width: 220, height: 80, margin: { top: 6, right: 6, bottom: 14, left: 30 } };

/** The counters drawn as small multiples, per episode of the batch. */
const SERIES: { key: keyof UpdateMetrics; label: string; colour: string; hint: string }[] = [
  { key: 'useful', label: 'useful work', colour: '#0072b2', hint: 'agent-minutes that advanced a module' },
  { key: 'handoffs', label: 'handoffs that unblocked', colour: '#009e73', hint: 'DMs and reads that delivered a needed interface' },
  { key: 'messages', label: 'messages', colour: '#56b4e9', hint: 'DMs + posts' },
  { key: 'duplicate', label: 'duplicate work', colour: '#d55e00', hint: 'minutes lost to two agents on one module' },
  { key: 'blocked', label: 'blocked work', colour: '#cc79a7', hint: 'minutes spent without the needed interface' },
  { key: 'emptyReads', label: 'reads with nothing new', colour: '#999999', hint: 'board reads that brought nothing' },
];

function Mini({ metrics, s }: { metrics: UpdateMetrics[]; s: (typeof SERIES)[number] }) {
  const values = metrics.map((m) => m[s.key] as number);
  const [, hi] = range(values, [0, 1]);
  const { x, y } = chartScales(MINI, Math.max(2, metrics.length), 0, Math.max(1, hi));
  const last = values[values.length - 1];
  return (
    <figure className="mini" data-testid={`mini-${s.key}`}>
      <figcaption title={s.hint}>
        {s.label} <strong>{last === undefined ? '–' : last.toFixed(1)}</strong>
      </figcaption>
      <svg viewBox={`0 0 ${MINI.width} ${MINI.height}`} role="img" aria-label={`${s.label} per episode over ${metrics.length} updates`}>
        {y.ticks(2).map((t) => (
          <text key={t} className="tick" x={MINI.margin.left - 4} y={y(t)} dy="0.32em" textAnchor="end">
            {t}
          </text>
        ))}
        <line className="grid" x1={MINI.margin.left} x2={MINI.width - MINI.margin.right} y1={y(0)} y2={y(0)} />
        <path d={seriesPath(values.map((v, i) => [i, v]), x, y)} fill="none" stroke={s.colour} strokeWidth={1.5} />
      </svg>
    </figure>
  );
}

/** How the swarm spends its minutes, per update: the skills that move before the return does. */
export function WorkCurves() {
  const metrics = useApp(selectMetrics);
  return (
    <section className="panel" aria-labelledby="work-title" data-testid="work-curves">
      <h2 id="work-title">
        Work, talk and waste <Explain>Per episode, averaged over each update's rollouts. Useful work and unblocking handoffs should rise as the swarm learns to coordinate; duplicate and blocked work show which skill is still missing, often long before the return moves. On parallel tasks the messages should fall to almost nothing.</Explain>
      </h2>
      <div className="minis">
        {SERIES.map((s) => (
          <Mini key={s.key} metrics={metrics} s={s} />
        ))}
      </div>
    </section>
  );
}
