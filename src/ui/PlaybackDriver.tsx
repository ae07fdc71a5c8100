import { usePlaybackDriver } from './usePlayback';

/**
 * Runs the playback clock in a component of its own, which renders nothing: the clock's
 * subscriptions (tick, episode, latest update) then re-render only this, not the whole app with
 * every control in it, several times a second.
 */
export function PlaybackDriver() {
  usePlaybackDriver();
  return null;
}
