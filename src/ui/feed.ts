import type { EventKind, SimEvent } from '../sim/events';
import type { ModuleInfo } from '../worker/protocol';

/**
 * The event kinds the message board shows: the sanctioned board's and the DMs, the messages the
 * channel policy blocked (`attempt`), and the posts on the unofficial board (`side`, shown in a
 * column of their own).
 */
export type FeedKind = Extract<EventKind, 'post' | 'read' | 'claim' | 'dm' | 'complete' | 'attempt' | 'side'>;
const FEED_KINDS: ReadonlySet<EventKind> = new Set<EventKind>(['post', 'read', 'claim', 'dm', 'complete', 'attempt', 'side']);

/** One line of the message board. */
export interface FeedRow {
  /** Stable within an episode (the event's index in the log), for list keys. */
  key: number;
  /** Minute of the action (0-based), as in the event log. */
  t: number;
  /** "m07". */
  stamp: string;
  /** Author: the acting agent (for a completion, the agent whose minute finished the module). */
  agent: number;
  kind: FeedKind;
  /** DM recipient (or the agent a blocked DM was meant for), else -1. */
  target: number;
  module: number;
  useful: boolean;
  /** A post on the unofficial board that the monitor caught. */
  caught: boolean;
  /** Plain words, e.g. "claimed module 5". */
  text: string;
}

/** Minute stamp with at least two digits: 7 -> "m07". */
export function minuteStamp(t: number): string {
  return `m${String(t).padStart(2, '0')}`;
}

function rowText(e: SimEvent & { kind: FeedKind }): string {
  switch (e.kind) {
    case 'post':
      return e.useful ? 'posted its interfaces (new)' : 'posted its interfaces (nothing new)';
    case 'read':
      return e.useful ? 'read the board — got an interface it needed' : 'read the board — nothing it needed';
    case 'claim':
      return `claimed module ${e.module}`;
    case 'dm':
      return `sent its interfaces to agent ${e.target} ${e.useful ? '(unblocked)' : '(not needed)'}`;
    case 'complete':
      return `module ${e.module} finished`;
    case 'attempt':
      return `${e.target >= 0 ? `tried to message agent ${e.target}` : 'tried to post on the board'} — blocked by the channel policy, nothing delivered`;
    case 'side':
      return `posted its interfaces on the unofficial board ${e.useful ? '(unblocked someone)' : '(not needed)'}${e.caught ? ' — caught by the monitor' : ''}`;
  }
}

/** The message board of one rollout: posts, reads, claims, DMs and completions, oldest first (stable within a minute). */
export function feedRows(events: readonly SimEvent[]): FeedRow[] {
  return events
    .map((e, i) => ({ e, i }))
    .filter((x): x is { e: SimEvent & { kind: FeedKind }; i: number } => FEED_KINDS.has(x.e.kind))
    .sort((a, b) => a.e.t - b.e.t || a.i - b.i)
    .map(({ e, i }) => ({
      key: i,
      t: e.t,
      stamp: minuteStamp(e.t),
      agent: e.agent,
      kind: e.kind,
      target: e.target,
      module: e.module,
      useful: e.useful,
      caught: e.caught === true,
      text: rowText(e),
    }));
}

/** Rows that involve `agent`: what it did, and DMs sent (or blocked on their way) to it. `null` keeps every row. */
export function rowsForAgent(rows: readonly FeedRow[], agent: number | null): FeedRow[] {
  if (agent === null) return [...rows];
  return rows.filter((r) => r.agent === agent || ((r.kind === 'dm' || r.kind === 'attempt') && r.target === agent));
}

/** The rows of the unofficial board (`side`) apart from the rest: the sanctioned board, DMs and blocked attempts. */
export function splitSide(rows: readonly FeedRow[]): { sanctioned: FeedRow[]; side: FeedRow[] } {
  const sanctioned: FeedRow[] = [];
  const side: FeedRow[] = [];
  for (const r of rows) (r.kind === 'side' ? side : sanctioned).push(r);
  return { sanctioned, side };
}

/** How the showcase episode ended against its deadline. */
export interface EpisodeSummary {
  tmax: number;
  /** True when every module completed before the cut. */
  finished: boolean;
  /** Minute all tests passed (end of the last completion's minute), else tmax. */
  end: number;
  /** One entry per completion, in order: the minute it was done by (t + 1) and the module. */
  completions: { minute: number; module: number }[];
  modulesDone: number;
  modulesTotal: number;
  testsPassing: number;
  testsTotal: number;
  /** testsPassing / testsTotal (0 when there are no tests). */
  share: number;
  /** "finished at minute 9" or "cut at the deadline, 62% of tests passing". */
  text: string;
}

