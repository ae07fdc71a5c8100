import { A_DM, A_IDLE, A_POST, A_READ, claim, work } from './actions';
import { obeyChannels } from './obeyChannels';
import { playedLastMinute, popcount, type SprintEnv, type StructureRules } from './env';
import { handoffRecipients } from './baselines';
import type { ActionSource } from './actionSource';
import { MAX_MODULES } from './task';

/**
 * The orchestrator structure (Kimi Agent Swarm): agent 0 is the orchestrator, the only agent whose
 * decisions are trained; agents 1..N-1 are workers that run a frozen policy.
 * - `assign k to j`: the orchestrator claims module k (`claim k`), then `dm j` hands the claim of
 *   the lowest-numbered unfinished module it holds to worker j, together with every interface it
 *   knows (a DM). Without a claim in hand, its DM is a plain DM. Logged as `assign`.
 * - Workers act on their assignments (the scripted worker, `scriptedWorkers`) or play a frozen
 *   snapshot of the policy (in rl/).
 * - Latency is counted in critical steps (`criticalSteps`): per stage, the orchestrator's steps plus
 *   the slowest worker's steps.
 */

const MM = MAX_MODULES;

/**
 * Critical steps of a trace. Minute t is one step of the orchestrator if `orchestrator[t]` is
 * non-zero (it did something other than idle), and one step of worker w if `workers[w][t]` is.
 * `assigns[t]` is non-zero in minutes the orchestrator assigned work. The assignment minutes cut the
 * episode into stages: a stage runs up to and including a run of consecutive assignment minutes
 * (one round of spawning), the next starts after it, the last ends with the episode. Every
 * orchestrator step counts (it is sequential); of the workers, only the slowest one per stage:
 *   critical = sum over stages of (orchestrator steps in the stage + max over workers of steps in the stage).
 */
export function criticalSteps(orchestrator: ArrayLike<number>, workers: readonly ArrayLike<number>[], assigns: ArrayLike<number>): number {
  const T = orchestrator.length;
  const stage = new Array<number>(workers.length).fill(0);
  let total = 0;
  let prevAssign = false;
  const close = () => {
    total += stage.length ? Math.max(...stage) : 0;
    stage.fill(0);
  };
  for (let t = 0; t < T; t++) {
    const assign = assigns[t] !== 0;
    if (prevAssign && !assign) close();
    for (let w = 0; w < workers.length; w++) if (workers[w][t]) stage[w]++;
    if (orchestrator[t]) total++;
    prevAssign = assign;
  }
  close();
  return total;
}

/**
 * Environment rules of the orchestrator: assignments ride on the orchestrator's DMs, and critical
 * steps, assignments, the workers used and the assigned modules finished are counted per rollout
 * (the same stage rule as `criticalSteps`, kept up online).
 */
export class OrchestratorRules implements StructureRules {
  readonly kind = 'orchestrator' as const;
  /** Assignments per rollout. */
  assigns = new Float32Array(0);
  /** Bitmask of workers that got at least one assignment, per rollout. */
  workersUsed = new Int32Array(0);
  /** Bitmask of modules assigned, per rollout. */
  assigned = new Int32Array(0);
  private total = new Float32Array(0);
  private stage = new Float32Array(0);
  private prevAssign = new Uint8Array(0);
  private assignedNow = new Uint8Array(0);

  reset(env: SprintEnv): void {
    const { B, N } = env;
    if (this.assigns.length !== B || this.stage.length !== B * N) {
      this.assigns = new Float32Array(B);
      this.workersUsed = new Int32Array(B);
      this.assigned = new Int32Array(B);
      this.total = new Float32Array(B);
      this.stage = new Float32Array(B * N);
      this.prevAssign = new Uint8Array(B);
      this.assignedNow = new Uint8Array(B);
    }
    this.assigns.fill(0);
    this.workersUsed.fill(0);
    this.assigned.fill(0);
    this.total.fill(0);
    this.stage.fill(0);
    this.prevAssign.fill(0);
    this.assignedNow.fill(0);
  }

