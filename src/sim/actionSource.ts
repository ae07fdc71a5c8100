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

/** Watches the minutes a source plays without changing them (the audits: pileAudit, pathAudit, talkAudit). */
export interface MinuteObserver {
  /** Called after `env.reset`, before the first minute. */
  begin?(env: SprintEnv): void;
  /** Called every minute with the actions the environment is about to step. */
  minute(env: SprintEnv, actions: Int32Array): void;
}

/** `source` playing as before, every minute it picks shown to `observers`, in order, before it is stepped. */
export function observedSource(source: ActionSource, ...observers: MinuteObserver[]): ActionSource {
  return {
    name: source.name,
    reset: (env) => {
      source.reset?.(env);
      for (const o of observers) o.begin?.(env);
    },
    act: async (env, out) => {
      await source.act(env, out);
      for (const o of observers) o.minute(env, out);
    },
  };
}