/** How far one module of the showcase rollout got by the end of the episode. */
export interface ModuleProgress {
  /** Minutes of work that counted (collisions excluded). */
  worked: number;
  done: boolean;
  /** Tests passing: all when done, in proportion to the work done otherwise (none for luck modules). */
  passing: number;
}

/** Per-module progress at the end of the showcase episode, replayed from its events. */
export function moduleProgress(events: readonly SimEvent[], modules: readonly ModuleInfo[]): ModuleProgress[] {
  const out = modules.map(() => ({ worked: 0, done: false, passing: 0 }));
  for (const e of events) {
    const m = out[e.module];
    if (!m) continue;
    if (e.kind === 'work') m.worked++;
    else if (e.kind === 'complete') m.done = true;
  }
  return out.map((m, k) => {
    const info = modules[k];
    const passing = m.done ? info.tests : info.luck || info.work <= 0 ? 0 : Math.floor((info.tests * Math.min(m.worked, info.work)) / info.work);
    return { ...m, passing };
  });
}

/** Whether the showcase rollout passed everything before `tmax`, and when; else how much passed at the cut. */
export function episodeSummary(events: readonly SimEvent[], modules: readonly ModuleInfo[], tmax: number): EpisodeSummary {
  const seen = new Set<number>();
  const completions: { minute: number; module: number }[] = [];
  for (const e of events) {
    if (e.kind !== 'complete' || seen.has(e.module) || e.module < 0 || e.module >= modules.length) continue;
    seen.add(e.module);
    completions.push({ minute: e.t + 1, module: e.module });
  }
  completions.sort((a, b) => a.minute - b.minute);
  const testsTotal = modules.reduce((a, m) => a + m.tests, 0);
  const testsPassing = moduleProgress(events, modules).reduce((a, m) => a + m.passing, 0);
  const share = testsTotal > 0 ? testsPassing / testsTotal : 0;
  const finished = modules.length > 0 && seen.size >= modules.length;
  const end = finished ? Math.max(0, ...completions.map((c) => c.minute)) : tmax;
  const text = finished ? `finished at minute ${end}` : `cut at the deadline, ${Math.round(share * 100)}% of tests passing`;
  return { tmax, finished, end, completions, modulesDone: seen.size, modulesTotal: modules.length, testsPassing, testsTotal, share, text };
}

/**
 * Where training stands on the deadline schedule, for the Countdown's second line; with `team`,
 * the agents that played the update out of the whole team, said while the team schedule still
 * grows it (rl/config.ts `teamAt`).
 */
export function scheduleStatus(
  update: number,
  total: number,
  tmaxNow: number,
  tmaxEnd: number,
  phase: 'prior' | 'rlcr',
  team?: { playing: number; of: number },
): { text: string; progress: number } {
  const shown = update + 1;
  const progress = total > 0 ? Math.min(1, Math.max(0, shown / total)) : 0;
  const head = `update ${shown} of ${total}`;
  const growing = team && team.playing < team.of ? `; ${team.playing} of ${team.of} agents playing, the team growing` : '';
  if (phase === 'prior') return { text: `${head} — imitating the scripted organisation at a deadline of ${tmaxNow} min`, progress };
  if (tmaxNow === tmaxEnd) return { text: `${head} — deadline ${tmaxNow} min${shown >= total ? ' (final)' : ''}${growing}`, progress };
  return { text: `${head} — deadline now ${tmaxNow} min, ${tmaxEnd > tmaxNow ? 'growing' : 'shrinking'} to ${tmaxEnd}${growing}`, progress };
}

/** Completions grouped by minute, modules in order: one "✓3,7" label per minute instead of overlapping ones. */
export function completionsByMinute(completions: readonly { minute: number; module: number }[]): { minute: number; modules: number[] }[] {
  const by = new Map<number, number[]>();
  for (const c of completions) by.set(c.minute, [...(by.get(c.minute) ?? []), c.module]);
  return [...by].sort((a, b) => a[0] - b[0]).map(([minute, modules]) => ({ minute, modules: modules.sort((a, b) => a - b) }));
}
