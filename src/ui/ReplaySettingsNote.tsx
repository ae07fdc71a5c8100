import type { Config } from '../rl/config';
import { useApp } from '../store/store';

type Part = 'settings' | 'schedule';

/**
 * What a replayed run was trained with, in words, for the settings panel or the deadline schedule's
 * (rendered as text: a run file's fields are data).
 */
export function replaySettingsText(part: Part, c: Pick<Config, 'family' | 'agents' | 'tmaxStart' | 'tmaxEnd' | 'updates'>): string {
  return part === 'settings'
    ? `The replayed run was trained on ${c.family} tasks with ${c.agents} agents. These settings are the ones live training will use; Train on from this swarm takes the run’s.`
    : `The replayed run’s deadline went from ${c.tmaxStart} to ${c.tmaxEnd} minutes over ${c.updates} updates; the chart is live training’s.`;
}

/** During a replay, the replayed run's own settings beside the live ones (nothing when not replaying). */
export function ReplaySettingsNote({ part }: { part: Part }) {
  const config = useApp((s) => s.replay?.run.config ?? null);
  if (config === null) return null;
  return (
    <p className="replay-settings" role="note" data-testid={`${part}-replay-note`}>
      {replaySettingsText(part, config)}
    </p>
  );
}
