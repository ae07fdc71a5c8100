import type { RunFile, TalkRecord } from '../core/runFormat';
import { coordination, type Coordination } from '../sim/coordination';

/** Most talk measurements the store keeps for a run (the oldest go first). */
export const MAX_TALK = 1000;

/**
 * `history` with measurement `r` added. Measurements of one trainer arrive in order of `updates`;
 * one at the same count replaces the newest (new weights loaded before any update), and one at a
 * lower count belongs to a new trainer (a reset), so it starts the history again.
 */
export function withTalk<T extends TalkRecord>(history: readonly T[], r: T): T[] {
  const last = history[history.length - 1];
  if (!last || r.updates > last.updates) return [...history.slice(Math.max(0, history.length + 1 - MAX_TALK)), r];
  if (r.updates === last.updates) return [...history.slice(0, -1), r];
  return [r];
}

/** The newest measurement taken at or before `updates` updates done (the newest of all when omitted). */
export function talkAt<T extends TalkRecord>(history: readonly T[], updates = Infinity): T | undefined {
  for (let i = history.length - 1; i >= 0; i--) if (history[i].updates <= updates) return history[i];
  return undefined;
}

/** The measurement a replay shows at recorded update position `index`: the newest taken by then. */
export function replayTalk(run: RunFile, index: number): TalkRecord | undefined {
  const m = run.metrics[Math.min(run.metrics.length - 1, Math.max(0, index))];
  if (!run.talk || !m) return undefined;
  return talkAt(run.talk, m.update + 1);
}

/**
 * The definition of coordination (sim/coordination.ts) applied to one measurement; null for a
 * measurement that cannot tell (recorded before its useful and duplicate work and the scripted
 * organisation's return on its tasks were kept, or not measured: NaN).
 */
export function talkCoordination(r: TalkRecord): Coordination | null {
  const { useful, duplicate, scripted } = r;
  if (useful === undefined || duplicate === undefined || scripted === undefined) return null;
  if (![r.ret, r.neededShare, useful, duplicate, scripted].every(Number.isFinite)) return null;
  return coordination({ ret: r.ret, neededShare: r.neededShare, useful, duplicate }, scripted);
}

/** The first measurement of `history` at which the swarm met the definition of coordination, if any. */
export function firstCoordinated<T extends TalkRecord>(history: readonly T[]): T | undefined {
  return history.find((r) => talkCoordination(r)?.met === true);
}
