import { useEffect, useRef, useState } from 'react';
import { formatDuration, RateMeter } from '../store/rate';
import { useApp, type AppState } from '../store/store';

/** How often the time left is redrawn between updates while training runs. */
const REDRAW_MS = 1000;

const selectTarget = (s: AppState) => s.config.prior + s.config.updates;
const selectCount = (s: AppState) => s.metrics.length;
const selectRunState = (s: AppState) => s.runState;
const selectReplaying = (s: AppState) => s.replay !== null;

/**
 * Updates per second (smoothed over the last several seconds of running) and the time left to the
 * configured number of updates, for the update readout. The meter follows the store through a
 * transient subscription and redraws once per update and once a second, not per frame.
 */
export function TrainingRate() {
  const meter = useRef<RateMeter | null>(null);
  meter.current ??= new RateMeter();
  // The clock the readout was last drawn at: set from the subscription and the timer, never read during render.
  const [now, setNow] = useState(0);
  const target = useApp(selectTarget);
  const count = useApp(selectCount);
  const state = useApp(selectRunState);
  const replaying = useApp(selectReplaying);

  useEffect(() => {
    const m = meter.current!;
    let prev = useApp.getState();
    if (prev.runState === 'running') m.start(performance.now(), prev.metrics.length);
    const unsubscribe = useApp.subscribe((s) => {
      const now = performance.now();
      if (s.runState !== prev.runState) {
        if (s.runState === 'running') m.start(now, s.metrics.length);
        else m.pause();
        setNow(now);
      } else if (s.metrics.length !== prev.metrics.length && !s.replay && !prev.replay) {
        m.observe(now, s.metrics.length);
        setNow(now);
      }
      prev = s;
    });
    const timer = setInterval(() => {
      if (useApp.getState().runState === 'running') setNow(performance.now());
    }, REDRAW_MS);
    return () => {
      unsubscribe();
      clearInterval(timer);
    };
  }, []);

  if (replaying) return null;
  const reading = meter.current.read(now, target);
  let rate: string;
  let eta: string;
  if (count >= target || state === 'finished') {
    rate = '–';
    eta = 'done';
  } else if (state !== 'running') {
    rate = count > 0 ? 'paused' : '–';
    eta = '–';
  } else if (reading.perSecond === null) {
    rate = 'measuring…';
    eta = '…';
  } else {
    rate = reading.perSecond.toFixed(reading.perSecond < 10 ? 2 : 1);
    eta = formatDuration(reading.etaSeconds ?? 0);
  }
  return (
    <>
      <div title="Training updates per second, over the last several seconds of training">
        <dt>updates / s</dt>
        <dd data-testid="update-rate">{rate}</dd>
      </div>
      <div title={`Time left to ${target} updates at the current speed`}>
        <dt>time left</dt>
        <dd data-testid="update-eta">{eta}</dd>
      </div>
    </>
  );
}
