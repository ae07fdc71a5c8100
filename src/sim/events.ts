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
  | 'complete' // a module finished (agent = the agent whose minute finished it)
  | 'hire' // CEO structure: agent 0 activated `target` (it acts from the next minute on)
  | 'fire' // CEO structure: agent 0 deactivated `target` (from the next minute on)
  | 'assign' // orchestrator structure: agent 0 handed `module` (its claim) and its interfaces to `target`
  | 'attempt' // a DM to `target` (-1: a post) the channel policy does not allow: the minute is lost, nothing delivered
  | 'side'; // a post on the unofficial board: it reached every active teammate

export interface SimEvent {
  /** Minute the action was taken in (0-based). */
  t: number;
  /** The acting agent; under the islands structure its id in the whole swarm (islands are numbered in order). */
  agent: number;
  kind: EventKind;
  /** Module worked on, claimed, completed or assigned; -1 otherwise. */
  module: number;
  /** DM recipient, or the agent hired, fired or assigned to; -1 otherwise. */
  target: number;
  /**
   * dm/assign/read: it handed over an interface that unblocks an unfinished module. post: anything
   * new went up. side: it handed over an interface that unblocks an unfinished module. hire/fire:
   * always true.
   */
  useful: boolean;
  /** dm/assign/post/side/attempt: the interfaces the message carried (a bitmask over modules); absent in older run files. */
  carried?: number;
  /** side: the monitor caught the post (absent: not caught). */
  caught?: boolean;
}
