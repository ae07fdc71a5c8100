/** What one agent did in one minute of the logged rollout, or a module completing. */
export type EventKind =
  | 'work' // a minute of progress that counted
  | 'collide' // worked on a module someone else also worked on this minute: wasted
  | 'blocked' // worked on a module whose prerequisite interface it lacks: wasted
  | 'wasted' // worked on a finished or missing module, or a claim that lost
  | 'claim'
  | 'dm'
  | 'post'
  | 'read'
  | 'idle'
  | 'complete'; // a module finished (agent = the agent whose minute finished it)

export interface SimEvent {
  /** Minute the action was taken in (0-based). */
  t: number;
  agent: number;
  kind: EventKind;
  /** Module worked on, claimed or completed; -1 otherwise. */
  module: number;
  /** DM recipient; -1 otherwise. */
  target: number;
  /** dm/read: it handed over an interface that unblocks an unfinished module. post: anything new went up. */
  useful: boolean;
}
