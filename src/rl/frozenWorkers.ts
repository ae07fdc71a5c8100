import type { SprintEnv } from '../sim/env';
import type { SharedObservations } from '../sim/observeShared';
import { overrideWorkers, scriptedWorkers } from '../sim/orchestrator';
import type { ActionSource } from '../sim/actionSource';
import type { WorkerPolicy } from '../sim/structure';
import { PolicyActor } from './actor';
import { SwarmPolicy } from './policy';

/** What the orchestrator's workers play in an evaluation: the scripted worker or frozen weights. */
export type WorkerSpec = 'scripted' | SwarmPolicy;

/** An action source for workers of the given kind, sampling from `seed` for a snapshot. */
export function workerSource(spec: WorkerSpec, seed: number): ActionSource {
  return spec === 'scripted' ? scriptedWorkers : new PolicyActor(spec, seed);
}

/**
 * The orchestrator's workers (agents 1..N-1) during training: the scripted worker, or a frozen
 * snapshot of the shared policy taken before update `snapshotAt`. The snapshot is a separate copy of
 * the weights that no optimiser sees, so training the orchestrator leaves it unchanged. Until the
 * snapshot is taken the workers play the live policy and their decisions are trained like the
 * orchestrator's.
 */
export class FrozenWorkers {
  /** The frozen copy of the policy (snapshot workers, once taken). */
  snapshot: SwarmPolicy | null = null;
  private actor: PolicyActor | null = null;
  private scratch = new Int32Array(0);

  constructor(
    readonly kind: WorkerPolicy,
    readonly snapshotAt: number,
    private readonly live: SwarmPolicy,
  ) {}

  /**
   * Called before update `u`: takes the snapshot when it is due and sets the workers' sampling seed.
   * Returns true if the workers play a frozen policy in this update.
   */
  prepare(u: number, seed: number): boolean {
    if (this.kind === 'scripted') return true;
    if (!this.snapshot && u >= this.snapshotAt) {
      this.snapshot = SwarmPolicy.create(this.live.shape);
      this.snapshot.copyFrom(this.live);
      this.actor = new PolicyActor(this.snapshot, seed);
    }
    if (this.actor) this.actor.seed = seed;
    return this.snapshot !== null;
  }

  /** Called after `env.reset`, before the first minute. */
  reset(env: SprintEnv): void {
    this.scratch = new Int32Array(env.B * env.N);
    this.actor?.reset(env);
  }

  /** Overwrites the workers' actions in `out`, given the minute's encoded observations and masks. */
  async act(env: SprintEnv, obs: Float32Array | SharedObservations, mask: Float32Array, out: Int32Array): Promise<void> {
    if (this.actor) await this.actor.choose(env, obs, mask, this.scratch);
    else scriptedWorkers.act(env, this.scratch);
    overrideWorkers(env, out, this.scratch);
  }

  /** What the workers play in an evaluation: null while the live policy still plays them. */
  get spec(): WorkerSpec | null {
    return this.kind === 'scripted' ? 'scripted' : this.snapshot;
  }

  dispose(): void {
    this.snapshot?.dispose();
    this.snapshot = null;
    this.actor = null;
  }
}
