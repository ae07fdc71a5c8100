import type { SprintEnv } from './env';

/** Anything that picks every agent's action for one minute: scripted organisations, a trained policy. */
export interface ActionSource {
  /** Display name, e.g. "single chain". */
  readonly name: string;
  /** Called after `env.reset`, before the first minute. */
  reset?(env: SprintEnv): void;
  /** Writes an action for every agent of every rollout into `out` ([B * N]). */
  act(env: SprintEnv, out: Int32Array): void | Promise<void>;
}
