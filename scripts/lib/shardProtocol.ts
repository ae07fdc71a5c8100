import type { EpisodeStats } from '../../src/sim/episodeStats';
import type { ShardPart } from '../../src/rl/shards';

/** What this thread sends a shard's worker thread (scripts/lib/shardThreads.ts). */
export type ToShard = { kind: 'step' } | { kind: 'reduced'; part: ShardPart } | { kind: 'gathered'; stats: EpisodeStats[] };

/** What a shard's worker thread sends back. */
export type FromShard =
  { kind: 'stepped' } | { kind: 'reduce'; part: ShardPart } | { kind: 'gather'; stats: EpisodeStats[] } | { kind: 'error'; message: string };
