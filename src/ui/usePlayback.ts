import { useEffect, useMemo, useRef, useState } from 'react';
import type { SimEvent } from '../sim/events';
import { selectEpisode, selectLast, selectPlaying, selectSpeed, selectTick, useApp } from '../store/store';
import type { UpdateMessage } from '../worker/protocol';
import { END_HOLD_MS, episodeLength, eventsBefore, minuteMs } from '../store/playback';
import { beforeNextFrame } from '../app/session';

/** Where no frames come (a hidden tab), a staggered view waits this long per frame instead. */
const STAGGER_FALLBACK_MS = 50;

/** At speed 0 (whole episodes) the views follow new updates at most this often: they redraw hundreds of elements. */
export const WHOLE_INTERVAL_MS = 1000;

/**
 * Runs the showcase playback clock (mount once: PlaybackDriver): advances the tick one simulated
 * minute at a time at the chosen speed, holds the end of an episode for a moment, then moves on to
 * the latest update's episode. Paused, it holds still whatever training does.
 */
export function usePlaybackDriver(): void {
  const last = useApp(selectLast);
  const episode = useApp(selectEpisode);
  const tick = useApp(selectTick);
  const playing = useApp(selectPlaying);
  const speed = useApp(selectSpeed);
  const replaying = useApp((s) => s.replay !== null);
  const shownAt = useRef(0);
  const endAt = useRef<number | null>(null);
  const length = episode ? episodeLength(episode) : 0;

  // The clock: one minute per tick. Independent of new updates, so their rate cannot stall it.
  useEffect(() => {
    if (!episode || !playing) return;
    if (speed === 0) {
      if (tick < length) useApp.getState().setTick(length);
      return;
    }
    if (tick >= length) {
      endAt.current ??= performance.now();
      return;
    }
    endAt.current = null;
    const timer = setTimeout(() => useApp.getState().setTick(tick + 1), minuteMs(speed));
    return () => clearTimeout(timer);
  }, [episode, tick, playing, speed, length]);

  // The next episode: the first one right away; later ones once the shown one has played out.
  useEffect(() => {
    const put = (u: UpdateMessage) => {
      shownAt.current = performance.now();
      endAt.current = null;
      const s = useApp.getState();
      s.showEpisode(u, s.speed === 0 ? episodeLength(u) : 0);
    };
    if (replaying) {
      // A replay moves on through the recorded episodes, and stops at the last one.
      if (!episode || !playing || tick < length) return;
      const now = performance.now();
      if (endAt.current === null) endAt.current = now;
      const timer = setTimeout(
        () => {
          endAt.current = null;
          if (!useApp.getState().nextReplayEpisode()) useApp.getState().setPlaying(false);
        },
        Math.max(0, endAt.current + (speed === 0 ? WHOLE_INTERVAL_MS : END_HOLD_MS) - now),
      );
      return () => clearTimeout(timer);
    }
    if (!last || last === episode) return;
    if (!episode) {
      // In a task of its own: the first update also mounts every chart, and together they made a long task.
      const timer = setTimeout(() => put(last), 0);
      return () => clearTimeout(timer);
    }
    if (!playing || tick < length) return;
    const now = performance.now();
    if (endAt.current === null) endAt.current = now;
    const wait = speed === 0 ? shownAt.current + WHOLE_INTERVAL_MS - now : endAt.current + END_HOLD_MS - now;
    const timer = setTimeout(() => put(last), Math.max(0, wait));
    return () => clearTimeout(timer);
  }, [last, episode, tick, playing, speed, length, replaying]);
}

/** What the episode views draw: the episode on screen, the clock, and the events before it. */
export interface Frame {
  episode: UpdateMessage;
  tick: number;
  /** Minutes the episode lasts (finished early, or its deadline). */
  length: number;
  /** Events of the minutes before the clock. */
  events: SimEvent[];
}

/**
 * Whether a view shows the episode yet: at once, except when the first episode of a run appears
 * (none before), then after `frames` animation frames. The episode views are given different
 * counts, so their first, heaviest render (every element created at once, in code the JIT has not
 * warmed) is spread over a few frames instead of one long task as training starts.
 */
export function useStaggeredStart(present: boolean, frames: number): boolean {
  const [ready, setReady] = useState(present || frames <= 0);
  const [wasPresent, setWasPresent] = useState(present);
  if (present !== wasPresent) {
    // The run was reset or replaced (no episode now): its next first episode is spread out again.
    setWasPresent(present);
    if (!present && frames > 0) setReady(false);
  }
  useEffect(() => {
    if (!present || ready) return;
    let left = frames;
    // A short fallback: the video exporter reads the views in a tab that may draw no frames.
    let cancel = beforeNextFrame(function step() {
      if (--left <= 0) setReady(true);
      else cancel = beforeNextFrame(step, STAGGER_FALLBACK_MS);
    }, STAGGER_FALLBACK_MS);
    return () => cancel();
  }, [present, frames, ready]);
  return present && ready;
}

/**
 * The current playback frame, or null before the first update. `stagger`: animation frames this
 * view waits before it shows the first episode of a run (useStaggeredStart).
 */
export function useFrame(stagger = 0): Frame | null {
  const episode = useApp(selectEpisode);
  const tick = useApp(selectTick);
  const shown = useStaggeredStart(episode !== null, stagger);
  return useMemo(() => {
    if (!episode || !shown) return null;
    const length = episodeLength(episode);
    const t = Math.min(tick, length);
    return { episode, tick: t, length, events: t >= length ? episode.events : eventsBefore(episode.events, t) };
  }, [episode, tick, shown]);
}
