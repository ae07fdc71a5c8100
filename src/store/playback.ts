import { episodeTicks } from '../core/recorder';
import type { SimEvent } from '../sim/events';
import type { ModuleInfo } from '../worker/protocol';

/** Playback speeds in simulated minutes per second; 0 shows each episode whole at once. */
export const PLAYBACK_SPEEDS = [0, 1, 2, 4, 8, 16] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];
/** How long the end of an episode stays on screen before the next one starts. */
export const END_HOLD_MS = 1500;

/** "whole episode", "4 min/s". */
export function speedLabel(speed: number): string {
  return speed === 0 ? 'whole episode' : `${speed} min/s`;
}

/** The episode an update's showcase rollout played: its events, modules and deadline. */
export interface EpisodeLike {
  events: readonly SimEvent[];
  modules: readonly ModuleInfo[];
  metrics: { tmax: number };
}

/**
 * Minutes the episode lasted (at least 1): up to the minute its last module finished when every
 * module did, else its deadline. Playback runs from 0 to this.
 */
export function episodeLength(ep: EpisodeLike): number {
  return Math.max(1, episodeTicks({ tmax: Math.max(1, ep.metrics.tmax), events: ep.events as SimEvent[], modules: ep.modules as ModuleInfo[] }));
}

/** The events of the minutes before `tick` (the clock reads `tick` minutes): what has happened so far. */
export function eventsBefore(events: readonly SimEvent[], tick: number): SimEvent[] {
  return events.filter((e) => e.t < tick);
}

/** Clamps a scrubber position into the episode. */
export function clampTick(tick: number, length: number): number {
  if (!Number.isFinite(tick)) return length;
  return Math.min(length, Math.max(0, Math.round(tick)));
}

/** Milliseconds per simulated minute at `speed` (speed > 0). */
export function minuteMs(speed: number): number {
  return 1000 / Math.max(1e-3, speed);
}
