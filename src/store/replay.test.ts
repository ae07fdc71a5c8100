import { describe, expect, it } from 'vitest';
import { fakeRun } from '../core/testing';
import { metricsIndex, nextEpisode, recordedReferences, replayAt } from './replay';

describe('replay helpers', () => {
  const run = fakeRun(6);

  it('shows an update with its own numbers and the nearest recorded episode', () => {
    const thinned = { ...run, episodes: { ...run.episodes, items: run.episodes.items.filter((e) => e.update % 3 === 0) } };
    const at = replayAt(thinned, 2)!;
    expect(at.last.metrics).toBe(thinned.metrics[2]);
    expect(at.episode?.metrics.update).toBe(3);
    expect(at.last.events).toBe(at.episode?.events);
    expect(replayAt(thinned, 99)!.last.metrics).toBe(thinned.metrics[5]);
    expect(replayAt({ ...run, metrics: [] }, 0)).toBeNull();
  });

  it('steps to the next recorded episode, finds metrics positions and collects the references', () => {
    expect(nextEpisode(run, 2)?.update).toBe(3);
    expect(nextEpisode(run, 5)).toBeUndefined();
    expect(metricsIndex(run, run.metrics[4].update)).toBe(4);
    expect(metricsIndex(run, -5)).toBe(0);
    const refs = recordedReferences(run);
    for (const e of run.episodes.items) expect(refs[e.tmax]).toBeDefined();
  });
});
