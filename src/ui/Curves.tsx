import { useState } from 'react';
import type { References } from '../rl/compare';
import type { UpdateMetrics } from '../rl/trainer';
import { selectConfig, selectMetrics, selectReferences, selectReplay, selectRuns, useApp } from '../store/store';
import { activeAblations } from './AblationsPanel';
import { SelectField } from './Fields';
import { runLibrary } from '../store/runLibrary';
import { ChunkedPath } from './ChunkedPath';
import { Explain } from './Explain';
import { TrainingRate } from './TrainingRate';
import { CHART, chartScales, seriesPath } from './geometry';

const REFS: { key: keyof References; label: string; className: string }[] = [
  { key: 'scripted', label: 'scripted organisation', className: 'ref-scripted' },
  { key: 'bestOfN', label: 'best-of-N', className: 'ref-best' },
  { key: 'chain', label: 'single chain', className: 'ref-chain' },
];

/** The structure's numbers, shown when the run has them (CEO, islands, orchestrator). */
const STRUCTURE_READOUT: { key: keyof UpdateMetrics; label: string; digits: number }[] = [
  { key: 'headCount', label: 'head count', digits: 1 },
  { key: 'budgetSpent', label: 'budget spent', digits: 0 },
  { key: 'islandBest', label: 'best island', digits: 3 },
  { key: 'islandMean', label: 'island mean', digits: 3 },
  { key: 'assigns', label: 'assignments', digits: 1 },
  { key: 'criticalSteps', label: 'critical steps', digits: 1 },
];

const NONE = 'none';

/** Draws a stored run's curve over the live one (or clears it). */
async function chooseOverlay(id: number | null): Promise<void> {
  const s = useApp.getState();
  if (id === null) {
    s.setOverlay(null);
    return;
  }
  try {
    const run = await (await runLibrary()).get(id);
    if (!run) throw new Error(`There is no run ${id} in the library.`);
    useApp.getState().setOverlay({ id, name: run.name, metrics: run.metrics });
  } catch (e) {
    useApp.getState().setLibrary({ libraryMessage: { kind: 'error', text: `The run to compare with could not be read: ${e instanceof Error ? e.message : String(e)}` } });
  }
}

/** Return at the deadline per update, with the reference organisations at each update's deadline. */
export function Curves() {
  const metrics = useApp(selectMetrics);
  const config = useApp(selectConfig);
  const refs = useApp(selectReferences);
  const replay = useApp(selectReplay);
  const overlay = useApp((s) => s.overlay);
  const runs = useApp(selectRuns);
  const ablations = activeAblations(config);
  const [hover, setHover] = useState<number | null>(null);

  const total = Math.max(replay ? replay.run.totalUpdates : config.prior + config.updates, metrics.length, 2);
  const { x, y } = chartScales(CHART, total, 0, 1);
  const ret = metrics.map((m, i): [number, number] => [i, m.ret]);
  const overlayPath = overlay ? seriesPath(overlay.metrics.map((m, i) => [i, m.ret]), x, y) : null;
  const refPaths = REFS.map((r) => ({
    ...r,
    points: metrics.flatMap((m, i): [number, number][] => (refs[m.tmax] ? [[i, refs[m.tmax][r.key]]] : [])),
  }));
  // Hovering shows an update; in a replay the scrubber's update is shown otherwise.
  const marked = hover ?? (replay ? Math.min(replay.index, metrics.length - 1) : null);
  const shown: UpdateMetrics | undefined = marked !== null ? metrics[marked] : metrics[metrics.length - 1];
  const ref = shown ? refs[shown.tmax] : undefined;

  return (
    <section className="panel" aria-labelledby="curves-title" data-testid="curves">
      <h2 id="curves-title">
        Training curve <Explain>Each point is one update: the share of tests the swarm passed by the deadline, averaged over that update's rollouts. The dashed lines are what the scripted organisation, best-of-N and a single agent reach at the same deadline. Early on the swarm is below the single agent; watch it climb past best-of-N as it learns to split the work and hand interfaces over.</Explain>
      </h2>
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={shown ? `Return at the deadline ${shown.ret.toFixed(2)} after update ${shown.update + 1}` : 'No updates yet'}
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          const u = Math.round(x.invert(((e.clientX - box.left) / box.width) * CHART.width));
          setHover(metrics.length ? Math.min(metrics.length - 1, Math.max(0, u)) : null);
        }}
        onMouseLeave={() => setHover(null)}
      >
        {y.ticks(5).map((t) => (
          <g key={t}>
            <line className="grid" x1={CHART.margin.left} x2={CHART.width - CHART.margin.right} y1={y(t)} y2={y(t)} />
            <text className="tick" x={CHART.margin.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {t.toFixed(1)}
            </text>
          </g>
        ))}
        {x.ticks(6).map((t) => (
          <text key={t} className="tick" x={x(t)} y={CHART.height - 8} textAnchor="middle">
            {t}
          </text>
        ))}
        {refPaths.map((r) => (
          <ChunkedPath key={r.key} className={`ref ${r.className}`} points={r.points} x={x} y={y} />
        ))}
        {overlayPath && <path className="series-overlay" d={overlayPath} data-testid="overlay-path" />}
        <ChunkedPath className="series-return" points={ret} x={x} y={y} testId="return-path" />
        {marked !== null && <line className="cursor" x1={x(marked)} x2={x(marked)} y1={CHART.margin.top} y2={CHART.height - CHART.margin.bottom} data-testid="curve-cursor" />}
      </svg>
      <div className="curve-compare">
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
          onChange={(v) => void chooseOverlay(v === NONE ? null : Number(v))}
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
        <div>
          <dt className="key-return">swarm</dt>
          <dd>{shown ? shown.ret.toFixed(3) : '–'}</dd>
        </div>
        {REFS.map((r) => (
          <div key={r.key}>
            <dt className={`key-${r.className}`}>{r.label}</dt>
            <dd>{ref ? ref[r.key].toFixed(3) : '–'}</dd>
          </div>
        ))}
        <div>
          <dt>messages / episode</dt>
          <dd>{shown ? shown.messages.toFixed(1) : '–'}</dd>
        </div>
        <div>
          <dt>handoffs</dt>
          <dd>{shown ? shown.handoffs.toFixed(1) : '–'}</dd>
        </div>
        <div>
          <dt>duplicate work</dt>
          <dd>{shown ? shown.duplicate.toFixed(1) : '–'}</dd>
        </div>
        <div>
          <dt>blocked work</dt>
          <dd>{shown ? shown.blocked.toFixed(1) : '–'}</dd>
        </div>
        {shown &&
          STRUCTURE_READOUT.filter((r) => shown[r.key] !== undefined).map((r) => (
            <div key={r.key} data-testid={`readout-${r.key}`}>
              <dt>{r.label}</dt>
              <dd>{(shown[r.key] as number).toFixed(r.digits)}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}
