/** The speed benchmark's environment part: agent-steps per second of the simulator, with and without the observation encoding, and the actor's input per minute. */
import { defaultConfig } from '../../../src/rl/config';
import { packDecisions, packSharedDecisions } from '../../../src/rl/decisions';
import { randomPolicy } from '../../../src/sim/baselines';
import { SprintEnv } from '../../../src/sim/env';
import { NUM_ACTIONS } from '../../../src/sim/actions';
import { encodeMasks, encodeObservations, OBS_DIM } from '../../../src/sim/observe';
import { encodeObservationsReference } from '../../../src/sim/observeReference';
import { encodeSharedObservations, SharedObservations } from '../../../src/sim/observeShared';
import { generateTask, type Family } from '../../../src/sim/task';
import { median, summarise, type Summary } from '../stats';
import { DEADLINE, f, progress, range, table, type Plan } from './plan';

/** Rollouts stepped together in the environment benchmark. */
const ENV_ROLLOUTS = 256;
/** Seed of the environment benchmark's tasks, work draws and random actions. */
const ENV_SEED = 1;
// ---------------------------------------------------------------------------------------------
// 1. Environment throughput

/** Throughput of one environment variant over the measured repetitions. */
interface EnvVariant {
  episodesPerRep: number;
  /** Milliseconds per simulated minute of each repetition, in order. */
  perRepMs: number[];
  /** Agent-steps (one agent acting for one minute) per second, per repetition. */
  agentStepsPerSec: Summary;
  /** Milliseconds per simulated minute of all B x N agents, per repetition. */
  msPerMinute: Summary;
}

interface EnvResult {
  family: Family;
  agents: number;
  rollouts: number;
  deadline: number;
  /** Minutes each episode plays (the deadline unless every rollout finishes first). */
  minutes: number;
  /** Rollouts that passed all their tests before the deadline under the random actions. */
  finishedRollouts: number;
  withObservations: EnvVariant;
  /** The same with the plain per-feature encoder used until 2026-12-01 (observeReference.ts), timed beside it. */
  withReferenceObservations: EnvVariant;
  /**
   * The step plus the shared-block encoder training stores (observeShared.ts): per rollout the shared
   * block once, per agent its own features; no dense row.
   */
  withSharedObservations: EnvVariant;
  stepOnly: EnvVariant;
  /**
   * The step plus nothing but one copy of a fixed OBS_DIM row per agent into the same slices: the
   * floor any encoder that writes a dense row per agent pays (the batch layout's cost, not the
   * encoder's).
   */
  copyFloor: EnvVariant;
  /** What the actor pays per minute to turn the environment into the policy's input, dense vs shared. */
  actorMinute: ActorMinute;
}

/**
 * Milliseconds per minute (all B x N agents) of encoding the observations and packing the actor's
 * decision rows (`packDecisions` of the dense rows, or `packSharedDecisions` of the shared blocks),
 * timed around those two calls only (the step and the legal-action masks, the same for both, are
 * outside), the two paths taking turns episode by episode.
 */
interface ActorMinute {
  episodesPerRep: number;
  dense: Summary;
  shared: Summary;
  /** Median over repetitions of dense / shared. */
  speedup: number;
}

/** A row per agent copied from one fixed row: the memory traffic of a dense observation, nothing else. */
const floorRow = new Float32Array(OBS_DIM).fill(0.5);
function copyRowPerAgent(env: SprintEnv, out: Float32Array, offset = 0): void {
  const R = env.B * env.N;
  for (let r = 0; r < R; r++) out.set(floorRow, offset + r * OBS_DIM);
}

/**
 * Steps the default preset (the default config's family and team size, ENV_ROLLOUTS rollouts,
 * DEADLINE minutes) with actions the random policy chose beforehand. Every episode replays the same
 * seed, so it follows exactly the recorded trajectory and every repetition does the same work.
 * With observations, each minute is encoded into its own slice of one batch-sized buffer before the
 * step, as rollout collection does (legal-action masks are not encoded).
 */
