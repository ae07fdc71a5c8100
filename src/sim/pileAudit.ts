import { A_CLAIM, A_IDLE } from './actions';
import { observedSource, type ActionSource } from './actionSource';
import { COST_CONFLICT, type SprintEnv } from './env';
import { MAX_MODULES as MM } from './task';

/**
 * Where a team's duplicate work comes from, counted over every rollout of the episodes it audits
 * (sums, not means). A module-minute is one open module in one minute; "workable" means the agent
 * knows the interface the module needs (or it needs none), so a minute on it would count.
 */
export interface PileCounts {
  /** Open claimed module-minutes worked by the claimant alone. */
  ownerAlone: number;
  /** ... by the claimant and at least one other agent. */
  ownerWithOthers: number;
  /** ... by other agents while the claimant did something else. */
  othersWithoutOwner: number;
  /** ... by nobody, though the claimant could have worked it. */
  stalledWorkable: number;
  /** ... by nobody, the claimant lacking the interface the module needs. */
  stalledBlocked: number;
  /** Open unclaimed module-minutes worked by anybody. */
  unclaimedWorked: number;
  /**
   * Redundant agent-minutes: every agent on a module but one (the claimant if it is there), the
   * environment's duplicate work. Split below by what the redundant agent could have done instead.
   */
  redundant: number;
  /** It had claimed an open module it could have worked. */
  redundantOwnWorkable: number;
  /** It had claimed open modules, every one of them waiting for an interface it lacked. */
  redundantOwnBlocked: number;
  /** It had claimed nothing open, and an unclaimed module it could have worked was open. */
  redundantFreeWorkable: number;
  /** It had claimed nothing open, and no unclaimed module was open to it. */
  redundantNothing: number;
}

export function emptyPileCounts(): PileCounts {
  return {
    ownerAlone: 0,
    ownerWithOthers: 0,
    othersWithoutOwner: 0,
    stalledWorkable: 0,
    stalledBlocked: 0,
    unclaimedWorked: 0,
    redundant: 0,
    redundantOwnWorkable: 0,
    redundantOwnBlocked: 0,
    redundantFreeWorkable: 0,
    redundantNothing: 0,
  };
}

/** The module each agent's minute goes to in the rollout being audited (-1: none); grown as needed. */
let onModule = new Int32Array(0);

/**
 * Fills `onModule` with the module each agent of rollout `b` works in the minute about to be played
 * (-1: none): exactly the minutes the environment would count (active, effort left to draw, the
 * module open, its interface known at the start of the minute), the booked effort drawn in agent order.
 */
function minuteOnModules(env: SprintEnv, b: number, actions: Int32Array): void {
  const N = env.N;
  if (onModule.length < N) onModule = new Int32Array(N);
  const o = b * MM;
  const ao = b * N;
  const M = env.M[b];
  const done = env.done[b];
  let effort = env.effortLeft[b];
  for (let i = 0; i < N; i++) {
    onModule[i] = -1;
    const a = env.active[ao + i] ? actions[ao + i] : A_IDLE;
    if (a === A_IDLE) continue;
    if (effort >= 1) effort--;
    else continue;
    if (a >= A_CLAIM || a >= M || ((done >>> a) & 1) === 1) continue;
    const d = env.dep[o + a];
    if (d < 0 || ((env.known[ao + i] >>> d) & 1) === 1) onModule[i] = a;
  }
}

/**
 * Counts, for the minute about to be played, who works each open module of each rollout and what
 * each redundant agent could have done instead. `actions` are the ones the environment will step
 * with; an agent counts as working module k exactly when the environment would count its minute
 * (active, effort left to draw, k open, its interface known at the start of the minute). Flat
 * teams only: a structure's rules may rewrite actions before the environment sees them.
 */
