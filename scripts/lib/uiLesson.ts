/**
 * The pure part of `npm run bench:ui -- --lesson`: which lesson steps train when they are opened,
 * the config each trains (as `npm run lesson:check` derives it: the step's setup on top of the
 * defaults), the drag its claims assume, and the update by which the page has shown everything the
 * step's claims measure.
 */
import { LESSON_CONTENT, type LessonContent } from '../../src/core/lesson';
import { windowUpdates, type LessonDrag, type LessonMeasure } from '../../src/core/lessonClaims';
import { defaultConfig, type Config } from '../../src/rl/config';

/** Whether opening `step` trains: a live step that starts at once ('train') or runs one update ('step'). */
export function trainsWhenOpened(step: LessonContent): step is LessonContent & { setup: { kind: 'live'; run: 'train' | 'step' } } {
  return step.setup.kind === 'live' && (step.setup.run === 'train' || step.setup.run === 'step');
}

/** The numbers (1-based) of the steps that train when opened, in lesson order. */
export function liveSteps(content: readonly LessonContent[] = LESSON_CONTENT): number[] {
  return content.flatMap((s, i) => (trainsWhenOpened(s) ? [i + 1] : []));
}

/** What a live step trains in the page. */
export interface StepRun {
  run: 'train' | 'step';
  /** The step's settings on top of the defaults, with the page's seed (as the lesson controller and lesson:check's `stepConfig` make them). */
  config: Config;
  /** The updates the page runs of it: all of them (prior + updates) for 'train', 1 for 'step'. */
  updates: number;
}

/** The run `step` trains when opened, with the page's `seed` (1 unless the link sets one). */
export function stepRun(step: LessonContent, seed = 1): StepRun {
  if (!trainsWhenOpened(step)) throw new Error(`step "${step.id}" does not train when it is opened`);
  const config: Config = { ...defaultConfig(), ...step.setup.config, seed };
  return { run: step.setup.run, config, updates: step.setup.run === 'step' ? 1 : config.prior + config.updates };
}

/** A config in a line: "coupled, 4 agents, 300 updates, 2 x 4 rollouts, deadline 8 -> 24 min". */
export function describeRun(r: StepRun): string {
  const c = r.config;
  const updates = r.run === 'step' ? `1 of ${c.prior + c.updates} updates` : `${c.prior ? `${c.prior} imitation + ` : ''}${c.updates} updates`;
  return `${c.family}, ${c.agents} agents, ${updates}, ${c.tasksPerUpdate} x ${c.groupSize} rollouts, deadline ${c.tmaxStart} -> ${c.tmaxEnd} min`;
}

/**
 * The last update a measure needs the page to have shown, in a run of `total` updates with `prior`
 * imitation updates: a window's end (training, reference lines), or the whole run (an evaluation or a
 * race of the trained swarm, the update a line overtakes another).
 */
export function measureUpdate(m: LessonMeasure, total: number, prior: number): number {
  switch (m.of) {
    case 'training':
    case 'reference':
      return windowUpdates(m.window, total, Math.min(prior, total))[1];
    case 'overtakes':
    case 'evaluation':
    case 'race':
      return total;
  }
}

/** The update by which the page has shown everything a step's claims measure, and the claim that needs it (the first of those that need the most). */
export interface NeededUpdate {
  update: number;
  /** The claim's words. */
  says: string;
}

/** The largest update over `step`'s claims (their measures and the measures they compare with) of the run the page trains. */
export function neededUpdate(step: LessonContent, seed = 1): NeededUpdate {
  const r = stepRun(step, seed);
  let best: NeededUpdate | null = null;
  for (const claim of step.claims) {
    for (const m of typeof claim.than === 'number' ? [claim.measure] : [claim.measure, claim.than]) {
      // A variant is another run (the class switches it on and presses Train): its own length.
      const c = m.variant ? { ...r.config, ...m.variant } : r.config;
      const total = r.run === 'step' ? 1 : c.prior + c.updates;
      const u = measureUpdate(m, total, c.prior);
      if (!best || u > best.update) best = { update: u, says: claim.says };
    }
  }
  if (!best) throw new Error(`step "${step.id}" makes no claim`);
  return best;
}

/** The slider change the step's claims assume the class makes while it trains (null: none); the claims must agree on it. */
export function stepDrag(step: LessonContent): LessonDrag | null {
  const drags = step.claims.flatMap((c) => [c.measure.drag, typeof c.than === 'number' ? undefined : c.than.drag]).filter((d): d is LessonDrag => !!d);
  const key = (d: LessonDrag) => JSON.stringify([d.at, Object.entries(d.patch).sort()]);
  const keys = new Set(drags.map(key));
  if (keys.size > 1) throw new Error(`step "${step.id}": its claims assume different drags (${[...keys].join(', ')})`);
  return drags[0] ?? null;
}
