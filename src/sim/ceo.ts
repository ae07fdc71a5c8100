import { A_DM, A_POST } from './actions';
import { obeyChannels } from './obeyChannels';
import { scriptedOrganisation } from './baselines';
import { playedLastMinute, type SprintEnv, type StructureRules } from './env';
import { G_MINUTES_LEFT, OBS_DIM } from './observe';
import type { ActionSource } from './actionSource';
import { MAX_MODULES } from './task';

/**
 * The CEO structure (Avalon-M1): agent 0 starts alone and hires (activates) and fires (deactivates)
 * the others; a compute budget in agent-minutes bounds the run.
 * - Agent 0's `dm j` means "hire j" if j is inactive and "fire j" if j is active. It takes agent
 *   0's minute and takes effect from the next minute on. Agent 0 cannot message anyone otherwise
 *   (it can still post, read, claim and work).
 * - Every active agent spends one agent-minute of the budget per minute played.
 * - A hire is legal only if the budget pays for this minute of the current team and at least one
 *   more minute of the enlarged team; so the spend never exceeds the budget.
 * - The rollout ends (like the deadline cut) as soon as the rest of the budget cannot pay a minute
 *   of the active team, or at the deadline, whichever comes first.
 * - A fired agent gives up its claims; it keeps what it knew if hired again.
 * - Observation: the "minutes left" feature counts the minutes the budget still pays for at the
 *   current head count, if fewer than the minutes to the deadline.
 */
export class CeoRules implements StructureRules {
  readonly kind = 'ceo' as const;
  /** Agent-minutes per rollout; may change between episodes. */
  budget: number;
  /** Agent-minutes spent so far, per rollout. */
  spent = new Float32Array(0);
  /** Active agents now, per rollout. */
  head = new Int32Array(0);
  hires = new Float32Array(0);
  fires = new Float32Array(0);
  /** Sum over minutes played of the active head count, per rollout. */
  headMinutes = new Float32Array(0);
  private pending = new Int32Array(0);
  private curve: number[] = [];

  constructor(budget: number) {
    this.budget = budget;
  }

  reset(env: SprintEnv): void {
    const { B, N } = env;
    if (!(this.budget >= 1)) throw new RangeError('the CEO budget must be at least 1 agent-minute');
    if (this.spent.length !== B) {
      this.spent = new Float32Array(B);
      this.head = new Int32Array(B);
      this.hires = new Float32Array(B);
      this.fires = new Float32Array(B);
      this.headMinutes = new Float32Array(B);
      this.pending = new Int32Array(B);
    }
    this.spent.fill(0);
    this.head.fill(1);
    this.hires.fill(0);
    this.fires.fill(0);
    this.headMinutes.fill(0);
    this.pending.fill(-1);
    this.curve = [];
    env.active.fill(0);
    for (let b = 0; b < B; b++) env.active[b * N] = 1;
  }

  /** Whether agent 0 of rollout b may hire now (an inactive agent exists and the budget allows it). */
  canHire(env: SprintEnv, b: number): boolean {
    const h = this.head[b];
    return h < env.N && this.budget - this.spent[b] - h >= h + 1;
  }

  /** Minutes the rest of rollout b's budget pays for at its current head count. */
  budgetMinutes(b: number): number {
    return Math.floor((this.budget - this.spent[b]) / Math.max(1, this.head[b]));
  }

  act(env: SprintEnv, b: number, i: number, a: number, logging: boolean): boolean {
    if (i !== 0 || a < A_DM || a >= A_POST) return false;
    const j = a - A_DM;
    if (j <= 0 || j >= env.N) return false;
    const active = env.active[b * env.N + j] === 1;
    if (!active && !this.canHire(env, b)) return false;
    this.pending[b] = j;
    if (active) this.fires[b]++;
    else this.hires[b]++;
    if (logging) env.log(b, env.t, 0, active ? 'fire' : 'hire', -1, j, true);
    return true;
  }

