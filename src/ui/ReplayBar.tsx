import { useEffect, useRef } from 'react';
import { selectActions, selectReplay, useApp } from '../store/store';
import { runs } from '../app/page';
import { canContinue } from '../app/runLibrary';
import { replayTimelapseSource } from './video/frameSource';
import { VideoExport } from './video/VideoExport';
import { EPISODE_VIEWS } from './video/views';
import { formatDateTime } from './dates';

/** Recorded updates per second of a timelapse video. */
const TIMELAPSE_SPEEDS = [2, 5, 10, 20, 50] as const;

/** Shown while a recorded run drives the views: which run, a scrubber over its updates, and the way back. */
export function ReplayBar() {
  const controls = useApp(selectActions);
  const replay = useApp(selectReplay);
  const seek = useApp((s) => s.seekUpdate);
  const bar = useRef<HTMLElement>(null);
  const opened = replay?.run;
  // A replay opened from the library (further down the page) brings the stage, replay bar on top, into view.
  useEffect(() => {
    if (opened)
      (bar.current?.closest('.screen') ?? bar.current)?.scrollIntoView({
        block: 'start',
        behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
      });
  }, [opened]);
  if (!replay) return null;
  const { run, index, id } = replay;
  const n = run.metrics.length;
  const m = run.metrics[index];
  const kept = run.episodes.items.length;
  const meta = `recorded ${formatDateTime(run.created)}, ${n} updates, ${kept} episodes kept${run.episodes.rule.stride > 1 ? ` (every ${run.episodes.rule.stride}th)` : ''}`;
  return (
    <section className="panel replay-bar" aria-label="Replay of a recorded run" data-testid="replay-bar" ref={bar}>
      <p className="replay-title" title={`${run.name} — ${meta}`}>
        <span className="replay-badge" data-testid="replay-badge">
          Replay
        </span>{' '}
        <span className="replay-name" data-testid="replay-name">
          {run.name}
        </span>
        <span className="replay-meta"> — {meta}</span>
      </p>
      <div className="replay-controls">
        <label className="scrub">
          <span>update</span>
          <input
            type="range"
            min={0}
            max={Math.max(0, n - 1)}
            step={1}
            value={index}
            onChange={(e) => {
              useApp.getState().setPlaying(false);
              seek(Number(e.currentTarget.value));
            }}
            aria-valuetext={m ? `update ${m.update + 1} of ${run.totalUpdates}` : 'no updates'}
            data-testid="replay-update"
          />
          <output data-testid="replay-update-label">{m ? `${m.update + 1} / ${run.totalUpdates}` : '–'}</output>
        </label>
        {canContinue(run) && (
          <button
            type="button"
            onClick={() => controls.continueFrom(run)}
            data-testid="replay-continue"
            title="Load this run's settings and its last weights and train on from there; the deadline schedule starts again from its beginning"
          >
            Train on from this swarm
          </button>
        )}
        {id === null && (
          <button type="button" onClick={() => void runs.keepRun(run)} data-testid="replay-keep">
            Save to library
          </button>
        )}
        <VideoExport
          source={replayTimelapseSource}
          views={EPISODE_VIEWS}
          speeds={TIMELAPSE_SPEEDS}
          speedUnit="updates/s"
          label="Export a timelapse"
          testId="timelapse-export"
        />
        <button type="button" onClick={controls.leaveReplay} data-testid="replay-leave">
          Back to live training
        </button>
      </div>
    </section>
  );
}