export function benchEnv(plan: Plan): EnvResult {
  const { family, agents } = defaultConfig();
  const B = ENV_ROLLOUTS;
  const tasks = Array.from({ length: B }, (_, b) => generateTask(family, b));
  const env = new SprintEnv(B, agents);

  const policy = randomPolicy(ENV_SEED);
  env.reset(tasks, ENV_SEED, DEADLINE);
  policy.reset?.(env);
  const actions: Int32Array[] = [];
  while (!env.isOver()) {
    const a = new Int32Array(B * agents);
    policy.act(env, a);
    env.step(a);
    actions.push(a);
  }
  let finishedRollouts = 0;
  for (let b = 0; b < B; b++) finishedRollouts += env.finished[b];
  const minutes = actions.length;
  const R = B * agents;
  const obs = new Float32Array(minutes * R * OBS_DIM);
  const shared = new SharedObservations(minutes * B, agents);

  /** Encodes minute t of the episode into its own slice of the batch-sized buffers. */
  type Encoder = ((env: SprintEnv, t: number) => void) | null;
  const dense =
    (encode: typeof encodeObservations): Encoder =>
    (e, t) =>
      encode(e, obs, t * R * OBS_DIM);
  const episodes = (count: number, encode: Encoder): number => {
    const t0 = performance.now();
    for (let e = 0; e < count; e++) {
      env.reset(tasks, ENV_SEED, DEADLINE);
      for (let t = 0; t < minutes; t++) {
        if (encode) encode(env, t);
        env.step(actions[t]);
      }
    }
    return performance.now() - t0;
  };

  // The variants take turns repetition by repetition, so a busy machine slows them alike and their
  // ratio stays meaningful.
  const encoders: Encoder[] = [
    dense(encodeObservations),
    dense(encodeObservationsReference),
    (e, t) => encodeSharedObservations(e, shared, t * B),
    null,
    dense(copyRowPerAgent),
  ];
  progress('environment: calibrating');
  const perRep = encoders.map((encode) => {
    episodes(3, encode);
    const perEpisode = episodes(3, encode) / 3;
    return Math.max(1, Math.round(plan.envRepMs / perEpisode));
  });
  for (let r = 0; r < plan.envWarmup; r++) encoders.forEach((encode, v) => episodes(perRep[v], encode));
  const rate = encoders.map((): number[] => []);
  const perMinute = encoders.map((): number[] => []);
  for (let r = 0; r < plan.envReps; r++) {
    progress(`environment: repetition ${r + 1}/${plan.envReps}`);
    encoders.forEach((encode, v) => {
      const ms = episodes(perRep[v], encode);
      rate[v].push((perRep[v] * minutes * R) / (ms / 1000));
      perMinute[v].push(ms / (perRep[v] * minutes));
    });
  }
  const [withObservations, withReferenceObservations, withSharedObservations, stepOnly, copyFloor] = encoders.map((_, v): EnvVariant => ({
    episodesPerRep: perRep[v],
    perRepMs: perMinute[v],
    agentStepsPerSec: summarise(rate[v]),
    msPerMinute: summarise(perMinute[v]),
  }));
  const actorMinute = benchActorMinute(plan, env, tasks, actions, obs, shared);
  return {
    family,
    agents,
    rollouts: B,
    deadline: DEADLINE,
    minutes,
    finishedRollouts,
    withObservations,
    withReferenceObservations,
    withSharedObservations,
    stepOnly,
    copyFloor,
    actorMinute,
  };
}

/**
 * Repetitions of the actor's per-minute input, taking turns between the dense and the shared path.
 * As rollout collection does, each minute is encoded into its own slice of the batch-sized buffers
 * (`obs`, `shared`) and the actor's rows are packed from that slice.
 */
