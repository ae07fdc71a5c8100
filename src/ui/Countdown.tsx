import { scaleLinear } from 'd3';
import { teamAt } from '../rl/config';
import { selectConfig, selectLast, useApp } from '../store/store';
import type { StructureInfo } from '../core/runFormat';
import { Explain } from './Explain';
import { completionsByMinute, episodeSummary, scheduleStatus } from './feed';
import { placeLabels, textWidth } from './geometry';
import { PlaybackControls } from './PlaybackControls';
import { useFrame } from './usePlayback';
import './board.css';

/** One line on what the structure did in the rollout so far. */
export function structureLine(st: StructureInfo, tick: number, budget: number): string {
  if (st.kind === 'ceo') {
    const heads = st.headCount ?? [];
    const now = heads[Math.max(0, Math.min(heads.length, tick) - 1)] ?? 1;
    const spent = heads.slice(0, tick).reduce((a, b) => a + b, 0);
    return `Head count ${now}; ${spent} of ${budget} agent-minutes of budget spent.`;
  }
  if (st.kind === 'islands') {
    const n = new Set(st.islandOf ?? []).size;
    return `${n} islands, each on its own variant of the task; the best island's tests count.`;
  }
  const assigned = (st.assignment ?? []).filter((m, a) => a > 0 && m >= 0).length;
  return `Critical steps: ${st.criticalSteps ?? 0} (per stage, the orchestrator's minutes plus its slowest worker's); ${assigned} workers hold an assignment at the end.`;
}

/** The showcase rollout's clock against its deadline, and where training stands on the deadline schedule. */
export function Countdown() {
  const last = useApp(selectLast);
  const frame = useFrame(5); // shown 5 frames after the first episode appears, after the other episode views (useStaggeredStart)
  const liveConfig = useApp(selectConfig);
  // In a replay the schedule is the recorded run's, not the live settings'.
  const recorded = useApp((s) => s.replay?.run.config);
  const config = recorded ?? liveConfig;
  const presenter = useApp((s) => s.view.presenter);
  if (!last || !frame) {
    return (
      <section className="panel countdown" aria-labelledby="countdown-title" data-testid="countdown">
        <h2 id="countdown-title">Deadline</h2>
        <p className="empty">Start training to see the swarm race its deadline.</p>
        <PlaybackControls frame={null} newest={-1} />
      </section>
    );
  }
  const { metrics, total } = last;
  const { episode, tick, length, events } = frame;
  const { modules } = episode;
  const tmax = Math.max(1, episode.metrics.tmax);
  const s = episodeSummary(events, modules, tmax);
  const over = tick >= length;
  const sched = scheduleStatus(metrics.update, total, metrics.tmax, config.tmaxEnd, metrics.phase, {
    playing: teamAt(config, metrics.update),
    of: config.agents,
  });
  const summary = !over
    ? `Minute ${tick} of ${tmax}: ${s.modulesDone} of ${s.modulesTotal} modules done, ${Math.round(s.share * 100)}% of tests passing.`
    : s.finished
      ? `All ${s.modulesTotal} modules done: ${s.text} of ${tmax}.`
      : `${s.modulesDone} of ${s.modulesTotal} modules done: ${s.text}.`;

  const width = 340;
  const left = 8;
  const right = width - 8;
  const height = 66;
  const barY = 26;
  const barH = 14;
  const x = scaleLinear().domain([0, tmax]).range([left, right]);
  // Presenter mode's 16.5 px numbers need about 50 px each.
  const ticks = x.ticks(Math.min(tmax, presenter ? 6 : 12)).filter((v) => Number.isInteger(v));
  // Labels of modules finishing close together go on a second row, or (if that is full too) only in the mark's tooltip.
  const completed = completionsByMinute(s.completions).map((c) => ({
    minute: c.minute,
    text: `✓${c.modules.join(',')}`,
    title: `${c.modules.length > 1 ? 'modules' : 'module'} ${c.modules.join(', ')} finished by minute ${c.minute}`,
  }));
  // Presenter mode's labels are 16.5 px (about 18 of the clock's units): one row of them, spaced for that size.
  const lanes = placeLabels(
    completed.map((c) => ({ x: x(c.minute), width: textWidth(c.text, presenter ? 18 : 10) })),
    presenter ? 1 : 2,
  );

  return (
    <section className="panel countdown" aria-labelledby="countdown-title" data-testid="countdown">
      <h2 id="countdown-title">
        Deadline{' '}
        <Explain>
          The bar is the clock of one rollout from the latest update, from minute 0 to its deadline; it runs at the playback speed you choose, and you can drag
          it back to any minute. Each ✓ marks a module finishing. If every module finishes, the episode ends early at that minute; otherwise it is cut at the
          deadline and only the finished modules' tests count. Below: training grows the deadline over the updates, so early updates practise short sprints.
        </Explain>
      </h2>
      <p className="countdown-summary" data-testid="countdown-summary">
        {summary}
      </p>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Showcase rollout against a ${tmax}-minute deadline: ${summary}`}>
        <rect className="clock-track" x={left} y={barY} width={right - left} height={barH} />
        <rect
          className={s.finished ? 'clock-used finished' : 'clock-used'}
          x={left}
          y={barY}
          width={x(over ? s.end : tick) - left}
          height={barH}
          data-testid="clock-used"
        />
        {ticks.map((v) => (
          <g key={v}>
            <line className="grid" x1={x(v)} x2={x(v)} y1={barY + barH} y2={barY + barH + 4} />
            <text className="tick" x={x(v)} y={height - 4} textAnchor="middle">
              {v}
            </text>
          </g>
        ))}
        {completed.map((c, i) => (
          <g key={c.minute}>
            <line className="clock-mark" x1={x(c.minute)} x2={x(c.minute)} y1={barY - 2} y2={barY + barH + 2}>
              <title>{c.title}</title>
            </line>
            {lanes[i] >= 0 && (
              <text className="tick" x={x(c.minute)} y={barY - 5 - 10 * lanes[i]} textAnchor="middle" data-testid="clock-label">
                {c.text}
                <title>{c.title}</title>
              </text>
            )}
          </g>
        ))}
        <line className="clock-deadline" x1={x(tmax)} x2={x(tmax)} y1={barY - 4} y2={barY + barH + 4} />
      </svg>
      {episode.structure && (
        <p className="structure-line" data-testid="structure-line">
          {structureLine(episode.structure, tick, config.budget)}
        </p>
      )}
      <PlaybackControls frame={frame} newest={last.metrics.update} />
      <div className="schedule-status">
        <span data-testid="countdown-schedule">{sched.text}</span>
        <progress max={1} value={sched.progress} aria-label="Training progress" />
      </div>
    </section>
  );
}
