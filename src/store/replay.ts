import { episodeNear } from '../core/recorder';
import type { RunFile, ShowcaseEpisode } from '../core/runFormat';
import type { References } from '../rl/compare';
import type { UpdateMessage } from '../worker/protocol';

/** The recorded episode as the views take it: the message the worker sent after that update. */
export function episodeMessage(run: RunFile, ep: ShowcaseEpisode): UpdateMessage {
  const first = run.metrics[0]?.update ?? 0;
  const metrics = run.metrics[ep.update - first] ?? { ...run.metrics[run.metrics.length - 1], update: ep.update, tmax: ep.tmax };
  const message: UpdateMessage = { metrics, events: ep.events, modules: ep.modules, total: run.totalUpdates, references: ep.references };
  if (ep.structure) message.structure = ep.structure;
  return message;
}

/**
 * What the views show at recorded update `index` (position in `run.metrics`): that update's numbers,
 * with the recorded episode nearest to it. Null for a run without metrics.
 */
export function replayAt(run: RunFile, index: number): { last: UpdateMessage; episode: UpdateMessage | null } | null {
  if (!run.metrics.length) return null;
  const i = Math.min(run.metrics.length - 1, Math.max(0, Math.round(index)));
  const metrics = run.metrics[i];
  const ep = episodeNear(run, metrics.update);
  const episode = ep ? episodeMessage(run, ep) : null;
  const last: UpdateMessage = episode
    ? { ...episode, metrics }
    : { metrics, events: [], modules: [], total: run.totalUpdates, references: { chain: 0, bestOfN: 0, scripted: 0 } };
  return { last, episode };
}

/** The next recorded episode after update number `update`, if any. */
export function nextEpisode(run: RunFile, update: number): ShowcaseEpisode | undefined {
  return run.episodes.items.find((e) => e.update > update);
}

/** Position in `run.metrics` of update number `update` (clamped). */
export function metricsIndex(run: RunFile, update: number): number {
  const first = run.metrics[0]?.update ?? 0;
  return Math.min(run.metrics.length - 1, Math.max(0, update - first));
}

/** The reference organisations' returns by deadline, from the recorded episodes. */
export function recordedReferences(run: RunFile): Record<number, References> {
  const out: Record<number, References> = {};
  for (const e of run.episodes.items) out[e.tmax] ??= e.references;
  return out;
}
