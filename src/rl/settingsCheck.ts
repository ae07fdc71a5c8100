/**
 * Settings that cannot train, or would train nothing, found before training starts: a run too large
 * for memory is refused with the setting to lower; a shrinking deadline, an entropy bonus of 0 or a
 * warm-up that lasts the whole run are explained. Pure: no TF.js.
 */
import { MAX_AGENTS, MAX_MODULES } from '../sim/task';
import type { Config } from './config';

/** Memory one update may use before it is refused: the 4 GB a wasm backend can address, less room for the rest. */
export const MEMORY_LIMIT_BYTES = 3.5 * 2 ** 30;
/** Above this estimate a warning says the update will be heavy. */
export const MEMORY_WARN_BYTES = 1.5 * 2 ** 30;

/**
 * Most decisions one update can collect and learn from: every agent of every rollout, every minute
 * up to the longer deadline (an episode that finishes early makes fewer).
 */
export function decisionsPerUpdate(c: Pick<Config, 'tasksPerUpdate' | 'groupSize' | 'agents' | 'tmaxStart' | 'tmaxEnd'>): number {
  return c.tasksPerUpdate * c.groupSize * c.agents * Math.max(c.tmaxStart, c.tmaxEnd);
}

/**
 * Estimated peak memory of one update, in bytes: 200 MB of runtime, plus per decision 23 KB and
 * 44 bytes per unit of width (hidden + (modules + agents) x scorer). The constants are fitted to the
 * peak resident memory of one update on the wasm backend in Node (docs/HISTORY.md, "Hardening (issue 26)"):
 * about 64 KB a decision at hidden 64 / scorer 32, 350 KB at 512 / 256, 16 agents (measured with
 * scripts/commands/checks/update-memory.ts).
 */
export function estimateUpdateBytes(c: Pick<Config, 'tasksPerUpdate' | 'groupSize' | 'agents' | 'tmaxStart' | 'tmaxEnd' | 'hidden' | 'scorer'>): number {
  const width = c.hidden + (MAX_MODULES + Math.min(c.agents, MAX_AGENTS)) * c.scorer;
  return 200 * 2 ** 20 + decisionsPerUpdate(c) * (23 * 1024 + 44 * width);
}

/** What stands in the way of a run: `errors` refuse it, `warnings` explain what it will (not) learn. */
export interface SettingsReport {
  errors: string[];
  warnings: string[];
}

/** A setting as the app's settings panel names it: tasksPerUpdate -> "tasks per update". */
export function settingLabel(key: keyof Config): string {
  return `"${key.replace(/[A-Z]/g, (c) => ' ' + c.toLowerCase())}"`;
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 10 * 2 ** 30 ? 1 : 0)} GB`;

/** Checks `c` before training; `flag` names a setting as the caller's user knows it (CLI flag or slider). */
export function checkSettings(c: Config, flag: (key: keyof Config) => string = (k) => k): SettingsReport {
  const errors: string[] = [];
  const warnings: string[] = [];
  const bytes = estimateUpdateBytes(c);
  if (bytes > MEMORY_LIMIT_BYTES) {
    // The factor that brings the estimate under the limit, applied to the largest lever first.
    const factor = bytes / MEMORY_LIMIT_BYTES;
    const rollouts = c.tasksPerUpdate * c.groupSize;
    const advice =
      rollouts > 8
        ? `lower ${flag('tasksPerUpdate')} (${c.tasksPerUpdate}) or ${flag('groupSize')} (${c.groupSize}) so that they make at most ${Math.max(1, Math.floor(rollouts / factor))} rollouts per update instead of ${rollouts}`
        : c.hidden > 64 || c.scorer > 32
          ? `lower ${flag('hidden')} (${c.hidden}) and ${flag('scorer')} (${c.scorer})`
          : `lower ${flag('agents')} (${c.agents}) or the deadline (${Math.max(c.tmaxStart, c.tmaxEnd)} minutes)`;
    errors.push(
      `These settings need about ${gb(bytes)} of memory in one update (up to ${decisionsPerUpdate(c).toLocaleString('en')} decisions at hidden ${c.hidden} / scorer ${c.scorer}), more than the ${gb(MEMORY_LIMIT_BYTES)} training can use: ${advice}.`,
    );
  } else if (bytes > MEMORY_WARN_BYTES) {
    warnings.push(
      `One update may need about ${gb(bytes)} of memory; a browser tab may run out. Fewer rollouts per update (${flag('tasksPerUpdate')} x ${flag('groupSize')}) make it lighter.`,
    );
  }
  if (c.tmaxStart > c.tmaxEnd)
    warnings.push(
      `The deadline shrinks from ${c.tmaxStart} to ${c.tmaxEnd} minutes over training. RLCR grows it (short deadlines teach short coordination first); a shrinking one is only meant as an ablation.`,
    );
  if (c.entropy === 0)
    warnings.push(
      `The entropy bonus (${flag('entropy')}) is 0: nothing keeps the policy from collapsing onto one action, and once it has, entropy, loss and gradient are 0 and training changes nothing.`,
    );
  if (c.tmaxStart !== c.tmaxEnd && c.tmaxWarmup >= c.updates)
    warnings.push(`The deadline never grows: its warm-up (${c.tmaxWarmup} updates) lasts the whole run of ${c.updates} updates.`);
  if (c.teamStart > 0 && c.structure !== 'flat')
    warnings.push(
      `The team grows (${flag('teamStart')} ${c.teamStart}) only in the flat structure; under ${c.structure} the whole team plays from the first update.`,
    );
  else if (c.teamStart >= c.agents) warnings.push(`The team does not grow: ${flag('teamStart')} (${c.teamStart}) is already the whole team of ${c.agents}.`);
  else if (c.teamStart > 0 && c.teamRamp >= c.updates)
    warnings.push(`The whole team never plays in training: ${flag('teamRamp')} (${c.teamRamp}) is after the last update; evaluation plays all ${c.agents}.`);
  if (c.structure === 'orchestrator' && c.workerPolicy === 'snapshot' && c.snapshotAt >= c.prior + c.updates)
    warnings.push(`The workers are never frozen: ${flag('snapshotAt')} (${c.snapshotAt}) is after the last update.`);
  return { errors, warnings };
}