  /** The lowest-numbered unfinished module the orchestrator of rollout b holds a claim on, or -1. */
  heldModule(env: SprintEnv, b: number): number {
    const done = env.done[b];
    for (let k = 0; k < env.M[b]; k++) if (env.claim[b * MM + k] === 0 && ((done >>> k) & 1) === 0) return k;
    return -1;
  }

  assignWith(env: SprintEnv, b: number, i: number, j: number): number {
    if (i !== 0) return -1;
    const k = this.heldModule(env, b);
    if (k < 0) return -1;
    env.claim[b * MM + k] = j;
    this.assigns[b]++;
    this.workersUsed[b] |= 1 << j;
    this.assigned[b] |= 1 << k;
    this.assignedNow[b] = 1;
    return k;
  }

  afterStep(env: SprintEnv): void {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      if (!playedLastMinute(env, b)) continue;
      const ao = b * N;
      if (this.prevAssign[b] && !this.assignedNow[b]) this.closeStage(b, N);
      for (let i = 1; i < N; i++) if (env.active[ao + i] && env.lastAction[ao + i] !== A_IDLE) this.stage[ao + i]++;
      if (env.lastAction[ao] !== A_IDLE) this.total[b]++;
      this.prevAssign[b] = this.assignedNow[b];
      this.assignedNow[b] = 0;
    }
  }

  private closeStage(b: number, N: number): void {
    let max = 0;
    for (let i = 1; i < N; i++) max = Math.max(max, this.stage[b * N + i]);
    this.total[b] += max;
    this.stage.fill(0, b * N, (b + 1) * N);
  }

  /** Critical steps of rollout b so far (the open stage counts its slowest worker). */
  criticalSteps(env: SprintEnv, b: number): number {
    let max = 0;
    for (let i = 1; i < env.N; i++) max = Math.max(max, this.stage[b * env.N + i]);
    return this.total[b] + max;
  }

  /** Share of the workers that got at least one assignment in rollout b (the parallel-work signal). */
  parallelShare(env: SprintEnv, b: number): number {
    return env.N > 1 ? popcount(this.workersUsed[b]) / (env.N - 1) : 0;
  }

  /** Share of the modules assigned in rollout b that are finished (the finishing signal); 0 if none. */
  finishShare(env: SprintEnv, b: number): number {
    const n = popcount(this.assigned[b]);
    return n > 0 ? popcount(this.assigned[b] & env.done[b]) / n : 0;
  }

  summary(env: SprintEnv, b: number): Record<string, number> {
    return {
      criticalSteps: this.criticalSteps(env, b),
      assigns: this.assigns[b],
      parallelShare: this.parallelShare(env, b),
      finishShare: this.finishShare(env, b),
    };
  }
}

function knowsNeeded(env: SprintEnv, b: number, i: number, k: number): boolean {
  const d = env.dep[b * MM + k];
  return d < 0 || ((env.known[b * env.N + i] >>> d) & 1) === 1;
}

/**
 * The scripted worker: a frozen policy for agents 1..N-1 that acts on assignments. Each minute a
 * worker, in order of priority:
 * 1. hands over an interface it holds that the claimer of an unfinished dependent lacks (a DM; a
 *    post on the board for three or more claimers);
 * 2. works on its assigned (claimed) module if it can;
 * 3. reads the board if it holds the interface its assigned module needs;
 * 4. otherwise idles (waits for an assignment). It never claims on its own.
 * Agent 0's action is left idle (the orchestrator's comes from elsewhere).
 */