function benchActorMinute(
  plan: Plan,
  env: SprintEnv,
  tasks: ReturnType<typeof generateTask>[],
  actions: Int32Array[],
  obs: Float32Array,
  shared: SharedObservations,
): ActorMinute {
  const { B, N } = env;
  const R = B * N;
  const minutes = actions.length;
  let M = 1;
  for (const task of tasks) M = Math.max(M, task.modules);
  // The masks of every minute, made once: both paths pack the same.
  const masks: Float32Array[] = [];
  env.reset(tasks, ENV_SEED, DEADLINE);
  for (let t = 0; t < minutes; t++) {
    const mask = new Float32Array(R * NUM_ACTIONS);
    encodeMasks(env, mask);
    masks.push(mask);
    env.step(actions[t]);
  }
  let sink = 0;
  /** Milliseconds of encode + pack per minute over `count` episodes. */
  const episodes = (count: number, useShared: boolean): number => {
    let ms = 0;
    for (let e = 0; e < count; e++) {
      env.reset(tasks, ENV_SEED, DEADLINE);
      for (let t = 0; t < minutes; t++) {
        const t0 = performance.now();
        let rows;
        if (useShared) {
          encodeSharedObservations(env, shared, t * B);
          rows = packSharedDecisions(shared.view(t * B, B), masks[t], R, M, N);
        } else {
          const minute = obs.subarray(t * R * OBS_DIM, (t + 1) * R * OBS_DIM);
          encodeObservations(env, minute);
          rows = packDecisions(minute, masks[t], R, M, N);
        }
        ms += performance.now() - t0;
        sink += rows.trunk[t];
        env.step(actions[t]);
      }
    }
    return ms / (count * minutes);
  };
  progress('actor input: calibrating');
  episodes(1, false);
  episodes(1, true);
  const perEpisode = (episodes(1, false) + episodes(1, true)) * minutes;
  const count = Math.max(1, Math.round(plan.envRepMs / perEpisode));
  const dense: number[] = [];
  const sharedMs: number[] = [];
  for (let r = 0; r < plan.envWarmup + plan.envReps; r++) {
    const d = episodes(count, false);
    const s = episodes(count, true);
    if (r < plan.envWarmup) continue;
    dense.push(d);
    sharedMs.push(s);
  }
  if (!Number.isFinite(sink)) throw new Error('packed rows are not finite');
  return { episodesPerRep: count, dense: summarise(dense), shared: summarise(sharedMs), speedup: median(dense.map((d, i) => d / sharedMs[i])) };
}

export function printEnv(r: EnvResult, plan: Plan): void {
  console.log(`\n1. Environment throughput (Node, one thread)`);
  console.log(
    `  preset: family ${r.family}, ${r.agents} agents, B=${r.rollouts} rollouts, deadline ${r.deadline}; ` +
      `random-policy actions pre-generated (policy cost not measured)`,
  );
  console.log(
    `  ${r.minutes} minutes per episode, ${r.finishedRollouts}/${r.rollouts} rollouts finished early; ` +
      `median of ${plan.envReps} repetitions after ${plan.envWarmup} warm-up, (min..max)`,
  );
  const row = (name: string, v: EnvVariant) => [name, String(v.episodesPerRep), range(v.agentStepsPerSec, 2, 1e-6), range(v.msPerMinute, 3)];
  table(
    ['variant', 'episodes/rep', 'M agent-steps/s', 'ms per minute (B x N agents)'],
    [
      row('step + encodeObservations (dense rows)', r.withObservations),
      row('step + reference encoder (before)', r.withReferenceObservations),
      row('step + encodeSharedObservations (shared blocks, training)', r.withSharedObservations),
      row('step only', r.stepOnly),
      row('step + copy of one row per agent', r.copyFloor),
    ],
  );
  const ratios = r.withReferenceObservations.perRepMs.map((ref, i) => ref / r.withObservations.perRepMs[i]);
  console.log(`  fast vs reference encoder, same repetitions: ${f(median(ratios), 2)}x the agent-steps per second (median of per-repetition ratios)`);
  const whole = r.withObservations.msPerMinute.median;
  const step = r.stepOnly.msPerMinute.median;
  console.log(
    `  split of one minute: env.step ${f(step, 3)} ms, encodeObservations ~${f(whole - step, 3)} ms (${f((100 * (whole - step)) / whole, 0)}% of the minute)`,
  );
  const copy = r.copyFloor.msPerMinute.median - step;
  console.log(
    `  floor of a dense observation: copying one ${OBS_DIM}-float row per agent takes ~${f(copy, 3)} ms a minute (${f((100 * copy) / (whole - step), 0)}% of the encoder's time)`,
  );
  const sharedRatios = r.withObservations.perRepMs.map((d, i) => d / r.withSharedObservations.perRepMs[i]);
  console.log(
    `  shared blocks: encodeSharedObservations ~${f(r.withSharedObservations.msPerMinute.median - step, 3)} ms a minute; ` +
      `step + shared blocks ${f(median(sharedRatios), 2)}x the agent-steps per second of step + dense rows (median of per-repetition ratios)`,
  );
  const a = r.actorMinute;
  console.log(
    `  the actor's input per minute (encode + pack the decision rows of all B x N agents, as collect does; masks not counted;` +
      ` ${a.episodesPerRep} episode(s) per path and repetition, taking turns):`,
  );
  console.log(
    `    dense rows + packDecisions ${range(a.dense, 3)} ms; shared blocks + packSharedDecisions ${range(a.shared, 3)} ms; ${f(a.speedup, 2)}x faster (median of per-repetition ratios)`,
  );
}
