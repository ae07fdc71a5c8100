import { selectPlaying, selectSpeed, useApp } from '../store/store';
import { SelectField } from './Fields';
import { clampTick, PLAYBACK_SPEEDS, speedLabel } from '../store/playback';
import type { Frame } from './usePlayback';

const SPEED_OPTIONS = PLAYBACK_SPEEDS.map(String);
const SPEED_LABELS = Object.fromEntries(PLAYBACK_SPEEDS.map((s) => [String(s), speedLabel(s)]));

/** Play / pause the showcase episode, its speed, and a scrubber over its minutes. */
export function PlaybackControls({ frame, newest }: { frame: Frame | null; newest: number }) {
  const playing = useApp(selectPlaying);
  const speed = useApp(selectSpeed);
  const tick = frame?.tick ?? 0;
  const length = frame?.length ?? 0;
  const shown = frame?.episode.metrics.update ?? -1;
  const setSpeed = (v: string) => {
    const s = useApp.getState();
    const next = Number(v);
    s.setSpeed(next);
    // A chosen speed replays the episode on screen from its start; "whole" shows it all at once.
    s.setTick(next === 0 ? length : 0);
    s.setPlaying(true);
  };
  const seek = (v: number) => {
    const s = useApp.getState();
    s.setPlaying(false);
    s.setTick(clampTick(v, length));
  };
  return (
    <div className="playback" role="group" aria-label="Episode playback">
      <button type="button" disabled={!frame} onClick={() => useApp.getState().setPlaying(!playing)} data-testid="playback-toggle">
        {playing ? 'Pause episode' : 'Play episode'}
      </button>
      <SelectField label="speed" value={String(speed)} options={SPEED_OPTIONS} labels={SPEED_LABELS} testId="playback-speed" onChange={setSpeed} />
      <label className="scrub">
        <span>minute</span>
        <input
          type="range"
          disabled={!frame}
          min={0}
          max={length}
          step={1}
          value={tick}
          onChange={(e) => seek(Number(e.currentTarget.value))}
          aria-valuetext={`minute ${tick} of ${length}`}
          data-testid="playback-tick"
        />
        <output data-testid="playback-minute">
          {tick}/{length}
        </output>
      </label>
      {frame && (
        <span className="playback-which" data-testid="playback-update">
          rollout of update {shown + 1}
          {newest > shown ? ` (training is at ${newest + 1})` : ''}
        </span>
      )}
    </div>
  );
}
