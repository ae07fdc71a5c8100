import { episodeLength } from '../../store/playback';
import { useApp } from '../../store/store';

/**
 * What the video exporter drives: a sequence of frames, each put on screen on request. The exporter
 * does not care where frames come from (the showcase episode, a recorded run); it calls `show(i)`
 * for i = 0 .. frames - 1 in order, then rasterises what the page shows.
 */
export interface FrameSource {
  /** Frames in the video. */
  readonly frames: number;
  /** Frames per second of the video. */
  readonly fps: number;
  /** What the video shows, in words for its header (e.g. "rollout of update 12"). */
  readonly title: string;
  /** The update (1-based) whose rollout it plays, for an episode's video. */
  readonly update?: number;
  /** File name without extension (e.g. "swarm-episode-update-12"). */
  readonly fileStem: string;
  /** What frame `i` shows, for the video's header (e.g. "minute 5 of 24"). */
  caption(i: number): string;
  /**
   * Puts frame `i` on screen (drives the store) and resolves once React has rendered it. Making a
   * source changes nothing on the page; the first `show` may (e.g. pause playback).
   */
  show(i: number): Promise<void>;
  /** Called once when the export ends (done, failed or cancelled): undo what `show` changed. */
  release(): void;
}

/** How a source plays simulated minutes: `speed` minutes per second of video at `fps`. */
export interface FrameTiming {
  speed: number;
  fps: number;
  /** Seconds the last minute stays on screen at the end (at least one frame). */
  holdSeconds?: number;
}

/** Default frame rate of exported videos. */
export const VIDEO_FPS = 30;
/** Default hold on the last minute of an episode, in seconds. */
export const END_HOLD_SECONDS = 1;

/** Frames per simulated minute at `speed` minutes per second and `fps` frames per second. */
export function framesPerMinute(speed: number, fps: number): number {
  return fps / Math.max(1e-3, speed);
}

/** Frames of the end hold: `holdSeconds` of video, at least one frame. */
export function holdFrames(fps: number, holdSeconds = END_HOLD_SECONDS): number {
  return Math.max(1, Math.round(holdSeconds * fps));
}

/**
 * Frames needed to play minutes 0 .. `minutes` of an episode and then hold the last one: the clock
 * reaches `minutes` at frame ceil(minutes * frames per minute), which starts the hold.
 */
export function episodeFrameCount(minutes: number, timing: FrameTiming): number {
  const run = Math.ceil(Math.max(0, minutes) * framesPerMinute(timing.speed, timing.fps) - 1e-9);
  return run + holdFrames(timing.fps, timing.holdSeconds);
}

/** The simulated minute (the playback tick) frame `i` shows: whole minutes, capped at `minutes`. */
export function tickAtFrame(i: number, minutes: number, timing: FrameTiming): number {
  return Math.min(minutes, Math.floor((i * Math.max(1e-3, timing.speed)) / timing.fps + 1e-9));
}

/** Resolves after the next macrotask: by then React has committed a store update (it renders those in a microtask). */
function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves once the page shows the latest store state: two macrotasks, the second for work that
 * effects of the render scheduled. Not `requestAnimationFrame`: the exporter reads the DOM, not the
 * screen, so it need not wait for paints, and a background tab (no animation frames) keeps exporting.
 */
export async function afterRender(): Promise<void> {
  await macrotask();
  await macrotask();
}

/**
 * The showcase episode on screen now, played minute by minute at `timing.speed` simulated minutes per
 * second and held for a moment at its end; null when no episode is on screen. Pauses playback while
 * it records and puts playback back as it was on `release`.
 */
export function episodeFrameSource(timing: FrameTiming): FrameSource | null {
  const start = useApp.getState();
  const episode = start.episode;
  if (!episode) return null;
  const minutes = episodeLength(episode);
  const update = episode.metrics.update + 1;
  const before = { playing: start.playing, tick: start.tick };
  let paused = false;
  return {
    frames: episodeFrameCount(minutes, timing),
    fps: timing.fps,
    title: `rollout of update ${update}`,
    update,
    fileStem: `swarm-episode-update-${update}`,
    caption: (i) => `minute ${tickAtFrame(i, minutes, timing)} of ${minutes}`,
    async show(i) {
      const s = useApp.getState();
      const first = !paused;
      if (first) {
        s.setPlaying(false);
        paused = true;
      }
      const tick = tickAtFrame(i, minutes, timing);
      // Most frames repeat the minute before: the page already shows them.
      if (!first && s.episode === episode && s.tick === tick) return;
      if (s.episode !== episode) s.showEpisode(episode, tick);
      else if (s.tick !== tick) s.setTick(tick);
      await afterRender();
    },
    release() {
      if (!paused) return;
      const s = useApp.getState();
      if (s.episode === episode) s.setTick(before.tick);
      s.setPlaying(before.playing);
    },
  };
}

/**
 * A timelapse of the recorded run in replay: the updates one after another at `speed` recorded
 * updates per second of video, each with its episode shown whole, then a hold on the last one.
 */
export function replayTimelapseSource(timing: FrameTiming): FrameSource | null {
  const start = useApp.getState();
  const replay = start.replay;
  if (!replay || replay.run.metrics.length === 0) return null;
  const { run } = replay;
  const n = run.metrics.length;
  const before = { index: replay.index, playing: start.playing };
  const indexAt = (i: number) => Math.min(n - 1, Math.floor((i * Math.max(1e-3, timing.speed)) / timing.fps + 1e-9));
  let paused = false;
  return {
    frames: Math.ceil((n / Math.max(1e-3, timing.speed)) * timing.fps - 1e-9) + holdFrames(timing.fps, timing.holdSeconds),
    fps: timing.fps,
    title: `${run.name}: training timelapse`,
    fileStem: `swarm-timelapse-${run.created.slice(0, 10)}`,
    caption: (i) => `update ${run.metrics[indexAt(i)].update + 1} of ${run.totalUpdates}`,
    async show(i) {
      const s = useApp.getState();
      if (!s.replay || s.replay.run !== run) throw new Error('the replay was closed during the export');
      const first = !paused;
      if (first) {
        s.setPlaying(false);
        paused = true;
      }
      const index = indexAt(i);
      if (!first && s.replay.index === index) return;
      s.seekUpdate(index);
      await afterRender();
    },
    release() {
      if (!paused) return;
      const s = useApp.getState();
      if (s.replay?.run === run) s.seekUpdate(before.index);
      s.setPlaying(before.playing);
    },
  };
}
