import { A_CLAIM, A_DM, A_POST, A_READ } from './actions';
import type { MinuteObserver } from './actionSource';
import type { SprintEnv } from './env';
import { MAX_MODULES as MM } from './task';

/**
 * What a team's deliveries (DMs and reads) were worth, summed over the rollouts it audits. A
 * delivery is *used* when its receiver later spends a minute on a module whose prerequisite's
 * interface the delivery brought it: the interface was built on, not just received. This is
 * stricter than the environment's `handoffs`, which counts a delivery of any interface an unfinished
 * module needs, whoever goes on to build that module.
 */
export interface TalkCounts {
  rollouts: number;
  dms: number;
  /** DMs that brought the receiver no interface it lacked. */
  dmsNothingNew: number;
  /** DMs whose receiver went on to work a module that needs an interface the DM brought it. */
  dmsUsed: number;
  /** DMs sent by an agent whose minute before went to a module that was still open (in the middle of it). */
  dmsMidModule: number;
  reads: number;
  readsNothingNew: number;
  readsUsed: number;
}

export function emptyTalkCounts(): TalkCounts {
  return { rollouts: 0, dms: 0, dmsNothingNew: 0, dmsUsed: 0, dmsMidModule: 0, reads: 0, readsNothingNew: 0, readsUsed: 0 };
}

interface Delivery {
  b: number;
  receiver: number;
  bits: number; // the interfaces it brought that the receiver lacked
  dm: boolean;
  used: boolean;
}

/**
 * Audits every minute a team plays (`minute` at the start of each with the actions about to be
 * stepped, `finish` once the episode is over; `observedSource` of actionSource.ts does the first two for a
 * source). Flat teams only, as the pile audit.
 */
export class TalkAudit implements MinuteObserver {
  private env: SprintEnv | null = null;
  private episode = -1; // env.episode of the episode being audited
  private open: Delivery[] = [];
  private previous = new Int32Array(0);

  constructor(readonly counts: TalkCounts) {}

  /** Starts auditing `env`, just reset. The episode audited before must have been finished. */
  begin(env: SprintEnv): void {
    if (this.env !== null) throw new Error('finish() the episode being audited before beginning another');
    if (env.rules !== null) throw new Error('the talk audit counts flat teams only (a structure rewrites actions)');
    this.env = env;
    this.episode = env.episode;
    this.open = [];
    this.previous = new Int32Array(env.B * env.N).fill(-1);
  }

  minute(env: SprintEnv, actions: Int32Array): void {
    if (env !== this.env || env.episode !== this.episode) this.begin(env);
    const N = env.N;
    const c = this.counts;
    // Minutes on a module whose prerequisite an earlier delivery brought: those deliveries were used.
    for (const d of this.open) {
      if (d.used || env.finished[d.b]) continue;
      const ai = d.b * N + d.receiver;
      const a = env.active[ai] ? actions[ai] : -1;
      if (a < 0 || a >= A_CLAIM) continue;
      const dep = env.dep[d.b * MM + a];
      if (dep >= 0 && ((d.bits >>> dep) & 1) === 1) {
        d.used = true;
        if (d.dm) c.dmsUsed++;
        else c.readsUsed++;
      }
    }
    this.open = this.open.filter((d) => !d.used);
    for (let b = 0; b < env.B; b++) {
      if (env.finished[b]) continue;
      for (let i = 0; i < N; i++) {
        const ai = b * N + i;
        if (!env.active[ai]) continue;
        const a = actions[ai];
        let bits: number;
        let receiver = i;
        if (a >= A_DM && a < A_POST) {
          receiver = a - A_DM;
          bits = env.known[ai] & ~env.known[b * N + receiver];
          c.dms++;
          if (bits === 0) c.dmsNothingNew++;
          const before = this.previous[ai];
          if (before >= 0 && before < A_CLAIM && ((env.done[b] >>> before) & 1) === 0) c.dmsMidModule++;
        } else if (a === A_READ) {
          bits = env.board[b] & ~env.known[ai];
          c.reads++;
          if (bits === 0) c.readsNothingNew++;
        } else continue;
        if (bits !== 0) this.open.push({ b, receiver, bits, dm: a !== A_READ, used: false });
      }
    }
    for (let r = 0; r < actions.length; r++) this.previous[r] = env.active[r] ? actions[r] : -1;
  }

  finish(): void {
    if (this.env === null) return;
    this.counts.rollouts += this.env.B;
    this.env = null;
    this.open = [];
  }
}