  afterStep(env: SprintEnv): void {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      if (!playedLastMinute(env, b)) continue;
      const h = this.head[b];
      this.spent[b] += h;
      this.headMinutes[b] += h;
      if (b === env.logRollout) this.curve.push(h);
      const j = this.pending[b];
      if (j >= 0) {
        this.pending[b] = -1;
        const aj = b * N + j;
        if (env.active[aj]) {
          env.active[aj] = 0;
          this.head[b]--;
          for (let k = 0; k < MAX_MODULES; k++) if (env.claim[b * MAX_MODULES + k] === j) env.claim[b * MAX_MODULES + k] = -1;
        } else {
          env.active[aj] = 1;
          this.head[b]++;
        }
      }
      if (!env.finished[b] && this.budget - this.spent[b] < this.head[b]) {
        env.finished[b] = 1;
        env.tEnd[b] = env.t;
      }
    }
  }

  mask(env: SprintEnv, b: number, i: number, out: Float32Array, base: number): void {
    if (i !== 0) return;
    const hire = this.canHire(env, b) ? 1 : 0;
    for (let j = 1; j < env.N; j++) if (!env.active[b * env.N + j]) out[base + A_DM + j] = hire;
  }

  observe(env: SprintEnv, out: Float32Array, offset: number): void {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      const v = this.minutesLeftFeature(env, b);
      for (let i = 0; i < N; i++) out[offset + (b * N + i) * OBS_DIM + G_MINUTES_LEFT] = v;
    }
  }

  observeShared(env: SprintEnv, out: Float32Array, offset: number, stride: number): void {
    for (let b = 0; b < env.B; b++) out[offset + b * stride + G_MINUTES_LEFT] = this.minutesLeftFeature(env, b);
  }

  /** The 'minutes left/30' feature of rollout b: the minutes to the deadline or those the budget pays for, the fewer. */
  private minutesLeftFeature(env: SprintEnv, b: number): number {
    return Math.min(env.tmax - env.t, this.budgetMinutes(b)) / 30;
  }

  summary(env: SprintEnv, b: number): Record<string, number> {
    return {
      headCount: this.headMinutes[b] / Math.max(1, env.tEnd[b]),
      budgetSpent: this.spent[b],
      hires: this.hires[b],
      fires: this.fires[b],
    };
  }

  headCurve(): number[] {
    return this.curve.slice();
  }
}

/**
 * A scripted CEO for the imitation prior and as a reference: agent 0 hires one agent a minute while
 * the budget can pay the enlarged team up to the deadline, never fires, and otherwise acts like the
 * scripted organisation (its DMs, which would fire someone, become posts). While it hires, the
 * others plan as if it were away, so nothing it would have claimed stays reserved for it.
 * Needs `CeoRules` on the env.
 */
export const scriptedCeo: ActionSource = {
  name: 'scripted CEO',
  act(env, out) {
    const rules = env.rules;
    if (!(rules instanceof CeoRules)) {
      scriptedOrganisation.act(env, out);
      return;
    }
    const { B, N } = env;
    const hire = new Int32Array(B).fill(-1);
    for (let b = 0; b < B; b++) {
      if (env.finished[b]) continue;
      const h = rules.head[b];
      let inactive = -1;
      for (let j = N - 1; j >= 1; j--) if (!env.active[b * N + j]) inactive = j;
      if (inactive > 0 && rules.canHire(env, b) && rules.budget - rules.spent[b] - h >= (h + 1) * (env.tmax - env.t - 1)) {
        hire[b] = inactive;
        env.active[b * N] = 0;
      }
    }
    scriptedOrganisation.act(env, out);
    for (let b = 0; b < B; b++) {
      if (hire[b] > 0) {
        env.active[b * N] = 1;
        out[b * N] = A_DM + hire[b];
      } else if (out[b * N] >= A_DM && out[b * N] < A_POST) out[b * N] = A_POST;
    }
    obeyChannels(env, out);
  },
};