export const scriptedWorkers: ActionSource = {
  name: 'scripted workers',
  act(env, out) {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      const o = b * MM;
      const M = env.M[b];
      const done = env.done[b];
      out[b * N] = A_IDLE;
      for (let i = 1; i < N; i++) {
        const ai = b * N + i;
        out[ai] = A_IDLE;
        if (env.finished[b] || !env.active[ai]) continue;
        const known = env.known[ai];
        const { first, count: recipients } = handoffRecipients(env, b, i);
        const boardHas = (env.board[b] & known) === known;
        if (recipients >= 3 && !boardHas) {
          out[ai] = A_POST;
          continue;
        }
        if (recipients > 0) {
          out[ai] = A_DM + first;
          continue;
        }
        let mine = -1;
        for (let k = 0; k < M; k++) if (env.claim[o + k] === i && ((done >>> k) & 1) === 0) mine = mine < 0 ? k : mine;
        if (mine < 0) continue;
        if (knowsNeeded(env, b, i, mine)) out[ai] = work(mine);
        else if ((env.board[b] >>> env.dep[o + mine]) & 1) out[ai] = A_READ;
      }
    }
    obeyChannels(env, out);
  },
};

/**
 * A scripted orchestrator for the imitation prior and as a reference: with a claimed module in
 * hand and a free worker (one without an unfinished claim), it assigns the module to the lowest
 * free worker; with a free worker and nothing in hand, it claims the open module with the most
 * unfinished dependents whose prerequisite is finished (or under way), most work first; otherwise
 * it idles. It never works itself. Only agent 0's action is written.
 */
export const scriptedOrchestrator: ActionSource = {
  name: 'scripted orchestrator',
  act(env, out) {
    const { B, N } = env;
    for (let b = 0; b < B; b++) {
      const o = b * MM;
      const M = env.M[b];
      const done = env.done[b];
      out[b * N] = A_IDLE;
      if (env.finished[b]) continue;
      let busy = 0;
      let taken = 0;
      let held = -1;
      for (let k = 0; k < M; k++) {
        const j = env.claim[o + k];
        if (j < 0) continue;
        taken |= 1 << k;
        if (((done >>> k) & 1) === 0) busy |= 1 << j;
        if (j === 0 && ((done >>> k) & 1) === 0 && held < 0) held = k;
      }
      let free = -1;
      for (let j = 1; j < N && free < 0; j++) if (env.active[b * N + j] && ((busy >>> j) & 1) === 0) free = j;
      if (free < 0) continue;
      if (held >= 0) {
        out[b * N] = A_DM + free;
        continue;
      }
      let best = -1;
      let bestScore = -Infinity;
      for (let k = 0; k < M; k++) {
        if (((done >>> k) & 1) === 1 || ((taken >>> k) & 1) === 1) continue;
        const d = env.dep[o + k];
        const ready = d < 0 || ((done >>> d) & 1) === 1;
        if (!ready && ((taken >>> d) & 1) === 0) continue;
        let dependents = 0;
        for (let m = 0; m < M; m++) if (env.dep[o + m] === k && ((done >>> m) & 1) === 0) dependents++;
        const left = env.luck[o + k] > 0 ? 1 / env.luck[o + k] : env.left[o + k];
        const score = (ready ? 1000 : 0) + 10 * dependents + left;
        if (score > bestScore) {
          bestScore = score;
          best = k;
        }
      }
      if (best >= 0) out[b * N] = claim(best);
    }
    obeyChannels(env, out);
  },
};

/**
 * Combines the orchestrator's action source (agent 0) with the workers' (agents 1..N-1) into one
 * source for the whole swarm.
 */
export function orchestrated(lead: ActionSource, workers: ActionSource): ActionSource {
  let scratch = new Int32Array(0);
  return {
    name: lead.name,
    reset(env) {
      lead.reset?.(env);
      workers.reset?.(env);
      scratch = new Int32Array(env.B * env.N);
    },
    async act(env, out) {
      await lead.act(env, out);
      await workers.act(env, scratch);
      overrideWorkers(env, out, scratch);
    },
  };
}

/** Copies the workers' actions (agents 1..N-1 of every rollout) from `from` into `out`. */
export function overrideWorkers(env: SprintEnv, out: Int32Array, from: Int32Array): void {
  const { B, N } = env;
  for (let b = 0; b < B; b++) out.set(from.subarray(b * N + 1, (b + 1) * N), b * N + 1);
}
