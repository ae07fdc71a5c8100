/**
 * Marks on the training curve for what changed during a run: a setting (which one, from what to
 * what) or the phase (the imitation prior ending and RLCR starting). Without them a longer deadline
 * or the end of the prior looks like the swarm learning or forgetting.
 */
import { CONFIG_KEYS, type Config } from '../rl/config';
import type { UpdateMetrics } from '../rl/metrics';
import type { ConfigChange } from '../core/runFormat';

export interface CurveMarker {
  /** The first update (0-based) that ran after the change. */
  update: number;
  kind: 'setting' | 'phase';
  /** Short text for the chart, e.g. "deadline start 8 → 20". */
  label: string;
}

/** Plain names for the settings people change mid-run; the rest show their key. */
const NAMES: Partial<Record<keyof Config, string>> = {
  tmaxStart: 'deadline start',
  tmaxEnd: 'deadline end',
  tmaxWarmup: 'deadline warm-up',
  tmaxShape: 'deadline shape',
  lr: 'learning rate',
  entropy: 'entropy bonus',
  advantage: 'advantage',
  latencyPenalty: 'latency penalty',
  critic: 'critic + GAE',
  rewards: 'rewards',
  gamma: 'γ',
  lambda: 'λ',
};

function show(v: unknown): string {
  return typeof v === 'number' ? String(Number(v.toPrecision(4))) : String(v);
}

/** One marker per setting that differs between `before` and `after`, at `update`. */
export function settingMarkers(before: Config, after: Config, update: number): CurveMarker[] {
  const out: CurveMarker[] = [];
  for (const k of CONFIG_KEYS) {
    if (before[k] === after[k]) continue;
    out.push({ update, kind: 'setting', label: `${NAMES[k] ?? k} ${show(before[k])} → ${show(after[k])}` });
  }
  return out;
}

/** A marker where the recorded phase changes (imitation prior → RLCR), with the deadline RLCR starts at. */
export function phaseMarkers(metrics: readonly UpdateMetrics[]): CurveMarker[] {
  const out: CurveMarker[] = [];
  for (let i = 1; i < metrics.length; i++) {
    const a = metrics[i - 1];
    const b = metrics[i];
    if (a.phase === b.phase) continue;
    const label = b.phase === 'rlcr' ? `prior (copying) ends, RLCR starts (deadline ${a.tmax} → ${b.tmax} min)` : 'imitation prior starts';
    out.push({ update: b.update, kind: 'phase', label });
  }
  return out;
}

/** The setting markers of a recorded run, from its first config and its recorded changes. */
export function recordedMarkers(first: Config, changes: readonly ConfigChange[]): CurveMarker[] {
  const out: CurveMarker[] = [];
  let before = first;
  for (const c of changes) {
    out.push(...settingMarkers(before, c.config, c.update));
    before = c.config;
  }
  return out;
}

/**
 * The position (index into `metrics`, in update order) of the first update at or after `update`,
 * or -1 if none: a binary search, so placing the markers costs the same however long the run is.
 */
export function markerIndex(metrics: readonly UpdateMetrics[], update: number): number {
  let lo = 0;
  let hi = metrics.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (metrics[mid].update >= update) hi = mid;
    else lo = mid + 1;
  }
  return lo < metrics.length ? lo : -1;
}