export function auditMinute(env: SprintEnv, actions: Int32Array, into: PileCounts): void {
  if (env.rules !== null) throw new Error('the pile audit counts flat teams only (a structure rewrites actions)');
  const N = env.N;
  for (let b = 0; b < env.B; b++) {
    if (env.finished[b]) continue;
    const o = b * MM;
    const ao = b * N;
    const M = env.M[b];
    const done = env.done[b];
    const open = (k: number) => k < M && ((done >>> k) & 1) === 0;
    const canWork = (i: number, k: number) => {
      const d = env.dep[o + k];
      return d < 0 || ((env.known[ao + i] >>> d) & 1) === 1;
    };
    minuteOnModules(env, b, actions);
    for (let k = 0; k < M; k++) {
      if (!open(k)) continue;
      const owner = env.claim[o + k];
      let workers = 0;
      let ownerOn = false;
      for (let i = 0; i < N; i++) {
        if (onModule[i] !== k) continue;
        workers++;
        if (i === owner) ownerOn = true;
      }
      if (owner < 0) {
        if (workers > 0) into.unclaimedWorked++;
      } else if (ownerOn) {
        if (workers === 1) into.ownerAlone++;
        else into.ownerWithOthers++;
      } else if (workers > 0) into.othersWithoutOwner++;
      else if (canWork(owner, k)) into.stalledWorkable++;
      else into.stalledBlocked++;
      if (workers < 2) continue;
      // The one whose minute counts: the claimant if it is on the module, else the first agent on it.
      let kept = ownerOn ? owner : -1;
      for (let i = 0; i < N; i++) {
        if (onModule[i] !== k) continue;
        if (kept < 0) {
          kept = i;
          continue;
        }
        if (i === kept) continue;
        into.redundant++;
        let ownOpen = false;
        let ownWorkable = false;
        let freeWorkable = false;
        for (let m = 0; m < M; m++) {
          if (!open(m)) continue;
          const c = env.claim[o + m];
          if (c === i) {
            ownOpen = true;
            if (canWork(i, m)) ownWorkable = true;
          } else if (c < 0 && canWork(i, m)) freeWorkable = true;
        }
        if (ownWorkable) into.redundantOwnWorkable++;
        else if (ownOpen) into.redundantOwnBlocked++;
        else if (freeWorkable) into.redundantFreeWorkable++;
        else into.redundantNothing++;
      }
    }
  }
}

/** `source` playing as before, every minute it picks audited into `counts` (auditMinute). */
export function auditedSource(source: ActionSource, counts: PileCounts): ActionSource {
  return observedSource(source, { minute: (env, actions) => auditMinute(env, actions, counts) });
}

/**
 * `source` with its piles played as idle minutes: every minute, on each module that two or more
 * agents would work, the agent whose minute the environment counts keeps working it (the first in
 * agent order, who also learns the module's interface under the handoff rule; under the conflict
 * rule the claimant, when it is on the module) and the others idle instead. Played beside `source` on
 * the same tasks and sampling seed, the difference in return is what the team's return pays for the
 * piles. `turned.minutes` counts the agent-minutes turned into idle ones. Flat teams only.
 */
export function pilesIdled(source: ActionSource, turned: { minutes: number }): ActionSource {
  return {
    name: `${source.name}, piles idled`,
    reset: (env) => source.reset?.(env),
    act: async (env, out) => {
      await source.act(env, out);
      if (env.rules !== null) throw new Error('piles can be idled in flat teams only (a structure rewrites actions)');
      const N = env.N;
      for (let b = 0; b < env.B; b++) {
        if (env.finished[b]) continue;
        const conflictRule = (env.costFlags[b] & COST_CONFLICT) !== 0;
        // Again until no pile is left: under booked effort an idled agent draws none, so an agent
        // later in the order may now have effort to draw and work.
        for (let again = true; again;) {
          again = false;
          minuteOnModules(env, b, out);
          for (let k = 0; k < env.M[b]; k++) {
            const claimant = env.claim[b * MM + k];
            let kept = -1;
            let workers = 0;
            for (let i = 0; i < N; i++) {
              if (onModule[i] !== k) continue;
              workers++;
              if (kept < 0) kept = i;
            }
            if (workers < 2) continue;
            if (conflictRule && claimant >= 0 && onModule[claimant] === k) kept = claimant;
            for (let i = 0; i < N; i++) {
              if (onModule[i] !== k || i === kept) continue;
              out[b * N + i] = A_IDLE;
              turned.minutes++;
              again = true;
            }
          }
        }
      }
    },
  };
}
