import { useEffect, useState } from 'react';
import { TimeLeftModel } from '../core/timeLeft';
import { formatDuration, RateMeter } from '../store/rate';
import { useApp, type AppState } from '../store/store';

/** How often the time left is redrawn between updates while training runs. */
const REDRAW_MS = 1000;

const selectTarget = (s: AppState) => s.config.prior + s.config.updates;
const selectCount = (s: AppState) => s.metrics.length;
const selectRunState = (s: AppState) => s.runState;
const selectReplaying = (s: AppState) => s.replay !== null;
const selectConfig = (s: AppState) => s.config;

/**
 * Updates per second (smoothed over the last several seconds of running) and the time left to the
 * configured number of updates, for the update readout. The time left is the measured cost of an
 * update, fitted as a fixed part plus a part per agent-minute, summed over the updates to come at
 * their deadlines (core/timeLeft.ts): the later, longer updates cost more than the current rate
 * says. Both follow the store through a transient subscription and redraw once per update and once
 * a second, not per frame.
 */
export function TrainingRate() {
  // One meter and one model for the component's life (state that never changes, read during render).
  const [meter] = useState(() => new RateMeter());
  const [model] = useState(() => new TimeLeftModel());
  // The clock the readout was last drawn at: set from the subscription and the timer, never read during render.
  const [now, setNow] = useState(0);
  const target = useApp(selectTarget);
  const count = useApp(selectCount);
  const state = useApp(selectRunState);
  const replaying = useApp(selectReplaying);
  const config = useApp(selectConfig);

  useEffect(() => {
    const m = meter;
    const left = model;
    let prev = useApp.getState();
    if (prev.runState === 'running') {
      m.start(performance.now(), prev.metrics.length);
      left.start(performance.now(), prev.metrics.length);
    }
    const unsubscribe = useApp.subscribe((s) => {
      const now = performance.now();
      if (s.runState !== prev.runState) {
        if (s.runState === 'running') {
          m.start(now, s.metrics.length);
          left.start(now, s.metrics.length);
        } else {
          m.pause();
          left.pause();
        }
        setNow(now);
      } else if (s.metrics.length !== prev.metrics.length && !s.replay && !prev.replay) {
        m.observe(now, s.metrics.length);
        left.observe(now, s.metrics.length, s.config);
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
  }, [meter, model]);

  if (replaying) return null;
  const reading = meter.read(now, target);
  // The time left sums the fitted cost of the updates to come, which grows with their deadline (core/timeLeft.ts).
  const secondsLeft = model.secondsLeft(now, target, config);
  let rate: string;
  let eta: string;
  if (count >= target || state === 'finished') {
    rate = '–';
    eta = 'done';
  } else if (state !== 'running') {
    rate = count > 0 ? 'paused' : '–';
    eta = '–';
  } else {
    rate = reading.perSecond === null ? 'measuring…' : reading.perSecond.toFixed(reading.perSecond < 10 ? 2 : 1);
    eta = secondsLeft === null ? '…' : formatDuration(secondsLeft);
  }
  return (
    <>
      <div title="Training updates per second, over the last several seconds of training">
        <dt>updates / s</dt>
        <dd data-testid="update-rate">{rate}</dd>
      </div>
      <div title={`Time left to ${target} updates: the measured cost of an update, which grows with its deadline, summed over the updates to come`}>
        <dt>time left</dt>
        <dd data-testid="update-eta">{eta}</dd>
      </div>
    </>
  );
}
